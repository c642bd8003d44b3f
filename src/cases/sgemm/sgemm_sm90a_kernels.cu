/* SGEMM's Hopper tensor rungs: TF32 and 3xTF32 on wgmma, after the
 * mma.sync rungs of sgemm_tensor_kernels.cu (the Ampere step). Built only
 * for sm_90a (its own object library, as hgemm's Hopper rungs) and run on
 * compute capability 9.0 only.
 *
 * The obstacle is the layout. wgmma reads TF32 operands from shared memory
 * only K-major (the transpose bit exists for 16-bit types alone), and of
 * C = A B only A (m x k, row-major) has K contiguous; B (k x n, row-major)
 * has N contiguous. So these kernels compute C^T = B^T A^T: wgmma's A
 * operand is a 64 x 8 slice of B^T, which may come from registers in any
 * layout, and its B operand is the A tile, K-major as TMA brings it. Each
 * consumer warp loads its B^T fragments from the B tile with plain 4-byte
 * shared loads (transposing on the way, rounding to TF32 in the same
 * registers), and stores the accumulator, which holds C^T, transposed.
 * Nothing is copied or transposed in global memory when K and N are
 * multiples of 4 (TMA needs rows 16 bytes apart; otherwise the operand is
 * first copied into padded rows, and that copy is part of the rung's time).
 *
 * The machinery is hgemm's: a TMA producer warpgroup and two consumer
 * warpgroups on full/empty mbarriers, persistent blocks walking the tiles
 * in groups of 8 tile rows (hgemm_sm90a_kernels.cu tells that story). */
#include "harness/check/check.h"
#include "harness/hardware/shared_memory.cuh"
#include "harness/hardware/tensor_ptx.cuh"
#include "sgemm.h"

/* One k-tile is 32 floats deep: one 128-byte swizzled line per row of A. */
constexpr int TF32_TILE_K = 32, TF32_ROW_BYTES = TF32_TILE_K * 4;
/* A block covers BN = 128 columns of C (64 per consumer) by BM rows. */
constexpr int TF32_BN = 128;
/* The B tile lands as TILE_K rows of BN + 8 floats (the box is 8 columns
 * wider than the tile: 6% more bytes, all of them L2 hits but at the
 * right edge). Row k then starts 8 k banks further, so a fragment load, 8
 * columns at 4 values of k per warp, touches all 32 banks once; with rows
 * of 128 floats it would touch 8 banks four times. */
constexpr int TF32_B_PITCH = TF32_BN + 8;
constexpr int TF32_B_BYTES = TF32_TILE_K * TF32_B_PITCH * 4;
constexpr int TF32_THREADS = 384, TF32_PRODUCER_REGISTERS = 40, TF32_CONSUMER_REGISTERS = 232, TF32_GROUP_M = 8;

/* PASSES = 1 (tf32): A tiles as they are, B rounded to TF32 in registers.
 * The tensor core reads A's FP32 as TF32 by truncation (rounding it would
 * take a pass over A): the rung's error is 4.2e-4 at 4096^3 where cuBLAS
 * TF32's is 2.6e-4, as the mma.sync tf32 rung's, which rounds both
 * operands; all within the TF32 tolerance (9.8e-4 + the FP32 sum's).
 * PASSES = 3 (3xtf32): A's high and low TF32 parts (two tiles, from the
 * split pass below), B split in registers; three products a k-step. */
template <int BM, int PASSES>
struct tf32_shape {
    static constexpr int A_BYTES = BM * TF32_ROW_BYTES, A_TILES = PASSES == 3 ? 2 : 1;
    static constexpr int STAGE_BYTES = A_TILES * A_BYTES + TF32_B_BYTES;
    static constexpr int STAGES = (220 * 1024) / STAGE_BYTES;
    static constexpr size_t SHARED_BYTES = (size_t)STAGES * STAGE_BYTES + 2 * STAGES * sizeof(uint64_t) + 1024;
    static_assert(STAGE_BYTES % 1024 == 0, "each stage's A tile starts on the swizzle's 1024-byte period");
    static_assert(SHARED_BYTES <= 227 * 1024, "fits Hopper's 227 KB a block");
};

__host__ __device__ constexpr int tf32_ceil_div(int x, int y)
{
    return (x + y - 1) / y;
}

/* x rounded to TF32 (sgemm_tf32_round: two integer instructions, where
 * cvt.rna.tf32.f32 compiles to five with its checks for infinities), as
 * the 32-bit register a wgmma fragment holds. */
