/* HGEMM rungs 5-10: the Hopper rungs, from the tensor copy engine (TMA) on
 * mbarriers to warp-specialized, persistent wgmma kernels on square tiles;
 * rungs 11-13, for the shapes whose tiles leave SMs idle, are in
 * hgemm_skinny_sm90a_kernels.cu (11-12) and hgemm_narrow_sm90a_kernels.cu
 * (13), and the kernel they all share in hgemm_warp_specialized.cuh. Built only for
 * sm_90a (-gencode=arch=compute_90a,code=sm_90a, its own object library:
 * wgmma and setmaxnreg exist on no other target) and run on compute
 * capability 9.0 only. Same problem and layout as hgemm_kernels.cu; the
 * tiles come from tensor maps (hgemm.h), which fill what lies outside A or
 * B with zeros, so no rung here has edge code but its stores. */
#include "hgemm_warp_specialized.cuh"

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
            wgmma_k_tile<WGMMA_BN>(acc[half], wgmma_descriptor_sw128(stage + half * (WGMMA_A_BYTES / 2)),
                                   wgmma_descriptor_sw128(stage + WGMMA_A_BYTES));
        wgmma_commit();
        wgmma_wait<0>();
        __syncthreads();
        if (threadIdx.x == 0 && t + WGMMA_STAGES < tiles) load(t + WGMMA_STAGES);
    }
#pragma unroll
    for (int half = 0; half < 2; ++half)
        wgmma_store<WGMMA_BN>(c, m, n, block_row + 64 * half, block_col, acc[half]);
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


extern "C" void hgemm_warp_specialized(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<128, WS_128_STAGES, false>(p, p->b_rows128, 1, 0, stream);
}

extern "C" void hgemm_ws_128x256(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<256, WS_256_STAGES, false>(p, p->b_rows256, 1, 0, stream);
}

extern "C" void hgemm_persistent(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<256, WS_256_STAGES, true>(p, p->b_rows256, 1, multiprocessors(), stream);
}

