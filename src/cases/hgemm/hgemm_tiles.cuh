/* What the hgemm kernels of both objects (hgemm_kernels.cu, and the sm_90a
 * files) share: the swizzled k-tile, the mma.sync block
 * that multiplies it, and the bounded stores of C. */
#ifndef LADDER_HGEMM_TILES_CUH
#define LADDER_HGEMM_TILES_CUH

#include <cuda_bf16.h>
#include <stdint.h>

#include "hgemm.h"
#include "harness/hardware/tensor_ptx.cuh"

__host__ __device__ constexpr int hgemm_ceil_div(int x, int y)
{
    return (x + y - 1) / y;
}

/* A k-tile is 64 BF16 deep: each of its rows is one 128-byte line, 8
 * chunks of 16 bytes. */
constexpr int HGEMM_TILE_K = 64;
constexpr int HGEMM_ROW_BYTES = HGEMM_TILE_K * 2;

/* Where chunk `chunk` of row `row` of a k-tile lives: the 128-byte swizzle,
 * chunk ^ (row % 8), the layout the tensor copy engine writes with
 * CU_TENSOR_MAP_SWIZZLE_128B into a 1024-byte aligned tile. The 8 rows an
 * ldmatrix phase reads at one logical chunk then sit in 8 different 16-byte
 * bank groups: no bank conflicts, with no padding. */
__device__ __forceinline__ uint32_t swizzled_offset(int row, int chunk)
{
    return (uint32_t)(row * HGEMM_ROW_BYTES + ((chunk ^ (row & 7)) << 4));
}

/* The mma.sync block of rungs 3-5: a 128 x 128 tile of C, 8 warps as 2 x 4,
 * each warp 64 x 32 (4 m16 by 4 n8 tiles of mma.m16n8k16). */
struct mma_block {
    static constexpr int BM = 128, BN = 128, THREADS = 256;
    static constexpr int WARP_M = 64, WARP_N = 32, MI = WARP_M / 16, NI = WARP_N / 8;
    static constexpr int A_BYTES = BM * HGEMM_ROW_BYTES, B_BYTES = BN * HGEMM_ROW_BYTES;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
};

/* acc += the k-tile's A rows (a_tile: BM swizzled rows) times its B rows
 * (b_tile: BN rows of B^T), for this warp's 64 x 32. Per 16-deep step: 4
 * ldmatrix.x4 for A (one m16k16 fragment each), 2 for B (two n8 tiles
 * each), 16 MMAs. */
__device__ __forceinline__ void mma_block_multiply(float (&acc)[mma_block::MI][mma_block::NI][4], uint32_t a_tile,
                                                   uint32_t b_tile, int warp_row, int warp_col, int lane)
{
#pragma unroll
    for (int step = 0; step < HGEMM_TILE_K / 16; ++step) {
        uint32_t a[mma_block::MI][4], b[mma_block::NI / 2][4];
#pragma unroll
        for (int i = 0; i < mma_block::MI; ++i)
            ldmatrix_x4(a[i], a_tile + swizzled_offset(warp_row + 16 * i + (lane & 15), 2 * step + (lane >> 4)));
#pragma unroll
        for (int j = 0; j < mma_block::NI / 2; ++j)
            ldmatrix_x4(b[j], b_tile + swizzled_offset(warp_col + 16 * j + (lane & 7) + ((lane >> 4) << 3),
                                                       2 * step + ((lane >> 3) & 1)));
#pragma unroll
        for (int i = 0; i < mma_block::MI; ++i)
#pragma unroll
            for (int j = 0; j < mma_block::NI; ++j)
                mma_bf16_m16n8k16(acc[i][j], a[i], b[j / 2][2 * (j % 2)], b[j / 2][2 * (j % 2) + 1]);
    }
}

/* C[row][col] = v0 and C[row][col + 1] = v1, each where inside C: one
 * 8-byte store when both are and the pair is 8-byte aligned (n even). */
__device__ __forceinline__ void store_pair(float *__restrict__ c, int m, int n, int row, int col, float v0, float v1)
{
    if (row >= m) return;
    float *p = c + (size_t)row * n + col;
    if (col + 1 < n && n % 2 == 0) {
        *reinterpret_cast<float2 *>(p) = make_float2(v0, v1);
    } else {
        if (col < n) p[0] = v0;
        if (col + 1 < n) p[1] = v1;
    }
}

/* The warp's mma.sync accumulators into C: fragment (i, j) covers rows
 * row0 + 16 i + lane / 4 (+ 8), columns col0 + 8 j + 2 (lane % 4) (+ 1). */
__device__ __forceinline__ void mma_block_store(float *__restrict__ c, int m, int n, int row0, int col0,
                                                const float (&acc)[mma_block::MI][mma_block::NI][4], int lane)
{
#pragma unroll
    for (int i = 0; i < mma_block::MI; ++i)
#pragma unroll
        for (int j = 0; j < mma_block::NI; ++j) {
            int row = row0 + 16 * i + lane / 4, col = col0 + 8 * j + 2 * (lane % 4);
            store_pair(c, m, n, row, col, acc[i][j][0], acc[i][j][1]);
            store_pair(c, m, n, row + 8, col, acc[i][j][2], acc[i][j][3]);
        }
}

#endif
