/* Attention rungs 6-11: Hopper. Built only for sm_90a (its own object library,
 * as hgemm's Hopper rungs: wgmma and setmaxnreg exist on no other target)
 * and run on compute capability 9.0 only. Q, K and V tiles come from 3D
 * tensor maps ([heads][S][D], attention.h), which fill rows past S with
 * zeros, so the kernel has no edge code but its masks and stores. */
#include <stdio.h>

#include "harness/check/check.h"
#include "harness/hardware/shared_memory.cuh"
#include "harness/hardware/tensor_map.h"
#include "attention_tiles.cuh"

/* A block owns 64 query rows per consumer warpgroup (2: 128 rows; rung
 * 11 at D = 64: 3, 192 rows) and walks the keys in tiles of KEYS (128;
 * rung 11 at D = 128, full: 176), K and V each in a ring of 2 stages. A K
 * or V tile is D / 64 panels of KEYS rows of 128 bytes; Q's are as many
 * 128-row boxes as cover the block's rows (a 192-row block loads 256, the
 * last 64 unused), in one panel at D = 64. */
constexpr int WS_BOX_ROWS = 128, WS_WIDE_KEYS = 176, WS_STAGES = 2;

template <int D, int CONSUMERS, int KEYS_>
struct ws_shape {
    static_assert(CONSUMERS == 2 || (CONSUMERS == 3 && D == 64), "three consumers only at D = 64: one Q panel");
    static_assert(KEYS_ == WS_BOX_ROWS || (KEYS_ == WS_WIDE_KEYS && CONSUMERS == 2),
                  "176 keys take 240 registers: two consumers");
    static constexpr int ROWS = 64 * CONSUMERS, THREADS = 128 * (1 + CONSUMERS), KEYS = KEYS_;
    /* The producer warpgroup keeps 40 registers a thread, or 24 where the
     * consumers need more (3 at D = 64: their loop spilled at 152; 176
     * keys: 88 score registers); the consumers share what is left of 64K
     * (setmaxnreg counts in 8s): 232 for 2, 240 with 176 keys, 160 for 3. */
    static constexpr int PRODUCER_REGISTERS = CONSUMERS == 2 && KEYS_ == WS_BOX_ROWS ? 40 : 24;
    static constexpr int CONSUMER_REGISTERS = (65536 / 128 - PRODUCER_REGISTERS) / CONSUMERS / 8 * 8;
    static constexpr int Q_BOXES = (ROWS + WS_BOX_ROWS - 1) / WS_BOX_ROWS;
    static constexpr int Q_PANEL_BYTES = Q_BOXES * WS_BOX_ROWS * 128, KV_PANEL_BYTES = KEYS_ * 128;
    static constexpr int TILE_BYTES = KEYS_ * D * 2, Q_BYTES = Q_PANEL_BYTES * D / 64;
    static constexpr int BARRIERS = 2 + 4 * WS_STAGES;
    /* The tiles, the barriers, the work slot (8 bytes) and the alignment. */
    static constexpr size_t SHARED_BYTES = (size_t)Q_BYTES + 2 * WS_STAGES * TILE_BYTES + BARRIERS * 8 + 8 + 1024;
    static_assert(SHARED_BYTES <= 227 * 1024, "fits Hopper's 227 KB a block");
};

/* The KEYS-row K or V tile at `row` of head `head` (D / 64 boxes of a map
 * whose boxes are KEYS rows), counted on `full`. */
template <typename W, int D>
__device__ __forceinline__ void tma_load_rows(uint32_t tile, const CUtensorMap &map, int row, int head, uint64_t *full)
{
    mbarrier_arrive_expect_bytes(full, W::TILE_BYTES);
#pragma unroll
    for (int panel = 0; panel < D / 64; ++panel)
        tma_load_3d(tile + panel * W::KV_PANEL_BYTES, &map, 64 * panel, row, head, full);
}

/* The block's Q rows from `row` on: Q_BOXES boxes of 128 rows, one
 * arrival for all of their bytes. */
template <typename W, int D>
__device__ __forceinline__ void tma_load_q(uint32_t tile, const CUtensorMap &map, int row, int head, uint64_t *full)
{
    mbarrier_arrive_expect_bytes(full, W::Q_BYTES);
#pragma unroll
    for (int box = 0; box < W::Q_BOXES; ++box)
#pragma unroll
        for (int panel = 0; panel < D / 64; ++panel)
            tma_load_3d(tile + panel * W::Q_PANEL_BYTES + box * WS_BOX_ROWS * 128, &map, 64 * panel,
                        row + box * WS_BOX_ROWS, head, full);
}

/* The consumer warpgroups' steps, each on one warpgroup's 64 query rows. */

/* scores (64 x KEYS, the accumulator layout) = Q K^T: D / 16 wgmma
 * m64nKEYSk16 with both operands from shared memory, Q's descriptor at the
 * warpgroup's 64 rows, K's as hgemm's B. Issued, not waited for. */
