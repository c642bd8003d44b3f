/* The warp-specialized wgmma kernel that hgemm's Hopper rungs from 7 on
 * share (hgemm_sm90a_kernels.cu: rungs 5-10, the square tiles;
 * hgemm_skinny_sm90a_kernels.cu, rungs 11-12, and
 * hgemm_narrow_sm90a_kernels.cu, rung 13: the shapes whose tiles leave SMs
 * idle), with its launch; its wgmma building blocks are in
 * hgemm_wgmma_blocks.cuh. sm_90a only: included by those three files,
 * built in their object library. */
#ifndef LADDER_HGEMM_WARP_SPECIALIZED_CUH
#define LADDER_HGEMM_WARP_SPECIALIZED_CUH

#include <algorithm>
#include <type_traits>
#include <utility>

#include "harness/check/check.h"
#include "harness/hardware/cluster_launch.cuh"
#include "harness/hardware/shared_memory.cuh"
#include "hgemm_tiles.cuh"
#include "hgemm_wgmma_blocks.cuh"
#include "cases/sgemm/sgemm.h"


/* The k-tile `tile` of rows row0.. of a matrix into a stage, counted on
 * `full`. */
__device__ __forceinline__ void tma_load_tile(uint32_t stage, const CUtensorMap &map, int row0, int tile,
                                              uint64_t *full)
{
    tma_load_2d(stage, &map, tile * HGEMM_TILE_K, row0, full);
}

/* f(std::integral_constant<int, I>) for each I in turn: a loop whose index
 * can pick a template's chunk. */
template <int... I, class F>
__device__ __forceinline__ void for_each_index(std::integer_sequence<int, I...>, F &&f)
{
    (f(std::integral_constant<int, I>{}), ...);
}

/* ---- Rungs 7-9: warp specialization ------------------------------------------ */

/* Rung 7: the roles split. Warpgroup 0 produces: its first warp waits for
 * a free stage (the stage's "empty" mbarrier) and one of its lanes issues
 * the copies (a single thread did both at first: the producer's loop
 * says why the warp); it gives its registers back (setmaxnreg to 40).
 * Warpgroups 1 and 2 consume, each 64 rows of the 128 x BN block tile,
 * with up to 232 registers; each keeps one k-tile of wgmma in flight
 * (wait_group 1) and releases a stage as soon as the multiply that read
 * it is done. Loads, multiplies of the two consumers and the release no
 * longer wait for one another, and the ring is deeper (6 stages at 128 x
 * 128). (CONSUMERS = 1, one consumer on a 64 x BN tile, serves swap_ab's
 * short tiles.)
 * Rung 8 (BN = 256): 128 x 256 tiles, m64n256k16: each k-tile byte of A
 * now feeds 256 columns, not 128: shared-memory reads per FLOP drop by a
 * third (wgmma reads A and B from shared memory; at 128 x 128 that traffic
 * nears the 128 bytes per clock an SM reads), 4 stages of 48 KB.
 * Rung 9 (PERSISTENT): one block per SM walks the tiles (the swizzled
 * order of sgemm, groups of WS_GROUP_M tile rows, so that the 132 tiles in
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
 * k_tiles): slices differ by at most one k-tile. In 32 bits where the
 * product fits, and without a division for one slice: the producer's first
 * copy waits on this, and a 64-bit division is a call of its own. */
__device__ __forceinline__ int k_slice_begin(int slice, int k_tiles, int slices)
{
    if (slices == 1) return slice * k_tiles;
    if (k_tiles < (1 << 16) && slices < (1 << 15)) return (int)((unsigned)(slice * k_tiles) / (unsigned)slices);
    return (int)((long long)slice * k_tiles / slices);
}

/* The persistent rungs walk groups of WS_GROUP_M tile rows (in clusters,
 * WS_GROUP_M / CLUSTER units). 16, where 8 were first: a round of
 * persistent_multicast's 64 clusters at 4096^3 then spans 8 units by 8,
 * not 4 by all 16 columns: half of A and half of B, where it read a
 * quarter of A and all of B (Nsight Compute, H100: DRAM reads 134 MB
 * against 187 MB). H100, one call, two rounds, time at 4096^3 / 8192^3 /
 * 6144^3: persistent_multicast 188.0, 187.5 / 1427.0, 1430.0 / 607.2,
 * 608.8 us against 189.0, 190.0 / 1442.4, 1443.6 / 614.8, 615.0;
 * persistent level to 0.5% faster; level at 3072^3 and 3000^3, 355
 * against 358 us at 5120^3. Groups of 32 tile rows (an earlier call,
 * beside 16): level at 4096^3, 585.6, 588.0 against 581.9, 583.4 us at
 * 6144^3. Also level (H200, one call, two or three rounds, 2026-11-29):
 * every second group walking its columns from the right, so that its first
 * round reads the B panels of the round before, 572.6-573.1 against
 * 572.7-574.2 us at 6144^3, 1358-1361 against 1356-1357 us at 8192^3; every
 * second round of a persistent block walking its K backwards, so that the
 * next round's shared A panels start where the L2 last held them,
 * 562.5-562.8 against 563.3-563.9 us at 6144^3 (a second call), level at
 * 8192^3 and 4096^3 (and 12 bytes spilled). */
constexpr int WS_PRODUCER_REGISTERS = 40, WS_GROUP_M = 16;