__device__ __forceinline__ uint32_t tf32_bits(float x)
{
    return __float_as_uint(sgemm_tf32_round(x));
}

/* A float of shared memory at a shared-window address: a pointer computed
 * from the aligned base would lose its address space and load through the
 * generic path. */
__device__ __forceinline__ float load_shared(uint32_t address)
{
    float x;
    asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(x) : "r"(address));
    return x;
}

/* wgmma m64 x BM x k8, the B^T slice from registers. */
template <int BM>
__device__ __forceinline__ void wgmma_tf32(float (&acc)[BM / 2], const uint32_t (&a)[4], uint32_t a_tile_row,
                                           int accumulate)
{
    uint64_t desc = wgmma_descriptor_sw128(a_tile_row);
    if constexpr (BM == 256)
        wgmma_m64n256k8_tf32_rs(acc, a, desc, accumulate);
    else
        wgmma_m64n128k8_tf32_rs(acc, a, desc, accumulate);
}

/* Rungs tf32_wgmma (PASSES = 1) and 3xtf32_wgmma (PASSES = 3). Over the
 * mma.sync rungs: wgmma m64nBMk8 (BM = 256 or 128 rows of C a block, 4
 * instructions a k-tile of 32 where 8 warps issued 128 mma.sync and 96
 * ldmatrix), its B operand straight from the swizzled tile; a producer
 * warpgroup feeding a 4- or 6-stage ring by TMA; persistent blocks.
 * A consumer waits for its k-tile's multiply to end (wait_group 0) before
 * it loads the next fragments: the multiply reads the fragment registers
 * until it ends, and the other consumer's multiply keeps the tensor cores
 * busy meanwhile. Keeping one k-tile in flight (wait_group 1) with two
 * fragment sets held apart measured the same (0.866 of cuBLAS TF32 at
 * 4096^3 either way); with one set it is wrong (the next loads overwrite
 * registers an unfinished multiply reads: error 0.99 at 4096^3).
 * 3xtf32: the tensor core truncates as it accumulates (the SUM_OUTSIDE
 * note of sgemm_tensor_kernels.cu), so each k-tile's 12 products are
 * summed from zero into `part` and added to acc in FP32.
 * Measured on the H200, same process, ratio to cuBLAS at 4096^3 / 4095^3 /
 * 1000^3 (4095: K and N padded by the staging pass, inside the time), over
 * six runs (docs/results/nvidia-h200.json and -sgemm.json among them):
 *   tf32_wgmma / cuBLAS TF32     0.866-0.885 / 2.04-2.08 / 0.93-0.96
 *     128-row tiles at every size  0.642 / 1.54 / 0.93
 *   3xtf32_wgmma / cuBLAS FP32   2.51-2.61 / 2.51-2.61 / 1.31-1.52 (error
 *                                3.1e-7 at 4096^3, cuBLAS FP32's 1.15e-6)
 * The limiter of tf32_wgmma at 4096^3 is power: NVML counts 833-871 W
 * against cuBLAS TF32's 691-715 W, and the SM clock falls to 1620-1650 MHz
 * where cuBLAS keeps 1965 (404-422 against 485-490 GFLOP per joule). With the clocks locked at
 * base by Nsight Compute (1.30 GHz), the tensor pipe is busy 91% of cycles
 * and the rung beats cuBLAS TF32, 404 against 453 us; L2 throughput 67%,
 * L1 63%, issue slots 21%. So what is left is energy a FLOP: fewer bytes
 * from L2 a tile (a 2-block cluster sharing its A tile by TMA multicast
 * reads a third fewer) is the next step. */