template <typename W, int D>
__device__ __forceinline__ void issue_scores(float (&scores)[W::KEYS / 2], uint32_t q_rows, uint32_t k_tile)
{
#pragma unroll
    for (int i = 0; i < W::KEYS / 2; ++i) scores[i] = 0.0f;
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < D / 16; ++step) {
        uint64_t q_desc = wgmma_descriptor_sw128(q_rows + (step / 4) * W::Q_PANEL_BYTES + 32 * (step % 4));
        uint64_t k_desc = wgmma_descriptor_sw128(k_tile + (step / 4) * W::KV_PANEL_BYTES + 32 * (step % 4));
        if constexpr (W::KEYS == WS_BOX_ROWS)
            wgmma_m64n128k16_bf16(scores, q_desc, k_desc);
        else
            wgmma_m64n176k16_bf16(scores, q_desc, k_desc);
    }
    wgmma_commit();
}

/* acc (64 x D) += P V: P from registers (the A fragments), V read N-major
 * through the transposing descriptor. Issued, not waited for. */
template <typename W, int D>
__device__ __forceinline__ void issue_output(float (&acc)[D / 2], const uint32_t (&pf)[W::KEYS / 16][4],
                                             uint32_t v_tile)
{
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < W::KEYS / 16; ++step) {
        uint64_t v_desc = wgmma_descriptor_sw128_n_major(v_tile + step * 16 * 128, W::KV_PANEL_BYTES);
        if constexpr (D == 128)
            wgmma_m64n128k16_bf16_rs_n_major(acc, pf[step], v_desc);
        else
            wgmma_m64n64k16_bf16_rs_n_major(acc, pf[step], v_desc);
    }
    wgmma_commit();
}

/* The online softmax of a finished score tile, in place: the scores become
 * the probabilities. */
template <int KEYS>
__device__ __forceinline__ void softmax_tile(float (&scores)[KEYS / 2], float (&m)[2], float (&l)[2],
                                             float (&alpha)[2], int row0, int key0, int seq, bool causal,
                                             float scale_log2, int lane)
{
    bool masked = key0 + KEYS > seq || (causal && key0 + KEYS - 1 > row0);
    online_softmax(scores, m, l, alpha, masked, row0, key0, seq, causal, scale_log2, lane);
}

/* P as BF16 A fragments: the accumulator layout of two n8 column groups is
 * the A layout of one k16 step, per warp, as for mma.sync. */
template <int KEYS>
__device__ __forceinline__ void to_fragments(const float (&p)[KEYS / 2], uint32_t (&pf)[KEYS / 16][4])
{
#pragma unroll
    for (int step = 0; step < KEYS / 16; ++step) {
        pf[step][0] = pack_bf16(p[8 * step], p[8 * step + 1]);
        pf[step][1] = pack_bf16(p[8 * step + 2], p[8 * step + 3]);
        pf[step][2] = pack_bf16(p[8 * step + 4], p[8 * step + 5]);
        pf[step][3] = pack_bf16(p[8 * step + 6], p[8 * step + 7]);
    }
}

/* How the consumer warpgroups schedule their work: rung 6, 7 and 8. */
enum ws_schedule {
    WS_SERIAL,   /* each tile: Q K^T, wait, softmax, P V, wait */
    WS_OVERLAP,  /* Q K^T of tile t + 1 and P V of tile t in flight during tile t + 1's softmax */
    WS_PINGPONG, /* WS_OVERLAP, and the two warpgroups take turns issuing their products */
    WS_PERSISTENT, /* WS_PINGPONG in a block per SM that walks the works */
    WS_QUEUE,      /* WS_PERSISTENT taking its next work from a queue in global memory */
};

/* Named barriers 1 to CONSUMERS (0 is __syncthreads): "consumer
 * warpgroup c may issue its products", 256 threads (its own 128 wait, the
 * previous one's 128 arrive): the warpgroups issue in turn, c after c - 1. */
constexpr int WS_TURN_BARRIER = 1;

/* The next CONSUMERS named barriers and the CONSUMERS after them: the
 * producer warp hands each consumer warpgroup c the next work through a
 * slot in shared memory: "the slot holds the next work" (the producer
 * arrives, c waits) and "c has read it" (the other way round); 32 + 128
 * threads. A pair for each warpgroup, so that none waits for another at a
 * work's start (they run apart in their turns). */
template <int CONSUMERS>
struct ws_work_barriers {
    static constexpr int WRITTEN = WS_TURN_BARRIER + CONSUMERS, READ = WRITTEN + CONSUMERS, THREADS = 32 + 128;
    static_assert(READ + CONSUMERS <= 16, "16 named barriers a block");
};

