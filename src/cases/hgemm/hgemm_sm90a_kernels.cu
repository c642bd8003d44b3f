/* HGEMM rungs 5-13: the Hopper rungs, from the tensor copy engine (TMA) on
 * mbarriers to warp-specialized, persistent wgmma kernels. Built only for
 * sm_90a (-gencode=arch=compute_90a,code=sm_90a, its own object library:
 * wgmma and setmaxnreg exist on no other target) and run on compute
 * capability 9.0 only. Same problem and layout as hgemm_kernels.cu; the
 * tiles come from tensor maps (hgemm.h), which fill what lies outside A or
 * B with zeros, so no rung here has edge code but its stores. */
#include <algorithm>
#include <type_traits>

#include "harness/check/check.h"
#include "harness/hardware/cluster_launch.cuh"
#include "harness/hardware/shared_memory.cuh"
#include "hgemm_tiles.cuh"
#include "cases/sgemm/sgemm.h"

/* The k-tile `tile` of rows row0.. of a matrix into a stage, counted on
 * `full`. */
__device__ __forceinline__ void tma_load_tile(uint32_t stage, const CUtensorMap &map, int row0, int tile,
                                              uint64_t *full)
{
    tma_load_2d(stage, &map, tile * HGEMM_TILE_K, row0, full);
}

/* ---- Rung 5: TMA into the mma.sync block ------------------------------------ */

/* Rung 5: rung 4's ring, filled by the tensor copy engine: one thread issues
 * two bulk copies per k-tile (A's 128 x 64 and B's) that land already
 * swizzled and count their bytes on the stage's mbarrier; the others wait
 * on it. No address arithmetic or copy instructions in the 256 threads
 * (rung 4 spent 8 cp.async and their index math per thread per tile), and
 * four tiles in flight. The multiply is rung 3's.
 * Measured (H100): 0.506 / 0.453 of cuBLAS (4096^3 / 8192^3), 1.2x rung 4;
 * the limiter is now mma.sync's issue rate, which only wgmma lifts. */
constexpr int TMA_MMA_STAGES = 4;

__global__ void __launch_bounds__(mma_block::THREADS)
    tma_mma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                   float *__restrict__ c, int m, int n, int k)
{
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + TMA_MMA_STAGES * mma_block::STAGE_BYTES);
    uint32_t ring = smem_address(shared);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int block_row = blockIdx.y * mma_block::BM, block_col = blockIdx.x * mma_block::BN;
    int warp_row = warp / 4 * mma_block::WARP_M, warp_col = warp % 4 * mma_block::WARP_N;
    int tiles = hgemm_ceil_div(k, HGEMM_TILE_K);
    auto load = [&](int tile) {
        int s = tile % TMA_MMA_STAGES;
        uint32_t stage = ring + (uint32_t)s * mma_block::STAGE_BYTES;
        mbarrier_arrive_expect_bytes(&full[s], mma_block::STAGE_BYTES);
        tma_load_tile(stage, a_map, block_row, tile, &full[s]);
        tma_load_tile(stage + mma_block::A_BYTES, b_map, block_col, tile, &full[s]);
    };
    if (threadIdx.x == 0) {
        for (int s = 0; s < TMA_MMA_STAGES; ++s) mbarrier_init(&full[s], 1);
        mbarrier_init_fence();
        for (int t = 0; t < TMA_MMA_STAGES && t < tiles; ++t) load(t);
    }
    __syncthreads();
    float acc[mma_block::MI][mma_block::NI][4] = {};
    for (int t = 0; t < tiles; ++t) {
        int s = t % TMA_MMA_STAGES;
        mbarrier_wait(&full[s], (uint32_t)(t / TMA_MMA_STAGES) & 1);
        uint32_t stage = ring + (uint32_t)s * mma_block::STAGE_BYTES;
        mma_block_multiply(acc, stage, stage + mma_block::A_BYTES, warp_row, warp_col, lane);
        /* Every warp is done reading the stage before it is refilled. */
        __syncthreads();
        if (threadIdx.x == 0 && t + TMA_MMA_STAGES < tiles) load(t + TMA_MMA_STAGES);
    }
    mma_block_store(c, m, n, block_row + warp_row, block_col + warp_col, acc, lane);
}

/* ---- wgmma building blocks ---------------------------------------------------- */

/* A warpgroup's share of a wgmma tile: 64 rows of A (a_rows: 64 swizzled
 * 128-byte rows) against BN rows of B^T, one k-tile (4 steps of 16). */
template <int BN>
__device__ __forceinline__ void wgmma_k_tile(float (&acc)[BN / 2], uint32_t a_rows, uint32_t b_rows)
{
#pragma unroll
    for (int step = 0; step < HGEMM_TILE_K / 16; ++step) {
        uint64_t a_desc = wgmma_descriptor_sw128(a_rows + 32 * step);
        uint64_t b_desc = wgmma_descriptor_sw128(b_rows + 32 * step);
        if constexpr (BN == 256)
            wgmma_m64n256k16_bf16(acc, a_desc, b_desc);
        else if constexpr (BN == 192)
            wgmma_m64n192k16_bf16(acc, a_desc, b_desc);
        else if constexpr (BN == 128)
            wgmma_m64n128k16_bf16(acc, a_desc, b_desc);
        else if constexpr (BN == 80)
            wgmma_m64n80k16_bf16(acc, a_desc, b_desc);
        else
            wgmma_m64n64k16_bf16(acc, a_desc, b_desc);
    }
}

/* A warpgroup's 64 x BN accumulator of an m x n product into C at (row0,
 * col0): warp w holds rows 16 w + lane / 4 and + 8. TRANSPOSED: the product
 * is C^T (swap_ab), so element (row, col) goes to C[col][row], C being
 * n x m row-major; a warp's store then covers 4 rows of C with 8
 * consecutive floats each, whole 32-byte sectors. CHECKED: the tile may
 * cross C's edge, and each store tests its place. */
template <int BN, bool TRANSPOSED, bool CHECKED>
__device__ __forceinline__ void wgmma_store_tile(float *__restrict__ c, int m, int n, int row0, int col0,
                                                 const float (&acc)[BN / 2])
{
    int warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
    int row = row0 + 16 * warp + lane / 4;
    if constexpr (TRANSPOSED) {
        /* One pointer walks the columns, 8 m floats a step: an address per
         * element would not fit beside 128 accumulators in the 168
         * registers the kernel is compiled for (it spilled). */
        float *column = c + (size_t)(col0 + 2 * (lane % 4)) * m + row;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j, column += (size_t)8 * m) {
            int col = col0 + 8 * j + 2 * (lane % 4);
            if (!CHECKED || col < n) {
                if (!CHECKED || row < m) column[0] = acc[4 * j];
                if (!CHECKED || row + 8 < m) column[8] = acc[4 * j + 2];
            }
            if (!CHECKED || col + 1 < n) {
                if (!CHECKED || row < m) column[m] = acc[4 * j + 1];
                if (!CHECKED || row + 8 < m) column[m + 8] = acc[4 * j + 3];
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
            int col = col0 + 8 * j + 2 * (lane % 4);
            if constexpr (CHECKED) {
                store_pair(c, m, n, row, col, acc[4 * j], acc[4 * j + 1]);
                store_pair(c, m, n, row + 8, col, acc[4 * j + 2], acc[4 * j + 3]);
            } else {
                float *at = c + (size_t)row * n + col;
                *reinterpret_cast<float2 *>(at) = make_float2(acc[4 * j], acc[4 * j + 1]);
                *reinterpret_cast<float2 *>(at + 8 * (size_t)n) = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
            }
        }
    }
}

