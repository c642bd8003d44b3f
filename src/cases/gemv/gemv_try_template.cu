/* A starting point for `ladder try gemv FILE.cu`: the ladder's rung 0,
 * thread_per_row, written plainly. It compiles and passes; it is slow on
 * purpose.
 *
 *   ladder try gemv --template > mine.cu
 *   ladder try gemv mine.cu --quick
 *
 * The contract is in include/ladder_try.h: y (m) = A x, A m x n row-major
 * FP32, any m and n, rows not promised 16-byte aligned.
 *
 * One thread walks each row: at every step a warp's 32 loads land in 32
 * different rows, 32 sectors for 128 useful bytes. The rung to beat next
 * is rung 2, warp_per_row: a warp per row over 32 consecutive columns and a
 * shuffle sum, every load one 128-byte line (rung 1 changes A's layout,
 * which a caller of gemv rarely can). */
#include "ladder_try.h"

__global__ void gemv_thread_per_row(const float *a, const float *x, float *y, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += a[(size_t)i * n + j] * x[j];
    y[i] = sum;
}

void ladder_try_gemv(const float *a, const float *x, float *y, int m, int n, cudaStream_t stream)
{
    int threads = 256;
    gemv_thread_per_row<<<(m + threads - 1) / threads, threads, 0, stream>>>(a, x, y, m, n);
}
