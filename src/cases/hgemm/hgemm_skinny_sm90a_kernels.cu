/* HGEMM rungs 11-12, for the shapes where C's tiles leave SMs idle: split
 * K, and A and B swapped (M from 17 to 256), on the warp-specialized
 * kernel of hgemm_warp_specialized.cuh (rung 13, narrow tiles of B, is in
 * hgemm_narrow_sm90a_kernels.cu). sm_90a only, as hgemm_sm90a_kernels.cu. */
#include "hgemm_warp_specialized.cuh"

/* ---- Rung 11: split K --------------------------------------------------------- */

/* C = the sum of the split_k partials in a fixed order, the same for every
 * element and every run: deterministic, bit for bit. The sum covers
 * `columns` of C's elements from col0 in each of the grid's rows (y), rows
 * `ld` apart, each partial C's size: all of C as one row of m n, or (swap_ab
 * past a wave) C's m rows from the last wave's first column. A block of
 * REDUCE_THREADS takes REDUCE_THREADS / GROUPS chunks of a row (4 floats
 * each, 1 where a row's or a partial's start would not be 16-byte
 * aligned) and GROUPS threads a chunk: group q adds slices q, q + GROUPS,
 * ... in turn, then group 0 adds the groups' sums in group order. Each
 * thread has only splits / GROUPS loads to make, where a thread a chunk
 * made 66 (at 256 x 256 x 65536). One group (a thread makes its few loads
 * alone, in a grid an eighth as large) where there are REDUCE_ALONE slices
 * or fewer and eight groups' blocks would run in more than two waves of
 * resident blocks (2048 threads an SM). H200, two rounds each, alone
 * against eight groups at every shape: 58.8 against 61.0 us at 200 x
 * 20480 x 4096 (swap_ab's last wave, 4 slices: 700 blocks, not 5600),
 * 29.8 against 37.2 at 233 x 19001 x 700 (15378 blocks of single floats,
 * not 1922), in two calls beside the same base build (79-81 and 29.1-29.4
 * us in both); whole C in 2 and 4 slices, one call, 39.0 against 40.2 at
 * 128 x 4096 x 14336 (4096 blocks grouped), but 18.1 against 16.9 at 64 x
 * 2048 x 8192 (1024) and 19.6 against 19.0 at 64 x 4096 x 4096 (split_k,
 * 2048).
 * The loop is unrolled by 16, so a thread's first splits % 16 loads go one
 * after another (the rest loop waits for each), and C's float4 went out as
 * four 4-byte stores. Neither is what the sum's time is made of (2026-11-27,
 * H200; Nsight Compute with the caches kept, at 200 x 5120 x 4096, 3
 * slices: 5.15 us, 1000 blocks in one wave, 12.3 MB of partials read from
 * L2). Tried, two calls, two rounds, each against this kernel in its call:
 *   a thread's loads in batches of 8, all out before the first add, and one
 *   16-byte store: 70 registers, 3 blocks an SM, where 8 fit: 5.18 us in
 *   place; 66.7 against 62.2 us at 256 x 18000 x 4096, 18.1 against 16.6 at
 *   64 x 2048 x 8192, 22.2 against 18.9 at 64 x 4096 x 4096 (split_k)
 *   batches of 4 within 32 registers (8 blocks an SM): 4.90-5.31 us in
 *   place; 24.0-24.2 against 24.3-24.4 at 200 x 5120 x 4096, 59.6 against
 *   60.0-60.1 at 200 x 20480 x 4096, but 19.4-19.5 against 19.0-19.2 at 64
 *   x 4096 x 4096 and 49.0-49.2 against 48.7 at 64 x 20480 x 4096
 *   the 16-byte store alone: level everywhere (5.28-5.47 us in place).
 * What the 5 us hold is the grid's own start and end after the product,
 * which only the in-kernel sums below would remove, and they lost. */
constexpr int REDUCE_THREADS = 256, REDUCE_ALONE = 8, REDUCE_GROUPS = 8, SM90_THREADS_PER_SM = 2048;

template <int VECTOR, int GROUPS>
__global__ void __launch_bounds__(REDUCE_THREADS)
    split_k_reduce_kernel(const float *__restrict__ partials, float *__restrict__ c, size_t columns, size_t col0,
                          size_t ld, size_t partial_size, int splits)
{
    typedef typename std::conditional<VECTOR == 4, float4, float>::type chunk;
    constexpr int COLUMNS = REDUCE_THREADS / GROUPS;
    grid_dependency_wait(); /* the partials are written */
    size_t chunks = columns / VECTOR, i = (size_t)blockIdx.x * COLUMNS + threadIdx.x % COLUMNS;
    size_t at = blockIdx.y * ld + col0 + i * VECTOR, partial_chunks = partial_size / VECTOR;
    const chunk *in = reinterpret_cast<const chunk *>(partials + at);
    int q = threadIdx.x / COLUMNS;
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
        for (int s = q; s < splits; s += GROUPS) add(sum, in[(size_t)s * partial_chunks]);
    if constexpr (GROUPS > 1) {
        __shared__ chunk group_sums[GROUPS][COLUMNS];
        group_sums[q][threadIdx.x % COLUMNS] = sum;
        __syncthreads();
        if (q == 0)
            for (int g = 1; g < GROUPS; ++g) add(sum, group_sums[g][threadIdx.x]);
    }
    if (q == 0 && i < chunks) *reinterpret_cast<chunk *>(c + at) = sum;
}