/* Rung 10, persistent_multicast: rung 9's blocks in clusters of two,
 * stacked in M (tile rows 2u and 2u + 1 of one tile column), that share
 * their B tile: each brings 128 of its 256 rows into both by TMA multicast,
 * so a block reads 32 KB from L2 a k-tile where it read 48 KB; the grouped
 * order now walks these pairs (groups of WS_GROUP_M / 2 pairs).
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
 * more than 5% better than 128 x 256 (now hgemm_multicast_shape_for: 3072^3 makes
 * 2.18 waves of the wider tiles, 2.91 of these). H100, one call, against
 * the 256-wide tiles: 90.5 against 113.6 us at 3072^3 (0.887 against
 * 0.707 of cuBLAS), 118.0 against 127.8 us at 3000^3 (0.688 against
 * 0.638: rows off the 128-byte grid there too), 22.2 against 25.9 us at
 * 1536^3 (0.775 against 0.664), 78.2 against 99.9 us at 2305 x 2100 x
 * 4096, 290.6 against 297.1 us at 4095 x 4097 x 4093. The default square
 * sizes keep 256.
 * Then C through shared memory and TMA stores where C's rows are a
 * multiple of 16 bytes (wgmma_store_through_tma; 32 KB of buffers beside
 * the 4 stages, 224 KB in all; at width 192, 4 stages where 5). Without
 * any stores (their time measured, the result thrown away) the rung ran
 * 0.175 / 1.381 /
 * 0.579 ms where it ran 0.194 / 1.446 / 0.624 ms: the tile change cost
 * 10% at 4096^3. A consumer now writes its 64 x 256 floats into two 8 KB
 * buffers in turn, one thread sends each 64 x 32 box, and the warpgroup
 * moves on to the next tile as soon as the copy engine has read the last
 * buffer; C is written under the next tile's multiplies, and TMA clips
 * the edge tiles (no tests). H100, one call, two rounds, against the
 * stores from registers: 0.977, 0.975 / 0.997 (the second round's cuBLAS
 * throttled) / 0.967, 0.967 against 0.941, 0.940 / 0.979, 0.981 / 0.944,
 * 0.943. Nsight Compute at 4096^3: 190.3 us at 1.60 GHz, tensor pipe
 * 83.3% (79.8% before), against cuBLAS's 183.8 us and 86.0%
 * (nvjet_sm90_tss_256x128_64x4_1x2_h_bz_coopA: 256 x 128 tiles, A shared
 * by a cluster of two along N). What is left of the tile change: each
 * consumer's 64 STS.64 and 16 named barriers. At width 192 (4 stages
 * against 5 with the register stores), same call: 0.929, 0.930 against
 * 0.892, 0.896 at 3072^3; 0.714, 0.720 against 0.691, 0.692 at 3000^3;
 * 0.818-0.821 against 0.776-0.780 at 1536^3; 75 against 78-80 us at 2305
 * x 2100 x 4096. Dropped: 3 stages and 4 buffers a consumer at width
 * 256, 0.914-0.923 / 0.971 / 0.930 against 0.950-0.974 / 0.991-0.994 /
 * 0.965-0.967 (same call). Also dropped: each warp storing its own 16 rows
 * (boxes of 32 x 16, __syncwarp in place of the named barriers), level
 * with this in one call beside it: 0.188-0.189 against 0.188 ms at
 * 4096^3, 1.426 against 1.423-1.424 ms at 8192^3, 0.608-0.609 against
 * 0.607-0.608 ms at 6144^3: the barriers were not what the tile change
 * still costs. Short K gains most (H100, one call, against the register
 * stores): 0.940-0.942 against 0.767-0.769 at 4096 x 4096 x 128, 0.970-0.973
 * against 0.831-0.834 at 4096 x 4096 x 512, 0.971-0.984 against 0.907-0.910
 * at 8192 x 8192 x 1024.
 * Then the grid balanced (multicast_blocks): as few clusters as finish
 * the units in the same number of rounds (64 of the 66 that fit at 4096^3,
 * 8192^3 and 6144^3), so that every cluster walks the same count. H100,
 * one call, two rounds, against all 66: 187.8 (the second round
 * throttled) / 1408.6, 1410.6 / 601.6, 603.6 us against 188.5, 188.2 /
 * 1423.6, 1426.4 / 608.1, 607.4 us; 86.6 against 89.3 us at 3072^3 (width
 * 192); level at 5000^3, 2048^3 and 4096 x 4096 x 512.
 * Tried and dropped in that session (H100, hgemm.md has every figure): a
 * stream-K tail (the last round and one before it cut into even ranges of
 * k-tiles, a unit's pieces meeting through workspace slots and flags;
 * branch stream-k-tail): 205.7 against 185.4 us at 4096^3, 655 against
 * 597 at 6144^3. Clusters whose ranges begin at different k-tiles no
 * longer read a shared panel's k-tiles together: Nsight Compute at 4096^3,
 * DRAM reads 319 against 187 MB, tensor pipe 75.0% against 83.2%. Its one
 * gain, 5000^3 (450 against 481 us), did not carry the code. Also: each
 * stage released as soon as its own multiply is done (wgmma wait 0), with
 * 4 stages, or with 3 and 4 or 5 store buffers a consumer: level to 1%
 * slower; L2 eviction hints on the copies (C evict-first, A and B
 * evict-last): level, DRAM reads unchanged; C's chunks written to global
 * memory by a warp of the producer's warpgroup instead of TMA: 288
 * against 186 us at 4096^3 (one warp drains a buffer far slower than the
 * copy engine); a suspend-time hint on the mbarrier waits: level, 31.0M
 * instructions against 31.4M (cuBLAS: 17.3M), so the count is not
 * spinning. What the tile change still costs, bounded by cutting the
 * epilogue short (one call, two rounds): 185 / 1385 / 595 us with it,
 * 173 / 1335 / 566 us without (1.05 / 1.05 / 1.03 of cuBLAS), 177 /
 * 1358 / 576 us with all of C written to shared memory once and no
 * stores (1.017 / 1.03 / 1.01: the most a whole staged tile could give),
 * 189-193 / 1393 / 600 us with those writes then sent at once: the stores
 * slow the next tile's loads even with a tile to drain.
 * Then clusters of four where rows of A and B are off the 128-byte grid
 * (K = 3000: rows 6000 bytes apart). The copy engine splits such a box row
 * into 2.25 L2 requests on average (hgemm_box_row_requests), and sends
 * about 0.44 a clock an SM: Nsight Compute at 3000^3 (H100) counted 9.18M
 * requests against 4.02M at 3072^3, 0.42-0.44 a clock an SM for this rung
 * and for cuBLAS (nvjet_sm90_tss_192x192_64x4_2x1, 7.21M), so the copies,
 * not the multiply, set the pace: 110.6 us against cuBLAS's 82.9. Four
 * blocks stacked in M share B's tile, each bringing a quarter (b_rows64,
 * b_rows48): 192 box rows a block a k-tile where twos send 256, on 120 SMs
 * (30 clusters of four fit on an H100) where twos take 128-132.
 * hgemm_multicast_shape_for weighs the two by rounds, the longer of
 * multiply and copies, and the tile change. H100, one call, two rounds
 * each, against the build before (ratio to cuBLAS): 0.805, 0.803 against
 * 0.728, 0.718 at 3000^3; 0.967, 0.971 against 0.804, 0.805 at 5000^3;
 * 0.941, 0.941 against 0.820, 0.814 at 5000 x 5000 x 3000; 0.996, 1.013
 * against 0.938, 0.941 at 6000 x 4000 x 3000; 1.225, 1.228 against 1.116,
 * 1.110 at 8000 x 8000 x 3000; 1.234, 1.230 against 1.158, 1.156 at 4000
 * x 4000 x 5000; 0.913, 0.912 against 0.892, 0.892 at 8192 x 8192 x 1000.
 * Where the rows are on the grid the rule keeps the twos (4096^3: 0.983,
 * 0.985 against 0.981, 0.977). The rule first left the tile change out and
 * took fours at 4096 x 4096 x 130 (3 k-tiles): 34.2-34.7 against
 * 32.6-32.9 us; with it, twos again (32.2-32.5 us).
 * Then a third width, 128 x 224 (wgmma m64n224k16, 5 stages of 44 KB or 4
 * beside the store buffers; B's share in boxes of 112 or 56 rows), in the
 * rule beside 256 and 192, each 32 columns narrower counted 2.5% longer:
 * between the two, the rounds of the resident blocks fill better than at
 * 256 and the bytes a FLOP grow less than at 192. H100, one call, two
 * rounds, against the build before (ratio to cuBLAS): 0.836, 0.833 against
 * 0.792, 0.785 at 3000^3; 1.319, 1.298 against 1.220, 1.225 at 4000 x 4000
 * x 5000; 0.994, 0.985 against 0.914, 0.917 at 5120^3; 0.908, 0.899
 * against 0.829, 0.828 at 2560^3; 0.935, 0.936 against 0.846, 0.854 at
 * 3200^3; 0.869, 0.831 against 0.786, 0.802 at 1792^3; 0.933, 0.933
 * against 0.912, 0.913 at 6528^3; the squares of the defaults keep 256
 * (4096^3: 0.973, 0.978 against 0.971, 0.975), and 4095 x 4097 x 4093 (224
 * wide, no stores: C's rows are not 16-byte multiples) is level, 279.6 and
 * 272.1 us against 272.3 and 273.2.
 * Tried, not kept, against the squares' tile change (H200, 2026-11-29; a
 * clock64 timeline of each consumer, WS_WHOLE_K_STAGES below has it: the
 * multiply runs at the tensor core's rate, each tile change costs 5.1-5.5K
 * clocks of its epilogue). Ratio to cuBLAS at 4096^3 / 6144^3 / 8192^3,
 * one call each, against 0.966 (throttled)-0.992 / 0.991-0.997 /
 * 1.013-1.022 for the rung in the same calls:
 *   clusters in 2 or 4 phases, so that the GPU's blocks do not all store
 *   their tiles at once (a phase's first item the first half or quarter
 *   of its last unit's K, stored; its last item the rest, added to C by a
 *   TMA reduce-add store): 0.967 / 0.972 / 0.994 in 2, 0.921 / 0.964 /
 *   0.978 in 4; the epilogue stayed at 4.7-5.3K clocks, and half of the
 *   clusters with their stores skipped (the result thrown away) left the
 *   others' epilogue as long: what holds it is each SM's shared memory,
 *   not the stores of the whole GPU;
 *   the unidirectional proxy fence (fence.proxy.async::generic.release
 *   .sync_restrict::shared::cta.cluster): 0.984 / 0.995 / 1.023, the
 *   epilogue 5.6K;
 *   one named barrier a chunk (the sender waits for the last read before
 *   it): 0.979-0.982 / 0.989-0.991 / 1.017-1.018, the epilogue 6.2K;
 *   the proxy fence by the sender alone, after the barrier: 0.981 / 0.992
 *   / 1.021; two chunks a fence (both buffers, then their reads waited
 *   for): 0.952 (throttled) / 0.992;
 *   the first k-step with wgmma's scale-d 0 in place of 128 accumulators
 *   zeroed each tile: level, 0.7-1.0K clocks to the next tile's first
 *   k-tile either way.
 * A session later (H200, 2026-11-29), with C's writes into shared memory
 * free of bank conflicts (wgmma_write_chunk), a tile's C written whole
 * before any of it is sent (one fence and two barriers a tile): in the
 * whole-K ring's 8 buffers at every tile, and at the squares through the
 * ring at a block's last tile, once both consumers have read their last
 * stage (nothing is copied into it any more). One call, two rounds, us,
 * against the chunk at a time: 24.8-24.9 against 24.1-24.2 at 4096 x 4096
 * x 128, 24.3-24.4 against 22.7 at 4096 x 4096 x 64, 16.8-16.9 against
 * 15.6-15.7 at 3072 x 3072 x 128, 40.0-40.1 against 38.9-39.0 at 4096 x
 * 4096 x 512, 82.1-82.5 against 81.1 at 3072^3, level at 4096^3, 6144^3
 * and 8192^3. The copy engine then starts on a tile's C only once all of
 * it is written, and a block's last stores, which it waits for before it
 * leaves, no longer overlap its writes.
 * What holds the tile change, timed chunk by chunk (H200, 2026-11-29, a
 * twenty-seventh session; clock64 in a scratch build): at 4096^3 a
 * consumer's 8 chunks took 4.4-4.6K clocks, of which 1.9K waiting for the
 * copy engine to have read a buffer, 1.2K writing, 0.86K sending (100-125
 * a send) and 0.6K at the named barriers. The copy engine had read a
 * chunk by 630 clocks after its send early in the epilogue, by 965 at its
 * end. With 8,
 * 16 or 32 clusters in place of 64 (4096 x 4096 x 1024) the epilogue still
 * took 4.25-4.29K (5.0K with 64): C drains at about 30 bytes a clock an
 * SM (two consumers' 8 KB chunks every 520-570 clocks) whatever the rest of
 * the GPU does, and the 96 KB that the two buffers a consumer cannot hold
 * take 3.2K clocks of it. Tried against it, not kept (one call each, two
 * rounds, us, against the rung in the same call):
 *   C through the ring: a tile's C written at once into the stages of its
 *   last two k-tiles, one a consumer, and its buffers, the stages freed
 *   under the next tile's first multiplies once their sends had read them:
 *   42.1-42.3 against 38.1-38.4 at 4096 x 4096 x 512, 579.1-579.2 against
 *   569.5-570.5 at 6144^3, 183.0-183.3 against 178.9-181.3 at 4096^3
 *   (Nsight Compute: 229.4 against 225.0 us, tensor pipe 85.0% against
 *   86.6%); the stages freed only after the second multiply, waiting for
 *   their own sends alone: 41.9-42.0 against 38.2, 594.8-595.3 against
 *   587.0-587.1. The next tile's third k-tile then waits for that drain
 *   and for its own copy after it;
 *   half of C (columns 128-255) stored from registers beside the TMA
 *   stores: 39.4-39.6 against 38.1-38.2, 586.9-588.0 against 582.8-583.1,
 *   25.3-25.6 against 24.1-24.2 at 4096 x 4096 x 128; a quarter: 38.7-38.8,
 *   584.9-585.0. Stores from registers leave the SM by the same way;
 *   the sends by warps of their own (the producer warpgroup's warps 1 and
 *   2, two named barriers a buffer), so that no consumer thread waits on a
 *   send: 37.7 against 38.1-38.2 at 4096 x 4096 x 512, level at 6144^3,
 *   8192^3, 3072^3 and 4096^3; the epilogue stayed at 4.55-4.58K clocks
 *   at 4096^3, its waits for a read buffer growing to 400-510 a chunk.
 * C in FP32 is 128 KB a tile; cuBLAS writes the same and runs the same
 * tile and cluster at 4096^3. Only more buffers would shorten the drain,
 * and the ring holds the rest of shared memory (3 stages starve it).
 * Then registers in place of buffers (HOLDS_C in the kernel; H200,
 * 2026-11-29, a twenty-eighth session): where another tile follows, a
 * consumer writes only chunks 0-2 of its tile at once; chunks 3-7 wait in
 * 80 registers beside the next tile's 128 accumulators, and each is sent
 * under one of the next tile's first 5 multiplies. The tensor core then
 * waits for one buffer's read at a tile change, where it waited for six.
 * One call, two rounds, us, against the rung before (ratio to cuBLAS in
 * the same round): 176.2, 176.0 against 179.6, 179.9 at 4096^3 (1.020,
 * 1.025 against 1.001, 1.002); 573.8, 573.0 against 580.0, 579.7 at
 * 6144^3 (1.014, 1.016 against 1.004); 36.2 against 38.4 at 4096 x 4096 x
 * 512; 27.7 against 30.7 at 4096 x 4096 x 320; a later call, 1.358 against
 * 1.371 ms at 8192^3. Over five calls: 1.017-1.025 of cuBLAS at 4096^3
 * where neither side throttled, 1.011-1.018 at 6144^3. Other counts,
 * against 5 in the same call: 4 chunks (64 registers) 177.1 against
 * 176.0-176.2 at 4096^3, level at 6144^3, 35.7 against 36.2 at 4096 x
 * 4096 x 512 and 28.0 against 27.7 at 4096 x 4096 x 320; 6 (96 registers)
 * spilled 100 bytes: 178.0-178.4 against 176.8, 576.4-577.2 against
 * 572.9-573.7, 37.3 against 36.0. The held chunks sent every second
 * k-tile, or from the second k-tile on: within 0.2% at 6144^3 and 8192^3
 * (two calls). First tried, and not run: the next tile's first k-tiles on half
 * of the accumulators' columns (m64n128 on columns 0-127) while the other
 * half drains, then the other half. ptxas serialized every wgmma of the
 * kernel (C7511, insufficient register resources): an m64n128 on the
 * second half of an m64n256 accumulator does that alone, and reading
 * accumulators across the loop of tiles injected a wait (C7517) even
 * after wait_group 0, where a copy in plain registers does not.
 * Tried after it (H200, 2026-11-29, a twenty-ninth session; one call
 * each, us at 6144^3 against this rung in the same call). Level: the tile
 * change's first three chunks written at once, the third into this
 * consumer's rows of A in the last k-tile's stage (released under the next
 * tile's second multiply), 564.5-565.6 against 563.1-565.1, three rounds;
 * chunks 0-1 at once, chunk 2 as before, 563.8-564.6; the second consumer
 * started 1200 or 2500 clocks after its first k-tile's bytes, 576.4-577.9
 * and 576.7-577.6 against 576.2-576.9 (the producer's timeline below saw
 * the lag at a block's first tile and not at its second); no accumulators
 * zeroed, each item's first k-step with wgmma's scale-d false instead (a
 * predicate), 567.0-567.9 against 567.5-568.4. Lost: the held
 * chunks stored from registers (st.global) under the next tile's first
 * multiplies, not through shared memory, 584.5-586.6 against 577.6-578.7.
 * A timeline (clock64 and globaltimer, a scratch build) of this rung at
 * 6144^3: 916K clocks in 566 us, 1619 MHz where the card's top clock is
 * 1980 (its power limit holds it there); a tile 100.5-101.5K clocks,
 * against 98.3K for 96 k-tiles at the tensor core's rate; the producer saw
 * a stage freed every 1024 clocks mid-tile, and the next tile's first
 * stage 4.5-4.7K clocks after the last tile's last (one k-tile's multiply
 * of it). From a consumer (a scratch build holding 4 chunks, whose
 * registers leave room for the clock): chunks 0-3 sent 2.15-2.2K clocks
 * after the last multiply, the next tile's first multiply 0.6K after that
 * (the item's bookkeeping and 128 accumulators zeroed by both consumers at
 * once), and the k-tiles that send held chunks at 1024 clocks each.
 * Then 256 x 192 tiles (H200, 2026-11-29, a thirtieth session;
 * launch_multicast_tall, the kernel's HOLDS_ROWS), in pairs side by side
 * along N that share A's tile, where a tile has 64 k-tiles or more and
 * they round better (hgemm_tall_clocks): 6144^3 takes 6 rounds of them on
 * 128 blocks, 9 of 128 x 256. Both sides of that comparison run at the
 * card's power limit (700 W, about 1.6 GHz of 1.98), so what a GEMM costs
 * is its energy, and these tiles bring a sixth fewer L2 bytes a FLOP (a
 * block's k-tile: 128 of A's 256 rows and 192 of B's). The first form
 * stored all of a tile's C through 3 buffers a consumer (3 stages of 56 KB
 * beside them: 216 KB): Nsight Compute at 6144^3 (the card's own clocks)
 * 572.1 against 574.9 us for 128 x 256, at 1658 against 1618 MHz, 88.4M
 * against 105.7M L2 sectors read, 403 against 454 MB from DRAM, 62.3M
 * against 71.9M instructions; but 948.5K clocks against 930.2K. One call,
 * three rounds: 566.3-566.7 against 567.4-568.2 us; stored from registers
 * with 4 stages, 575.1-577.1. A producer's timeline (the clock at each
 * freed stage) found why: a k-tile 1556 clocks (1536 the tensor core's
 * rate), a tile change 7.5K past its k-tiles, where 128 x 256 with held
 * chunks takes 1040 and 3.3K. 192 KB of C a block leave at about 30 bytes a
 * clock, and the 192 accumulators leave no registers to hold any of it.
 * So each consumer's second row group now waits in its accumulators while
 * the first row group multiplies the next tile's first 3 k-tiles (the
 * ring's depth), two chunks sent under each; the second row group then
 * catches up on those stages. One call, three rounds: 568.2-568.8 against
 * 572.7-573.6 us (1.021-1.022 of cuBLAS against 1.012-1.015), the tile
 * change 6.2K. A later call, two rounds: 572.0-572.7 against 575.6-576.6 at
 * 6144^3; 1145.7 against 1156.0 at 12288 x 6144 x 6144; 70.4 against 71.0 at
 * 2048 x 3072 x 4096 (one round); level at 6144 x 6144 x 4096 (388.3
 * against 388.7) and 2305 x 2100 x 4096 (70.2 against 69.7); 46.5 against
 * 42.4 at 4000 x 4500 x 400 (7 k-tiles), hence HGEMM_TALL_MIN_K_TILES.
 * ptxas still injects one wait where the loop of items closes (C7517:
 * the second row group's accumulators are read there on one path while
 * the first's multiplies are in flight on another); zeroing the
 * accumulators under those multiplies serialized every wgmma (C7515), so
 * an item's first k-step overwrites them (wgmma's scale-d 0) instead. */