/* Rung 6: the Hopper path. Warp 0 of warpgroup 0 produces: one thread
 * issues the TMA copies of Q once and of each K and V tile into a 2-stage
 * ring, K and V on barriers of their own, so that Q K^T can start while V
 * still arrives; the warpgroup gives its registers back (setmaxnreg 40).
 * Warpgroups 1 and 2 consume, 64 query rows each, with up to 232
 * registers: S = Q K^T by wgmma m64n128k16 from shared memory, the online
 * softmax on the accumulator, P rounded into wgmma A fragments in
 * registers, and O += P V by wgmma with A from registers and V read
 * N-major through the transposing descriptor. A stage is released as soon
 * as the product that read it is done. Causal blocks stop at their
 * diagonal tile (every fused rung does).
 * Should move from mma.sync's issue rate (rung 5) toward the wgmma rate;
 * inside a warpgroup the softmax waits for Q K^T and P V for the softmax,
 * so its tensor pipe idles while the FP32 and MUFU pipes work, covered
 * only by the other warpgroup when the scheduler happens to interleave.
 *
 * Rung 7 (WS_OVERLAP): inside each warpgroup, Q K^T of tile t + 1 and
 * P V of tile t are issued together, and tile t + 1's softmax runs while
 * they multiply (the scores of t + 1 arrive first: wgmma groups complete
 * in order); the accumulator is rescaled once P V is done. Costs a second
 * score tile of registers (64 more a thread). Causal blocks run longest
 * rows first (the grid walks the query tiles from the last), so the short
 * ones fill the tail.
 * Rung 8 (WS_PINGPONG): the two warpgroups take turns issuing their
 * products (named barriers): one's softmax runs under the other's
 * products, by construction rather than by chance.
 * Rung 9 (WS_PERSISTENT): rung 8 in one block per SM that walks the works
 * (query blocks); the producer loads the next work's Q, K and V while the
 * consumers finish this one and store O, so that no block starts cold:
 * at 4x32x4096x128 a block of rung 8 lives ~53 us (1.655 ms x 132 SMs /
 * 4096 blocks), its cold start (Q and the first K from DRAM, the first
 * Q K^T and softmax with nothing to overlap) should be a few percent of
 * that; at 16x16x1024x64 (8 key tiles a block, ~12 us) far more.
 * Measured (H100 SXM, ratio to cuDNN 9.14 at 4x32x4096x128 full / causal,
 * 16x16x1024x64 full / causal; TFLOP/s of the full D = 128):
 *   wgmma_ws         0.875 / 0.860 / 0.791 / 0.838   608
 *   wgmma_overlap    0.945 / 0.928 / 0.752 / 0.809   656
 *   wgmma_pingpong   0.956 / 0.955 / 0.805 / 0.857   664 (cuDNN 694)
 *   wgmma_persistent 0.993 / 0.920 / 0.965 / 0.890   684 (cuDNN 688; another run)
 * Persistence pays most where blocks are short (D = 64, S = 1024: 0.805
 * to 0.965) and loses causally: the static walk (block b takes works b,
 * b + 132, ...) gives SMs unequal sums of diagonal-bounded works, where
 * the hardware's block scheduler of rung 8 balances them as they finish.
 * Rung 10 (WS_QUEUE): rung 9 whose blocks take their next work from a
 * counter in global memory (one atomicAdd by the producer), in the same
 * order (head by head, causal longest first): each work goes to the
 * block free first, as rung 8's hardware scheduler does, and no block
 * starts cold, as in rung 9. The queue is two counters the kernel leaves
 * at zero (the last block out resets them), so a launch costs no memset.
 * The producer hands each work to the consumers through a slot in shared
 * memory on named barriers (ws_work_barriers).
 * Measured (H200, ratio to cuDNN 9 in two runs of one call; same order
 * of sizes as above):
 *   wgmma_persistent 0.998, 0.995 / 0.920, 0.924 / 0.930, 0.946 / 0.860, 0.880
 *   wgmma_queue      0.992, 0.991 / 1.004, 1.004 / 0.923, 0.926 / 1.015, 1.030
 * What it took, each measured against this rung in the same call:
 * - The consumers take the work through a shuffle from lane 0. Read
 *   straight from shared memory, the work was not provably warp-uniform,
 *   so neither was the ring's stage counter, and every wgmma descriptor
 *   in the loop cost an R2UR into a uniform register (80 against rung 9's
 *   34 at D = 64): 0.953-0.955 full at 4096, 0.896 at 1024 x 64.
 * - The queue is asked two tiles before the work's last are loaded.
 *   Asked as the work starts, a block holds its next work a whole work
 *   early and balances worse: causal 0.984 (4096), 0.991-1.005 (1024).
 * Tried on it and dropped (same call, against this rung):
 * - Rescaling only when a row's max has grown by 2^8 (the sums and O then
 *   share a stale max, which the final division cancels): 0.942 / 0.959 /
 *   0.899 / 1.014 against 0.958 / 0.963 / 0.901 / 1.026. The warp-wide
 *   vote on both rows' maxima delays every exponential; the FMULs it
 *   saves were not on the critical path.
 * - 1/8, 2/8 or 3/8 of the exponentials as a cubic on the FMA pipe
 *   (D = 64, where MUFU's 16 a clock were the suspect): full 0.864 /
 *   0.827 / 0.804, causal 0.966 / 0.929 / 0.914, against 0.899 and 1.022.
 *   Nsight Compute at 16x16x1024x64: XU 45.6% to 31.7%, issue slots 45.7%
 *   to 50.6%, tensor pipe 42.0% to 38.3%: MUFU does not bound it.
 * - The row max and sum as trees of 8 partial chains (7 dependent steps
 *   where the loops make 32): +0.2% / +0.7% / -1.0 to +0.1% / +0.9%,
 *   inside the spread of two runs.
 * At D = 64 the rung is sensitive to code generation: rung 9 with those
 * trees measured 0.892-0.902 at 16x16x1024x64, against rung 9's
 * 0.930-0.946 (Nsight Compute: the warps' top stall is "wait", a fixed
 * latency dependency, 33% of their cycles).
 * racecheck reports the slot as a hazard unless the consumers pass a
 * bar.sync between reading it and the producer's next write (a trial
 * that handed rungs 6 and 7 their works this way: 4 reports a block);
 * here the turn barriers are such syncs. bar.arrive then bar.sync on one
 * barrier synchronize by the PTX memory model either way.
 * Rung 11, the block's tile per head size and form, on rung 9's static
 * walk for the full form (its equal works need no queue, and the walk
 * measured 3% ahead of the queue at D = 64 full); causal: rung 10.
 * - D = 64, full: blocks of 192 query rows and three consumer warpgroups
 *   that issue in turn (a ring of named barriers), 160 registers each
 *   (the producer keeps 24; at 152 the P V loop spilled). A warpgroup's
 *   softmax of a tile takes longer than its products (8192 MUFU.EX2 a
 *   tile, 512 clocks at 16 a clock, against 512 clocks of wgmma), so with
 *   two warpgroups the tensor pipe waits for softmaxes; with three, two
 *   warpgroups' products can cover the third's softmax, and three warps a
 *   scheduler hide more latency. Q comes as two boxes of 128 rows (the
 *   last 64 unused).
 * - D = 128, full: key tiles of 176 (FlashAttention-3's choice), 88 score
 *   registers a thread in the 240 a 24-register producer leaves: a third
 *   fewer iterations for the same fixed costs per iteration (barriers,
 *   waits, the turn). K and V come through maps of 176-row boxes.
 * Measured (H200, against cuDNN; each shape first on rung 10's queue in
 * two runs of one call, then rungs 9 and 10 in the same runs):
 *   16x16x1024x64, 3 consumers        0.936, 0.942   0.956, 0.964   0.927, 0.918
 *   causal:16x16x1024x64, 3 consumers 0.889, 0.896   0.889, 0.890   1.034, 1.025
 *   4x32x4096x64, 3 consumers         0.972          0.907          0.883
 *   causal:4x32x4096x64, 3 consumers  0.945          0.897          0.923
 * Causally, each warpgroup runs every key tile its block reaches, though
 * the diagonal of a 192-row block ends half a tile into it for the first
 * warpgroup: at S = 1024 the blocks take 48 tiles' work where 128-row
 * blocks take 36. Full, S = 1024 = 5 x 192 + 64 leaves the last block a
 * third full (12.5% more rows), against 3% at S = 4096. Nsight Compute at
 * 16x16x1024x64: tensor pipe 49.9% (rung 10: 42.0%), XU 54.5%, issue
 * slots 53.0%.
 * 176 keys, on the static walk, against rungs 9 and 10 (two runs):
 *   4x32x4096x128   0.994, 0.998   0.978, 0.977   0.995, 0.991
 *   8x16x8192x128   6.79 ms        6.99 ms        7.05, 6.98 ms (cuDNN's
 *                   time moved 6.2-7.1 ms between the runs)
 *   16x16x1024x128  0.954, 0.961   0.953, 0.955   0.931, 0.935
 * Nsight Compute at 4x32x4096x128: tensor pipe 77.5% busy (rung 10:
 * 73.4%), but 4096 = 23 x 176 + 48 pads the last tile (3% more keys), so
 * the time gains less than the pipe; at 8192 (1% padding) 3%.
 * Measured, the committed run and a second (H200, against cuDNN, four
 * default sizes): 1.000, 0.999 / 1.003, 1.001 / 0.987, 0.962 / 1.035,
 * 1.018.
 * Tried after rung 11 and dropped (H100, 2026-11-26; each a rung 12 run
 * beside rung 11 in the same call, two rounds, the four default sizes):
 * - Works that flow into each other: a work's first Q K^T issued in one
 *   turn with the previous work's last P V, whose O is stored under the
 *   other warpgroup's products; Q in two buffers (one at 176 keys, where
 *   two do not fit). As one stream of tiles with a branch for a work's
 *   first step: 0.967-0.969 / 0.951 / 0.882 / 0.948-0.957 against rung
 *   11's 1.010-1.015 / 1.004-1.007 / 0.961-0.970 / 1.040. The loop's
 *   counters were no longer known to be warp-uniform: every wgmma
 *   descriptor took two R2UR moves and the instructions rose 10% (Nsight
 *   Compute, causal 4096: 350M against rung 10's 320M, tensor pipe 64.5%
 *   against 69.2%; before the tile addresses went through shuffles,
 *   0.880-0.897 at D = 128). In this works' loop instead (the last P V
 *   and the store moved into the next work's first step, the tile loop
 *   as it is here): 0.974-0.975 / 0.989-0.990 / 0.951-0.959 /
 *   1.020-1.055 against 1.006-1.008 / 1.004-1.006 / 0.971-0.974 /
 *   1.019-1.040. Barrier stalls fell (0.66 against 0.76 cycles an issued
 *   instruction), the instructions rose 7.5% (344M) and the tensor pipe
 *   stayed at 68.3%. A work boundary costs less than estimated: at
 *   causal 4096 a work averages 16.5 tiles of 4096 tensor clocks.
 * - A work's last key tile cut to the keys its warpgroup sees (wgmma
 *   m64n64 where 64 keys remain: warpgroup 0's causal diagonal, the 48
 *   keys past 23 tiles of 176 at S = 4096). With the instruction's width
 *   chosen at run time ptxas serialized every wgmma of the kernel: C7518
 *   (a width derived from threadIdx), C7511 and C7517 (a uniform one),
 *   C7514 and C7515 (a P V with fewer k-steps). Not measured.
 * Nsight Compute on rung 10 and cuDNN at causal:4x32x4096x128 (H100,
 * clocks free): 900.1 against 899.7 us, tensor pipe 69.2% against 68.9%,
 * issue slots 41.6% against 42.3%, 319.7M against 326.4M instructions;
 * stalls per issued instruction: wait 1.52 against 1.07, barrier 0.76
 * against 1.41, dispatch 0.60 against 0.44, long scoreboard 0.37 against
 * 0.59. The two kernels are the same machine at the same speed.
 * Nsight Compute on rung 9 at 4x32x4096x128 (full): tensor pipe busy
 * 73.8% of elapsed cycles, XU (MUFU.EX2) 39.8% and FMA 15.5% of active,
 * issue slots 41.4%, DRAM 9.8%, 168 registers at entry; cuDNN's kernel on
 * the same problem: 73.8%, 39.2%, 20.4%, 43.9%, 9.8%: the same profile.
 * No pipe, issue slots or DRAM near its limit: what idles the tensor pipe
 * a quarter of the time is latency between each warpgroup's softmax and
 * its products (P must exist before P V issues). At 16x16x1024x64: tensor
 * 45.0%, XU 49.9%, issue 47.2%, DRAM 23.3%.
 * With exp2f (a denormal fix-up around each MUFU.EX2) and the scale as a
 * separate multiply, the first build measured 556 / 473 / 604 TFLOP/s for
 * the three at 4x32x4096x128: rung 7 alone lost to rung 6 (the softmax
 * of one warpgroup no longer hid under the other's products), and the
 * FFMA + ex2.approx.ftz softmax gave rungs 6-8 +9%, +39%, +10%.
 * Left at D = 64: the softmax itself. A tile of 128 keys costs a
 * warpgroup 8192 MUFU.EX2 (16 a clock an SM: 512 clocks) against 512
 * clocks of wgmma at D = 64, so the exponentials bound it as much as the
 * tensor cores do; at D = 128 the products take twice as long and hide
 * it. */