/* The units a group spans in tile rows: WS_GROUP_M / CLUSTER, but one for
 * swap_ab's blocks alone (C^T, BLOCKS = 1), which walk C^T's tile rows in
 * turn, so that the tiles across A's rows that read the same tile of B
 * (two, at M 129-256) are next to one another in the launch. They then
 * ask for each k-tile of B at the same time, presumably from the two SMs
 * of one TPC, and the L2 serves both with one read: Nsight Compute at 256
 * x 4096 x 8192 (64-row tiles 128 wide, two across A, 128 blocks; H200,
 * clocks free) counts 5.61M L2 read sectors against 7.19M in groups of
 * 16, 2.24 sectors delivered to the SMs for each read against 1.75, the
 * tensor pipe busy 72% of the active cycles against 61%: 30.8 against
 * 35.0 us. One call a card, two rounds, us, against groups of 16 (H200 /
 * H100): 15.4-15.5 against 18.5-18.6 / 18.5-18.6 against 21.2-21.3 at 129
 * x 4096 x 4096; 22.6-22.7 against 28.7-28.8 / 24.7 against 31.7 at 160 x
 * 3072 x 8192; 16.5-16.6 against 19.6 / 19.1 against 22.0 at 200 x 4096 x
 * 4096; 27.6-27.7 against 34.9 / 31.6 against 38.6-38.7 at 256 x 4096 x
 * 8192; level where the tiles are cut into slices of K (256 x 256 x
 * 65536, 256 x 2048 x 8192) and where 80 blocks leave SMs idle (200 x
 * 5120 x 4096 on the H100). Clusters keep the groups: four blocks along
 * B's rows that share A's tile by multicast, with the tiles across A in
 * this order, lost 1.5% with 128 x 72 tiles three across A (26.1 against
 * 25.7 us at 200 x 5120 x 4096), gained 0.5% at 200 x 3000 x 4000 (18.0
 * against 18.1-18.2) and were level in eights and in a pair alone (H200;
 * that form has gone since, to blocks alone in this order). */
__host__ __device__ constexpr int ws_group_units(bool transposed_c, int cluster, int blocks)
{
    return transposed_c && blocks == 1 ? 1 : WS_GROUP_M / cluster;
}

/* A block tile of 64 x CONSUMERS rows by BN, a consumer warpgroup each 64
 * rows, beside the producer's warpgroup; or with ROW_GROUPS > 1, 64 x
 * ROW_GROUPS rows by BN, each consumer all the rows (a wgmma each 64) by
 * BN / CONSUMERS columns, where three consumers of 64 rows would not hold
 * their accumulators (swap_ab's 192-row tiles 208 wide:
 * hgemm_swap_ab_tall_rows); or with SPLIT_ROWS, 64 x ROW_GROUPS rows a
 * consumer by all BN columns (persistent_multicast's 256 x 192 tiles: two
 * consumers of 128 rows, a sixth fewer L2 bytes a FLOP than 128 x 256 in
 * pairs). Each consumer takes the registers
 * the producer gives back (232 of two, 152 of three: 64K a block). Beside
 * one consumer the producer keeps 64: with 40 it held two of its unit
 * counts in local memory in clusters of eight (hgemm_sass_test); and
 * without setmaxnreg at all those kernels ran up to 15% slower (H200:
 * swap_ab 17.0 against 14.4 us at 16 x 4096 x 4096). */
template <int BN, int STAGES, int CONSUMERS = 2, int STORE_BUFFERS = 0, int ROW_GROUPS = 1, bool SPLIT_ROWS = false>
struct ws_shape {
    static_assert(ROW_GROUPS == 1 || SPLIT_ROWS || BN % (8 * CONSUMERS) == 0, "each consumer's columns a wgmma width");
    static constexpr bool SPLIT_COLS = ROW_GROUPS > 1 && !SPLIT_ROWS;
    static constexpr int BM = 64 * ROW_GROUPS * (SPLIT_COLS ? 1 : CONSUMERS), THREADS = 128 * (1 + CONSUMERS);
    /* A consumer's share of the tile starts at row consumer_row0 and column
     * consumer_col0, and is CONSUMER_COLS wide. */
    static constexpr int CONSUMER_COLS = SPLIT_COLS ? BN / CONSUMERS : BN;
    static __device__ __forceinline__ int consumer_row0(int consumer)
    {
        return SPLIT_COLS ? 0 : 64 * ROW_GROUPS * consumer;
    }
    static __device__ __forceinline__ int consumer_col0(int consumer) { return SPLIT_COLS ? CONSUMER_COLS * consumer : 0; }
    static constexpr int PRODUCER_REGISTERS = CONSUMERS == 1 ? 64 : WS_PRODUCER_REGISTERS;
    static constexpr int CONSUMER_REGISTERS = CONSUMERS == 3 ? 152 : 232;
    static constexpr int A_BYTES = BM * HGEMM_ROW_BYTES, STAGE_BYTES = (BM + BN) * HGEMM_ROW_BYTES;
    /* Each consumer's buffers of C for TMA stores after the ring (none: C
     * stored from registers). */
    static constexpr int STORE_BYTES = CONSUMERS * STORE_BUFFERS * WS_STORE_BUFFER_BYTES;
    static constexpr size_t SHARED_BYTES =
        (size_t)STAGES * STAGE_BYTES + STORE_BYTES + 2 * STAGES * sizeof(uint64_t) + 1024;
    static_assert(SHARED_BYTES <= 227 * 1024, "fits Hopper's 227 KB a block");
};

/* Work item `item` of `units` units, the first `whole` of them whole in
 * K, the others (all where whole is 0) in `slices` slices of K each, slice
 * s of every one of them before slice s + 1: its unit, its slice and the
 * slices its unit is cut into (1: it writes C itself). SUM_IN_CLUSTER: a
 * unit's slices side by side instead, one a block of its cluster. */
struct ws_item {
    int unit, split, slices;
};

template <bool SUM_IN_CLUSTER>
__device__ __forceinline__ ws_item ws_item_of(int item, int units, int whole, int slices)
{
    if (SUM_IN_CLUSTER) return {item / slices, item % slices, slices};
    if (item < whole) return {item, 0, 1};
    int rest = item - whole, tail = units - whole;
    return {whole + rest % tail, rest / tail, slices};
}

