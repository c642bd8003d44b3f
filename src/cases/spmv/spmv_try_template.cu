/* A starting point for `ladder try spmv FILE.cu`: the ladder's rung 0,
 * scalar, written plainly. It compiles and passes.
 *
 *   ladder try spmv --template > mine.cu
 *   ladder try spmv mine.cu --quick
 *   ladder try spmv mine.cu --matrix your.mtx   (a Matrix Market file)
 *
 * The contract is in include/ladder_try.h: y = A x, A in CSR (row_ptr,
 * col, val), FP32 values, rows empty or of any length.
 *
 * A thread per row: neighbouring threads read entries a whole row apart
 * (uncoalesced), and a warp waits for its longest row. The rung to beat
 * next is rung 1, vector: a warp per row reads the row's entries together
 * and sums them with shuffles; then rung 2, adaptive, balances short and
 * long rows (`ladder list spmv`). */
#include "ladder_try.h"

__global__ void spmv_scalar(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
                            float *y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float sum = 0.0f;
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e) sum += val[e] * x[col[e]];
    y[r] = sum;
}

void ladder_try_spmv(int rows, int cols, int nnz, const int *row_ptr, const int *col, const float *val,
                     const float *x, float *y, cudaStream_t stream)
{
    (void)cols, (void)nnz;
    int threads = 256;
    spmv_scalar<<<(rows + threads - 1) / threads, threads, 0, stream>>>(rows, row_ptr, col, val, x, y);
}