/* 128 x 192 and 128 x 224 tiles take 5 stages (of 40 and 44 KB), or 4
 * beside the buffers of TMA stores (32 KB: 5 would pass 227 KB). */
constexpr int WS_NARROW_STAGES = 5, WS_NARROW_STORE_STAGES = 4, WS_STORE_BUFFERS = 2;

/* Where a tile's K fits in 2 stages (hgemm_multicast_shape's whole_k), a
 * ring of 2 and 8 store buffers a consumer: all of its 64 x 256 floats of C
 * at once (128 KB a block, 224 KB with the ring). A consumer then writes
 * its whole tile of C without waiting for the copy engine to have read a
 * buffer, and the stores drain under the next tile's multiplies; with 2
 * buffers it waited for each one's read, 6 times a tile.
 * A timeline of the tile change first (clock64 at each step of each
 * consumer, a scratch build; H200, 2026-11-29): at 4096^3 a tile's 64
 * k-tiles take 65.4K clocks, 1022 a k-tile, the tensor core's whole rate,
 * and each of the 4 tile changes 5.1-5.5K (the epilogue) + 0.7K (to the
 * next tile's first k-tile); at 4096 x 4096 x 128 a tile's 2 k-tiles take
 * 1.8K and its epilogue 6.1K: 63% of the kernel. Without any TMA store
 * (timed, the result thrown away) the epilogue still took 4.5K, without
 * the proxy fences 3.2K, without fences and named barriers 3.0K: the
 * writes of C into shared memory share its bandwidth with the next tile's
 * k-tiles landing. H200, one call, ratio to cuBLAS in the same run, (ring
 * stages, buffers a consumer):
 *   4096 x 4096 x 128 (2 k-tiles)  (4, 2) 0.875-0.877, (3, 4) 0.910,
 *                                  (3, 5) 0.899, (2, 8) 0.936-0.938
 *   4096 x 4096 x 256 (4)          (4, 2) 0.930-0.934, (3, 4) 0.901,
 *                                  (3, 5) 0.893, (2, 8) 0.817
 *   4096 x 4096 x 512 (8)          (4, 2) 0.941-0.944, (2, 8) 0.763-0.765
 *   8192 x 8192 x 1024             (4, 2) 1.008, (2, 8) 0.693-0.724
 * Past 2 k-tiles a ring of 2 starves the multiply. The rule in place, a
 * later call, two rounds: 0.996, 1.007 at 4096 x 4096 x 128; 0.966, 0.978
 * at 4096 x 4096 x 64; 0.937-0.941 at 8192 x 8192 x 128; 1.012 at 3072 x
 * 3072 x 128 (192 wide); 0.995, 1.004 at 5120 x 5120 x 128 (224 wide);
 * 0.993 at 2048 x 8192 x 128; 4096 x 4096 x 256 (4 k-tiles, the ring of 4)
 * 1.001, 1.009. */