template <int VECTOR, int GROUPS>
static void launch_split_k_reduce(cudaLaunchConfig_t config, const hgemm_problem *p, int splits, size_t columns,
                                  int col0)
{
    constexpr int COLUMNS = REDUCE_THREADS / GROUPS;
    config.gridDim = dim3((unsigned)((columns / VECTOR + COLUMNS - 1) / COLUMNS), col0 ? p->m : 1);
    CUDA_CHECK(cudaLaunchKernelEx(&config, split_k_reduce_kernel<VECTOR, GROUPS>, (const float *)p->partials, p->c,
                                  columns, (size_t)col0, (size_t)p->n, (size_t)p->m * p->n, splits));
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
 * blocks and starts as the product ends.
 * Nor, later, with no block waiting (swap_ab's 2 to 4 slices, 2026-11-27):
 * each consumer warp wrote its slice to a place of its own in coalesced
 * 16-byte quads, fenced and counted itself on a counter of its own; the
 * warp that came last read every slice back in slice order, eight quads of
 * each in flight at once, and stored C. H200, one call, two rounds, us,
 * against this sum in the same binary: 27.6-27.7 against 24.1 at 200 x
 * 5120 x 4096 (3 slices), 22.4-22.6 against 20.3 at 130 x 4608 x 4096,
 * 37.7-37.8 against 34.5 at 200 x 5000 x 8192, 63.7 against 59.8 at 200 x
 * 20480 x 4096 (the last wave's tiles in 4), 32.8-32.9 against 29.6 at 233
 * x 19001 x 700, 17.4-17.5 against 16.5 at 64 x 2048 x 8192, 12.7-12.8
 * against 11.4 at 200 x 1000 x 2048: the fence, the count's round trip
 * and the last warp's loads come one after another at a tile's end. */
static void split_k_reduce(const hgemm_problem *p, int splits, int col0, cudaStream_t stream)
{
    size_t size = (size_t)p->m * p->n, columns = col0 ? (size_t)(p->n - col0) : size;
    bool vector = size % 4 == 0 && columns % 4 == 0 && col0 % 4 == 0;
    long long rows = col0 ? p->m : 1, per_block = REDUCE_THREADS / REDUCE_GROUPS * (vector ? 4 : 1);
    long long grouped_blocks = ((long long)columns + per_block - 1) / per_block * rows;
    bool alone = splits <= REDUCE_ALONE &&
                 grouped_blocks > 2LL * multiprocessors() * (SM90_THREADS_PER_SM / REDUCE_THREADS);
    cudaLaunchConfig_t config = {};
    config.blockDim = dim3(REDUCE_THREADS);
    config.stream = stream;
    /* A programmatic dependent of the product (the launch is ready when the
     * product ends): 2.5-5% of swap_ab's and split_k's time (H200). */
    cudaLaunchAttribute dependent;
    dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &dependent;
    config.numAttrs = 1;
    if (vector)
        alone ? launch_split_k_reduce<4, 1>(config, p, splits, columns, col0)
              : launch_split_k_reduce<4, REDUCE_GROUPS>(config, p, splits, columns, col0);
    else
        alone ? launch_split_k_reduce<1, 1>(config, p, splits, columns, col0)
              : launch_split_k_reduce<1, REDUCE_GROUPS>(config, p, splits, columns, col0);
}

extern "C" void hgemm_split_k(const hgemm_problem *p, cudaStream_t stream)
{
    launch_warp_specialized<128, WS_128_STAGES, true>(p, p->b_rows128, p->split_k, multiprocessors(), stream);
    split_k_reduce(p, p->split_k, 0, stream);
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
 * Then those 128-row tiles across all of A's rows (past a wave of 192-row
 * tiles) multiply as wide as A's rows in steps of 16, not 256
 * (hgemm_swap_ab_tall_width; cuBLAS's 128 x 160 at 160 x 16384 x 4096).
 * H200, one call, two rounds, ratio to cuBLAS against 256 wide:
 *   160 x 16384 x 4096   0.946-0.973 against 0.843
 *   200 x 16384 x 4096   0.986-0.992 against 0.841-0.862
 *   192 x 16384 x 4096   1.022-1.026 against 0.867-0.869
 *   176 x 16384 x 8192   1.021-1.028 against 0.809-0.825
 *   144 x 14336 x 4096   0.917-0.944 against 0.726-0.732
 *   160 x 14336 x 8192   0.926-0.927 against 0.715-0.717
 *   224 x 13000 x 4096   0.901-0.903 against 0.809-0.816
 *   129 x 20000 x 4096   0.735-0.750 against 0.538-0.542 (157 tiles: past
 *                        a wave; cuBLAS's 192 x 144 tiles in fours make one)
 * level at 256 x 14336 x 4096 (256 wide either way) and 32 x 11008 x 4096.
 * Then past a wave of those, 192-row tiles across all of A's rows where
 * those make one (hgemm_swap_ab_tall_rows, M up to 192). H200, one call,
 * two rounds, against 128-row tiles:
 *   129 x 20000 x 4096   0.986-0.996 against 0.727-0.730 (144 wide)
 *   160 x 20000 x 4096   1.019-1.024 against 0.717-0.726 (160)
 *   192 x 20000 x 4096   0.915-0.916 against 0.651 (192)
 *   176 x 22016 x 4096   0.974-0.975 against 0.732-0.736 (176)
 *   144 x 24576 x 4096   0.972-0.986 against 0.803-0.821 (144)
 *   160 x 18000 x 8192   1.006-1.007 against 0.689-0.690 (160)
 *   129 x 17408 x 4096   0.972-0.973 against 0.658-0.659 (144)
 *   192 x 24576 x 4096   0.959-0.962 against 0.748-0.755 (192)
 * level at 200 x 20480 x 4096 (A's rows past 192: 128-row tiles 208 wide,
 * 0.71, still behind) and 160 x 16384 x 4096 (one wave of 128-row tiles).
 * Then, where tiles alone and one across A's rows still pass a wave, the
 * last wave's tiles in slices of K, the waves before them whole
 * (hgemm_swap_ab_tail_splits; the kernel's `whole`, ws_item_of), and the
 * sum over the tail's columns of C only. H200, one call, two rounds,
 * against two rounds of whole tiles (the sum by eight thread groups a
 * chunk, as split_k's; then a thread a chunk, split_k_reduce_kernel):
 *   200 x 20480 x 4096   0.904-0.907, then 0.971, against 0.704-0.722
 *   240 x 20000 x 4096   0.877-0.883, then 0.930-0.936, against 0.667-0.676
 *   224 x 17000 x 4096   0.956-0.957, then 0.964-0.965, against 0.606-0.612
 *   256 x 18000 x 4096   0.868-0.869, then 0.869-0.870, against 0.570-0.581
 *   193 x 20000 x 4096   0.933 against 0.706-0.710
 *   100 x 20480 x 4096   0.924-0.925 against 0.776-0.792
 *   64 x 20480 x 4096    0.971-0.982, then 1.007-1.008, against 0.803-0.876
 *   32 x 20000 x 4096    0.981-1.014 against 0.859-0.860
 * level at 200 x 11008 x 4096 and 160 x 20000 x 4096 (one wave).
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
 * (multicast) and more SMs issuing them.
 * Then, with that rate measured (0.44 a clock, rung 10's notes), clusters
 * of four where the rows are off the grid and a block's copies would
 * outlast DRAM's delivery of B (hgemm_swap_ab_cluster): four tiles stacked
 * in B's rows share A's tile, each block bringing an even share of its
 * rows rounded up to 8 (hgemm_cluster_share: 24 of 77), where the tries
 * above took BN / 2 rows and so boxes past A's rows. H100, one call, two
 * rounds each, against the build before:
 *   77 x 5000 x 3000    0.851 / 0.848 against 0.671 / 0.674
 *   250 x 5000 x 3000   0.875 / 0.882 against 0.627 / 0.631 (narrow_tiles
 *                       0.688)
 *   160 x 5000 x 3000   0.736 / 0.734 against 0.587 / 0.588
 *   200 x 5000 x 3000   0.901 / 0.913 against 0.745 / 0.739
 *   64 x 4000 x 3000    0.962 / 0.960 against 0.762 / 0.755
 *   129 x 2500 x 3000   1.620 / 1.620 against 1.343 / 1.343
 *   32 x 11000 x 3000   ones in both (DRAM outlasts the copies): 0.896 /
 *                       0.922 against 0.911 / 0.918
 * Where rows are on the grid the rule keeps ones: whole-line requests go
 * faster than the rate above, and clusters lost there (the tries above).
 * Then, for M from 129 to 224 with rows off the grid, 64-row tiles across
 * all of A's rows (one tile 192 or 224 wide, one consumer warpgroup, 7 or
 * 6 stages), in clusters of four sharing A's tile (hgemm_swap_ab_across):
 * the 128-row tiles two across A's rows sent each k-tile of B twice, and
 * a block of these sends 64 rows of B and a quarter of A's (104 box rows
 * at M = 160, where it sent 128 and a quarter of 80: 152). H100, two
 * calls, two rounds each, against the build before (past 192 rows these
 * were 256 wide then, 5 stages):
 *   160 x 5000 x 3000   0.885 / 0.880 against 0.731 / 0.734 (21.6 against
 *                       26.0 us; 0.882 against 0.731 in the second call)
 *   177 x 6000 x 3000   1.065 / 1.061 against 0.888 / 0.887
 *   200 x 5000 x 3000   1.045 / 1.048 against 0.916 / 0.919
 *   224 x 5000 x 3000   0.996 against 0.932 (second call)
 *   130 x 7000 x 3000   0.812 / 0.822 against 0.643 / 0.643
 *   193 x 7000 x 3000   0.761 / 0.760 against 0.628 / 0.634
 * and not kept where the estimate was closer (hgemm_swap_ab_across's
 * 0.78): 250 x 5000 x 3000 27.4 against 27.3 us, 256 x 5000 x 3000 level,
 * 129 x 4096 x 4000 23.7 against 23.0 us. Then 224 wide in place of 256
 * (6 stages, not 5; a third call, two rounds): 30.1, 30.0 against 30.8,
 * 30.5 us at 193 x 7000 x 3000; 24.1, 24.0 against 24.8, 24.8 at 200 x
 * 5000 x 3000; 24.2, 24.3 against 25.4, 25.2 at 224 x 5000 x 3000; but
 * 27.8, 27.9 against 27.3, 27.2 at 210 x 6000 x 3000. Nsight Compute at
 * 193 x 7000 x 3000 (H100, clocks free: 28.3 us at 1.83 GHz) counts 279
 * L2 requests a block a k-tile, as hgemm_box_row_requests gives, but at
 * 0.28 a clock, not 0.44: the busiest SM is active 47.6K cycles, about
 * 1000 a k-tile. What fills them is what the SM receives: 233.5 MB over
 * the crossbar, 44 KB a block a k-tile (64 rows of B and all 224 of A's
 * tile, each 128-byte row off the grid 5 sectors), 44 bytes a clock; 51 at
 * 160 x 5000 x 3000 (35 KB a k-tile, 690 cycles).
 * Then 64-row tiles 96 wide (wgmma m64n96k16, 11 stages of 20 KB) where
 * 128-wide ones in clusters of four hold 96 rows of A or fewer
 * (hgemm_swap_ab_cluster_width; cuBLAS runs 64 x 80 there, 11 stages).
 * H100, one call, two rounds against the 128-wide tiles (9 stages):
 * 19.0, 18.9 against 19.3, 19.3 us at 77 x 5000 x 3000 (0.875 of cuBLAS);
 * 18.7, 18.5 against 19.3, 19.3 at 96 x 5000 x 3000; 17.4, 17.3 against
 * 17.8, 17.7 at 66 x 4000 x 3000; 23.8, 23.6 against 24.0, 24.0 at 80 x
 * 7000 x 3000; level at 129 x 2500 x 3000 and 150 x 3000 x 3000 (two tiles
 * across A); 18.0, 17.8 against 17.7, 17.7 at 88 x 3001 x 3000. The
 * deeper ring is not what cuBLAS's lead there is made of.
 * Then clusters of eight where A's rows take two tiles (hgemm_swap_ab_pairs;
 * cuBLAS's nvjet 64x80 4x2 at 150 x 3000 x 3000): the kernel's PAIR = 2,
 * two tile columns a unit, four blocks along B's rows sharing A's tile and
 * two along A's rows sharing B's, each block bringing half its B tile
 * (b_rows32, 64 or 96) and a quarter of its A tile, its consumers releasing
 * each stage to all eight. H100, two calls, against the fours: 16.5, 16.8,
 * 17.0 against 21.9, 22.0, 21.8 us at 150 x 3000 x 3000 (0.85-0.87 of
 * cuBLAS, from 0.67); 25.3, 25.2, 25.2 against 27.2, 27.4, 27.4 at 250 x
 * 5000 x 3000 (0.94); 25.2, 25.3 against 27.4, 27.4 at 256 x 5000 x 3000;
 * 19.3, 19.3 against 22.7, 22.8 at 250 x 3000 x 3000 (1.02-1.03); 19.0,
 * 19.2, 19.0 against 22.8 at 200 x 3000 x 3000; 16.6, 16.7 against 18.7,
 * 18.8 at 129 x 2500 x 3000. The first rule (every fours shape two tiles
 * across) lost at 250 x 5000 x 2000, 20.1 against 19.7 us; its estimate
 * (0.80) now keeps the fours there (19.0 against 19.0).
 * Then 192-row tiles in clusters of eight where the 128-row tiles ran alone
 * because four of them would not fit at once (hgemm_swap_ab_tall_pairs).
 * H100, one call against the build before: 32.4 against 42.9 us at 160 x
 * 8000 x 3000 (0.80 of cuBLAS, from 0.60), 31.9 against 40.4 at 130 x 7800
 * x 3000 (0.77), 33.5 against 43.8 at 180 x 7900 x 3000; 160 x 5000 x 3000
 * and 250 x 5000 x 3000 level. Forced where the fours fit, these tiles
 * lost (30.6 against 21.5 us at 160 x 5000 x 3000).
 * Then each block's share of A's rows exact, no longer rounded up to 8
 * (hgemm_cluster_share: the copy engine swizzles by shared-memory
 * address, so a share may start at any row), and L2 promotion of 128
 * bytes where 256 brought a third line for rows off the grid
 * (HGEMM_L2_PROMOTION). H100, one call, against the session's start:
 * 0.877 against 0.779 of cuBLAS at 193 x 7000 x 3000, 0.897 against
 * 0.815 at 130 x 7000 x 3000, 0.892 against 0.833 at 200 x 3000 x 3000,
 * 0.960 against 0.938 at 66 x 4000 x 3000, 0.888 against 0.879 at 77 x
 * 5000 x 3000; level at 150 x 3000 x 3000 and the decode shapes. Nsight
 * Compute (H200) then finds cuBLAS on the same tiles receiving the same
 * bytes 10-20% faster, with half the instructions (hgemm.md, "Beside
 * cuBLAS, counted"). Tried, not kept: 128-row tiles in clusters of eight
 * where the rules take tiles across A (faster at 193 x 7000 x 3000, 23.9
 * against 25.2 us on the H200, slower at 177 x 6000, 200 x 5000 and 130 x
 * 7000: no estimate told them apart).
 * Then (H200, one call, two rounds, three builds): each consumer
 * warpgroup releases a stage once to each block, from one warp, not once
 * from every warp: 0.917 / 0.909 of cuBLAS against 0.904 / 0.906 at 200 x
 * 3000 x 3000, 0.889 / 0.886 against 0.878 / 0.872 at 150 x 3000 x 3000,
 * 0.928 / 0.923 against 0.915 / 0.914 at 250 x 5000 x 3000, level at 12
 * other shapes and at 4096^3 / 6144^3 / 8192^3 (persistent_multicast);
 * 7 stages of 128-row tiles, not 6, on top of that: level.
 * Then clusters of two, after Nsight Compute named cuBLAS's kernels at
 * the shapes still missed (hgemm.md, "Clusters of two"): where the tiles
 * across A's rows do not fit in fours, twos (hgemm_swap_ab_across_cluster;
 * cuBLAS's 64x136 2x1 at 130 x 7800 x 3000), where the 192-row tiles in
 * eights ran before; and where 64-row tiles 128 wide were cut into slices
 * of K, two tiles 64 wide across A's rows instead, in eights or a pair
 * alone (hgemm_swap_ab_halves; cuBLAS's 64x56 4x2 and 64x40 1x2): the
 * kernel's PAIR = 2 now also without blocks along B's rows. Two calls,
 * two rounds each, against the build before, ratio to cuBLAS:
 *                       H200                      H100
 *   130 x 7800 x 3000   0.90 against 0.69         0.91 against 0.78
 *   160 x 8000 x 3000   0.92-0.94 against 0.77    0.925 against 0.82
 *   200 x 8000 x 3000   0.94 against 0.84         0.935 against 0.875
 *   180 x 8200 x 3000   0.95 against 0.835        0.93 against 0.89
 *   100 x 3000 x 3000   0.85-0.86 against 0.82    0.854 against 0.735
 *   128 x 3000 x 3000   0.885 against 0.81        0.90 against 0.77
 *   66 x 4000 x 3000    0.92 against 0.82         (whole, as before) 0.96
 *   110 x 4000 x 5000   0.92 against 0.83         (whole) 1.00
 *   120 x 3500 x 2000   1.93 against 1.63         1.90 against 1.52
 *   77 x 3000 x 3000    level, 0.81               0.85 against 0.76
 *   100 x 2500 x 3000   1.62 against 1.65         1.64 against 1.55
 * and level at the six shapes the rules did not move. Forced and not
 * kept: twos where fours fit (0.80 against 0.90 at 130 x 7000 and 160 x
 * 5000 x 3000); pairs of 192-row tiles alone or in eights where rows are
 * on the grid (0.78-0.84 against 0.81-0.90 at 160 x 9216 x 4096, 200 x
 * 11008 x 8192, 256 x 11008 x 4096); 64-wide halves there (0.73 against
 * 0.93 at 100 x 3072 x 8192).
 * Then 192-row tiles, and 128-row tiles alone, 96 wide where A's rows in
 * two tiles need no more (hgemm_swap_ab_multiply_width, with its figures:
 * up to 21% at 137 x 8500 x 3072, H200); last, on the grid, those two
 * tiles across A's rows as a pair alone, 80 wide where that holds A's
 * rows, 104 or 112 wide past 192 rows: 0.70-0.74 to 0.95-0.96 of cuBLAS
 * at 160 x 8192 x 8192 (H200); then those pairs in every step of 8 up to
 * 128 wide for 128-row tiles (0.87 to 0.99 at 256 x 8192 x 8192, H100;
 * dropped since: below); and 64-row tiles whole in K as wide as their
 * rows of A past 64 (hgemm_swap_ab_short_width: 0.91 to 0.98 at 80 x
 * 4096 x 4096, H100), every ring the deepest that fits
 * (HGEMM_RING_STAGES): 7 stages of 32 KB at 128 x 128, where the other
 * rungs' 128 x 128 tiles keep 6 (WS_128_STAGES; H200, forced in a scratch
 * build, 7 against 6: 23.4 against 23.9 us at 250 x 5000 x 3000, 27.0
 * against 27.3 at 192 x 6144 x 4096; beside the single release, level).
 * Then a tile's slices of K as the blocks of one cluster, their products
 * added through distributed shared memory in the kernel's epilogue
 * (SUM_IN_CLUSTER, wgmma_sum_slices_in_cluster), where the slices are 2 or
 * 4 and all the clusters are resident at once
 * (hgemm_swap_ab_sums_in_cluster): no partials in global memory, no
 * second kernel. (Summing the slices in the product's kernel through
 * global memory, a counter and fences, was slower than split_k_reduce:
 * split_k's notes.) And where 128-row tiles two across A's rows leave a
 * third of the SMs idle, one tile across all of A's rows in 3 slices
 * (hgemm_swap_ab_tall_slices). One call a card, two rounds, us, against
 * the build before:
 *                          H200                  H100
 *   100 x 4096 x 4096      16.9-17.0 against 18.5    level (whole there)
 *   100 x 3072 x 8192      21.4 against 22.6         26.9 against 27.7
 *   77 x 4096 x 8192       23.9-24.6 against 26.4    level (whole)
 *   32 x 3000 x 14336      27.1-27.7 against 28.8-29.2  level (whole)
 *   128 x 4096 x 14336     38.5 against 39.1         level
 *   200 x 5120 x 4096      24.2 against 26.6-26.8    28.5-28.6 against 26.8
 *   200 x 5000 x 8192      34.4-34.5 against 45.1-45.4  42.8-42.9 against 45.3-45.5
 *   160 x 5120 x 4096      22.2 against 23.8-24.0    27.0-27.2 against 28.7
 *   130 x 4608 x 4096      20.4 against 21.7-22.0    25.1-25.2 against 24.5-24.6
 * (the first five summed in clusters of two, the last four in tall
 * slices); 17 x 3072 x 4096 and 64 x 3072 x 8192 2-3% faster (H200).
 * Then the blocks alone walk C^T's tile rows in turn, the tiles across A's
 * rows of one tile of B next to one another, where groups of 16 tile rows
 * put them 16 blocks apart (ws_group_units, with its counters). One call a
 * card, two rounds, ratio to cuBLAS against groups of 16:
 *                          H200                  H100
 *   129 x 4096 x 4096      1.04 against 0.86     1.10 against 0.96
 *   144 x 3072 x 4096      1.00 against 0.81     1.01 against 0.87
 *   160 x 3072 x 8192      1.04 against 0.81     1.11 against 0.86
 *   176 x 4096 x 4096      1.29-1.31 against 1.06  1.01-1.02 against 0.89
 *   200 x 4096 x 4096      1.19 against 1.00     1.12 against 0.97
 *   256 x 4096 x 8192      1.21 against 0.96     1.10 against 0.90
 * (64-row tiles two across A, 96-128 blocks). In this order, the two
 * tiles across A's rows go alone where the fours took them
 * (hgemm_swap_ab_two_across_alone, with its figures: 35.0 against 48.0
 * us at 160 x 9216 x 4000, H100) and where the pair alone did, whose
 * kernels went (192 x 6144 x 4096: 22.4-22.5 against 23.3-23.5 us, H200;
 * 25.2 against 26.3-26.6, H100; hgemm.md has the rest).
 * Then 128-row tiles two across A's rows multiply only as wide as their
 * half of A's rows (72 to 120 in steps of 8, where the rules gave 96 or
 * 128, or 64-row tiles across all of A's rows): alone, or on fast DRAM
 * from 106 blocks as a pair sharing B's tile (cuBLAS's 128x104 1x2), in
 * one wave at K up to 4096 where rows take 2 requests or fewer
 * (hgemm_swap_ab_narrow_two_across, with the shapes where it lost). One
 * call a card, two rounds, ratio to cuBLAS against the build before:
 *                          H200                  H100
 *   200 x 8000 x 2000      0.91 against 0.80     0.95 against 0.85
 *   176 x 8400 x 2000      0.91 against 0.82     0.94 against 0.88
 *   200 x 6000 x 2000      0.97 against 0.87     0.92 against 0.85
 *   160 x 6000 x 2000      0.97 against 0.86     0.89 against 0.86
 *   140 x 8000 x 2000      0.92 against 0.84     0.93 against 0.87
 *   200 x 6144 x 4096      0.98 against 0.85     0.98 against 0.94
 *   200 x 6000 x 4000      0.97 against 0.85     0.96 against 0.93
 *   160 x 8000 x 4000      0.94 against 0.91     0.99 against 0.94
 *   130 x 4608 x 4096      (then in slices)      0.98 against 0.92
 * Where rows take more than 2 requests (K = 2500, 3000), and past 64
 * k-tiles where they take more than 1.5 (K = 6000), those narrow tiles
 * run in eights, four pairs along B's rows sharing A's tile
 * (cuBLAS's 128x104 4x2), where their blocks fit at once, in place of the
 * 64-row tiles across A's rows in fours and the 128 x 128 eights. H100,
 * two calls, four rounds, ratio to cuBLAS against the build before
 * (hgemm_swap_ab_narrow_two_across has the H200's figures too):
 *   200 x 6000 x 3000      0.91 against 0.86
 *   135 x 6000 x 3000      0.92 against 0.88
 *   200 x 7680 x 3000      0.92 against 0.88
 *   129 x 7000 x 3000      0.91 against 0.89
 *   177 x 6000 x 3000      1.24 against 1.19
 *   230 x 6000 x 3000      1.10 against 1.07
 * and past 64 k-tiles (one call, two rounds): 0.95 against 0.81 at 200 x
 * 7000 x 6000, 0.94 against 0.85 at 140 x 6000 x 6000, 0.94 against 0.89
 * at 200 x 6000 x 5000.
 * Past 64 k-tiles at 1 request those narrow tiles run alone, at 1.5 as a
 * pair on fast DRAM; and on fast DRAM they take the place of the tall
 * slices up to 64 k-tiles (past them where 80 wide or less).
 * Ratio to cuBLAS against the build before, two rounds:
 *                          H200                  H100
 *   200 x 6000 x 8192      0.99 against 0.84     0.99 against 0.96
 *   200 x 6000 x 16384     0.91 against 0.76
 *   200 x 7000 x 12000     0.95 against 0.83
 *   150 x 5000 x 4096      0.98 against 0.88
 *   130 x 4608 x 4096      0.99 against 0.90
 *   200 x 5000 x 16384     (the slices kept)     0.94 against 0.81
 * slower at 160 x 7000 x 16384 (H200: 0.84 against 0.90;
 * hgemm_swap_ab_narrow_two_across has the rest).
 * Then, where DRAM is slow (an H100), B's maps ask L2 for the pair of
 * lines around each request (hgemm_b_promotion): 0.91-0.92 of cuBLAS
 * against 0.89-0.90 at 130 x 7000 x 3000, 0.87-0.89 against 0.86 at 100 x
 * 3072 x 8192, 2% faster at 160 x 7000 x 16384, level at the squares.
 * Then the kernel's fixed cost. Timed at four values of K with rows the
 * same distance off the grid (160 x 3400 x 1040, 2000, 3024, 4048; H100),
 * the 64-row eights took 0.156 us a k-tile to cuBLAS's 0.164, but 7.85 us
 * of fixed cost to its 6.2: the whole gap was the start and the end. A
 * scratch build stamped each block's steps with %globaltimer (160 x 3400 x
 * 2000): the cluster's barrier passed 0.87 us after entry, the first copy
 * left at 1.63 us, its bytes came at 2.75, the last k-tile's at 7.37, the
 * stores were issued by 8.05 and the blocks left at 9.05. Three changes
 * (ring_barriers_arrive, k_slice_begin, the consumers' untold stages):
 * the barrier's arrival relaxed (the init fence releases the barriers),
 * 470 ns sooner; the producer works out its first tile before it waits on
 * the barrier, and without a 64-bit division; the blocks' last arrival on
 * the cluster's barrier made before C's stores, relaxed, where a releasing
 * one after them waited for the stores to reach L2. Stamped with the first
 * steps (the arrival before the stores still releasing): the first copy
 * left at 1.00 us, but the stores then came 1.08 us after the last
 * k-tile's bytes, not 0.69: a releasing arrival waits on the thread's
 * arrivals at its peers. Hence the last stages untold and the arrival
 * relaxed. H100, one call, two rounds, us, against the build before:
 *   160 x 3400 x 2000   11.8 against 12.8-13.0 (0.965 of cuBLAS, from 0.888)
 *   150 x 3000 x 3000   15.1 against 16.4-16.5 (0.959, from 0.885)
 *   240 x 3800 x 2000   13.3-13.4 against 14.5-14.7 (0.957)
 *   77 x 5000 x 3000    17.5-17.6 against 18.5-18.7 (0.954)
 *   200 x 3000 x 3000   16.6 against 17.6-17.8 (0.943)
 *   150 x 3800 x 4000   18.0-18.1 against 19.2-19.3 (0.961)
 *   130 x 7000 x 3000   22.3-22.5 against 23.5-23.6 (0.988)
 *   145 x 3400 x 4000   17.1-17.2 against 18.3-18.4 (0.961)
 *   130 x 3000 x 4000   16.0-16.1 against 17.2-17.3 (0.956)
 *   160 x 3400 x 1040   9.6-9.7 against 10.7-10.9 (0.940)
 * level at 32 x 11008 x 4096 and at 100 x 3072 x 8192 (blocks alone whose
 * slices add up in their cluster: the in-cluster sum, 2.8 us of its 21.8,
 * is that form's end), persistent_multicast level at 4096^3 and 6144^3,
 * 0.3% faster at 8192^3. Each change alone (an earlier call): the relaxed
 * start 0.3-0.5 us, the 32-bit slice and the early end level; the three
 * together 0.6 us, and 1.1-1.2 us with the first tile worked out before
 * the wait and the last arrival relaxed. Then the same at the end of the
 * slices' sum in their cluster (wgmma_sum_slices_in_cluster: the last
 * arrival relaxed, after its stores, where a releasing one waited for
 * them). H100, one call, two rounds: 25.8 against 26.5-26.6 us at 100 x
 * 3072 x 8192 (0.911 of cuBLAS, from 0.886), level at 64 x 3072 x 8192,
 * 100 x 4096 x 4096 and 128 x 4096 x 14336. Then that sum's loads issued
 * 8 quads at a time (wgmma_sum_own_quads has the figures: 1.03 of cuBLAS
 * at 100 x 3072 x 8192 on the H200, from 0.99).
 * Then 192-row tiles from 193 to 208 of A's rows, 208 wide, where two
 * consumers split the tile by columns, each all 192 rows by 104 (the
 * kernel's ROW_GROUPS; three consumers of 64 rows would not hold 104
 * accumulators each), where the 128-row tiles' last wave would go in 4
 * slices or fewer (hgemm_swap_ab_tall_rows, with the shapes where it
 * lost): cuBLAS's nvjet 192x208 coopB at 199 x 23000 x 4096. H200, one
 * call, two rounds, against the 128-row tiles 208 wide: 0.975-0.977 of
 * cuBLAS against 0.869 at 199 x 23000 x 4096, 0.956-0.962 against
 * 0.849-0.854 at 208 x 25000 x 4096, 0.974-0.982 against 0.902-0.921 at
 * 208 x 23000 x 8192. Clusters of four sharing A's tile, as cuBLAS's,
 * were level or 1-2% slower (an earlier call, two rounds: 0.966 against
 * 0.974 at 199 x 23000 x 4096), and half as fast where their blocks did
 * not fit at once (0.52-0.54 at 196 x 24000 and 208 x 25000 x 4096: 32
 * and 33 clusters, 120 blocks resident).
 * Then, past a wave of 128-row tiles with 65 to 128 of A's rows and rows
 * off the 128-byte grid, 64-row tiles in fours, whole in K
 * (hgemm_swap_ab_fours_past_a_wave, with its figures): the copies of A's
 * rows came again each round. H200, one call, against the rules before:
 * 0.973 of cuBLAS against 0.785 at 87 x 36792 x 2040, 0.873 against 0.736
 * at 120 x 36000 x 3000, 0.972 against 0.848 at 77 x 20000 x 3000. */

/* CLUSTER blocks along B's rows share A's tile; PAIR = 2: two tile
 * columns (A's rows in two tiles) side by side, each block bringing half
 * of its B tile (b_rows32, 64 or 96) to the block beside it. */
template <int WIDTH, int STAGES, int CONSUMERS, int ROW_GROUPS, int CLUSTER, int PAIR = 1>
static void launch_swap_ab(const hgemm_problem *p, cudaStream_t stream)
{
    int splits = p->swap_ab_splits;
    constexpr int ROWS = ws_shape<WIDTH, STAGES, CONSUMERS, 0, ROW_GROUPS>::BM;
    const CUtensorMap &b_rows = PAIR == 2   ? (ROWS == 64 ? p->b_rows32 : ROWS == 192 ? p->b_rows96 : p->b_rows64)
                                : ROWS == 64  ? p->b_rows64
                                : ROWS == 192 ? p->b_rows192
                                              : p->b_rows128;
    constexpr int BLOCKS = CLUSTER * PAIR;
    int slots = BLOCKS == 8   ? p->cluster8_blocks
                : BLOCKS == 4 ? p->cluster4_blocks
                : BLOCKS == 2 ? p->cluster_blocks
                              : multiprocessors();
    int whole = p->swap_ab_whole;
    /* a tile's slices in one cluster, summed there (hgemm_swap_ab_sums_in_cluster;
     * never with the consumers split by columns: hgemm_swap_ab_launchable) */
    if constexpr (BLOCKS == 1 && ROW_GROUPS == 1)
        if (p->swap_ab_sum_in_cluster) {
            launch_warp_specialized<WIDTH, STAGES, true, 1, true, CONSUMERS, 0, 1, true>(
                b_rows, p->a_rows_swap, p->c, nullptr, p->n, p->m, p->k, splits, 0, slots, stream);
            return;
        }
    launch_warp_specialized<WIDTH, STAGES, true, CLUSTER, true, CONSUMERS, 0, PAIR, false, ROW_GROUPS>(
        b_rows, p->a_rows_swap, p->c, p->partials, p->n, p->m, p->k, splits, whole, slots, stream);
    /* the sliced units' columns of C: all, or those past the whole ones */
    if (splits > 1) split_k_reduce(p, splits, whole * ROWS, stream);
}

/* A tile in the form its shape names (hgemm_swap_ab_form), among those
 * HGEMM_SWAP_AB_FORMS gives it a kernel for; the rung checked the shape
 * (hgemm_swap_ab_launchable) before it came here. */
template <int WIDTH, int STAGES, int CONSUMERS, int ROW_GROUPS = 1>
static void launch_swap_ab(const hgemm_problem *p, cudaStream_t stream)
{
    constexpr int FORMS = HGEMM_SWAP_AB_FORMS((ws_shape<WIDTH, STAGES, CONSUMERS, 0, ROW_GROUPS>::BM), WIDTH);
    int form = hgemm_swap_ab_form(p->swap_ab_cluster, p->swap_ab_pair);
    if constexpr ((FORMS & HGEMM_SWAP_ONES) != 0)
        if (form == HGEMM_SWAP_ONES) launch_swap_ab<WIDTH, STAGES, CONSUMERS, ROW_GROUPS, 1>(p, stream);
    if constexpr ((FORMS & HGEMM_SWAP_TWOS) != 0)
        if (form == HGEMM_SWAP_TWOS) launch_swap_ab<WIDTH, STAGES, CONSUMERS, ROW_GROUPS, 2>(p, stream);
    if constexpr ((FORMS & HGEMM_SWAP_FOURS) != 0)
        if (form == HGEMM_SWAP_FOURS) launch_swap_ab<WIDTH, STAGES, CONSUMERS, ROW_GROUPS, 4>(p, stream);
    if constexpr ((FORMS & HGEMM_SWAP_EIGHTS) != 0)
        if (form == HGEMM_SWAP_EIGHTS) launch_swap_ab<WIDTH, STAGES, CONSUMERS, ROW_GROUPS, 4, 2>(p, stream);
    if constexpr ((FORMS & HGEMM_SWAP_PAIR) != 0)
        if (form == HGEMM_SWAP_PAIR) launch_swap_ab<WIDTH, STAGES, CONSUMERS, ROW_GROUPS, 1, 2>(p, stream);
}

/* Blocks of swap_ab's clusters of eight that can be resident at once. */
extern "C" int hgemm_swap_ab_pair_blocks(const hgemm_problem *p)
{
    constexpr int STAGES = HGEMM_RING_STAGES(1, 128);
    constexpr auto kernel = warp_specialized_kernel<128, STAGES, true, 4, true, 1, 0, 2>;
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t config = warp_specialized_config<128, STAGES, true, 4, true, 1, 0, 2>(
        p->n, p->m, 1, 0, 8 * multiprocessors(), &cluster, 0);
    config.gridDim = dim3(8 * multiprocessors());
    return resident_cluster_blocks<kernel>(config);
}

/* swap_ab's tiles `WIDTH` wide, of 64, 128 or 192 rows of B as the shape
 * names, each with its deepest ring; none where no form has a kernel. */
template <int WIDTH>
struct swap_ab_tile {
    /* 192-row tiles past 192 wide: two consumers, each all 192 rows by half
     * the width (hgemm_swap_ab_tall_rows) */
    static constexpr bool TALL_SPLIT = HGEMM_SWAP_SPLIT_COLUMNS(192, WIDTH);
    static constexpr int TALL_CONSUMERS = TALL_SPLIT ? 2 : 3, TALL_ROW_GROUPS = TALL_SPLIT ? 3 : 1;
    static void launch(const hgemm_problem *p, cudaStream_t stream)
    {
        if constexpr (HGEMM_SWAP_AB_FORMS(64, WIDTH) != 0)
            if (p->swap_ab_rows == 64) launch_swap_ab<WIDTH, HGEMM_RING_STAGES(1, WIDTH), 1>(p, stream);
        if constexpr (HGEMM_SWAP_AB_FORMS(128, WIDTH) != 0)
            if (p->swap_ab_rows == 128) launch_swap_ab<WIDTH, HGEMM_RING_STAGES(2, WIDTH), 2>(p, stream);
        if constexpr (HGEMM_SWAP_AB_FORMS(192, WIDTH) != 0)
            if (p->swap_ab_rows == 192)
                launch_swap_ab<WIDTH, HGEMM_RING_STAGES(3, WIDTH), TALL_CONSUMERS, TALL_ROW_GROUPS>(p, stream);
    }
    static constexpr size_t SHARED_BYTES = std::max(
        {HGEMM_SWAP_AB_FORMS(64, WIDTH) ? ws_shape<WIDTH, HGEMM_RING_STAGES(1, WIDTH), 1>::SHARED_BYTES : 0,
         HGEMM_SWAP_AB_FORMS(128, WIDTH) ? ws_shape<WIDTH, HGEMM_RING_STAGES(2, WIDTH), 2>::SHARED_BYTES : 0,
         HGEMM_SWAP_AB_FORMS(192, WIDTH)
             ? ws_shape<WIDTH, HGEMM_RING_STAGES(3, WIDTH), TALL_CONSUMERS, 0, TALL_ROW_GROUPS>::SHARED_BYTES
             : 0});
};

/* swap_ab's widths: 64, wgmma's steps of 8 from 72 to 128 (64-row tiles
 * as wide as their rows of A, and 128-row ones as wide as half of them,
 * alone, as a pair or in eights), 192 and 224 (64-row tiles across A's
 * rows), steps of 16 from 144 to 256 (128-row tiles across all of A's
 * rows; 192-row ones to 208). */
typedef tile_widths<swap_ab_tile, 64, 72, 80, 88, 96, 104, 112, 120, 128, 144, 160, 176, 192, 208, 224, 240, 256>
    swap_ab_widths;

extern "C" void hgemm_swap_ab(const hgemm_problem *p, cudaStream_t stream)
{
    swap_ab_widths::launch(p->swap_ab_tile_width, p, stream);
}

size_t hgemm_skinny_shared_bytes(hgemm_launcher *rung)
{
    if (rung == hgemm_split_k) return ws_shape<128, WS_128_STAGES>::SHARED_BYTES;
    if (rung == hgemm_swap_ab) return swap_ab_widths::shared_bytes();
    if (rung == hgemm_narrow_tiles) return hgemm_narrow_shared_bytes();
    return 0;
}
