/* A starting point for `ladder try sgemm FILE.cu`: the ladder's first GPU
 * rung that takes every size (rung 3, naive), written plainly. It compiles
 * and passes; it is slow on purpose.
 *
 *   ladder try sgemm --template > mine.cu
 *   ladder try sgemm mine.cu --quick
 *
 * The contract is in include/ladder_try.h: C (m x n) = A (m x k) B (k x n),
 * row-major FP32, FP32 math (no TF32), any m, n, k.
 *
 * One thread per element of C, the warp's lanes along C's rows: a warp's
 * loads of A touch 32 rows (32 sectors) and its stores of C too. The rung
 * to beat next is rung 4, naive_coalesced: put the lanes along C's columns
 * (A becomes a broadcast, B and C one line per warp access); then rung 5,
 * tiled16, shares each loaded element among 16 threads through shared
 * memory (`ladder list sgemm` tells every step). */
#include "ladder_try.h"

__global__ void sgemm_naive(const float *a, const float *b, float *c, int m, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* lanes along rows: the slow way */
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n) return;
    float sum = 0.0f;
    for (int p = 0; p < k; ++p) sum += a[(size_t)i * k + p] * b[(size_t)p * n + j];
    c[(size_t)i * n + j] = sum;
}

void ladder_try_sgemm(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    dim3 block(32, 8);
    dim3 grid((m + block.x - 1) / block.x, (n + block.y - 1) / block.y);
    sgemm_naive<<<grid, block, 0, stream>>>(a, b, c, m, n, k);
}
