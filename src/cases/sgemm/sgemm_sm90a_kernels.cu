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
 * in groups of 8 tile rows (hgemm_warp_specialized.cuh tells that story). */
#include "harness/check/check.h"
#include "harness/hardware/cluster_launch.cuh"
#include "harness/hardware/shared_memory.cuh"
#include "harness/hardware/tensor_ptx.cuh"
#include "sgemm.h"

/* One k-tile is 32 floats deep: one 128-byte swizzled line per row of A. */
constexpr int TF32_TILE_K = 32, TF32_ROW_BYTES = TF32_TILE_K * 4;
/* A block covers BN = 128 columns of C (64 per consumer) by BM rows. */
constexpr int TF32_BN = 128;
/* The B tile lands as TILE_K rows of BN + 8 floats (the box is 8 columns
 * wider than the tile: 6% more bytes, all of them L2 hits but at the
 * right edge). Row k then starts 8 banks further, so a warp's 8-byte
 * fragment load, 16 columns at 4 values of k, is two wavefronts that each
 * touch all 32 banks once; with rows of 128 floats, 4-way conflicts. */
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

/* The same rounding for a wgmma operand alone, in one instruction: the
 * tensor core ignores the 13 low bits (it truncates), so adding half of the
 * lowest kept bit is enough; the mask only matters to arithmetic that reads
 * the whole register (3xtf32's remainder). 16 integer instructions fewer a
 * thread and k-tile, of about 60. */