template <int D, ws_schedule SCHEDULE, int CONSUMERS, int KEYS>
__global__ void __launch_bounds__(ws_shape<D, CONSUMERS, KEYS>::THREADS, 1)
    wgmma_ws_kernel(const __grid_constant__ CUtensorMap q_map, const __grid_constant__ CUtensorMap k_map,
                    const __grid_constant__ CUtensorMap v_map, bf16 *__restrict__ o, unsigned int *__restrict__ queue,
                    int heads, int seq, int causal, float scale_log2)
{
    typedef ws_shape<D, CONSUMERS, KEYS> W;
    typedef ws_work_barriers<CONSUMERS> WORK;
    constexpr bool TURNS = SCHEDULE >= WS_PINGPONG, PERSISTENT = SCHEDULE >= WS_PERSISTENT,
                   QUEUE = SCHEDULE == WS_QUEUE;
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint32_t q_tile = smem_address(shared);
    auto k_stage = [&](int s) { return q_tile + W::Q_BYTES + (uint32_t)s * W::TILE_BYTES; };
    auto v_stage = [&](int s) { return q_tile + W::Q_BYTES + (uint32_t)(WS_STAGES + s) * W::TILE_BYTES; };
    uint64_t *q_full = reinterpret_cast<uint64_t *>(shared + W::Q_BYTES + 2 * WS_STAGES * W::TILE_BYTES);
    uint64_t *q_empty = q_full + 1, *k_full = q_empty + 1, *v_full = k_full + WS_STAGES,
             *k_empty = v_full + WS_STAGES, *v_empty = k_empty + WS_STAGES;
    /* Rung 10's producer writes each work it loads here, then a
     * past-the-end one when there are no more (ws_work_barriers). */
    volatile int *work_slot = reinterpret_cast<volatile int *>(v_empty + WS_STAGES);
    /* Work w is query block w % q_blocks of head w / q_blocks: a head's
     * blocks run together and share its K and V in L2. Causal, past rung
     * 6: its longest rows first. A block takes one work (rungs 6-8), every
     * gridDim.x-th (rung 9), or the next the queue hands out (rung 10). */
    int q_blocks = attention_ceil_div(seq, W::ROWS), work_count = q_blocks * heads;
    int step = PERSISTENT ? gridDim.x : work_count;
    auto locate = [&](int w, int &head, int &q0, int &tiles) {
        head = w / q_blocks;
        int q_block = w % q_blocks;
        if (SCHEDULE != WS_SERIAL && causal) q_block = q_blocks - 1 - q_block;
        q0 = q_block * W::ROWS;
        tiles = attention_ceil_div(causal ? min(seq, q0 + W::ROWS) : seq, KEYS);
    };
    if (threadIdx.x == 0) {
        mbarrier_init(q_full, 1);
        mbarrier_init(q_empty, 4 * CONSUMERS); /* the consumer warps */
        for (int s = 0; s < WS_STAGES; ++s) {
            mbarrier_init(&k_full[s], 1);
            mbarrier_init(&v_full[s], 1);
            mbarrier_init(&k_empty[s], 4 * CONSUMERS);
            mbarrier_init(&v_empty[s], 4 * CONSUMERS);
        }
        mbarrier_init_fence();
    }
    __syncthreads();
    int warpgroup = threadIdx.x / 128;
    /* K and V tiles count on across works (g): ring stage g % 2, phase
     * (g / 2) % 2. */
    auto phase_of = [](int g) { return (uint32_t)(g / WS_STAGES) & 1; };
    if (warpgroup == 0) {
        setmaxnreg_decrease<W::PRODUCER_REGISTERS>();
        /* One thread produces; rung 10 keeps its whole warp, which the
         * named barriers count. */
        if (threadIdx.x >= (QUEUE ? 32 : 1)) return;
        bool leader = threadIdx.x == 0;
        int g = 0, w = blockIdx.x;
        for (int iteration = 0;; ++iteration) {
            if (QUEUE) {
                if (iteration > 0)
                    for (int c = 0; c < CONSUMERS; ++c) named_barrier_sync(WORK::READ + c, WORK::THREADS);
                if (leader) *work_slot = w;
                for (int c = 0; c < CONSUMERS; ++c) named_barrier_arrive(WORK::WRITTEN + c, WORK::THREADS);
            }
            if (w >= work_count) break;
            if (leader) {
                int head, q0, tiles;
                locate(w, head, q0, tiles);
                /* The consumers have finished the previous work's last Q K^T. */
                mbarrier_wait(q_empty, (uint32_t)(iteration & 1) ^ 1);
                tma_load_q<W, D>(q_tile, q_map, q0, head, q_full);
                int next = w + step;
                for (int t = 0; t < tiles; ++t, ++g) {
                    /* The queue is asked two tiles before this work's last
                     * are loaded (four before its consumers finish): late
                     * enough that the block free first gets the next work,
                     * early enough that the answer (a round trip to L2) is
                     * back before the consumers need it. */
                    if (QUEUE && t == max(tiles - 2, 0))
                        next = (int)(gridDim.x + atomicAdd(&queue[0], 1u));
                    int s = g % WS_STAGES;
                    mbarrier_wait(&k_empty[s], phase_of(g) ^ 1);
                    tma_load_rows<W, D>(k_stage(s), k_map, t * KEYS, head, &k_full[s]);
                    mbarrier_wait(&v_empty[s], phase_of(g) ^ 1);
                    tma_load_rows<W, D>(v_stage(s), v_map, t * KEYS, head, &v_full[s]);
                }
                w = next;
            }
            if (QUEUE) w = __shfl_sync(0xffffffffu, w, 0);
        }
        if (QUEUE) {
            /* The consumers' reads of the past-the-end slot, the arrivals
             * the loop did not wait for. */
            for (int c = 0; c < CONSUMERS; ++c) named_barrier_sync(WORK::READ + c, WORK::THREADS);
            /* The last block out empties the queue for the next launch: by
             * then every block has drawn its last number. */
            if (leader && atomicAdd(&queue[1], 1u) == gridDim.x - 1) {
                queue[0] = 0;
                queue[1] = 0;
            }
        }
        return;
    }
    setmaxnreg_increase<W::CONSUMER_REGISTERS>();
    int consumer = warpgroup - 1, warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
    uint32_t q_rows = q_tile + 64 * consumer * 128;
    auto release = [&](uint64_t *barrier) {
        if (lane == 0) mbarrier_arrive(barrier);
    };
    /* The last warpgroup lets warpgroup 0 issue first. */
    int next_turn = WS_TURN_BARRIER + (consumer + 1) % CONSUMERS;
    if (TURNS && consumer == CONSUMERS - 1) named_barrier_arrive(WS_TURN_BARRIER, 256);
    int g = 0;
    for (int iteration = 0, w = blockIdx.x;; ++iteration, w += step) {
        if (QUEUE) {
            named_barrier_sync(WORK::WRITTEN + consumer, WORK::THREADS);
            /* Through a shuffle from lane 0, so that the compiler knows the
             * work (and with it the ring's stage counter, which the wgmma
             * descriptors take) to be warp-uniform: read straight from shared
             * memory, every descriptor of the loop cost an R2UR move into a
             * uniform register and the rung lost ~5% at both D. */
            w = __shfl_sync(0xffffffffu, *work_slot, 0);
            named_barrier_arrive(WORK::READ + consumer, WORK::THREADS);
        }
        if (w >= work_count) break;
        int head, q0, tiles;
        locate(w, head, q0, tiles);
        mbarrier_wait(q_full, (uint32_t)iteration & 1);
        int row0 = q0 + 64 * consumer + 16 * warp;
        float acc[D / 2], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f}, alpha[2];
#pragma unroll
        for (int i = 0; i < D / 2; ++i) acc[i] = 0.0f;
        float scores[KEYS / 2];
        uint32_t pf[KEYS / 16][4];
        if constexpr (SCHEDULE == WS_SERIAL) {
            for (int t = 0; t < tiles; ++t) {
                int s = (g + t) % WS_STAGES;
                mbarrier_wait(&k_full[s], phase_of(g + t));
                issue_scores<W, D>(scores, q_rows, k_stage(s));
                wgmma_wait<0>();
                release(&k_empty[s]);
                if (t == tiles - 1) release(q_empty);
                softmax_tile<KEYS>(scores, m, l, alpha, row0, t * KEYS, seq, causal, scale_log2, lane);
                to_fragments<KEYS>(scores, pf);
                rescale_rows(acc, alpha);
                mbarrier_wait(&v_full[s], phase_of(g + t));
                issue_output<W, D>(acc, pf, v_stage(s));
                wgmma_wait<0>();
                release(&v_empty[s]);
            }
        } else {
            mbarrier_wait(&k_full[g % WS_STAGES], phase_of(g));
            issue_scores<W, D>(scores, q_rows, k_stage(g % WS_STAGES));
            wgmma_wait<0>();
            release(&k_empty[g % WS_STAGES]);
            if (tiles == 1) release(q_empty);
            softmax_tile<KEYS>(scores, m, l, alpha, row0, 0, seq, causal, scale_log2, lane);
            to_fragments<KEYS>(scores, pf);
            for (int t = 1; t < tiles; ++t) {
                int s = (g + t) % WS_STAGES, previous = (g + t - 1) % WS_STAGES;
                if (TURNS) named_barrier_sync(WS_TURN_BARRIER + consumer, 256);
                mbarrier_wait(&k_full[s], phase_of(g + t));
                issue_scores<W, D>(scores, q_rows, k_stage(s));
                mbarrier_wait(&v_full[previous], phase_of(g + t - 1));
                issue_output<W, D>(acc, pf, v_stage(previous));
                if (TURNS) named_barrier_arrive(next_turn, 256);
                wgmma_wait<1>(); /* the scores of tile t */
                release(&k_empty[s]);
                if (t == tiles - 1) release(q_empty);
                softmax_tile<KEYS>(scores, m, l, alpha, row0, t * KEYS, seq, causal, scale_log2, lane);
                wgmma_wait<0>(); /* P V of tile t - 1: its P fragments and the accumulator are free */
                release(&v_empty[previous]);
                rescale_rows(acc, alpha);
                to_fragments<KEYS>(scores, pf);
            }
            /* The last tile's P V. */
            int last = (g + tiles - 1) % WS_STAGES;
            if (TURNS) named_barrier_sync(WS_TURN_BARRIER + consumer, 256);
            mbarrier_wait(&v_full[last], phase_of(g + tiles - 1));
            issue_output<W, D>(acc, pf, v_stage(last));
            if (TURNS) named_barrier_arrive(next_turn, 256);
            wgmma_wait<0>();
            release(&v_empty[last]);
        }
        g += tiles;
        /* The next work's loads are already under way meanwhile. */
        store_rows(o + (size_t)head * seq * D, acc, l, row0, seq, D, lane);
    }
    /* The last warpgroup's turn given after its last products (a block
     * learns that a work was its last only from the next slot): warpgroup
     * 0 takes it, so that no named barrier is left part-way through a
     * phase. */
    if (TURNS && consumer == 0) named_barrier_sync(WS_TURN_BARRIER, 256);
}