template <int BM, int PASSES>
__global__ void __launch_bounds__(TF32_THREADS, 1)
    tf32_wgmma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap a_low_map,
                      const __grid_constant__ CUtensorMap b_map, float *__restrict__ c, int m, int n, int k)
{
    typedef tf32_shape<BM, PASSES> S;
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + S::STAGES * S::STAGE_BYTES), *empty = full + S::STAGES;
    int tiles_m = tf32_ceil_div(m, BM), tiles_n = tf32_ceil_div(n, TF32_BN), k_tiles = tf32_ceil_div(k, TF32_TILE_K);
    int tiles = tiles_m * tiles_n;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S::STAGES; ++s) {
            mbarrier_init(&full[s], 1);
            mbarrier_init(&empty[s], 8); /* the 8 consumer warps */
        }
        mbarrier_init_fence();
    }
    __syncthreads();
    int warpgroup = threadIdx.x / 128, s = 0;
    uint32_t phase = 0;
    if (warpgroup == 0) {
        setmaxnreg_decrease<TF32_PRODUCER_REGISTERS>();
        if (threadIdx.x != 0) return;
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            int tile_m, tile_n;
            sgemm_swizzled_tile(tile, tiles_m, tiles_n, TF32_GROUP_M, &tile_m, &tile_n);
            for (int t = 0; t < k_tiles; ++t) {
                mbarrier_wait(&empty[s], phase ^ 1);
                uint32_t stage = smem_address(shared + s * S::STAGE_BYTES);
                mbarrier_arrive_expect_bytes(&full[s], S::STAGE_BYTES);
                tma_load_2d(stage, &a_map, t * TF32_TILE_K, tile_m * BM, &full[s]);
                if (PASSES == 3) tma_load_2d(stage + S::A_BYTES, &a_low_map, t * TF32_TILE_K, tile_m * BM, &full[s]);
                tma_load_2d(stage + S::A_TILES * S::A_BYTES, &b_map, tile_n * TF32_BN, t * TF32_TILE_K, &full[s]);
                if (++s == S::STAGES) s = 0, phase ^= 1;
            }
        }
        return;
    }
    setmaxnreg_increase<TF32_CONSUMER_REGISTERS>();
    int consumer = warpgroup - 1, warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
    /* This thread's B^T fragment rows (columns of B) within the tile, and k. */
    int b_col = 64 * consumer + 16 * warp + lane / 4, b_k = lane % 4;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int tile_m, tile_n;
        sgemm_swizzled_tile(tile, tiles_m, tiles_n, TF32_GROUP_M, &tile_m, &tile_n);
        float acc[BM / 2];
#pragma unroll
        for (int i = 0; i < BM / 2; ++i) acc[i] = 0.0f;
        /* B^T's 64 x 8 fragments of the k-tile's 4 steps: rows b_col and + 8,
         * k b_k and + 4 (the register order of wgmma_m64nNk8_tf32_rs),
         * rounded to TF32 (and, 3xtf32, the remainder's TF32 in low). */
        auto load_fragments = [&](uint32_t b_tile, uint32_t(&high)[4][4], uint32_t(&low)[4][4]) {
#pragma unroll
            for (int step = 0; step < 4; ++step)
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    float x = load_shared(b_tile + 4 * ((8 * step + b_k + 4 * (r / 2)) * TF32_B_PITCH + b_col +
                                                        8 * (r % 2)));
                    high[step][r] = tf32_bits(x);
                    if constexpr (PASSES == 3) low[step][r] = tf32_bits(x - __uint_as_float(high[step][r]));
                }
        };
        for (int t = 0; t < k_tiles; ++t) {
            mbarrier_wait(&full[s], phase);
            uint32_t a_tile = smem_address(shared + s * S::STAGE_BYTES), b_tile = a_tile + S::A_TILES * S::A_BYTES;
            uint32_t high[4][4], low[4][4];
            load_fragments(b_tile, high, low);
            wgmma_fence();
            if constexpr (PASSES == 3) {
                float part[BM / 2];
#pragma unroll
                for (int step = 0; step < 4; ++step) {
                    uint32_t a_row = a_tile + 32 * step;
                    /* The small products first, while the sum is small;
                     * the k-tile's first product starts the sum from zero. */
                    wgmma_tf32<BM>(part, low[step], a_row, step > 0);
                    wgmma_tf32<BM>(part, high[step], a_row + S::A_BYTES, 1);
                    wgmma_tf32<BM>(part, high[step], a_row, 1);
                }
                wgmma_commit();
                wgmma_wait<0>();
#pragma unroll
                for (int i = 0; i < BM / 2; ++i) acc[i] += part[i];
            } else {
#pragma unroll
                for (int step = 0; step < 4; ++step) wgmma_tf32<BM>(acc, high[step], a_tile + 32 * step, 1);
                wgmma_commit();
                wgmma_wait<0>();
            }
            /* Done with the stage: the multiply has read its A tile, the
             * fragment loads its B tile. */
            if (lane == 0) mbarrier_arrive(&empty[s]);
            if (++s == S::STAGES) s = 0, phase ^= 1;
        }
        /* acc holds C^T: warp w's rows are columns 16 w + lane / 4 (+ 8) of
         * C, its register pair j rows 8 j + 2 (lane % 4) (+ 1). A warp's
         * store writes 8 consecutive floats in each of 4 rows of C. */
        int col = tile_n * TF32_BN + b_col, row0 = tile_m * BM + 2 * (lane % 4);