__device__ __forceinline__ uint32_t tf32_operand_bits(float x)
{
    return __float_as_uint(x) + 0x1000u;
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

/* Rungs tf32_wgmma (PASSES = 1, CLUSTER = 1), tf32_wgmma_multicast
 * (PASSES = 1, CLUSTER = 2 on its 256-row tiles) and 3xtf32_wgmma
 * (PASSES = 3). Over the mma.sync rungs: wgmma m64nBMk8 (BM = 256 or 128
 * rows of C a block, 4 instructions a k-tile of 32 where 8 warps issued 128
 * mma.sync and 96 ldmatrix), its B operand straight from the swizzled tile;
 * a producer warpgroup feeding a 4- or 6-stage ring by TMA; persistent
 * blocks. tf32: one k-tile's multiply stays in flight while the next one's
 * fragments load (wait_group 1, two fragment sets; with one set it is
 * wrong, error 0.99: the loads overwrite registers an unfinished multiply
 * reads). 3xtf32 waits for each k-tile (wait_group 0), whose sum it needs.
 * tf32_wgmma_multicast: two blocks side by side in N, one cluster, share
 * their A tile: each brings half of it into both by TMA multicast, so a
 * block reads 33 KB from L2 a k-tile where it read 49 KB.
 * Measured on the H200, same process, ratio to cuBLAS at 4096^3 / 4095^3 /
 * 1000^3 (4095: K and N padded by the staging pass, inside the time):
 *   tf32_wgmma / cuBLAS TF32, wait_group 0   0.866-0.885 / 2.04-2.08 / 0.93-0.96
 *     128-row tiles at every size            0.642 / 1.54 / 0.93
 *     one k-tile in flight, 1-instruction rounding
 *                                             0.868-0.944 / 2.11 / 1.005-1.010
 *   tf32_wgmma_multicast, wait_group 0       0.951-0.981 at 4096^3 (0.93-0.97 at 8192^3)
 *     one k-tile in flight                   0.985 (cuBLAS unthrottled), 1.06 (throttled)
 *     and 1-instruction rounding              0.975 / 2.19 / 1.01 and 1.042 / 2.19 / 1.005
 *                                             (docs/results/nvidia-h200-sgemm.json, then a
 *                                             second run)
 *     clusters of four, 2 x 2 (B shared too) or 1 x 4: 0.787 and 0.791 at 4096^3 (only
 *     120 of 132 blocks resident: a cluster must fit in one GPC)
 *     float2 stores, pairs swapped by shuffles: 0.932 (slower than 4-byte stores)
 *     fragment rows paired on adjacent columns (8-byte fragment loads and stores, no
 *     shuffles)                               0.981-0.986 against 0.966-0.971 before, three
 *                                             rounds each in one call (4096^3); 0.954 at
 *                                             8192^3, 1.00 at 1000^3; instructions 61.8M
 *                                             -> 56.1M (cuBLAS 58.2M); it costs
 *                                             3xtf32_wgmma 2-4% (H100, one call: 1.070 /
 *                                             1.072 against 1.045 / 1.051 ms at 4096^3,
 *                                             42.1 / 42.3 against 40.9 / 40.4 us at 1000^3),
 *                                             which keeps the one mapping for both
 *     dropped in that call, each 0.979-0.986 beside it: B's whole tiles through a 3D
 *     map whose 8 columns past the tile are out of the tensor (L2 reads 71.0M -> 70.5M
 *     sectors), L2 promotion none or 128 B, streaming stores of C, mbarrier waits with
 *     a suspend-time hint (producer, consumers or both)
 *     the second consumer 1, 2 or 3 k-tiles behind the first (a named barrier
 *     at its first k-tile), so that their stores fall apart: 0.971-0.977
 *     against 0.973-0.976, two rounds each in one call (H100): no change
 *   3xtf32_wgmma / cuBLAS FP32   2.51-2.61 / 2.51-2.61 / 1.31-1.52 (error
 *                                3.1e-7 at 4096^3, cuBLAS FP32's 1.15e-6)
 * The limiter at 4096^3 is power: the board's 700 W cap lowers the SM clock
 * ("SW power cap"). Without multicast, tf32_wgmma drew 833-871 W in bursts
 * and ran at 1620-1650 MHz where cuBLAS kept 1965; with the clocks locked at
 * base (1.30 GHz) it beat cuBLAS TF32, 404 against 453 us, tensor pipe 91%.
 * Multicast brings the energy a FLOP to cuBLAS's (475-486 against 476-485
 * GFLOP/J). Nsight Compute with the clocks free, 4096^3: multicast with one
 * k-tile in flight 352.9 us at 1.60 GHz, tensor pipe 90.3%, L2 61%; cuBLAS
 * TF32 (sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x256x32_
 * warpgroupsize2x1x1, grid 66 x 2: the same tile and formulation, two-block
 * clusters too) 340 us at 1.69 GHz, tensor pipe 88.4%. Per clock ours is
 * faster; the clock is 5% lower. A later call: 0.983 twice (351 against
 * 345 us), ours at 445-476 GFLOP/J, cuBLAS 476-490; DRAM reads equal (301
 * against 294 MB), L2 bytes not (2.81 against 2.36 GB); tile groups of 4 or
 * 16 rows in place of 8: 0.977 and 0.973, DRAM 373 and 351 MB. With the
 * paired fragments (Nsight Compute, one launch each, 4096^3): ours 352 us at
 * 1.60 GHz, L2 reads from the SMs 70.8M sectors, 14.6M across the L2
 * fabric, no bank conflicts; cuBLAS 345 us at 1.66 GHz, 60.9M and 9.8M,
 * 8.4M bank conflicts: cuBLAS moves 14% fewer bytes through L2 (below the
 * 2.15 GB a 256 x 128 tile with A shared by two blocks must read), which we
 * have not explained. Tried and dropped (H100, 2026-11-26, one call, two
 * rounds each against these register stores): the epilogue through shared
 * memory and TMA stores, as hgemm's rung 10 now does, each consumer warp
 * storing its 16 columns through two 1 KB buffers of 16 rows (16 KB
 * beside the 4 stages): 0.345-0.346 against 0.343 ms at 4096^3 (cuBLAS
 * TF32 0.335-0.337), 1.158-1.165 against 1.151-1.152 ms at 6144^3. The
 * stores that cost hgemm 10% of its tile at 4096^3 cost this kernel, whose
 * tiles take twice as long, no more than the buffers' round trips save. */
template <int BM, int PASSES, int CLUSTER>
__global__ void __launch_bounds__(TF32_THREADS, 1)
    tf32_wgmma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap a_low_map,
                      const __grid_constant__ CUtensorMap b_map, float *__restrict__ c, int m, int n, int k)
{
    typedef tf32_shape<BM, PASSES> S;
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + S::STAGES * S::STAGE_BYTES), *empty = full + S::STAGES;
    int tiles_m = tf32_ceil_div(m, BM), tiles_n = tf32_ceil_div(n, TF32_BN), k_tiles = tf32_ceil_div(k, TF32_TILE_K);
    /* A cluster's blocks take CLUSTER neighbouring tiles of one tile row (a
     * unit of work), so that they share its A tile. */
    int units_n = tf32_ceil_div(tiles_n, CLUSTER), units = tiles_m * units_n;
    int rank = CLUSTER > 1 ? (int)cluster_rank() : 0;
    /* the 8 consumer warps of every block read each stage */
    ring_barriers_init<CLUSTER>(full, empty, S::STAGES, 8);
    int warpgroup = threadIdx.x / 128, s = 0;
    uint32_t phase = 0;
    if (warpgroup == 0) {
        setmaxnreg_decrease<TF32_PRODUCER_REGISTERS>();
        if (threadIdx.x == 0) {
            for (int unit = blockIdx.x / CLUSTER; unit < units; unit += gridDim.x / CLUSTER) {
                int tile_m, unit_n;
                sgemm_swizzled_tile(unit, tiles_m, units_n, TF32_GROUP_M, &tile_m, &unit_n);
                /* A block past the last tile column still brings its share
                 * of A for its peers, and the last column's B; its stores
                 * all fall outside C. */
                int tile_n = min(CLUSTER * unit_n + rank, tiles_n - 1);
                for (int t = 0; t < k_tiles; ++t) {
                    mbarrier_wait(&empty[s], phase ^ 1);
                    uint32_t stage = smem_address(shared + s * S::STAGE_BYTES);
                    mbarrier_arrive_expect_bytes(&full[s], S::STAGE_BYTES);
                    /* Each block of the cluster brings BM / CLUSTER rows of
                     * the A tile into all of them. */
                    auto load_a = [&](uint32_t tile, const CUtensorMap *map) {
                        constexpr int share = BM / CLUSTER;
                        if constexpr (CLUSTER > 1)
                            tma_load_2d_multicast(tile + rank * share * TF32_ROW_BYTES, map, t * TF32_TILE_K,
                                                  tile_m * BM + rank * share, &full[s], (1 << CLUSTER) - 1);
                        else
                            tma_load_2d(tile, map, t * TF32_TILE_K, tile_m * BM, &full[s]);
                    };
                    load_a(stage, &a_map);
                    if (PASSES == 3) load_a(stage + S::A_BYTES, &a_low_map);
                    tma_load_2d(stage + S::A_TILES * S::A_BYTES, &b_map, tile_n * TF32_BN, t * TF32_TILE_K, &full[s]);
                    if (++s == S::STAGES) s = 0, phase ^= 1;
                }
            }
        }
        if constexpr (CLUSTER > 1) cluster_sync();
        return;
    }
    setmaxnreg_increase<TF32_CONSUMER_REGISTERS>();
    int consumer = warpgroup - 1, warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
    /* Which column of B each of wgmma's 64 rows of B^T holds is ours to
     * choose, as long as the epilogue stores each row of the result to that
     * column. This thread's fragment rows are lane / 4 and lane / 4 + 8 of its
     * warp's 16: they hold columns b_col and b_col + 1, side by side, so that
     * one 8-byte load fetches both (8 loads a k-tile, not 16) and one 8-byte
     * store writes both results. b_k is the thread's k within a step. */
    int b_col = 64 * consumer + 16 * warp + 2 * (lane / 4), b_k = lane % 4;
    for (int unit = blockIdx.x / CLUSTER; unit < units; unit += gridDim.x / CLUSTER) {
        int tile_m, unit_n;
        sgemm_swizzled_tile(unit, tiles_m, units_n, TF32_GROUP_M, &tile_m, &unit_n);
        int tile_n = CLUSTER * unit_n + rank;
        float acc[BM / 2];
#pragma unroll
        for (int i = 0; i < BM / 2; ++i) acc[i] = 0.0f;
        /* B^T's 64 x 8 fragments of the k-tile's 4 steps: registers r and
         * r + 1 (the thread's two rows, in the register order of
         * wgmma_m64nNk8_tf32_rs) hold columns b_col and b_col + 1 at k b_k
         * (r = 0) and b_k + 4 (r = 2), rounded to TF32 (and, 3xtf32, the
         * remainder's TF32 in low; tf32 passes its one set as both). */
        auto load_fragments = [&](uint32_t b_tile, uint32_t(&high)[4][4], uint32_t(&low)[4][4]) {
#pragma unroll
            for (int step = 0; step < 4; ++step)
#pragma unroll
                for (int r = 0; r < 4; r += 2) {
                    float2 pair = load_shared_pair(b_tile + 4 * ((8 * step + b_k + 2 * r) * TF32_B_PITCH + b_col));
                    float x[2] = {pair.x, pair.y};
#pragma unroll
                    for (int i = 0; i < 2; ++i) {
                        if constexpr (PASSES == 3) {
                            high[step][r + i] = tf32_bits(x[i]);
                            low[step][r + i] = tf32_bits(x[i] - __uint_as_float(high[step][r + i]));
                        } else {
                            high[step][r + i] = tf32_operand_bits(x[i]);
                        }
                    }
                }
        };
        /* Done with a stage: the multiply has read its A tile, the fragment
         * loads its B tile. Every block that writes into it must hear so
         * before it does again. */
        auto release = [&](int stage) {
            if (lane == 0) mbarrier_arrive_cluster<CLUSTER>(&empty[stage]);
        };
        auto next_stage = [&]() {
            if (++s == S::STAGES) s = 0, phase ^= 1;
        };
        if constexpr (PASSES == 1) {
            /* One k-tile's multiply stays in flight while the next one's
             * fragments load (wait_group 1), so the tensor core always has
             * this warpgroup's next work queued. The multiply reads its
             * fragment registers until it ends: two sets, alternating. */
            uint32_t even[4][4], odd[4][4];
            int in_flight = -1;
            auto multiply = [&](uint32_t(&fragments)[4][4]) {
                mbarrier_wait(&full[s], phase);
                uint32_t a_tile = smem_address(shared + s * S::STAGE_BYTES);
                load_fragments(a_tile + S::A_BYTES, fragments, fragments);
                wgmma_fence();
#pragma unroll
                for (int step = 0; step < 4; ++step) wgmma_tf32<BM>(acc, fragments[step], a_tile + 32 * step, 1);
                wgmma_commit();
                wgmma_wait<1>();
                if (in_flight >= 0) release(in_flight);
                in_flight = s;
                next_stage();
            };
            int t = 0;
            for (; t + 1 < k_tiles; t += 2) {
                multiply(even);
                multiply(odd);
            }
            if (t < k_tiles) multiply(even);
            wgmma_wait<0>();
            release(in_flight);
        } else {
            /* 3xtf32: the tensor core truncates as it accumulates (the
             * SUM_OUTSIDE note of sgemm_tensor_kernels.cu), so each k-tile's
             * 12 products are summed from zero into `part` and added to acc
             * in FP32, which needs the k-tile's multiply to have ended. */
            for (int t = 0; t < k_tiles; ++t) {
                mbarrier_wait(&full[s], phase);
                uint32_t a_tile = smem_address(shared + s * S::STAGE_BYTES);
                uint32_t high[4][4], low[4][4];
                load_fragments(a_tile + S::A_TILES * S::A_BYTES, high, low);
                wgmma_fence();
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
                release(s);
                next_stage();
            }
        }
        /* acc holds C^T: this thread's rows are columns col and col + 1 of
         * C, its registers 4 j .. 4 j + 3 rows 8 j + 2 (lane % 4) (+ 1) at
         * those columns (as the fragments above). A warp's 8-byte store
         * writes 16 consecutive floats in each of 4 rows of C. Where N is
         * odd (rows not 8-byte aligned) or the columns pass N, each float
         * goes alone, in a loop of its own: one loop that chose per store
         * made 3xtf32_wgmma 20% slower (H100: 1.28 against 1.07 ms at
         * 4096^3). */
        int col = tile_n * TF32_BN + b_col, row0 = tile_m * BM + 2 * (lane % 4);
        if (n % 2 == 0 && col < n) {
#pragma unroll
            for (int j = 0; j < BM / 8; ++j) {
                int row = row0 + 8 * j;
                float *at = c + (size_t)row * n + col;
                if (row < m) *reinterpret_cast<float2 *>(at) = make_float2(acc[4 * j], acc[4 * j + 2]);
                if (row + 1 < m) *reinterpret_cast<float2 *>(at + n) = make_float2(acc[4 * j + 1], acc[4 * j + 3]);
            }
        } else {
#pragma unroll
            for (int j = 0; j < BM / 8; ++j)
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    int rr = row0 + 8 * j + r % 2, cc = col + r / 2;
                    if (rr < m && cc < n) c[(size_t)rr * n + cc] = acc[4 * j + r];
                }
        }
    }
    if constexpr (CLUSTER > 1) cluster_sync();
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