constexpr int WS_WHOLE_K_STAGES = HGEMM_WHOLE_K_TILES, WS_WHOLE_K_STORE_BUFFERS = 8;

/* persistent_multicast's grid at tile width BN in clusters of CLUSTER: its
 * units' balanced clusters (hgemm_balanced_clusters).
 * Tried, not kept (H200, 2026-11-29): the last round cut finer. At 6144^3
 * the 576 units take 9 rounds of 64 clusters, where all 132 SMs would
 * need 8.73. The 22 unit rows that fill whole rounds of all 66 clusters ran
 * as one launch, and the last 2 as a second launch 192 wide (a
 * programmatic dependent of the first). One call, two rounds: 573.0-573.6
 * us against 578.3-578.5 (1.008 of cuBLAS against 0.999); 575.4-576.0
 * without the dependent launch. Nsight Compute (its fixed clocks): the
 * 256-wide launch took 634 us on 132 blocks, the 192-wide one 65 us, 0.84
 * of a round where 0.75 was the aim. The second launch's start and its
 * narrower tiles take most of what the whole rounds save. A split of this
 * kind fires only where some count of unit rows fills whole rounds (not at
 * 4096^3 or 8192^3, both level), so a second launch and two more tensor
 * maps were not kept for it. Its bound again on the build that holds C in
 * registers (H200, 2026-11-29, one call, two rounds): 5632 x 6144 x 6144
 * (the 22 unit rows, 8 rounds of 66 clusters) 513.3-514.1 us plus 512 x
 * 6144 x 6144 (192 wide, one round) 52.7-52.9 us make 566.0-567.0 against
 * 568.3-569.3 for 6144^3 whole: 0.4% before the second launch's own
 * start. A round of all 132 SMs took 64.2 us against 63.2 us on 128: at
 * this size the card runs at its power limit, which takes back most of
 * what 4 more SMs bring. */