/* ---- Tensor maps and launchers ---------------------------------------------------- */

/* A [heads][seq][dim] BF16 tensor in boxes of 64 x rows x 1 (one head's
 * rows: a box past the end of a head reads zeros, not the next head). */
static int encode_map(CUtensorMap *map, const uint16_t *tensor, int heads, int seq, int dim, int rows, char *err,
                      size_t err_len)
{
    uint64_t dims[3] = {(uint64_t)dim, (uint64_t)seq, (uint64_t)heads};
    uint64_t strides[2] = {(uint64_t)dim * 2, (uint64_t)seq * dim * 2};
    uint32_t box[3] = {64, (uint32_t)rows, 1};
    return ladder_tensor_map(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, tensor, dims, strides, box,
                             CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, err, err_len);
}

extern "C" int attention_encode_tensor_maps(attention_problem *p, char *err, size_t err_len)
{
    if (encode_map(&p->q_map, p->q, p->heads, p->seq, p->dim, WS_BOX_ROWS, err, err_len) ||
        encode_map(&p->k_map, p->k, p->heads, p->seq, p->dim, WS_BOX_ROWS, err, err_len) ||
        encode_map(&p->v_map, p->v, p->heads, p->seq, p->dim, WS_BOX_ROWS, err, err_len) ||
        encode_map(&p->k_map_176, p->k, p->heads, p->seq, p->dim, WS_WIDE_KEYS, err, err_len) ||
        encode_map(&p->v_map_176, p->v, p->heads, p->seq, p->dim, WS_WIDE_KEYS, err, err_len))
        return -1;
    return 0;
}