/* The launch of one tf32_wgmma_kernel: `blocks` resident blocks at most
 * (persistent), or one a tile where there are fewer tiles, in clusters of
 * CLUSTER. */
template <int BM, int PASSES, int CLUSTER>
static cudaLaunchConfig_t tf32_config(const sgemm_wgmma_problem *p, int blocks, cudaLaunchAttribute *cluster,
                                      cudaStream_t stream)
{
    constexpr size_t shared_bytes = tf32_shape<BM, PASSES>::SHARED_BYTES;
    allow_shared_bytes<tf32_wgmma_kernel<BM, PASSES, CLUSTER>>(shared_bytes);
    long long tiles = (long long)tf32_ceil_div(p->m, BM) * tf32_ceil_div(tf32_ceil_div(p->n, TF32_BN), CLUSTER) * CLUSTER;
    return cluster_config(tiles < blocks ? (unsigned)tiles : (unsigned)blocks, TF32_THREADS, shared_bytes, CLUSTER,
                          cluster, stream);
}

template <int BM, int PASSES, int CLUSTER>
static void launch_tf32(const sgemm_wgmma_problem *p, const CUtensorMap &a_map, const CUtensorMap &a_low_map,
                        int blocks, cudaStream_t stream)
{
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config = tf32_config<BM, PASSES, CLUSTER>(p, blocks, &cluster, stream);
    CUDA_CHECK(cudaLaunchKernelEx(&config, tf32_wgmma_kernel<BM, PASSES, CLUSTER>, a_map, a_low_map, p->b_rows32,
                                  p->c, p->m, p->n, p->k));
}