template <int BN, int CLUSTER>
static int multicast_blocks(const hgemm_problem *p)
{
    long long units = (long long)hgemm_ceil_div(hgemm_ceil_div(p->m, 128), CLUSTER) * hgemm_ceil_div(p->n, BN);
    int slots = CLUSTER == 4 ? p->cluster4_blocks : p->cluster_blocks;
    return CLUSTER * hgemm_balanced_clusters(units, slots / CLUSTER);
}

/* Each block of a cluster brings BN / CLUSTER rows of B's tile (b_share's
 * box), with TMA stores where C's map is there (clusters of four only
 * there: the rule's slots4 is 0 elsewhere), through the whole-K ring where
 * the shape takes it. */
template <int BN, int CLUSTER>
static void launch_multicast(const hgemm_problem *p, const CUtensorMap &b_share, cudaStream_t stream)
{
    constexpr int STAGES = BN == 256 ? WS_256_STAGES : WS_NARROW_STAGES;
    constexpr int STORE_STAGES = BN == 256 ? WS_256_STAGES : WS_NARROW_STORE_STAGES;
    int blocks = multicast_blocks<BN, CLUSTER>(p);
    if constexpr (CLUSTER == 2) {
        if (!p->c_map_encoded) {
            launch_warp_specialized<BN, STAGES, true, CLUSTER, 0>(p, b_share, 1, blocks, stream);
            return;
        }
        if (p->multicast.whole_k) {
            launch_warp_specialized<BN, WS_WHOLE_K_STAGES, true, CLUSTER, WS_WHOLE_K_STORE_BUFFERS>(p, b_share, 1,
                                                                                                  blocks, stream);
            return;
        }
    }
    launch_warp_specialized<BN, STORE_STAGES, true, CLUSTER, WS_STORE_BUFFERS>(p, b_share, 1, blocks, stream);
}

