/* A starting point for `ladder try gemv_t FILE.cu`: the ladder's rung 0,
 * thread_per_column, written plainly. It compiles and passes.
 *
 *   ladder try gemv_t --template > mine.cu
 *   ladder try gemv_t mine.cu --quick
 *
 * The contract is in include/ladder_try.h: y (n) = A^T x, A m x n row-major
 * FP32, any m and n; scratch has room for the partial sums of 64-row
 * chunks.
 *
 * Thread j walks down column j: a warp's loads are one line (coalesced) and
 * x[i] is a broadcast, but only n threads run, too few for a tall, narrow
 * A. The rung to beat next is rung 1, split_rows_two_pass: cut the rows
 * into chunks of 64, a block per chunk and 256 columns writing partial sums
 * to scratch, and a second kernel adding them up. */
#include "ladder_try.h"

__global__ void gemv_t_thread_per_column(const float *a, const float *x, float *y, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < m; ++i) sum += a[(size_t)i * n + j] * x[i];
    y[j] = sum;
}

void ladder_try_gemv_t(const float *a, const float *x, float *y, int m, int n, float *scratch,
                       size_t scratch_floats, cudaStream_t stream)
{
    (void)scratch, (void)scratch_floats; /* for the two-pass rungs */
    int threads = 256;
    gemv_t_thread_per_column<<<(n + threads - 1) / threads, threads, 0, stream>>>(a, x, y, m, n);
}