/* B (and A for tf32) into padded rows where N (K) is not a multiple of 4. */
static void stage_unaligned(const sgemm_wgmma_problem *p, bool a_too, cudaStream_t stream)
{
    if (p->b_padded) stage_rows<false>(p->b, p->k, p->n, p->b_padded, NULL, p->ldb, p->sms, stream);
    if (a_too && p->a_padded) stage_rows<false>(p->a, p->m, p->k, p->a_padded, NULL, p->lda, p->sms, stream);
}

/* 256-row tiles where they give every SM at least two, else 128 (1000^3:
 * 32 tiles of 256 x 128 for 132 SMs, 64 of 128 x 128). */
static bool big_tiles(const sgemm_wgmma_problem *p)
{
    return (long long)tf32_ceil_div(p->m, 256) * tf32_ceil_div(p->n, TF32_BN) >= 2LL * p->sms;
}

/* tf32's launch at any size: its 256-row tiles in clusters of CLUSTER
 * blocks side by side in N that share their A tile (each bringing 256 /
 * CLUSTER of its rows into all), its 128-row ones alone. */
template <int CLUSTER>
static void launch_tf32_by_size(const sgemm_wgmma_problem *p, cudaStream_t stream)
{
    static_assert(CLUSTER == 1 || CLUSTER == 2, "the maps hold boxes of 256 and 128 rows");
    stage_unaligned(p, true, stream);
    if (big_tiles(p)) {
        const CUtensorMap &a_share = CLUSTER == 1 ? p->a_rows256 : p->a_rows128;
        launch_tf32<256, 1, CLUSTER>(p, a_share, a_share, CLUSTER == 1 ? p->sms : p->cluster_blocks, stream);
    } else {
        launch_tf32<128, 1, 1>(p, p->a_rows128, p->a_rows128, p->sms, stream);
    }
}