template <int D, ws_schedule SCHEDULE, int CONSUMERS = 2, int KEYS = WS_BOX_ROWS>
static void launch_wgmma_ws(const attention_problem *p, cudaStream_t stream)
{
    typedef ws_shape<D, CONSUMERS, KEYS> W;
    constexpr auto kernel = wgmma_ws_kernel<D, SCHEDULE, CONSUMERS, KEYS>;
    allow_shared_bytes<kernel>(W::SHARED_BYTES);
    int works = attention_ceil_div(p->seq, W::ROWS) * p->heads, blocks = works;
    if (SCHEDULE >= WS_PERSISTENT) {
        static int sms = 0;
        if (!sms) {
            int device;
            CUDA_CHECK(cudaGetDevice(&device));
            CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        }
        blocks = works < sms ? works : sms;
    }
    kernel<<<blocks, W::THREADS, W::SHARED_BYTES, stream>>>(
        p->q_map, KEYS == WS_BOX_ROWS ? p->k_map : p->k_map_176, KEYS == WS_BOX_ROWS ? p->v_map : p->v_map_176,
        reinterpret_cast<bf16 *>(p->o), p->work_queue, p->heads, p->seq, p->causal,
        p->scale * ATTENTION_LOG2E);
    CUDA_CHECK_LAUNCH();
}

