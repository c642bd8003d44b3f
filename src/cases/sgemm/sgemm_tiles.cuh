/* What the SGEMM kernel files share. The ladder runs through four of them:
 * sgemm_textbook_kernels.cu (one thread per element, shared tiles),
 * sgemm_register_kernels.cu (register blocking, then register-staged float4
 * tiles without bank conflicts, warp tiling), sgemm_async_kernels.cu (the
 * warp tiles fed by a cp.async ring, up to the tile chosen by size) and
 * sgemm_tensor_kernels.cu (TF32 and 3xTF32 on mma.sync). Here: the building
 * blocks that the register-staged rungs introduce and the pipelined rungs
 * reuse, and the cp.async wrappers of the pipelined and tensor-core rungs.
 *
 * C (m x n) = A (m x k) * B (k x n), row-major. Every kernel takes any m, n,
 * k: loads outside the matrices read as zero (so a partial tile multiplies as
 * if padded), stores outside are skipped. Offsets into a matrix go through
 * size_t: m * k may exceed 2^31. */
#ifndef LADDER_SGEMM_TILES_CUH
#define LADDER_SGEMM_TILES_CUH

#include <stdint.h>

#include "sgemm.h"

__host__ __device__ static int ceil_div(int x, int y)
{
    return (x + y - 1) / y;
}

/* The float4 kernels need 16-byte aligned bases; the launchers fall back to
 * scalar ones for any other. */
static inline bool aligned16(const void *p)
{
    return (uintptr_t)p % 16 == 0;
}

/* ---- Building blocks of the modern rungs ------------------------------------
 * From the vectorized rung on, shared memory holds the A tile transposed
 * (a_tile[k][row], rows padded to BM + A_PAD floats) and the B tile as is
 * (b_tile[k][col]), so that a thread's fragments of A and of B for one k are
 * each a few 16-byte runs: LDS.128. A thread's TM x TN outputs are (TM/4) x
 * (TN/4) sub-tiles of 4 x 4; where those sit is the thread map. */

enum thread_map {
    /* Rung "vectorized": one contiguous TM x TN block per thread, threads in
     * row-major order. For TN = 8 the 16 threads of a half warp read B runs
     * 32 bytes apart: a quarter warp's 128-bit loads cover only 16 of the 32
     * banks, two addresses each, a 2-way conflict. */
    MAP_CONTIGUOUS,
    /* Rung "conflict_free": the thread's sub-tiles are BM/(TM/4) rows and
     * BN/(TN/4) columns apart (quadrants of the block tile for 8 x 8), so that
     * 8 consecutive threads read 8 adjacent 16-byte runs: 128 bytes, one
     * wavefront, no conflict. */
    MAP_QUADRANTS,
    /* Rungs "warp_tiling" and later: each warp owns a (4 TM) x (8 TN) block
     * of C, its lanes a 4 x 8 grid whose sub-tiles are 16 rows and 32 columns
     * apart. Per k a warp then reads 4 TM values of A and 8 TN of B (for
     * 8 x 8: 32 + 64 floats, against 16 + 128 for the 2 x 16 thread strip of
     * the quadrant map): fewer shared-memory bytes per multiply-add. */
    MAP_WARP_TILES,
};

template <int MAP, int BM, int BN, int TM, int TN>
struct thread_tile {
    static_assert(TM % 4 == 0 && TN % 4 == 0, "sub-tiles are 4 x 4");
    static constexpr int ROW_STEP = MAP == MAP_CONTIGUOUS ? 4 : MAP == MAP_QUADRANTS ? BM / (TM / 4) : 16;
    static constexpr int COL_STEP = MAP == MAP_CONTIGUOUS ? 4 : MAP == MAP_QUADRANTS ? BN / (TN / 4) : 32;
    int row0, col0; /* the first sub-tile's corner within the block tile */

    __device__ explicit thread_tile(int t)
    {
        if (MAP == MAP_WARP_TILES) {
            constexpr int WM = 4 * TM, WN = 8 * TN;
            static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
            int warp = t / 32, lane = t % 32;
            row0 = warp / (BN / WN) * WM + lane / 8 * 4;
            col0 = warp % (BN / WN) * WN + lane % 8 * 4;
        } else {
            int thread_row = t / (BN / TN), thread_col = t % (BN / TN);
            row0 = thread_row * (MAP == MAP_CONTIGUOUS ? TM : 4);
            col0 = thread_col * (MAP == MAP_CONTIGUOUS ? TN : 4);
        }
    }
};

/* acc += the block's A tile (BK x A_LD, transposed) times its B tile
 * (BK x BN), for this thread's sub-tiles. Fully unrolled: the compiler can
 * load k + 1's fragments while k's multiply-adds run. */