/* A tile wholly inside C (all but the edge tiles; for 8-byte stores, N
 * even) stores without a test, in code of its own: tests that choose per
 * store cost every tile the edge tiles' branches (sgemm's 3xtf32_wgmma ran
 * 20% slower with them). */
template <int BN, bool TRANSPOSED = false>
__device__ __forceinline__ void wgmma_store(float *__restrict__ c, int m, int n, int row0, int col0,
                                            const float (&acc)[BN / 2])
{
    if (row0 + 64 <= m && col0 + BN <= n && (TRANSPOSED || n % 2 == 0))
        wgmma_store_tile<BN, TRANSPOSED, false>(c, m, n, row0, col0, acc);
    else
        wgmma_store_tile<BN, TRANSPOSED, true>(c, m, n, row0, col0, acc);
}

/* ---- Rung 6: wgmma, one warpgroup -------------------------------------------- */

/* Rung 6: the multiply moves to wgmma: one warpgroup (4 warps, 128 threads)
 * issues m64n128k16 straight from the swizzled shared tiles (descriptors,
 * no ldmatrix, no fragment registers), the two 64-row halves of a 128 x 128
 * block tile, 8 instructions per k-tile where rung 5 issued 8 warps x 16 x 4
 * ldmatrix and mma.sync. Should move toward the wgmma rate (mma.sync tops
 * out near 2/3 of it on Hopper). Still one thread issues the copies between
 * multiplies, and the group waits for its multiply to finish before the
 * stage is refilled.
 * Measured (H100): 0.669 / 0.658 of cuBLAS (4096^3 / 8192^3), 1.3-1.45x
 * rung 5. Left: the wait for each multiply before the refill (one
 * warpgroup, nothing else to issue meanwhile) and the loads behind it. */
constexpr int WGMMA_STAGES = 4;
constexpr int WGMMA_BM = 128, WGMMA_BN = 128;
constexpr int WGMMA_A_BYTES = WGMMA_BM * HGEMM_ROW_BYTES, WGMMA_STAGE_BYTES = (WGMMA_BM + WGMMA_BN) * HGEMM_ROW_BYTES;

__global__ void __launch_bounds__(128)
    wgmma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                 float *__restrict__ c, int m, int n, int k)
{
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + WGMMA_STAGES * WGMMA_STAGE_BYTES);
    uint32_t ring = smem_address(shared);
    int block_row = blockIdx.y * WGMMA_BM, block_col = blockIdx.x * WGMMA_BN;
    int tiles = hgemm_ceil_div(k, HGEMM_TILE_K);
    auto load = [&](int tile) {
        int s = tile % WGMMA_STAGES;
        uint32_t stage = ring + (uint32_t)s * WGMMA_STAGE_BYTES;
        mbarrier_arrive_expect_bytes(&full[s], WGMMA_STAGE_BYTES);
        tma_load_tile(stage, a_map, block_row, tile, &full[s]);
        tma_load_tile(stage + WGMMA_A_BYTES, b_map, block_col, tile, &full[s]);
    };
    if (threadIdx.x == 0) {
        for (int s = 0; s < WGMMA_STAGES; ++s) mbarrier_init(&full[s], 1);
        mbarrier_init_fence();
        for (int t = 0; t < WGMMA_STAGES && t < tiles; ++t) load(t);
    }
    __syncthreads();
    float acc[2][WGMMA_BN / 2] = {};
    for (int t = 0; t < tiles; ++t) {
        int s = t % WGMMA_STAGES;
        mbarrier_wait(&full[s], (uint32_t)(t / WGMMA_STAGES) & 1);
        uint32_t stage = ring + (uint32_t)s * WGMMA_STAGE_BYTES;
        wgmma_fence();
#pragma unroll
        for (int half = 0; half < 2; ++half)
            wgmma_k_tile<WGMMA_BN>(acc[half], stage + half * (WGMMA_A_BYTES / 2), stage + WGMMA_A_BYTES);
        wgmma_commit();
        wgmma_wait<0>();
        __syncthreads();
        if (threadIdx.x == 0 && t + WGMMA_STAGES < tiles) load(t + WGMMA_STAGES);
    }
#pragma unroll
    for (int half = 0; half < 2; ++half)
        wgmma_store<WGMMA_BN>(c, m, n, block_row + 64 * half, block_col, acc[half]);
}

/* ---- Rungs 7-9: warp specialization ------------------------------------------ */

/* Rung 7: the roles split. Warpgroup 0 produces: one of its threads waits
 * for a free stage (the stage's "empty" mbarrier) and issues its copies;
 * it gives its registers back (setmaxnreg to 40). Warpgroups 1 and 2
 * consume, each 64 rows of the 128 x BN block tile, with up to 232
 * registers; each keeps one k-tile of wgmma in flight (wait_group 1) and
 * releases a stage as soon as the multiply that read it is done. Loads,
 * multiplies of the two consumers and the release no longer wait for one
 * another, and the ring is deeper (6 stages at 128 x 128). (CONSUMERS = 1,
 * one consumer on a 64 x BN tile, serves swap_ab's short tiles.)
 * Rung 8 (BN = 256): 128 x 256 tiles, m64n256k16: each k-tile byte of A
 * now feeds 256 columns, not 128: shared-memory reads per FLOP drop by a
 * third (wgmma reads A and B from shared memory; at 128 x 128 that traffic
 * nears the 128 bytes per clock an SM reads), 4 stages of 48 KB.
 * Rung 9 (PERSISTENT): one block per SM walks the tiles (the swizzled
 * order of sgemm, groups of GROUP_M tile rows, so that the 132 tiles in
 * flight share A and B panels in L2); the producer runs ahead into the
 * next tile while the consumers store this one: the epilogue and the
 * pipeline's fill overlap the next tile's loads, and no block launches or
 * drains a ring per tile.
 * Measured (H100 SXM, ratio to cuBLAS BF16, 4096^3 / 8192^3 / 4095 x 4097
 * x 4093, where cuBLAS takes a slow path, 85 TFLOP/s):
 *   warp_specialized  0.722 / 0.532 / 4.97  (8192: noisy, throttled)
 *   ws_128x256        0.870 / 0.677 / 5.35  (8192: noisy, throttled)
 *   persistent        0.938 / 0.981 / 5.07; a second run 0.952 / 0.846
 *                     (throttled); a third 0.973 / 0.986 / 5.15,
 *                     698-779 TFLOP/s over the three
 * At 8192^3 the non-persistent rungs lose to L2: row-major block order
 * puts 132 blocks on 4 tile rows and all 32 tile columns, so every wave
 * streams all of B (128 MB, more than the 50 MB L2) from DRAM; the grouped
 * order of the persistent rung fixes that (0.68 -> 0.98). The limiter of
 * the persistent rung (Nsight Compute, 8192^3): the tensor pipe busy 91.6%
 * of elapsed cycles (83.8% at 4096^3), L2 79%, DRAM 34%, no spills, 168
 * registers at entry. What is left is the tile change: both consumers
 * drain their wgmma, store 128 KB of C from registers and restart the
 * pipeline together, and the tensor pipe idles meanwhile; at 4096^3 (64
 * k-tiles a tile) that costs twice what it costs at 8192^3, hence 0.94-0.97
 * against 0.98-0.99. Rung 10's notes go on from there. */