/* A tile's columns of the kernel's product: BN, or with TRANSPOSED_C
 * (swap_ab, whose columns of C^T are A's rows) as many as
 * hgemm_swap_ab_tile_cols gives, at most BN. */
template <int BN, bool TRANSPOSED_C>
__host__ __device__ __forceinline__ int ws_tile_cols(int n)
{
    return TRANSPOSED_C ? hgemm_swap_ab_tile_cols(n, BN) : BN;
}

template <int BN, int STAGES, bool PERSISTENT, int CLUSTER, bool TRANSPOSED_C = false, int CONSUMERS = 2,
          int STORE_BUFFERS = 0, int PAIR = 1, bool SUM_IN_CLUSTER = false, int ROW_GROUPS = 1, bool SPLIT_ROWS = false>
__global__ void __launch_bounds__(ws_shape<BN, STAGES, CONSUMERS>::THREADS, 1)
    warp_specialized_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                            const __grid_constant__ CUtensorMap c_map, float *__restrict__ c,
                            float *__restrict__ partials, int m, int n, int k, int splits, int whole)
{
    static_assert(CLUSTER * PAIR == 1 || PERSISTENT, "clusters walk the tiles as persistent blocks");
    constexpr int BLOCKS = CLUSTER * PAIR;
    constexpr bool TMA_STORE = STORE_BUFFERS > 0;
    static_assert(!TMA_STORE || !TRANSPOSED_C, "TMA stores write C's tiles as they are");
    typedef ws_shape<BN, STAGES, CONSUMERS, STORE_BUFFERS, ROW_GROUPS, SPLIT_ROWS> S;
    static_assert(!S::SPLIT_COLS || (!TMA_STORE && !SUM_IN_CLUSTER), "consumers split by columns store from registers");
    static_assert(!SUM_IN_CLUSTER || (BLOCKS == 1 && PERSISTENT && !TMA_STORE &&
                                      STAGES * S::STAGE_BYTES >= CONSUMERS * BN * 256),
                  "a cluster of slices: one tile's, its products in the ring");
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint64_t *full = reinterpret_cast<uint64_t *>(shared + STAGES * S::STAGE_BYTES + S::STORE_BYTES),
             *empty = full + STAGES;
    uint32_t ring = smem_address(shared);
    /* b_map's box is tile_cols tall: with TRANSPOSED_C, rows past A would
     * only feed columns of C^T that are never stored, and TMA's zero fill of
     * rows outside a matrix costs time. */
    int tile_cols = ws_tile_cols<BN, TRANSPOSED_C>(n);
    int tiles_m = hgemm_ceil_div(m, S::BM), tiles_n = hgemm_ceil_div(n, tile_cols);
    int k_tiles = hgemm_ceil_div(k, HGEMM_TILE_K);
    /* A unit is CLUSTER tiles stacked in one tile column, one a block of
     * the cluster, which share their B tile; with PAIR = 2, two such
     * columns side by side, whose blocks of one tile row share their A
     * tile (rank % CLUSTER: the block's row in the unit, rank / CLUSTER its
     * column). A work item is a unit and a slice of K (ws_item_of; splits
     * > 1: split_k and swap_ab, whose slice s goes to the s-th m x n
     * partial at `partials`); the first `whole` units go whole in K, to C
     * (swap_ab past a wave: the last wave's units in slices). With
     * SUM_IN_CLUSTER a block has one item, the cluster's tile (launched as
     * units x splits blocks in clusters of splits), and its slice is its
     * rank. */
    int units_m = hgemm_ceil_div(tiles_m, CLUSTER), units_n = hgemm_ceil_div(tiles_n, PAIR);
    int units = units_m * units_n, items = whole + (units - whole) * splits;
    int rank = BLOCKS > 1 ? (int)cluster_rank() : 0;
    int first = PERSISTENT ? blockIdx.x / BLOCKS : blockIdx.y * tiles_n + blockIdx.x;
    int step = PERSISTENT ? gridDim.x / BLOCKS : units;
    int group_m = PERSISTENT ? ws_group_units(TRANSPOSED_C, CLUSTER, BLOCKS) : 1;
    /* The copy engine fetches a tensor map at its first copy; fetched now,
     * that wait runs under the barriers' set-up. H100, one call, two
     * rounds: swap_ab 0.2-0.7% faster at 11 of 12 shapes of M 32-240 (19.5
     * against 19.6 us at 150 x 3800 x 4000, 14.7 against 14.8 at 240 x
     * 3800 x 2000), level at the twelfth and at 4096^3 and 6144^3. */
    if (threadIdx.x == 0) {
        prefetch_tensor_map(&a_map);
        prefetch_tensor_map(&b_map);
    }
    /* the consumer warpgroups of every block read each stage; the producer's
     * first copy waits for the cluster's barrier (ring_barriers_wait) only
     * once it has worked out where its first tile is */
    ring_barriers_arrive<BLOCKS>(full, empty, STAGES, CONSUMERS);
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
        setmaxnreg_decrease<S::PRODUCER_REGISTERS>();
        int rank_m = rank % CLUSTER, rank_n = rank / CLUSTER;
        /* Each block of a cluster brings `share` rows of the B tile into
         * all of them (b_map's box is that tall). */
        int share = CLUSTER > 1 ? hgemm_cluster_share(tile_cols, CLUSTER) : tile_cols;
        int stage_bytes = S::A_BYTES + CLUSTER * share * HGEMM_ROW_BYTES;
        /* the blocks of this block's tile row (ranks rank_m + CLUSTER j):
         * A's halves go to both */
        uint16_t same_row_mask = (uint16_t)(((1 << BLOCKS) - 1) / ((1 << CLUSTER) - 1) << rank_m);
        /* Warp 0 walks the items as one: every lane waits for a free
         * stage, and one lane copies into it. Waited on by thread 0 alone
         * (the rest of the warp parked until the end), as before, a freed
         * stage was seen late: at 64 x 80 tiles in clusters of 4 x 2
         * (Nsight Compute, H200, 150 x 3800 x 4000) the consumers waited
         * for their bytes 218 samples of 472, 82 of 465 now, and the kernel
         * took 16.2 us against 14.9. A whole warp also keeps the counts and
         * coordinates in uniform registers, and the copies issue without a
         * loop over the active lanes (cuBLAS's producer is written so).
         * hgemm_swap_ab_pairs has the timings: 7-11% faster at K = 4000 and
         * 6000 on the H200, 2-5% on the H100; but 1.5-4% slower at K = 3000
         * (2.25 requests a box row) on both, where Nsight Compute finds the
         * SMs busy as long as before and the kernel 0.4 us longer (150 x
         * 3000 x 3000, H200). Tried, not kept (H200 unless named, us, at
         * 150 x 3800 x 4000 / 150 x 3000 x 3000): thread 0 waiting inside
         * the warp's loop, the other lanes at a __syncwarp, 18.2 / 15.4
         * (thread 0 alone 18.0 / 15.2, the warp 16.7 / 15.7); the waits
         * with a suspend-time hint (NANOSLEEP.SYNCS, as cuBLAS's), level
         * with each form (H100); and both forms in one kernel, thread 0
         * where rows take more than two requests: the thread's form then
         * took 17.5 at 150 x 3000 x 3000, the compiler no longer keeping
         * either form's values uniform. Also not kept (H100, one call, two
         * rounds, swap_ab at 12 shapes of M 32-250, 2026-11-28): the
         * stage's bytes announced after its copies, as cuBLAS's producer
         * does, 0.7% faster to 0.9% slower; pair blocks at neighbouring
         * ranks (rank % PAIR: perhaps one TPC), level; B's k-tile a ring
         * ahead asked into L2 (cp.async.bulk.prefetch.tensor), 7-56%
         * slower (22.0 against 19.2 us at 150 x 3800 x 4000, 69.1 against
         * 44.4 at 200 x 6000 x 8192): each prefetch is as many requests
         * again for the copy engine. */
        bool waited = false;
        if (__shfl_sync(0xffffffffu, threadIdx.x / 32, 0) == 0) {
            for (int item = first; item < items; item += step) {
                ws_item work = ws_item_of<SUM_IN_CLUSTER>(item, units, whole, splits);
                int unit_m, unit_n;
                sgemm_swizzled_tile(work.unit, units_m, units_n, group_m, &unit_m, &unit_n);
                /* A block past the last tile row (or column) still brings
                 * its share of B (or A) for its peers (and the last row's
                 * A, the last column's B); its stores all fall outside C. */
                int tile_m = min(CLUSTER * unit_m + rank_m, tiles_m - 1);
                int tile_n = min(PAIR * unit_n + rank_n, tiles_n - 1);
                int t_end = k_slice_begin(work.split + 1, k_tiles, work.slices);
                int t_begin = k_slice_begin(work.split, k_tiles, work.slices);
                if (!waited) ring_barriers_wait<BLOCKS>(), waited = true;
                for (int t = t_begin; t < t_end; ++t, next_stage()) {
                    mbarrier_wait(&empty[s], phase ^ 1);
                    if (!elect_one_lane()) continue;
                    uint32_t stage = ring + (uint32_t)s * S::STAGE_BYTES;
                    mbarrier_arrive_expect_bytes(&full[s], stage_bytes);
                    if constexpr (PAIR > 1) /* a_map's box is BM / PAIR rows */
                        tma_load_2d_multicast(stage + rank_n * (S::BM / PAIR) * HGEMM_ROW_BYTES, &a_map,
                                              t * HGEMM_TILE_K, tile_m * S::BM + rank_n * (S::BM / PAIR), &full[s],
                                              same_row_mask);
                    else
                        tma_load_tile(stage, a_map, tile_m * S::BM, t, &full[s]);
                    if constexpr (CLUSTER > 1)
                        tma_load_2d_multicast(stage + S::A_BYTES + rank_m * share * HGEMM_ROW_BYTES, &b_map,
                                              t * HGEMM_TILE_K, tile_n * tile_cols + rank_m * share, &full[s],
                                              ((1 << CLUSTER) - 1) << (rank_n * CLUSTER));
                    else if constexpr (BN > HGEMM_MAX_BOX_ROWS) /* b_map's box is half the tile */
                        for (int half = 0; half < 2; ++half)
                            tma_load_tile(stage + S::A_BYTES + half * (BN / 2) * HGEMM_ROW_BYTES, b_map,
                                          tile_n * tile_cols + half * (BN / 2), t, &full[s]);
                    else
                        tma_load_tile(stage + S::A_BYTES, b_map, tile_n * tile_cols, t, &full[s]);
                }
            }
        }
        if (!waited) ring_barriers_wait<BLOCKS>();
        /* the consumers' products are in place (wgmma_sum_slices_in_cluster) */
        if constexpr (SUM_IN_CLUSTER) cluster_sync();
        /* the producer's last copies have landed once their readers arrive */
        if constexpr (BLOCKS > 1 || SUM_IN_CLUSTER) cluster_arrive_relaxed();
    } else {
        ring_barriers_wait<BLOCKS>();
        setmaxnreg_increase<S::CONSUMER_REGISTERS>();
        int rank_m = rank % CLUSTER, rank_n = rank / CLUSTER;
        /* one consumer: its index a constant, so that its descriptors stay
         * in the uniform registers wgmma reads them from */
        int consumer = CONSUMERS == 1 ? 0 : warpgroup - 1, lane = threadIdx.x % 32;
        /* the descriptors of stage 0's operands: this consumer's first 64
         * rows of A, and its rows of B */
        constexpr int COLS = S::CONSUMER_COLS;
        int row0 = S::consumer_row0(consumer), col0 = S::consumer_col0(consumer);
        uint64_t a_rows = wgmma_descriptor_sw128(ring + row0 * HGEMM_ROW_BYTES),
                 b_rows = wgmma_descriptor_sw128(ring + S::A_BYTES + col0 * HGEMM_ROW_BYTES);
        /* Done with a stage: every block that writes into it must hear so
         * before it does again, once from each consumer warpgroup: its
         * multiply is one operation, done for all four warps once one sees
         * it done. Warp w tells blocks w and w + 4, so that the arrivals
         * leave from four warps at once; each warp told every block
         * before, four times the messages. Its lanes 0 and 1 tell them in
         * one instruction, each at an address in the cluster found once
         * (the stage's barrier is 8 bytes past stage 0's in every block),
         * where lane 0 found each block's address (mapa) and told the
         * blocks in turn every k-tile: H100, one call, two rounds, 19.1-19.2
         * against 19.5-19.6 us at 150 x 3800 x 4000, 17.2 against 17.7 at
         * 130 x 3000 x 4000, 13.0-13.1 against 13.4 at 160 x 3400 x 2000,
         * 18.8-18.9 against 19.1 at 77 x 5000 x 3000: 1.6-2.8% faster at
         * six shapes of 64-row tiles in clusters, level to 1% faster at
         * the other six of 12. In clusters of 4 x 2 telling
         * only the five blocks that write a stage (its tile row's two, its
         * tile column's four) lost, and spilled three of the 128- and
         * 192-row kernels (H200, 2026-11-27): 16.6-16.7 against 15.3-15.4
         * us at 150 x 3000 x 3000, 28.4-28.5 against 26.9 at 150 x 11008 x
         * 3000, 19.5-19.8 against 17.9-18.1 at 140 and 150 x 3800 x 4000.
         * In this form (the five in one arrive, no spills) it was level:
         * H100, one call, two rounds, within 0.8% at 12 shapes
         * (2026-11-28). */
        int warp_in_group = (threadIdx.x / 32) % 4;
        uint32_t target = (uint32_t)(warp_in_group + 4 * lane);
        bool tells = target < (uint32_t)BLOCKS;
        uint32_t empty_there = BLOCKS > 1 && tells ? cluster_barrier_address(&empty[0], target) : 0;
        auto release = [&](int stage) {
            if (!tells) return;
            if constexpr (BLOCKS > 1)
                mbarrier_arrive_at(empty_there + (uint32_t)(stage * sizeof(uint64_t)));
            else
                mbarrier_arrive(&empty[stage]);
        };
        bool arrived = false;
        int sent = 0; /* C's chunks sent by TMA (wgmma_store_through_tma) */
        /* An item's tile and k-tiles. The next item's are worked out
         * under the first multiply of this one: their divisions, a
         * dependent chain, ran between a tile's last store and the next
         * tile's first multiply, where a timeline (clock64, H200) put 0.78K
         * clocks at every tile change. H200, one call, two rounds, us,
         * against the build before (2026-11-29): swap_ab 15.5 against
         * 15.8-15.9 at 150 x 3800 x 4000, 24.4-24.5 against 24.7 at 256 x
         * 256 x 65536, 27.5 against 27.6 at 32 x 11008 x 4096;
         * persistent_multicast 38.2-38.3 against 39.0-39.1 at 4096 x 4096 x
         * 512, level at 4096^3, 6144^3, 8192^3 and 3072^3, and 24.2-24.4
         * against 24.0 at 4096 x 4096 x 128 (the ring of 2). */
        struct ws_place {
            ws_item work;
            int tile_m, tile_n, t_begin, t_end;
        };
        auto place_of = [&](int item) {
            ws_place place;
            place.work = ws_item_of<SUM_IN_CLUSTER>(item, units, whole, splits);
            int unit_m, unit_n;
            sgemm_swizzled_tile(place.work.unit, units_m, units_n, group_m, &unit_m, &unit_n);
            place.tile_m = CLUSTER * unit_m + rank_m, place.tile_n = PAIR * unit_n + rank_n;
            place.t_begin = k_slice_begin(place.work.split, k_tiles, place.work.slices);
            place.t_end = k_slice_begin(place.work.split + 1, k_tiles, place.work.slices);
            return place;
        };
        /* HOLDS_C (persistent_multicast's 256-wide tiles with two buffers
         * a consumer): where another tile follows, a consumer writes only
         * the first HELD_FIRST of its tile's 8 chunks of C at once; the
         * last HELD_CHUNKS wait in registers (held, beside the next tile's
         * accumulators) and go one a k-tile under the next tile's first
         * multiplies. The tensor core then waits for one buffer's read at a
         * tile change, not six: C leaves an SM at about 30 bytes a clock
         * (hgemm_sm90a_kernels.cu, rung 10's notes), and a tile's C is 128
         * KB. 5 chunks (80 registers) is the most that fits beside 128
         * accumulators in 232: with 6, 100 bytes spilled. */
        constexpr bool HOLDS_C = TMA_STORE && BN == 256 && ROW_GROUPS == 1 && STORE_BUFFERS < BN / WS_STORE_COLS;
        constexpr int CHUNKS = BN / WS_STORE_COLS, HELD_CHUNKS = 5, HELD_FIRST = CHUNKS - HELD_CHUNKS;
        constexpr int HELD_FLOATS = HELD_CHUNKS * WS_STORE_COLS / 2;
        bool holding = false; /* held has chunks of C to store at held_row0, held_col0 */
        int held_row0 = 0, held_col0 = 0;
        /* HOLDS_ROWS (persistent_multicast's 256 x 192 tiles: two row
         * groups a consumer, 192 accumulators, none to spare for held): where
         * another tile follows, a consumer stores its first row group's C,
         * then multiplies the next tile's first STAGES k-tiles for that row
         * group alone while its second row group's C goes out, two chunks
         * under each; the next item opens with the second row group's
         * multiplies of those stages (rows_ahead), which it then frees. The
         * tensor core waits for the first row group's stores alone, not for
         * the whole tile's C (192 KB a block, at about 30 bytes a clock; 48
         * KB of buffers beside 3 stages of 56 KB). No accumulator is zeroed:
         * each row group's first k-step of an item overwrites them (wgmma's
         * scale-d 0); zeros written while the other row group's multiplies
         * are in flight would serialize every wgmma of the kernel (ptxas
         * C7515). */
        constexpr bool HOLDS_ROWS = TMA_STORE && ROW_GROUPS == 2 && !S::SPLIT_COLS;
        bool rows_ahead = false;
        float acc[ROW_GROUPS][COLS / 2], held[HOLDS_C ? HELD_FLOATS : 1];
        uint32_t buffers = ring + STAGES * S::STAGE_BYTES + consumer * STORE_BUFFERS * WS_STORE_BUFFER_BYTES;
        ws_place next{};
        if (first < items) next = place_of(first);
        for (int item = first; item < items; item += step) {
            const ws_place here = next;
            const ws_item work = here.work;
            int tile_m = here.tile_m, tile_n = here.tile_n, t_begin = here.t_begin, t_end = here.t_end;
            /* In a cluster, the stages of the last item's last STAGES
             * k-tiles are never filled again (every block of a cluster walks
             * the same items): no peer is told of them, so that no arrival
             * of this block's can still be on its way to a peer that has
             * left, and the block's last arrival on the cluster's barrier
             * can be relaxed, before its stores (below). */
            bool last = item + step >= items, untold = BLOCKS > 1 && last && t_end - t_begin >= STAGES;
            bool placed = last;
            int previous = -1, t_rest = t_begin; /* past the k-tiles that send held chunks */
            if constexpr (!HOLDS_ROWS)
#pragma unroll
                for (int g = 0; g < ROW_GROUPS; ++g)
#pragma unroll
                    for (int i = 0; i < COLS / 2; ++i) acc[g][i] = 0.0f;
            /* row group g's multiply of the stage at `stage` bytes into the ring */
            auto multiply_rows = [&](auto group, auto overwrite, uint32_t stage) {
                constexpr int g = decltype(group)::value;
                wgmma_k_tile<COLS, decltype(overwrite)::value>(
                    acc[g], wgmma_descriptor_advance(a_rows, stage + g * 64 * HGEMM_ROW_BYTES),
                    wgmma_descriptor_advance(b_rows, stage));
            };
            auto multiply_k_tile = [&](int t, auto overwrite) {
                mbarrier_wait(&full[s], phase);
                uint32_t stage = (uint32_t)s * S::STAGE_BYTES;
                wgmma_fence();
                for_each_index(std::make_integer_sequence<int, ROW_GROUPS>{},
                               [&](auto g) { multiply_rows(g, overwrite, stage); });
                wgmma_commit();
                if (!placed) next = place_of(item + step), placed = true;
            };
            constexpr std::false_type ACCUMULATE{};
            constexpr std::true_type OVERWRITE{};
            auto free_previous = [&](int t) {
                /* The previous k-tile's multiply is done: its stage is
                 * free. Tried in swap_ab, not kept (H200, one call, two
                 * rounds, us, 2026-11-27): each stage freed once its own
                 * multiply is done (wait_group 0), the multiplies no
                 * longer overlapping: 21.7 against 16.6 at 150 x 3800 x
                 * 4000, 40.5 against 30.9 at 160 x 6000 x 6000, 41.0
                 * against 27.8 at 256 x 4096 x 8192; two k-tiles'
                 * multiplies in flight (wait_group 2), each stage freed a
                 * k-tile later: 17.0 against 16.7 at 150 x 3800 x 4000,
                 * 31.8 against 30.9 at 160 x 6000 x 6000, 37.2 against
                 * 35.4 at 200 x 7000 x 6000, and from 2% faster (32 x
                 * 11008 x 4096, 160 x 16384 x 4096) to 3% slower at the
                 * other 21 shapes of 24; each stage freed early, its
                 * multiply waited for (wait_group 0) whenever the next
                 * stage's bytes had not yet come (mbarrier.test_wait), so
                 * that no stage waits on the next one's bytes (H100,
                 * 2026-11-28): 20.4 against 19.4-19.6 at 150 x 3800 x
                 * 4000, 20.0 against 17.6-17.7 at 130 x 3000 x 4000, 14.4
                 * against 13.4 at 160 x 3400 x 2000, level to 1.5% faster
                 * with 128-row tiles, level at the squares: the 64-row
                 * tiles' multiplies lose their overlap each time the
                 * bytes come late. */
                wgmma_wait<1>();
                if (previous >= 0 && !(untold && t - 1 >= t_end - STAGES)) release(previous);
                previous = s;
                next_stage();
            };
            if constexpr (HOLDS_C)
                if (holding) {
                    for_each_index(std::make_integer_sequence<int, HELD_CHUNKS>{}, [&](auto index) {
                        constexpr int i = decltype(index)::value;
                        multiply_k_tile(t_begin + i, ACCUMULATE);
                        wgmma_store_through_tma<HELD_CHUNKS * WS_STORE_COLS, STORE_BUFFERS, i, i + 1>(
                            c_map, buffers, 1 + consumer, held_row0, held_col0, held, sent);
                        free_previous(t_begin + i);
                    });
                    holding = false, t_rest += HELD_CHUNKS;
                }
            if constexpr (HOLDS_ROWS) {
                if (rows_ahead) {
                    /* the second row group's multiplies of the stages that the
                     * first's ran ahead on; each stage then freed */
                    int first_stage = s;
                    wgmma_fence();
                    for_each_index(std::make_integer_sequence<int, STAGES>{}, [&](auto i) {
                        multiply_rows(std::integral_constant<int, 1>{}, std::bool_constant<decltype(i)::value == 0>{},
                                      (uint32_t)s * S::STAGE_BYTES);
                        wgmma_commit();
                        next_stage();
                    });
                    for_each_index(std::make_integer_sequence<int, STAGES - 1>{}, [&](auto index) {
                        constexpr int i = decltype(index)::value;
                        wgmma_wait<STAGES - 1 - i>();
                        release((first_stage + i) % STAGES);
                    });
                    previous = (first_stage + STAGES - 1) % STAGES;
                    rows_ahead = false, t_rest += STAGES;
                } else {
                    multiply_k_tile(t_rest, OVERWRITE), free_previous(t_rest);
                    ++t_rest;
                }
            }
            for (int t = t_rest; t < t_end; ++t) multiply_k_tile(t, ACCUMULATE), free_previous(t);
            wgmma_wait<0>();
            if (!placed) next = place_of(item + step);
            if (!untold) release(previous);
            /* The block's last arrival, before C's stores: a releasing one
             * waits for the thread's writes, and after the stores it waited
             * for them to reach L2. With the stages untold, relaxed: nothing
             * of this block's is left to order. */
            if constexpr (BLOCKS > 1)
                if (last) {
                    if (untold)
                        cluster_arrive_relaxed();
                    else
                        cluster_arrive();
                    arrived = true;
                }
            /* C^T's columns past the tile's are the next tile's */
            int tile_col0 = tile_n * tile_cols, store_n = TRANSPOSED_C ? min(n, tile_col0 + tile_cols) : n;
            int c_row0 = tile_m * S::BM + row0, c_col0 = tile_col0 + col0;
            if constexpr (SUM_IN_CLUSTER)
                wgmma_sum_slices_in_cluster<BN, TRANSPOSED_C, CONSUMERS>(ring, consumer, work.slices, c, m, store_n,
                                                                         c_row0, c_col0, acc[0]);
            else if constexpr (TMA_STORE) {
                if constexpr (HOLDS_C) {
                    holding = !last && next.t_end - next.t_begin >= HELD_CHUNKS;
                    if (holding) {
#pragma unroll
                        for (int i = 0; i < HELD_FLOATS; ++i) held[i] = acc[0][HELD_FIRST * WS_STORE_COLS / 2 + i];
                        wgmma_store_through_tma<BN, STORE_BUFFERS, 0, HELD_FIRST>(c_map, buffers, 1 + consumer,
                                                                                   c_row0, c_col0, acc[0], sent);
                        held_row0 = c_row0, held_col0 = c_col0 + HELD_FIRST * WS_STORE_COLS;
                    }
                }
                /* Only where the next item has 2 x STAGES k-tiles or more: the
                 * stages that its second row group frees as it opens are then
                 * none of its last STAGES, which a last item leaves untold. */
                if constexpr (HOLDS_ROWS) {
                    rows_ahead = !last && next.t_end - next.t_begin >= 2 * STAGES;
                    if (rows_ahead) {
                        wgmma_store_through_tma<BN, STORE_BUFFERS>(c_map, buffers, 1 + consumer, c_row0, c_col0,
                                                                   acc[0], sent);
                        uint32_t walked_phase = phase;
                        for_each_index(std::make_integer_sequence<int, STAGES>{}, [&](auto index) {
                            constexpr int i = decltype(index)::value;
                            mbarrier_wait(&full[s], phase);
                            wgmma_fence();
                            multiply_rows(std::integral_constant<int, 0>{}, std::bool_constant<i == 0>{},
                                          (uint32_t)s * S::STAGE_BYTES);
                            wgmma_commit();
                            wgmma_store_through_tma<BN, STORE_BUFFERS, i * CHUNKS / STAGES, (i + 1) * CHUNKS / STAGES>(
                                c_map, buffers, 1 + consumer, c_row0 + 64, c_col0, acc[1], sent);
                            next_stage();
                        });
                        /* back to the first of those stages, for the second row group */
                        phase = walked_phase;
                    }
                }
                if (!holding && !rows_ahead) {
#pragma unroll
                    for (int g = 0; g < ROW_GROUPS; ++g)
                        wgmma_store_through_tma<BN, STORE_BUFFERS>(c_map, buffers, 1 + consumer, c_row0 + 64 * g,
                                                                   c_col0, acc[g], sent);
                }
            } else
#pragma unroll
                for (int g = 0; g < ROW_GROUPS; ++g)
                    wgmma_store<COLS, TRANSPOSED_C>(work.slices == 1 ? c : partials + (size_t)work.split * m * n, m,
                                                    store_n, c_row0 + 64 * g, c_col0, acc[g]);
        }
        if constexpr (BLOCKS > 1)
            if (!arrived) cluster_arrive();
        /* The shared memory of the last stores stays until they have
         * written C. */
        if (TMA_STORE && threadIdx.x % 128 == 0) bulk_wait<0, false>();
    }
    /* A block leaves once every block of its cluster has arrived: a peer may
     * still arrive on this block's barriers, read its shared memory, or
     * wait on copies this block's producer sent it. */
    if constexpr (BLOCKS > 1 || SUM_IN_CLUSTER) cluster_wait();
}