extern "C" void sgemm_tf32_wgmma(const sgemm_wgmma_problem *p, cudaStream_t stream)
{
    launch_tf32_by_size<1>(p, stream);
}

extern "C" void sgemm_tf32_wgmma_multicast(const sgemm_wgmma_problem *p, cudaStream_t stream)
{
    launch_tf32_by_size<2>(p, stream);
}

extern "C" void sgemm_3xtf32_wgmma(const sgemm_wgmma_problem *p, cudaStream_t stream)
{
    stage_unaligned(p, false, stream);
    stage_rows<true>(p->a, p->m, p->k, p->a_high, p->a_low, p->lda, p->sms, stream);
    launch_tf32<128, 3, 1>(p, p->a_high_rows128, p->a_low_rows128, p->sms, stream);
}

/* Blocks of tf32_wgmma_multicast's clusters that can be resident at once. */
extern "C" int sgemm_wgmma_cluster_blocks(const sgemm_wgmma_problem *p)
{
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config = tf32_config<256, 1, 2>(p, 2 * p->sms, &cluster, 0);
    config.gridDim = dim3(2 * p->sms);
    return resident_cluster_blocks<tf32_wgmma_kernel<256, 1, 2>>(config);
}

extern "C" size_t sgemm_wgmma_shared_bytes(sgemm_wgmma_launcher *rung)
{
    if (rung == sgemm_3xtf32_wgmma) return tf32_shape<128, 3>::SHARED_BYTES;
    /* tf32_wgmma and tf32_wgmma_multicast */
    size_t big = tf32_shape<256, 1>::SHARED_BYTES, small = tf32_shape<128, 1>::SHARED_BYTES;
    return big > small ? big : small;
}