/* The first k-tile of slice `slice` of `slices` (the last slice ends at
 * k_tiles): slices differ by at most one k-tile. */
__device__ __forceinline__ int k_slice_begin(int slice, int k_tiles, int slices)
{
    return (int)((long long)slice * k_tiles / slices);
}

constexpr int WS_PRODUCER_REGISTERS = 40, WS_GROUP_M = 8;

/* A block tile of 64 x CONSUMERS rows by BN, a consumer warpgroup each 64
 * rows, beside the producer's warpgroup; each consumer takes the registers
 * the producer gives back (232 of two, 152 of three: 64K a block). */
template <int BN, int STAGES, int CONSUMERS = 2>
struct ws_shape {
    static constexpr int BM = 64 * CONSUMERS, THREADS = 128 * (1 + CONSUMERS);
    static constexpr int CONSUMER_REGISTERS = CONSUMERS == 3 ? 152 : 232;
    static constexpr int A_BYTES = BM * HGEMM_ROW_BYTES, STAGE_BYTES = (BM + BN) * HGEMM_ROW_BYTES;
    static constexpr size_t SHARED_BYTES = (size_t)STAGES * STAGE_BYTES + 2 * STAGES * sizeof(uint64_t) + 1024;
    static_assert(SHARED_BYTES <= 227 * 1024, "fits Hopper's 227 KB a block");
};

/* A tile's columns of the kernel's product: BN, or with TRANSPOSED_C
 * (swap_ab, whose columns of C^T are A's rows) as many as
 * hgemm_swap_ab_tile_cols gives, at most BN. */
template <int BN, bool TRANSPOSED_C>
__host__ __device__ __forceinline__ int ws_tile_cols(int n)
{
    return TRANSPOSED_C ? hgemm_swap_ab_tile_cols(n, BN) : BN;
}

template <int BN, int STAGES, bool PERSISTENT, int CLUSTER, bool TRANSPOSED_C = false, int CONSUMERS = 2>
__global__ void __launch_bounds__(ws_shape<BN, STAGES, CONSUMERS>::THREADS, 1)
    warp_specialized_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                            float *__restrict__ c, int m, int n, int k, int splits)
{
    static_assert(CLUSTER == 1 || PERSISTENT, "clusters walk the tiles as persistent blocks");
    typedef ws_shape<BN, STAGES, CONSUMERS> S;
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + STAGES * S::STAGE_BYTES), *empty = full + STAGES;
    uint32_t ring = smem_address(shared);
    /* b_map's box is tile_cols tall: with TRANSPOSED_C, rows past A would
     * only feed columns of C^T that are never stored, and TMA's zero fill of
     * rows outside a matrix costs time. */
    int tile_cols = ws_tile_cols<BN, TRANSPOSED_C>(n);
    int tiles_m = hgemm_ceil_div(m, S::BM), tiles_n = hgemm_ceil_div(n, tile_cols);
    int k_tiles = hgemm_ceil_div(k, HGEMM_TILE_K);
    /* A unit is CLUSTER tiles stacked in one tile column, one a block of
     * the cluster, which share their B tile. A work item is a unit and a
     * slice of K (splits > 1: split_k and swap_ab, whose slice s goes to
     * the s-th m x n partial at c). */
    int units_m = hgemm_ceil_div(tiles_m, CLUSTER), units = units_m * tiles_n, items = units * splits;
    int rank = CLUSTER > 1 ? (int)cluster_rank() : 0;
    int first = PERSISTENT ? blockIdx.x / CLUSTER : blockIdx.y * tiles_n + blockIdx.x;
    int step = PERSISTENT ? gridDim.x / CLUSTER : units;
    int group_m = PERSISTENT ? WS_GROUP_M / CLUSTER : 1;
    /* the consumer warps of every block read each stage */
    ring_barriers_init<CLUSTER>(full, empty, STAGES, 4 * CONSUMERS);
    /* The split-K sum, where it follows, may be launched now: it waits for
     * this grid's end (grid_dependency_wait), and is ready to run then. */
    grid_dependents_launch();
    int warpgroup = threadIdx.x / 128;
    int s = 0;
    uint32_t phase = 0;
    auto next_stage = [&]() {
        if (++s == STAGES) s = 0, phase ^= 1;
    };
    if (warpgroup == 0) {
        setmaxnreg_decrease<WS_PRODUCER_REGISTERS>();
        int stage_bytes = S::A_BYTES + tile_cols * HGEMM_ROW_BYTES;
        if (threadIdx.x == 0) {
            for (int item = first; item < items; item += step) {
                int unit_m, tile_n, split = item / units;
                sgemm_swizzled_tile(item % units, units_m, tiles_n, group_m, &unit_m, &tile_n);
                /* A block past the last tile row still brings its half of
                 * B for its peer (and the last row's A); its stores all
                 * fall outside C. */
                int tile_m = min(CLUSTER * unit_m + rank, tiles_m - 1);
                int t_end = k_slice_begin(split + 1, k_tiles, splits);
                for (int t = k_slice_begin(split, k_tiles, splits); t < t_end; ++t) {
                    mbarrier_wait(&empty[s], phase ^ 1);
                    uint32_t stage = ring + (uint32_t)s * S::STAGE_BYTES;
                    mbarrier_arrive_expect_bytes(&full[s], stage_bytes);
                    tma_load_tile(stage, a_map, tile_m * S::BM, t, &full[s]);
                    /* Each block of the cluster brings BN / CLUSTER rows of
                     * the B tile into all of them (b_map's box is that
                     * tall). */
                    constexpr int share = BN / CLUSTER;
                    if constexpr (CLUSTER > 1)
                        tma_load_2d_multicast(stage + S::A_BYTES + rank * share * HGEMM_ROW_BYTES, &b_map,
                                              t * HGEMM_TILE_K, tile_n * BN + rank * share, &full[s],
                                              (1 << CLUSTER) - 1);
                    else
                        tma_load_tile(stage + S::A_BYTES, b_map, tile_n * tile_cols, t, &full[s]);
                    next_stage();
                }
            }
        }
    } else {
        setmaxnreg_increase<S::CONSUMER_REGISTERS>();
        int consumer = warpgroup - 1, lane = threadIdx.x % 32;
        /* Done with a stage: every block that writes into it must hear so
         * before it does again. */
        auto release = [&](int stage) {
            if (lane == 0) mbarrier_arrive_cluster<CLUSTER>(&empty[stage]);
        };
        for (int item = first; item < items; item += step) {
            int unit_m, tile_n, split = item / units;
            sgemm_swizzled_tile(item % units, units_m, tiles_n, group_m, &unit_m, &tile_n);
            int tile_m = CLUSTER * unit_m + rank;
            int t_end = k_slice_begin(split + 1, k_tiles, splits);
            float acc[BN / 2];
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;
            int previous = -1;
            for (int t = k_slice_begin(split, k_tiles, splits); t < t_end; ++t) {
                mbarrier_wait(&full[s], phase);
                uint32_t stage = ring + (uint32_t)s * S::STAGE_BYTES;
                wgmma_fence();
                wgmma_k_tile<BN>(acc, stage + consumer * 64 * HGEMM_ROW_BYTES, stage + S::A_BYTES);
                wgmma_commit();
                /* The previous k-tile's multiply is done: its stage is free. */
                wgmma_wait<1>();
                if (previous >= 0) release(previous);
                previous = s;
                next_stage();
            }
            wgmma_wait<0>();
            release(previous);
            /* C^T's columns past the tile's are the next tile's */
            int col0 = tile_n * tile_cols, store_n = TRANSPOSED_C ? min(n, col0 + tile_cols) : n;
            wgmma_store<BN, TRANSPOSED_C>(c + (size_t)split * m * n, m, store_n, tile_m * S::BM + 64 * consumer, col0,
                                          acc);
        }
    }
    /* A peer may still arrive on this block's barriers. */
    if constexpr (CLUSTER > 1) cluster_sync();
}