#pragma unroll
        for (int j = 0; j < BM / 8; ++j) {
            int row = row0 + 8 * j;
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                int rr = row + r % 2, cc = col + 8 * (r / 2);
                if (rr < m && cc < n) c[(size_t)rr * n + cc] = acc[4 * j + r];
            }
        }
    }
}

/* ---- Staging passes ------------------------------------------------------- */

/* src (rows x cols, rows cols apart) into rows ld apart (ld >= cols, a
 * multiple of 4), as TF32 high and low parts (SPLIT: high = tf32(x), low =
 * tf32(x - high), each exact in TF32, so the tensor core's own reading of
 * FP32 cannot change them) or copied as is (high only). The padding is left
 * as it is: the tensor maps end at cols. */
template <bool SPLIT>
__global__ void stage_rows_kernel(const float *__restrict__ src, int rows, int cols, float *__restrict__ high,
                                  float *__restrict__ low, int ld)
{
    for (int row = blockIdx.x; row < rows; row += gridDim.x)
        for (int col = threadIdx.x; col < cols; col += blockDim.x) {
            float x = src[(size_t)row * cols + col];
            size_t at = (size_t)row * ld + col;
            if (SPLIT) {
                float h = __uint_as_float(tf32_bits(x));
                high[at] = h;
                low[at] = __uint_as_float(tf32_bits(x - h));
            } else {
                high[at] = x;
            }
        }
}

template <bool SPLIT>
static void stage_rows(const float *src, int rows, int cols, float *high, float *low, int ld, int sms,
                       cudaStream_t stream)
{
    stage_rows_kernel<SPLIT><<<8 * sms, 256, 0, stream>>>(src, rows, cols, high, low, ld);
    CUDA_CHECK_LAUNCH();
}

/* ---- Launchers ------------------------------------------------------------ */

template <int BM, int PASSES>
static void launch_tf32(const sgemm_wgmma_problem *p, const CUtensorMap &a_map, const CUtensorMap &a_low_map,
                        cudaStream_t stream)
{
    constexpr auto kernel = tf32_wgmma_kernel<BM, PASSES>;
    allow_shared_bytes<kernel>(tf32_shape<BM, PASSES>::SHARED_BYTES);
    int tiles = tf32_ceil_div(p->m, BM) * tf32_ceil_div(p->n, TF32_BN);
    kernel<<<tiles < p->sms ? tiles : p->sms, TF32_THREADS, tf32_shape<BM, PASSES>::SHARED_BYTES, stream>>>(
        a_map, a_low_map, p->b_rows32, p->c, p->m, p->n, p->k);
    CUDA_CHECK_LAUNCH();
}

/* B (and A for tf32) into padded rows where N (K) is not a multiple of 4. */
static void stage_unaligned(const sgemm_wgmma_problem *p, bool a_too, cudaStream_t stream)
{
    if (p->b_padded) stage_rows<false>(p->b, p->k, p->n, p->b_padded, NULL, p->ldb, p->sms, stream);
    if (a_too && p->a_padded) stage_rows<false>(p->a, p->m, p->k, p->a_padded, NULL, p->lda, p->sms, stream);
}

/* 256-row tiles where they give every SM at least two, else 128 (1000^3:
 * 32 tiles of 256 x 128 for 132 SMs, 64 of 128 x 128). */
extern "C" void sgemm_tf32_wgmma(const sgemm_wgmma_problem *p, cudaStream_t stream)
{
    stage_unaligned(p, true, stream);
    long long tiles256 = (long long)tf32_ceil_div(p->m, 256) * tf32_ceil_div(p->n, TF32_BN);
    if (tiles256 >= 2LL * p->sms)
        launch_tf32<256, 1>(p, p->a_rows256, p->a_rows256, stream);
    else
        launch_tf32<128, 1>(p, p->a_rows128, p->a_rows128, stream);
}

extern "C" void sgemm_3xtf32_wgmma(const sgemm_wgmma_problem *p, cudaStream_t stream)
{
    stage_unaligned(p, false, stream);
    stage_rows<true>(p->a, p->m, p->k, p->a_high, p->a_low, p->lda, p->sms, stream);
    launch_tf32<128, 3>(p, p->a_high_rows128, p->a_low_rows128, stream);
}

extern "C" size_t sgemm_wgmma_shared_bytes(sgemm_wgmma_launcher *rung)
{
    if (rung == sgemm_3xtf32_wgmma) return tf32_shape<128, 3>::SHARED_BYTES;
    size_t big = tf32_shape<256, 1>::SHARED_BYTES, small = tf32_shape<128, 1>::SHARED_BYTES;
    return big > small ? big : small;
}