/* The 256 x 192 tiles (HGEMM_TALL_STAGES stages of 56 KB, 3 buffers a
 * consumer: 216 KB) in pairs side by side along N that share A's tile,
 * each block bringing 128 of its 256 rows into both (a_rows128's box). Its
 * two consumers take 128 rows each, in two row groups (the kernel's
 * HOLDS_ROWS). */
constexpr int WS_TALL_STORE_BUFFERS = 3;
typedef ws_shape<192, HGEMM_TALL_STAGES, 2, WS_TALL_STORE_BUFFERS, 2, true> ws_tall_shape;

static void launch_multicast_tall(const hgemm_problem *p, cudaStream_t stream)
{
    int blocks = 2 * hgemm_balanced_clusters(hgemm_tall_units(p->m, p->n), p->cluster_blocks / 2);
    launch_warp_specialized<192, HGEMM_TALL_STAGES, true, 1, false, 2, WS_TALL_STORE_BUFFERS, 2, false, 2, true>(
        p->a_rows128, p->b_rows192, p->c, p->partials, p->m, p->n, p->k, 1, 0, blocks, stream, &p->c_cols32);
}

extern "C" void hgemm_persistent_multicast(const hgemm_problem *p, cudaStream_t stream)
{
    if (p->multicast.rows == 256) {
        launch_multicast_tall(p, stream);
        return;
    }
    bool fours = p->multicast.cluster == 4;
    switch (p->multicast.width) {
    case 192:
        fours ? launch_multicast<192, 4>(p, p->b_rows48, stream) : launch_multicast<192, 2>(p, p->b_rows96, stream);
        break;
    case 224:
        fours ? launch_multicast<224, 4>(p, p->b_rows56, stream) : launch_multicast<224, 2>(p, p->b_rows112, stream);
        break;
    default:
        fours ? launch_multicast<256, 4>(p, p->b_rows64, stream) : launch_multicast<256, 2>(p, p->b_rows128, stream);
    }
}