/* ---- Launchers ---------------------------------------------------------------- */

/* The 1024-byte alignment of the ring costs up to 1 KB more. */
static constexpr size_t TMA_MMA_SHARED =
    (size_t)TMA_MMA_STAGES * mma_block::STAGE_BYTES + TMA_MMA_STAGES * sizeof(uint64_t) + 1024;
static constexpr size_t WGMMA_SHARED = (size_t)WGMMA_STAGES * WGMMA_STAGE_BYTES + WGMMA_STAGES * sizeof(uint64_t) + 1024;

extern "C" void hgemm_tma_mma(const hgemm_problem *p, cudaStream_t stream)
{
    allow_shared_bytes<tma_mma_kernel>(TMA_MMA_SHARED);
    dim3 grid(hgemm_ceil_div(p->n, mma_block::BN), hgemm_ceil_div(p->m, mma_block::BM));
    tma_mma_kernel<<<grid, mma_block::THREADS, TMA_MMA_SHARED, stream>>>(p->a_rows128, p->b_rows128, p->c, p->m,
                                                                        p->n, p->k);
    CUDA_CHECK_LAUNCH();
}

extern "C" void hgemm_wgmma(const hgemm_problem *p, cudaStream_t stream)
{
    allow_shared_bytes<wgmma_kernel>(WGMMA_SHARED);
    dim3 grid(hgemm_ceil_div(p->n, WGMMA_BN), hgemm_ceil_div(p->m, WGMMA_BM));
    wgmma_kernel<<<grid, 128, WGMMA_SHARED, stream>>>(p->a_rows128, p->b_rows128, p->c, p->m, p->n, p->k);
    CUDA_CHECK_LAUNCH();
}

static int multiprocessors()
{
    static int sms = 0;
    if (!sms) {
        int device;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    }
    return sms;
}

/* The kernel's product is m x n (C's, or C^T's with TRANSPOSED_C).
 * splits > 1: the products of the K slices go to that many m x n partials
 * at c (the split-K rungs). Persistent: `blocks` resident blocks at most, in
 * clusters of CLUSTER. */
template <int BN, int STAGES, bool PERSISTENT, int CLUSTER = 1, bool TRANSPOSED_C = false, int CONSUMERS = 2>
static cudaLaunchConfig_t warp_specialized_config(int m, int n, int splits, int blocks, cudaLaunchAttribute *cluster,
                                                  cudaStream_t stream)
{
    typedef ws_shape<BN, STAGES, CONSUMERS> S;
    allow_shared_bytes<warp_specialized_kernel<BN, STAGES, PERSISTENT, CLUSTER, TRANSPOSED_C, CONSUMERS>>(
        S::SHARED_BYTES);
    int tiles_m = hgemm_ceil_div(m, S::BM);
    int tiles_n = hgemm_ceil_div(n, ws_tile_cols<BN, TRANSPOSED_C>(n));
    long long items = (long long)hgemm_ceil_div(tiles_m, CLUSTER) * CLUSTER * tiles_n * splits;
    cudaLaunchConfig_t config = cluster_config(items < blocks ? (unsigned)items : (unsigned)blocks, S::THREADS,
                                               S::SHARED_BYTES, CLUSTER, cluster, stream);
    if (!PERSISTENT) config.gridDim = dim3(tiles_n, tiles_m);
    return config;
}

/* C (or its partials) from the problem's A in boxes of 64 x CONSUMERS rows
 * and its B in boxes of BN / CLUSTER rows; TRANSPOSED_C: the maps of B^T and A^T,
 * m and n exchanged. */
template <int BN, int STAGES, bool PERSISTENT, int CLUSTER = 1, bool TRANSPOSED_C = false, int CONSUMERS = 2>
static void launch_warp_specialized(const CUtensorMap &a_map, const CUtensorMap &b_map, float *c, int m, int n, int k,
                                    int splits, int blocks, cudaStream_t stream)
{
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config = warp_specialized_config<BN, STAGES, PERSISTENT, CLUSTER, TRANSPOSED_C, CONSUMERS>(
        m, n, splits, blocks, &cluster, stream);
    CUDA_CHECK(cudaLaunchKernelEx(&config,
                                  warp_specialized_kernel<BN, STAGES, PERSISTENT, CLUSTER, TRANSPOSED_C, CONSUMERS>,
                                  a_map, b_map, c, m, n, k, splits));
}

template <int BN, int STAGES, bool PERSISTENT, int CLUSTER = 1>
static void launch_warp_specialized(const hgemm_problem *p, const CUtensorMap &b_map, float *c, int splits,
                                    int blocks, cudaStream_t stream)
{
    launch_warp_specialized<BN, STAGES, PERSISTENT, CLUSTER>(p->a_rows128, b_map, c, p->m, p->n, p->k, splits, blocks,
                                                             stream);
}

constexpr int WS_128_STAGES = 6, WS_256_STAGES = 4;

extern "C" void hgemm_warp_specialized(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<128, WS_128_STAGES, false>(p, p->b_rows128, p->c, 1, 0, stream);
}

extern "C" void hgemm_ws_128x256(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<256, WS_256_STAGES, false>(p, p->b_rows256, p->c, 1, 0, stream);
}

extern "C" void hgemm_persistent(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<256, WS_256_STAGES, true>(p, p->b_rows256, p->c, 1, multiprocessors(), stream);
}