/* ---- Launch ------------------------------------------------------------------- */

static inline int multiprocessors()
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
 * (the split-K rungs), all but the first `whole` units' (ws_item_of), or
 * with SUM_IN_CLUSTER meet in clusters of `splits` blocks, a block for
 * each item. Persistent: `blocks` resident blocks at most, in clusters of
 * CLUSTER x PAIR. */
template <int BN, int STAGES, bool PERSISTENT, int CLUSTER = 1, bool TRANSPOSED_C = false, int CONSUMERS = 2,
          int STORE_BUFFERS = 0, int PAIR = 1, bool SUM_IN_CLUSTER = false, int ROW_GROUPS = 1, bool SPLIT_ROWS = false>
static cudaLaunchConfig_t warp_specialized_config(int m, int n, int splits, int whole, int blocks,
                                                  cudaLaunchAttribute *cluster, cudaStream_t stream)
{
    typedef ws_shape<BN, STAGES, CONSUMERS, STORE_BUFFERS, ROW_GROUPS, SPLIT_ROWS> S;
    allow_shared_bytes<warp_specialized_kernel<BN, STAGES, PERSISTENT, CLUSTER, TRANSPOSED_C, CONSUMERS,
                                               STORE_BUFFERS, PAIR, SUM_IN_CLUSTER, ROW_GROUPS, SPLIT_ROWS>>(
        S::SHARED_BYTES);
    int tiles_m = hgemm_ceil_div(m, S::BM);
    int tiles_n = hgemm_ceil_div(n, ws_tile_cols<BN, TRANSPOSED_C>(n));
    long long units = (long long)hgemm_ceil_div(tiles_m, CLUSTER) * hgemm_ceil_div(tiles_n, PAIR);
    long long items = (whole + (units - whole) * splits) * CLUSTER * PAIR;
    if (SUM_IN_CLUSTER) blocks = (int)items;
    cudaLaunchConfig_t config = cluster_config(items < blocks ? (unsigned)items : (unsigned)blocks, S::THREADS,
                                               S::SHARED_BYTES, SUM_IN_CLUSTER ? splits : CLUSTER * PAIR, cluster,
                                               stream);
    if (!PERSISTENT) config.gridDim = dim3(tiles_n, tiles_m);
    return config;
}