template <int BK, int A_LD, int BN, int TM, int TN, int ROW_STEP, int COL_STEP>
__device__ __forceinline__ void multiply_tile(const float *a_tile, const float *b_tile, int row0, int col0,
                                              float (&acc)[TM][TN])
{
#pragma unroll
    for (int i = 0; i < BK; ++i) {
        float a_frag[TM], b_frag[TN];
#pragma unroll
        for (int y = 0; y < TM / 4; ++y) {
            float4 v = *reinterpret_cast<const float4 *>(a_tile + i * A_LD + row0 + y * ROW_STEP);
            a_frag[4 * y] = v.x, a_frag[4 * y + 1] = v.y, a_frag[4 * y + 2] = v.z, a_frag[4 * y + 3] = v.w;
        }
#pragma unroll
        for (int x = 0; x < TN / 4; ++x) {
            float4 v = *reinterpret_cast<const float4 *>(b_tile + i * BN + col0 + x * COL_STEP);
            b_frag[4 * x] = v.x, b_frag[4 * x + 1] = v.y, b_frag[4 * x + 2] = v.z, b_frag[4 * x + 3] = v.w;
        }
        /* Serpentine: odd rows walk x backwards, so that each row's first
         * multiply-add reads the b value the previous row's last one read.
         * Measured at 4096^3 on the H200: 0.943 -> 0.966 of cuBLAS for
         * tile_128x128_k32 (4095^3: 0.941 -> 0.976); walking columns
         * instead of rows, 0.865. Nsight Compute (H100, that rung): dispatch
         * stalls per issue 0.45 -> 0.30, schedulers issuing on 83% -> 85%
         * of cycles; presumably the operand reuse cache serves one more
         * operand per row, so fewer reads collide in a register bank. */
#pragma unroll
        for (int y = 0; y < TM; ++y)
#pragma unroll
            for (int step = 0; step < TN; ++step) {
                const int x = y % 2 ? TN - 1 - step : step;
                acc[y][x] = fmaf(a_frag[y], b_frag[x], acc[y][x]);
            }
    }
}

/* Write the thread's sub-tiles of C: 16-byte stores when VEC (n % 4 == 0 and
 * C 16-byte aligned, so a 4-run starting in bounds lies wholly inside). */
template <int TM, int TN, int ROW_STEP, int COL_STEP, bool VEC>
__device__ __forceinline__ void store_tile(float *__restrict__ c, int m, int n, int row0, int col0,
                                           const float (&acc)[TM][TN])
{
#pragma unroll
    for (int y = 0; y < TM; ++y) {
        int row = row0 + y / 4 * ROW_STEP + y % 4;
        if (row >= m) continue;
#pragma unroll
        for (int x = 0; x < TN / 4; ++x) {
            int col = col0 + x * COL_STEP;
            float *dst = c + (size_t)row * n + col;
            if (VEC) {
                if (col < n)
                    *reinterpret_cast<float4 *>(dst) =
                        make_float4(acc[y][4 * x], acc[y][4 * x + 1], acc[y][4 * x + 2], acc[y][4 * x + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (col + j < n) dst[j] = acc[y][4 * x + j];
            }
        }
    }
}

/* Element `idx` of the scalar walk over a BM x BK tile of A: a warp's 32
 * consecutive idx cover 8 consecutive k of 4 rows (one 32-byte sector per
 * row). Stored to a_tile[k][row] with rows BM + 4 apart, they land in 32
 * different banks (bank = 4 k + row, mod 32); with rows BM apart, in 4. */
template <int BM>
__device__ __forceinline__ void a_element(int idx, int &row, int &kk)
{
    kk = idx % 8 + idx / (8 * BM) * 8;
    row = idx / 8 % BM;
}

/* ---- Asynchronous copies (cp.async, sm_80+) --------------------------------
 * A copy global -> shared that bypasses registers and does not block the
 * thread; `bytes` = 0 writes zeros (the edge fill). Before sm_80 there is no
 * such instruction: the copies become synchronous loads and stores, which is
 * correct (the barrier after the wait still orders them) but overlaps
 * nothing. */
__device__ __forceinline__ void copy_async_4(float *dst, const float *src, bool valid)
{
#if __CUDA_ARCH__ >= 800
    unsigned shared = (unsigned)__cvta_generic_to_shared(dst);
    /* .ca: the other 28 bytes of the sector are read by neighbouring lanes. */
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared), "l"(src), "r"(valid ? 4 : 0));
#else
    *dst = valid ? *src : 0.0f;
#endif
}

__device__ __forceinline__ void copy_async_16(float *dst, const float *src, bool valid)
{
#if __CUDA_ARCH__ >= 800
    unsigned shared = (unsigned)__cvta_generic_to_shared(dst);
    /* .cg: whole lines, no reuse from L1. */
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(src), "r"(valid ? 16 : 0));
#else
    *reinterpret_cast<float4 *>(dst) =
        valid ? *reinterpret_cast<const float4 *>(src) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#endif
}

__device__ __forceinline__ void copy_async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/* Wait until at most PENDING committed groups are still in flight. */
template <int PENDING>
__device__ __forceinline__ void copy_async_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
#endif
}

/* The tensor-core rungs' dynamic shared memory a block
 * (sgemm_tensor_kernels.cu), for sgemm_shared_bytes; 0 for any other rung. */
size_t sgemm_tensor_shared_bytes(sgemm_launcher *rung);

#endif