/* Rung 10, persistent_multicast: rung 9's blocks in clusters of two,
 * stacked in M (tile rows 2u and 2u + 1 of one tile column), that share
 * their B tile: each brings 128 of its 256 rows into both by TMA multicast,
 * so a block reads 32 KB from L2 a k-tile where it read 48 KB; the grouped
 * order now walks these pairs (groups of 4, 8 tile rows as before).
 * Consumers free a stage in both blocks (the empty barriers count 16
 * arrivals). The same step as sgemm's tf32_wgmma_multicast, which shares A.
 * Measured (H200, ratio to cuBLAS BF16, 4096^3 / 8192^3 / 6144^3, two runs
 * in one call beside one of rung 9):
 *   persistent             0.957 / 0.972 / 0.943, then 0.890 / 0.819 / 0.927
 *                          (throttled); ncu at 4096^3: 193.6 us at 1.59 GHz,
 *                          tensor pipe 82.7%, L2 1.55 GB, DRAM 187 MB
 *   persistent_multicast   0.950 / 0.984 / 0.952 and 0.953 / 0.984 / 0.953;
 *                          ncu at 4096^3: 193.5 us at 1.62 GHz, tensor pipe
 *                          81.3%, L2 1.44 GB
 * At 8192^3 the L2 bytes were a limiter and multicast gains 1.2%; at 4096^3
 * the limiter is the tile change. All 132 blocks finish their tiles together
 * and store 128 KB each at once (17 MB): about 5 us of ~48 us a tile, from
 * the tensor pipe's idle share at 4096^3 and 8192^3, while the tensor core
 * waits. Whole tiles stored without a test (wgmma_store_tile, CHECKED
 * false) made that cheaper: H100, one call, 0.941 / 0.978 / 0.949 and
 * 0.941 / 0.984 / 0.948 against 0.922 / 0.977 / 0.947 and 0.909 / 0.975 /
 * 0.947 with a test per store (the 4096^3 ones throttled).
 * Tried and dropped: consumers in ping-pong (alternate tiles of 64 x 256,
 * their multiplies ordered by two named barriers, 5 stages of 40 KB, the
 * same clusters): 0.872-0.876 / 0.802-0.897 / 0.885. The stores no longer
 * stop the tensor core, but each 64-row tile reads its B tile again: L2
 * 2.05 GB against 1.44, more power, 1.53 GHz, tensor pipe 78.0% (ncu at
 * 4096^3, 212.9 us). A consumer must also not wait on a stage before the
 * other has waited on every stage before it: the full barrier's parity
 * cannot tell phases apart, so a consumer a whole tile ahead would take an
 * earlier k-tile for its own (without the named barriers, the run at
 * 4096^3 failed; every test size had fewer k-tiles than stages). Also
 * dropped: the second consumer started 1, 2 or 3 k-tiles behind the first
 * (a named barrier at its first k-tile), so that the two store their
 * halves of a tile at different times while the other multiplies: H100,
 * one call, two rounds, 0.933-0.965 / 0.972-0.976 / 0.939-0.942 against
 * 0.939 (and 0.906 throttled) / 0.972-0.973 / 0.941-0.942: no change.
 * Then 128 x 192 tiles (wgmma m64n192k16, 5 stages of 40 KB, B's halves
 * in boxes of 96 rows) where they fill the rounds of the resident blocks
 * more than 5% better than 128 x 256 (hgemm_multicast_width: 3072^3 makes
 * 2.18 waves of the wider tiles, 2.91 of these). H100, one call, against
 * the 256-wide tiles: 90.5 against 113.6 us at 3072^3 (0.887 against
 * 0.707 of cuBLAS), 118.0 against 127.8 us at 3000^3 (0.688 against
 * 0.638: rows off the 128-byte grid there too), 22.2 against 25.9 us at
 * 1536^3 (0.775 against 0.664), 78.2 against 99.9 us at 2305 x 2100 x
 * 4096, 290.6 against 297.1 us at 4095 x 4097 x 4093. The default square
 * sizes keep 256. Next: the stores through shared memory and TMA, and an
 * order that spreads the blocks' tile changes apart. */
constexpr int WS_192_STAGES = 5;

extern "C" void hgemm_persistent_multicast(const hgemm_problem *p, cudaStream_t stream)
{
    if (p->multicast_width == 192)
        launch_warp_specialized<192, WS_192_STAGES, true, 2>(p, p->b_rows96, p->c, 1, p->cluster_blocks, stream);
    else
        launch_warp_specialized<256, WS_256_STAGES, true, 2>(p, p->b_rows128, p->c, 1, p->cluster_blocks, stream);
}

/* Blocks of persistent_multicast's clusters that can be resident at once. */
extern "C" int hgemm_cluster_blocks(const hgemm_problem *p)
{
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config =
        warp_specialized_config<256, WS_256_STAGES, true, 2>(p->m, p->n, 1, 2 * multiprocessors(), &cluster, 0);
    config.gridDim = dim3(2 * multiprocessors());
    return resident_cluster_blocks<warp_specialized_kernel<256, WS_256_STAGES, true, 2>>(config);
}

/* ---- Rung 11: split K --------------------------------------------------------- */

/* C = the sum of the split_k partials in a fixed order, the same for every
 * element and every run: deterministic, bit for bit. A block takes
 * REDUCE_COLUMNS chunks of C (4 floats each, 1 where m n is not a multiple
 * of 4 and slices would not start 16-byte aligned) and REDUCE_GROUPS
 * threads a chunk: group q adds slices q, q + REDUCE_GROUPS, ... in turn,
 * then group 0 adds the groups' sums in group order. Each thread has only
 * splits / REDUCE_GROUPS loads to make, all in flight at once: one round
 * trip to L2, where a thread a chunk made 66 (at 256 x 256 x 65536) in
 * batches of 8. */
constexpr int REDUCE_COLUMNS = 32, REDUCE_GROUPS = 8;

template <int VECTOR>
__global__ void __launch_bounds__(REDUCE_COLUMNS * REDUCE_GROUPS)
    split_k_reduce_kernel(const float *__restrict__ partials, float *__restrict__ c, size_t count, int splits)
{
    typedef typename std::conditional<VECTOR == 4, float4, float>::type chunk;
    __shared__ chunk group_sums[REDUCE_GROUPS][REDUCE_COLUMNS];
    grid_dependency_wait(); /* the partials are written */
    const chunk *in = reinterpret_cast<const chunk *>(partials);
    size_t chunks = count / VECTOR, i = (size_t)blockIdx.x * REDUCE_COLUMNS + threadIdx.x % REDUCE_COLUMNS;
    int q = threadIdx.x / REDUCE_COLUMNS;
    auto add = [](chunk &sum, const chunk &x) {
        if constexpr (VECTOR == 4) {
            sum.x += x.x;
            sum.y += x.y;
            sum.z += x.z;
            sum.w += x.w;
        } else {
            sum += x;
        }
    };
    chunk sum = {};
    if (i < chunks)
#pragma unroll 16
        for (int s = q; s < splits; s += REDUCE_GROUPS) add(sum, in[(size_t)s * chunks + i]);
    group_sums[q][threadIdx.x % REDUCE_COLUMNS] = sum;
    __syncthreads();
    if (q == 0 && i < chunks) {
        for (int g = 1; g < REDUCE_GROUPS; ++g) add(sum, group_sums[g][threadIdx.x]);
        reinterpret_cast<chunk *>(c)[i] = sum;
    }
}

/* Rung 11: where C's tiles leave most SMs idle (256 x 256 x 65536: 4
 * tiles of 128 x 128 for 132 SMs), the persistent kernel takes tiles times
 * slices of K as its work items (hgemm_split_k_count: about one item per
 * SM, each at least 4 k-tiles), each writing its FP32 partial product to
 * its own m x n slice; a second kernel adds the slices in a fixed order.
 * No atomics: deterministic, at the price of writing and reading the
 * partials (splits x m x n x 4 bytes: 8.7 MB at 256 x 256, in L2).
 * Measured (H100, ratio to cuBLAS at 256 x 256 x 65536 / 1 x 4096 x 4096 /
 * 16 x 4096 x 4096 / 4096 x 1 x 4096):
 *   128 x 256 tiles (persistent's), one thread a float4 of C adding all
 *   66 slices in turn           0.613 / 0.739 / 0.722 / 0.625
 *   the same, reduce by 8 thread groups a chunk
 *                               0.739 / 0.765 / 0.744 / 0.656
 *   128 x 128 tiles, 6 stages (the rung: half the partials, 33 slices at
 *   256 x 256)                  0.843 / 0.801 / 0.793 / 0.813
 * The shape is bound by reading A and B (64 MB: cuBLAS streams them at
 * 2.3 TB/s, 75% of the copy rate; this rung at 1.9 TB/s, 63%); the
 * partials' round trip through L2 and the second launch are the rest.
 * The sum launched as a programmatic dependent of the product (H200, same
 * call): 0.839 against 0.825 at 256 x 256 x 65536, 0.894 against 0.872 at
 * 128 x 4096 x 14336; 0.865 in the committed run.
 * Tried and dropped: the slices summed in the product's kernel, no second
 * launch (each block one item, a cooperative launch; a tile's blocks meet
 * on a counter after a fence, then each adds an even share of the tile
 * over the slices in order, 8 threads a chunk where the share is small).
 * H100, one call, two rounds each, against this rung:
 *   split_k 0.790-0.800 against 0.867-0.872 at 256 x 256 x 65536, 0.753-0.763
 *   against 0.821-0.824 at 64 x 4096 x 4096; swap_ab 0.777-0.786 against
 *   0.840-0.850 at 64 x 4096 x 4096, 0.665-0.670 against 0.755-0.761 at
 *   200 x 4096 x 4096, 0.796-0.809 against 0.880-0.884 at 17 x 4096 x 4096;
 *   the same without the cooperative attribute.
 * The fences, the wait for a tile's last block and a sum by 256 threads a
 * block cost more than a second kernel that spreads the sum over 512-6400
 * blocks and starts as the product ends. */