/* C and its partials from the problem's A in boxes of 64 x CONSUMERS /
 * PAIR rows and its B in boxes of BN / CLUSTER rows (BN / 2 alone past
 * HGEMM_MAX_BOX_ROWS); TRANSPOSED_C: the maps of B^T and A^T, m and n
 * exchanged. STORE_BUFFERS > 0: C written through c_map (which only that
 * kernel reads; the others are given A's). */
template <int BN, int STAGES, bool PERSISTENT, int CLUSTER = 1, bool TRANSPOSED_C = false, int CONSUMERS = 2,
          int STORE_BUFFERS = 0, int PAIR = 1, bool SUM_IN_CLUSTER = false, int ROW_GROUPS = 1, bool SPLIT_ROWS = false>
static void launch_warp_specialized(const CUtensorMap &a_map, const CUtensorMap &b_map, float *c, float *partials,
                                    int m, int n, int k, int splits, int whole, int blocks, cudaStream_t stream,
                                    const CUtensorMap *c_map = nullptr)
{
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config =
        warp_specialized_config<BN, STAGES, PERSISTENT, CLUSTER, TRANSPOSED_C, CONSUMERS, STORE_BUFFERS, PAIR,
                                SUM_IN_CLUSTER, ROW_GROUPS, SPLIT_ROWS>(m, n, splits, whole, blocks, &cluster, stream);
    constexpr auto kernel = warp_specialized_kernel<BN, STAGES, PERSISTENT, CLUSTER, TRANSPOSED_C, CONSUMERS,
                                                    STORE_BUFFERS, PAIR, SUM_IN_CLUSTER, ROW_GROUPS, SPLIT_ROWS>;
    CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, a_map, b_map, STORE_BUFFERS ? *c_map : a_map, c, partials, m, n, k,
                                  splits, whole));
}

