/* A starting point for `ladder try hgemm FILE.cu`: plainer than the
 * ladder's rung 0, one thread per element of C on the CUDA cores, FP32
 * accumulation of the BF16 products. It compiles and passes; it is far from
 * the tensor-core rungs on purpose.
 *
 *   ladder try hgemm --template > mine.cu
 *   ladder try hgemm mine.cu --quick
 *
 * The contract is in include/ladder_try.h: C (m x n, FP32, row-major) =
 * A (m x k) B, with A and B^T given as BF16 rows ld elements apart (the
 * "TN" layout: both K-contiguous), any m, n, k.
 *
 * The rung to beat next is rung 0, wmma_global: a warp per 16x16 tile of C
 * with the WMMA API (nvcuda::wmma, #include <mma.h>), tensor cores fed from
 * global memory; then rung 1, wmma_shared, stages 128x128 tiles in shared
 * memory (`ladder list hgemm` tells every step, to Hopper's wgmma). */
#include "ladder_try.h"

__global__ void hgemm_cuda_cores(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int m, int n, int k,
                                 int ld)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    /* A grid holds 65535 blocks along y: taller products loop. */
    for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < m; i += gridDim.y * blockDim.y) {
        const __nv_bfloat16 *row = a + (size_t)i * ld, *column = b + (size_t)j * ld;
        float sum = 0.0f;
        for (int p = 0; p < k; ++p) sum += __bfloat162float(row[p]) * __bfloat162float(column[p]);
        c[(size_t)i * n + j] = sum;
    }
}

void ladder_try_hgemm(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int m, int n, int k, int ld,
                      cudaStream_t stream)
{
    dim3 block(32, 8);
    int row_blocks = (m + block.y - 1) / block.y;
    dim3 grid((n + block.x - 1) / block.x, row_blocks < 65535 ? row_blocks : 65535);
    hgemm_cuda_cores<<<grid, block, 0, stream>>>(a, b, c, m, n, k, ld);
}