static void split_k_reduce(const hgemm_problem *p, int splits, cudaStream_t stream)
{
    size_t count = (size_t)p->m * p->n;
    int vector = count % 4 == 0 ? 4 : 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)((count / vector + REDUCE_COLUMNS - 1) / REDUCE_COLUMNS));
    config.blockDim = dim3(REDUCE_COLUMNS * REDUCE_GROUPS);
    config.stream = stream;
    /* A programmatic dependent of the product (the launch is ready when the
     * product ends): 2.5-5% of swap_ab's and split_k's time (H200). */
    cudaLaunchAttribute dependent;
    dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &dependent;
    config.numAttrs = 1;
    if (vector == 4)
        CUDA_CHECK(cudaLaunchKernelEx(&config, split_k_reduce_kernel<4>, (const float *)p->partials, p->c, count,
                                      splits));
    else
        CUDA_CHECK(cudaLaunchKernelEx(&config, split_k_reduce_kernel<1>, (const float *)p->partials, p->c, count,
                                      splits));
}

extern "C" void hgemm_split_k(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<128, WS_128_STAGES, true>(p, p->b_rows128, p->partials, p->split_k, multiprocessors(),
                                                      stream);
    split_k_reduce(p, p->split_k, stream);
}

/* ---- Rung 12: swap A and B ---------------------------------------------------- */