/* Blocks of persistent_multicast's clusters of CLUSTER that can be
 * resident at once (of its 256-wide kernel, with TMA stores where it
 * takes them). */
template <int CLUSTER, int STORE_BUFFERS>
static int cluster_blocks(const hgemm_problem *p)
{
    constexpr auto kernel = warp_specialized_kernel<256, WS_256_STAGES, true, CLUSTER, false, 2, STORE_BUFFERS>;
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config = warp_specialized_config<256, WS_256_STAGES, true, CLUSTER, false, 2, STORE_BUFFERS>(
        p->m, p->n, 1, 0, 4 * multiprocessors(), &cluster, 0);
    config.gridDim = dim3(4 * multiprocessors());
    return resident_cluster_blocks<kernel>(config);
}

extern "C" int hgemm_cluster_blocks(const hgemm_problem *p, int cluster)
{
    /* fours: of the kernel with TMA stores, whether C's map is there or not
     * (swap_ab's clusters are counted by the same) */
    if (cluster == 4) return cluster_blocks<4, WS_STORE_BUFFERS>(p);
    return p->c_map_encoded ? cluster_blocks<2, WS_STORE_BUFFERS>(p) : cluster_blocks<2, 0>(p);
}

extern "C" size_t hgemm_sm90a_shared_bytes(hgemm_launcher *rung)
{
    if (rung == hgemm_tma_mma) return TMA_MMA_SHARED;
    if (rung == hgemm_wgmma) return WGMMA_SHARED;
    if (rung == hgemm_warp_specialized) return ws_shape<128, WS_128_STAGES>::SHARED_BYTES;
    if (rung == hgemm_ws_128x256 || rung == hgemm_persistent) return ws_shape<256, WS_256_STAGES>::SHARED_BYTES;
    if (rung == hgemm_persistent_multicast)
        return std::max({ws_shape<256, WS_256_STAGES, 2, WS_STORE_BUFFERS>::SHARED_BYTES,
                         ws_shape<224, WS_NARROW_STORE_STAGES, 2, WS_STORE_BUFFERS>::SHARED_BYTES,
                         ws_shape<192, WS_NARROW_STORE_STAGES, 2, WS_STORE_BUFFERS>::SHARED_BYTES,
                         ws_shape<256, WS_WHOLE_K_STAGES, 2, WS_WHOLE_K_STORE_BUFFERS>::SHARED_BYTES,
                         ws_shape<224, WS_WHOLE_K_STAGES, 2, WS_WHOLE_K_STORE_BUFFERS>::SHARED_BYTES,
                         ws_shape<192, WS_WHOLE_K_STAGES, 2, WS_WHOLE_K_STORE_BUFFERS>::SHARED_BYTES,
                         ws_shape<256, WS_256_STAGES>::SHARED_BYTES, ws_shape<224, WS_NARROW_STAGES>::SHARED_BYTES,
                         ws_shape<192, WS_NARROW_STAGES>::SHARED_BYTES, ws_tall_shape::SHARED_BYTES});
    return hgemm_skinny_shared_bytes(rung);
}