/* The problem's C = A B in `splits` slices of K (into its partials where
 * more than one). */
template <int BN, int STAGES, bool PERSISTENT, int CLUSTER = 1, int STORE_BUFFERS = 0>
static void launch_warp_specialized(const hgemm_problem *p, const CUtensorMap &b_map, int splits, int blocks,
                                    cudaStream_t stream)
{
    launch_warp_specialized<BN, STAGES, PERSISTENT, CLUSTER, false, 2, STORE_BUFFERS>(
        p->a_rows128, b_map, p->c, p->partials, p->m, p->n, p->k, splits, 0, blocks, stream, &p->c_cols32);
}

constexpr int WS_128_STAGES = 6, WS_256_STAGES = 4;

/* A rung's tiles at each of its widths: TILE<W>::launch runs the tile W
 * wide, TILE<W>::SHARED_BYTES is the most shared memory of its rings. */
template <template <int> class TILE, int... WIDTHS>
struct tile_widths {
    static void launch(int width, const hgemm_problem *p, cudaStream_t stream)
    {
        ((width == WIDTHS ? TILE<WIDTHS>::launch(p, stream) : void()), ...);
    }
    static constexpr size_t shared_bytes() { return std::max({TILE<WIDTHS>::SHARED_BYTES...}); }
};

/* Dynamic shared memory of the rungs of hgemm_skinny_sm90a_kernels.cu (0
 * for the others), and of narrow_tiles (hgemm_narrow_sm90a_kernels.cu). */
size_t hgemm_skinny_shared_bytes(hgemm_launcher *rung);
size_t hgemm_narrow_shared_bytes();

#endif