/* Rung 12, swap_ab: for M from 17 to 256 the square-tile rungs waste most
 * of each 128-row tile of A, and give the GPU one tile per 128 or 256
 * columns of C (32 x 11008: 43 tiles of 128 x 256 for 132 SMs). This rung
 * computes C^T = B A^T instead: wgmma's M side (128 rows a block, 64 a
 * consumer) walks B's N rows, and A's few rows become wgmma's N, 64, 128
 * or 256 wide (hgemm_swap_ab_width): no padding rows past the next 64. The
 * kernel is rung 9's, with B's and A's maps in each other's place and its
 * stores transposed (wgmma_store); it is bound by streaming B once. Where
 * B's tiles give fewer than half the SMs one, it splits K by split_k's
 * rule (hgemm_swap_ab_splits) and adds the slices as split_k does. The
 * deepest ring that fits (8 stages of 24 KB at width 64) keeps 128 KB of B
 * in flight an SM.
 * Measured (H200, ratio to cuBLAS BF16 in the same process; shapes M x N x
 * K: 32 x 11008 x 4096 / 128 x 4096 x 14336 / 8 x 14336 x 4096 / 64 x 4096
 * x 4096 / 96 x 8192 x 8192 / 200 x 4096 x 4096):
 *   slices chosen to load the busiest SM least, partials' round trip
 *   counted (3 slices at 32 x 11008), the sum launched plainly
 *                     0.818 / 0.850 / 0.812 / 0.762 / 0.793 / 0.702
 *   the sum a programmatic dependent (split_k_reduce)
 *                     0.858 / 0.893 / 0.848 / 0.819 / 0.825 / 0.753
 *   split_k's rule (the rung): no slices at 32 x 11008 (86 tiles)
 *                     0.965 / 0.882 / 0.878 / 0.791 / 0.810 / 0.754, and
 *                     0.921-0.927 / 0.877-0.895 / 0.887 / 0.824 / 0.830 /
 *                     0.761 in two more runs; ws_128x256 0.596 at 32 x 11008
 * Slices at 32 x 11008, one run each: 1: 0.928, 2: 0.772, 3: 0.855, 4:
 * 0.819, 6: 0.817; at 128 x 4096 x 14336 (32 tiles): 1: 0.511, 2: 0.832,
 * 3: 0.877, 4: 0.891, 6: 0.761. Nsight Compute at 32 x 11008, whole: 26.6
 * us, DRAM 72.6% of peak; cuBLAS runs the same swap (nvjet 128x32 tiles, 10
 * stages, 88 blocks), 27.2 us, 71.2%: parity. Where cuBLAS leads, it takes
 * 64-row tiles on every SM and 16 stages (8 x 14336: DRAM 77.8% against
 * our 66.8% on 112 blocks) or splits M into 64-wide tiles and K in two
 * (128 x 4096 x 14336: 128 blocks, 77.6%).
 * Tried and dropped (same runs, against the rung's 0.927 / 0.895 / 0.887 /
 * 0.824 / 0.830 / 0.761):
 *   width 64 at every M (more tiles, fewer slices; B read again from L2
 *   per 64 of A's rows)   0.926 / 0.774 / 0.926 (cuBLAS slower that run) /
 *                         0.836 / 0.727 / 0.666; 250 x 5000 x 3000 0.45
 *                         against 0.63
 *   B's loads under an L2 evict-first policy
 *                         0.872 / 0.883 / 0.825 / 0.818 / 0.818 / 0.762
 *   two k-tiles a stage (4 stages of 48 KB: 256 bytes of a row in one
 *   stage), whole       0.969 against 0.999 at 32 x 11008, 0.818 against
 *                       0.852 at 8 x 14336: longer runs along a row do not
 *                       raise what DRAM gives.
 *   cuBLAS's 64-row tiles: one consumer warpgroup a block, two blocks an
 *   SM (6 stages at width 64, 4 at 128; the slices over 264 blocks)
 *                       0.740 / 0.907-0.912 / 0.656-0.664 / 0.835-0.837 /
 *                       0.605-0.614 against 0.931-0.933 / 0.894-0.897 /
 *                       0.871-0.882 / 0.818-0.825 / 0.820-0.827 in two
 *                       rounds; 0.636 against 0.887 at 17 x 8192 x 8192.
 *                       Two blocks keep 96 KB of B in flight an SM, not
 *                       128: more tiles, but less streaming.
 *   9 stages at width 64 (144 KB of B in flight), two rounds each in one
 *   call: 0.929 against 0.942 at 32 x 11008, 0.948-0.949 against
 *   0.926-0.927 at 8 x 14336, level at 17 x 8192^2, 64 x 4096^2 and
 *   16 x 4096^2: no clear gain, the default shape loses.
 *   stream-K's schedule (the k-tiles of all tiles end to end, an even range
 *   a block; the block that begins a tile adds the others' parts from
 *   workspace slots, in block order, after waiting on their flags; branch
 *   stream-k), H100, one call, two rounds each, against this rung:
 *                       0.975 / 0.923-0.943 / 0.904-0.907 / 0.807-0.813 /
 *                       0.891-0.894 / 0.616-0.617 against 0.994-1.006 /
 *                       0.974 / 0.951-0.968 / 0.850-0.852 / 0.891 /
 *                       0.748-0.749; 0.796-0.799 against 0.879 at 17 x
 *                       4096 x 4096. Every SM streams B, but a tile's
 *                       owner then waits for its last part and adds the
 *                       parts alone.
 * cuBLAS at 17 and 64 x 4096 x 4096 (Nsight Compute, H100) splits no K:
 * 64-row tiles by 24 or 32 of A's rows, 16 stages, in clusters of 4 (64
 * blocks) or 2 (128 blocks, M halved), one kernel of 15.8 and 16.4 us,
 * where this rung's product took 16.7 us and its sum 3.8-5.4 more. Two
 * changes followed (2026-11-26):
 *   A's box is its m rows rounded up to 8 (later not rounded at all,
 *   below), not the width: TMA's zero fill of the rows past A cost time
 *   (64-row tiles, unsplit, at 4096 x 4096: 21.2 us at M = 17, 19.9 at 24,
 *   18.3 at 48, 17.8 at 64, with the same bytes read; after the change
 *   17.4-17.6 at 17 and 24).
 *   At widths 64 and 128, where 128-row tiles would give fewer than half
 *   the SMs one, 64-row tiles with one consumer warpgroup (CONSUMERS = 1,
 *   256 threads) and the ring that fits (14 stages at width 64, 9 at 128):
 *   twice the tiles, and with them fewer slices or none
 *   (hgemm_swap_ab_splits).
 * Measured (H100, one call, two rounds each, ratio to cuBLAS; before: the
 * rung without either change, built beside it):
 *   64 x 4096 x 4096      0.978 / 0.963 against 0.852 / 0.855
 *   17 x 4096 x 4096      0.971 / 0.960 against 0.876 / 0.878 (previous call)
 *   100 x 4096 x 4096     0.914 / 0.913 against 0.789 / 0.782 (previous call)
 *   64 x 3072 x 8192      1.020 / 1.026 against 0.923 / 0.940
 *   96 x 8192 x 8192      0.985 / 0.984 against 0.890 / 0.888 (previous call)
 *   128 x 4096 x 14336    0.984 / 0.985 against 0.976 / 0.976
 *   8 x 14336 x 4096      0.972 / 0.971 against 0.951 / 0.951 (128-row
 *                         tiles; the box alone)
 *   77 x 5000 x 3000      0.650 / 0.660 against 0.687 / 0.687: 79 tiles of
 *                         47 k-tiles each, where 40 x 3 slices did better
 * Then M from 129 to 256: 64-row tiles 128 wide, A's rows in two tiles of
 * equal width rounded up to 8 (hgemm_swap_ab_tile_cols: 104 each at M =
 * 200, whose boxes end at A's edge), where those tiles make one wave at
 * most; else 128-row tiles 256 wide. H100, one call, against the rung
 * before: 1.040 against 0.805 at 129 x 4096 x 4096, 0.906 against 0.759 at
 * 200 x 4096 x 4096, 1.152 against 0.745 at 256 x 4096 x 4096, 0.990
 * against 0.859 at 160 x 3072 x 8192; 0.946 at 256 x 256 x 65536 (8 tiles
 * in 16 slices) where split_k gives 0.869. A first try that cut A's rows
 * as 128 and the rest lost where the rest was short (0.520 against 0.772
 * at 129 x 4096 x 4096: a box of 127 rows past A), and without the
 * one-wave limit 250 x 5000 x 3000 fell to 0.43 of cuBLAS from 0.63 (H200:
 * 79 x 2 tiles). Where they make more, 128-row tiles in the same two
 * widths, where those make one wave (hgemm_swap_ab_tile_width): 0.86
 * against 0.66 at 192 x 6144 x 4096, 0.95 against 0.80 at 200 x 8192 x
 * 8192 (H100).
 * Then past one wave at M 129-256 (two 128-row tiles across A's rows make
 * more than the SMs): 192-row tiles (CONSUMERS = 3, 152 registers each,
 * 5 stages of 40 KB), where those make one wave. Nsight Compute showed
 * cuBLAS there with 192 x 104 tiles (nvjet 192x104, 116 tiles at 200 x
 * 11008 x 4096, tensor pipe 52% against our 49% on 86 SMs busy). H100, one
 * call, two rounds each, against the 128 x 256 tiles before:
 *   200 x 11008 x 4096   0.959 / 0.969 against 0.838 / 0.846
 *   256 x 11008 x 4096   0.925 / 0.878 against 0.834 / 0.828
 *   160 x 9216 x 4096    0.887 / 0.885 against 0.729 / 0.728
 *   144 x 12288 x 4096   0.937 / 0.938 against 0.875 / 0.874
 *   200 x 11008 x 8192   0.864 / 0.890 against 0.837 / 0.843
 *   240 x 10240 x 2048   0.972 / 0.972 against 0.871 / 0.800
 * In the same session (H100) every other choice the rules could make was
 * forced at five shapes; none beat the rules' own (K split in 2 or 3 cost
 * 10-30% where M is 100-250: the partials are as large as C).
 * Then A's boxes exactly its rows' share, no longer rounded up to 8 (no box
 * past A but by a row; the rows of a stage past the box feed columns never
 * stored). H100, one call, two rounds against the build before: 0.931 /
 * 0.931 against 0.906 / 0.894 at 200 x 4096 x 4096, 0.936 / 0.933 against
 * 0.893 / 0.897 at 129 x 4096 x 4096, 0.668 / 0.671 against 0.645 / 0.646
 * at 77 x 5000 x 3000, 0.634 / 0.633 against 0.605 / 0.620 at 250 x 5000 x
 * 3000; level at 17 x 4096^2, 64 x 4096^2, 100 x 4096^2, 100 x 3072 x 8192.
 * Tried and dropped in that session: swap_ab's tiles in clusters of two
 * stacked in B's rows that share A's tile by multicast (the kernel's
 * CLUSTER, each block bringing half of A's rows). H100, one call, two
 * rounds: 0.774 / 0.773 against 0.657 / 0.659 at 77 x 5000 x 3000, 0.738
 * against 0.61 at 250 x 5000 x 3000 (both with rows past A in the box, the
 * cluster halving them), but 0.88 against 0.96 at 64 x 4096^2, 0.79
 * against 0.98 at 128 x 4096 x 14336, 0.80 against 0.90 at 256 x 4096^2,
 * 0.78-0.81 against 0.85-0.86 at 192 x 6144 x 4096, 1.03 against 1.05 at
 * 32 x 11008 x 4096, 0.963 against 0.98 at 96 x 8192^2.
 * What those two shapes share is K = 3000: rows 6000 bytes apart, so each
 * 128-byte row of a box straddles two L2 lines. H100, one call: swap_ab
 * 22.6 us at 250 x 5000 x 3072 (0.898 of cuBLAS) against 37.7 at K = 3000
 * (0.628), 17.9 against 24.7 us at 77 x 5000 (0.914 against 0.669);
 * cuBLAS 20.3 against 23.7 and 16.3 against 16.5 us; narrow_tiles 0.962
 * against 0.701. Per unit of K, rows off the 128-byte grid cost this rung
 * 70% more and cuBLAS 20%. The clusters again, there (one call): 0.779
 * against 0.667 at 77 x 5000 x 3000, 0.739 against 0.629 at 250 x 5000 x
 * 3000, 0.636 against 0.551 at 160 x 5000 x 3000, 0.827 against 0.768 at
 * 64 x 4000 x 3000; level or worse at 32 x 11000 x 3000 (0.910 / 0.916),
 * 200 x 11008 x 4000 (0.783 / 0.797), 17 x 4096 x 4000 (0.875 / 0.941)
 * and where rows are aligned (100 x 3000 x 8000: 0.828 / 0.866). Multicast
 * halves the box rows a block fetches of A, which helps where A's tile is
 * as tall as B's; no rule from seven shapes was kept. Nsight Compute
 * (H100) at 250 x 5000 x K, K = 3000 against 3072: this rung's L2 read
 * requests 2.40M against 0.70M (1.76 sectors a request against 4), 4.22M
 * sectors against 2.80M, 80 SMs busy 60.4K cycles against 33.9K; cuBLAS
 * (128 blocks) 1.88M requests against 0.73M, 35.2K cycles against 30.6K.
 * Each SM's copy engine splits a row off the grid into several requests,
 * about 0.5 a cycle at most: what helps is fewer box rows a block
 * (multicast) and more SMs issuing them. */