template <ws_schedule SCHEDULE>
static void launch_for_dim(const attention_problem *p, cudaStream_t stream)
{
    if (p->dim == 64)
        launch_wgmma_ws<64, SCHEDULE>(p, stream);
    else
        launch_wgmma_ws<128, SCHEDULE>(p, stream);
}

extern "C" void attention_wgmma_ws(const attention_problem *p, cudaStream_t stream)
{
    launch_for_dim<WS_SERIAL>(p, stream);
}

extern "C" void attention_wgmma_overlap(const attention_problem *p, cudaStream_t stream)
{
    launch_for_dim<WS_OVERLAP>(p, stream);
}

extern "C" void attention_wgmma_pingpong(const attention_problem *p, cudaStream_t stream)
{
    launch_for_dim<WS_PINGPONG>(p, stream);
}

extern "C" void attention_wgmma_persistent(const attention_problem *p, cudaStream_t stream)
{
    launch_for_dim<WS_PERSISTENT>(p, stream);
}

extern "C" void attention_wgmma_queue(const attention_problem *p, cudaStream_t stream)
{
    launch_for_dim<WS_QUEUE>(p, stream);
}

extern "C" void attention_wgmma_tile_per_form(const attention_problem *p, cudaStream_t stream)
{
    if (p->causal)
        launch_for_dim<WS_QUEUE>(p, stream);
    else if (p->dim == 64)
        launch_wgmma_ws<64, WS_PERSISTENT, 3>(p, stream);
    else
        launch_wgmma_ws<128, WS_PERSISTENT, 2, WS_WIDE_KEYS>(p, stream);
}

extern "C" size_t attention_sm90a_shared_bytes(attention_launcher *rung, int dim)
{
    /* Rung 11's full shapes, the larger of the two it takes. */
    bool shaped = rung == attention_wgmma_tile_per_form;
    if (dim == 64) return shaped ? ws_shape<64, 3, WS_BOX_ROWS>::SHARED_BYTES : ws_shape<64, 2, WS_BOX_ROWS>::SHARED_BYTES;
    return shaped ? ws_shape<128, 2, WS_WIDE_KEYS>::SHARED_BYTES : ws_shape<128, 2, WS_BOX_ROWS>::SHARED_BYTES;
}