constexpr int SWAP_64_STAGES = 8, SWAP_TALL_STAGES = 5;

template <int WIDTH, int STAGES, int CONSUMERS>
static void launch_swap_ab(const hgemm_problem *p, cudaStream_t stream)
{
    int splits = p->swap_ab_splits;
    const CUtensorMap &b_rows = CONSUMERS == 1 ? p->b_rows64 : CONSUMERS == 3 ? p->b_rows192 : p->b_rows128;
    launch_warp_specialized<WIDTH, STAGES, true, 1, true, CONSUMERS>(b_rows, p->a_rows_swap,
                                                                     splits > 1 ? p->partials : p->c, p->n, p->m, p->k,
                                                                     splits, multiprocessors(), stream);
    if (splits > 1) split_k_reduce(p, splits, stream);
}

extern "C" void hgemm_swap_ab(const hgemm_problem *p, cudaStream_t stream)
{
    bool short_rows = p->swap_ab_rows == 64, tall_rows = p->swap_ab_rows == 192;
    switch (p->swap_ab_tile_width) {
    case 64:
        if (short_rows)
            launch_swap_ab<64, HGEMM_SWAP_SHORT_STAGES(64), 1>(p, stream);
        else
            launch_swap_ab<64, SWAP_64_STAGES, 2>(p, stream);
        break;
    case 128:
        if (short_rows)
            launch_swap_ab<128, HGEMM_SWAP_SHORT_STAGES(128), 1>(p, stream);
        else if (tall_rows)
            launch_swap_ab<128, SWAP_TALL_STAGES, 3>(p, stream);
        else
            launch_swap_ab<128, WS_128_STAGES, 2>(p, stream);
        break;
    default: /* 128-row tiles */
        launch_swap_ab<256, WS_256_STAGES, 2>(p, stream);
    }
}

/* ---- Rung 13: narrow tiles of B -------------------------------------------- */

/* Rung 13, narrow_tiles: for M from 129 to 256 the product unswapped again,
 * as rung 10 runs it (A's rows in two tile rows of 128, whose two blocks
 * form a cluster and share B's tile by multicast), but with B's tiles 80
 * wide (wgmma m64n80k16, 8 stages of 26 KB): 2 x N / 80 tiles, where
 * swap_ab's 64- to 192-row tiles of B come in steps too coarse to fill a
 * wave (250 x 5000 x 3000: 126 tiles here, 80 there). cuBLAS's own choice
 * at that shape (Nsight Compute, H100: nvjet 80x128, 128 blocks in
 * clusters of two). A's rows past M (6 at M = 250, 96 at M = 160) are
 * wasted work. Measured (H100, one call, ratio to cuBLAS, against
 * swap_ab):
 *   250 x 5000 x 3000   0.698 against 0.627     200 x 5000 x 3000   0.817 against 0.710
 *   256 x 5000 x 3000   0.695 against 0.630     160 x 5000 x 3000   0.576 against 0.545
 *   240 x 5120 x 4096   0.884 against 0.815     250 x 5000 x 8192   1.090 against 0.977
 *   250 x 4096 x 4096   0.944 against 0.963     256 x 4096 x 4096   0.918 against 0.939
 * A second call, the rung built: 0.691 against 0.634, 0.985 against 0.805
 * at 240 x 5120 x 4096, 0.795 against 0.716 at 200 x 5000 x 3000. It wins
 * where its tiles outnumber swap_ab's within a wave, and loses where
 * swap_ab's 64-row tiles already fill one (128 tiles at N = 4096 against
 * its 104). cuBLAS is still 1.4x faster at 250 x 5000 x 3000 (K = 3000:
 * rows 6000 bytes apart, so a 128-byte box row spans two L2 lines; rung 12
 * tells what that costs). Nsight Compute there (H100): this rung 126
 * blocks, 2.28M L2 read requests, 4.44M sectors, 46.4K cycles a busy SM;
 * cuBLAS 128 blocks, 1.88M, 3.92M, 32.2K. Its clusters of two lie along
 * B's rows and share A's tile (128 + 80 / 2 box rows a block a k-tile here,
 * 128 / 2 + 80 there). That orientation was tried and dropped (the kernel
 * taking SHARE_A: a unit is two tiles side by side in one tile row, each
 * block bringing 64 of A's 128 rows into both): H100, one call, 0.769
 * against 0.698 at 250 x 5000 x 3000, but 0.760 against 0.873 at 240 x
 * 5120 x 4096, 0.740 against 0.813 at 200 x 5000 x 3000, 0.844 against
 * 0.955 at 250 x 5000 x 3072, 0.474 against 0.582 at 160 x 5000 x 3000. */
constexpr int NARROW_BN = 80, NARROW_STAGES = 8;

extern "C" void hgemm_narrow_tiles(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<NARROW_BN, NARROW_STAGES, true, 2>(p->a_rows128, p->b_rows40, p->c, p->m, p->n, p->k, 1,
                                                               multiprocessors(), stream);
}

extern "C" size_t hgemm_sm90a_shared_bytes(hgemm_launcher *rung)
{
    if (rung == hgemm_tma_mma) return TMA_MMA_SHARED;
    if (rung == hgemm_wgmma) return WGMMA_SHARED;
    if (rung == hgemm_warp_specialized || rung == hgemm_split_k) return ws_shape<128, WS_128_STAGES>::SHARED_BYTES;
    if (rung == hgemm_ws_128x256 || rung == hgemm_persistent) return ws_shape<256, WS_256_STAGES>::SHARED_BYTES;
    if (rung == hgemm_persistent_multicast)
        return std::max(ws_shape<256, WS_256_STAGES>::SHARED_BYTES, ws_shape<192, WS_192_STAGES>::SHARED_BYTES);
    if (rung == hgemm_swap_ab) /* the most of its three widths */
        return std::max({ws_shape<64, SWAP_64_STAGES>::SHARED_BYTES, ws_shape<128, WS_128_STAGES>::SHARED_BYTES,
                         ws_shape<256, WS_256_STAGES>::SHARED_BYTES,
                         ws_shape<64, HGEMM_SWAP_SHORT_STAGES(64), 1>::SHARED_BYTES,
                         ws_shape<128, HGEMM_SWAP_SHORT_STAGES(128), 1>::SHARED_BYTES,
                         ws_shape<128, SWAP_TALL_STAGES, 3>::SHARED_BYTES});
    if (rung == hgemm_narrow_tiles) return ws_shape<NARROW_BN, NARROW_STAGES>::SHARED_BYTES;
    return 0;
}
