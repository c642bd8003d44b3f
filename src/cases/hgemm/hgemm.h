/* HGEMM (SPEC §14): C = A * B on tensor cores, BF16 inputs, FP32
 * accumulation, C in FP32, in every rung and in the cuBLAS baseline.
 * Layout "TN": A is m x k row-major; B is stored column-major, that is as
 * its transpose, n x k row-major; C is m x n row-major. Both operands are
 * then K-contiguous, the layout that mma.sync (row.col) and wgmma read
 * without transposing. Rows of A and B are `ld` elements apart: k rounded
 * up to a multiple of 8 (16 bytes, what the tensor copy engine requires of
 * a row stride), the padding zero; no rung reads it as data. Every launcher
 * takes any m, n, k >= 1. */
#ifndef LADDER_HGEMM_H
#define LADDER_HGEMM_H

#include <cuda.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Row strides are multiples of this many elements. */
#define HGEMM_LD_ALIGN 8

/* persistent_multicast's shape: blocks a cluster, tile width
 * (hgemm_multicast_shape_for). */
typedef struct hgemm_multicast_shape {
    int cluster, width;
} hgemm_multicast_shape;

typedef struct hgemm_problem {
    const uint16_t *a, *b; /* BF16 bit patterns, device memory */
    float *c;
    int m, n, k, ld;
    /* The TMA rungs' tensor maps (hgemm_encode_tensor_maps): A in boxes of 64
     * (half of narrow_tiles' one tile row, for each block of a pair), 128
     * and 192 rows (narrow_tiles' tall tiles), B in boxes of 32 (half of
     * swap_ab's short tiles in pairs), 48, 56 and 64 (a quarter of
     * persistent_multicast's tiles in clusters of four; 64 also swap_ab's short
     * tiles), 96, 112 and 128 (a half, in clusters of two), 192 (swap_ab's tall
     * tiles) and 256 rows; each box 64 elements (128 bytes) of K, 128-byte
     * swizzle, zeros outside the matrix. For swap_ab, A in boxes of
     * hgemm_swap_ab_tile_cols rows, or in clusters of its hgemm_cluster_share,
     * encoded once its shape is chosen (unset past HGEMM_SWAP_AB_MAX_M, and
     * without sm_90a kernels). For narrow_tiles, B in boxes of
     * hgemm_narrow_box rows. */
    CUtensorMap a_rows64, a_rows128, a_rows192, b_rows32, b_rows_narrow, b_rows48, b_rows56, b_rows64, b_rows96,
        b_rows112, b_rows128, b_rows192, b_rows256, a_rows_swap;
    /* C (FP32) in boxes of 32 columns (128 bytes, 128-byte swizzle) by 64
     * rows, for the epilogue of TMA stores; encoded (c_map_encoded) where
     * C's rows are a multiple of 16 bytes long (n % 4 == 0). */
    CUtensorMap c_cols32;
    int c_map_encoded;
    /* The split-K rungs' FP32 partial products: split_k slices of m x n
     * for split_k (hgemm_split_k_count), swap_ab_splits for swap_ab
     * (hgemm_swap_ab_splits), room for the more of the two; NULL where
     * neither splits. */
    float *partials;
    int split_k, swap_ab_splits;
    /* swap_ab's shape (hgemm_swap_ab_shape_for): rows of B a tile, wgmma
     * width, blocks a cluster along B's rows that share A's tile (1, 2 or
     * 4), tile columns side by side that share B's (1 or 2), and the units
     * done whole before those cut into swap_ab_splits slices (0: all cut),
     * and whether the slices add up in their clusters (no partials) */
    int swap_ab_rows, swap_ab_tile_width, swap_ab_cluster, swap_ab_pair, swap_ab_whole, swap_ab_sum_in_cluster;
    /* narrow_tiles' tile rows (hgemm_narrow_rows) and width
     * (hgemm_narrow_width, or hgemm_narrow_tall_width for 192 rows) */
    int narrow_rows, narrow_width;
    /* Blocks of persistent_multicast resident at once, in clusters of two
     * and of four (hgemm_cluster_blocks; swap_ab's clusters of four take
     * the latter too); 0 where no such cluster fits. Its shape
     * (hgemm_multicast_shape_for; fours only with C's tensor map). */
    int cluster_blocks, cluster4_blocks;
    /* swap_ab's blocks resident at once in clusters of eight
     * (hgemm_swap_ab_pair_blocks) */
    int cluster8_blocks;
    hgemm_multicast_shape multicast;
} hgemm_problem;

typedef void hgemm_launcher(const hgemm_problem *problem, cudaStream_t stream);

/* The rungs before the tensor copy engine (sm_80+; hgemm_kernels.cu). */
hgemm_launcher hgemm_wmma_global;
hgemm_launcher hgemm_wmma_shared;
hgemm_launcher hgemm_mma_ldmatrix;
hgemm_launcher hgemm_mma_async_pipeline;
/* Decode shapes: min(m, n) <= HGEMM_GEMV_MAX_ROWS. */
hgemm_launcher hgemm_gemv_mma;
#define HGEMM_GEMV_MAX_ROWS 16

/* The Hopper rungs (hgemm_sm90a_kernels.cu, rungs 5-10,
 * hgemm_skinny_sm90a_kernels.cu, rungs 11-12, and
 * hgemm_narrow_sm90a_kernels.cu, rung 13): built when the CUDA
 * architectures include 90 (LADDER_HAVE_SM90A), run on compute
 * capability 9.0 only. */
hgemm_launcher hgemm_tma_mma;
hgemm_launcher hgemm_wgmma;
hgemm_launcher hgemm_warp_specialized;
hgemm_launcher hgemm_ws_128x256;
hgemm_launcher hgemm_persistent;
hgemm_launcher hgemm_persistent_multicast;
hgemm_launcher hgemm_split_k;
hgemm_launcher hgemm_swap_ab; /* m <= HGEMM_SWAP_AB_MAX_M */
hgemm_launcher hgemm_narrow_tiles; /* 128 < m <= HGEMM_SWAP_AB_MAX_M */
int hgemm_cluster_blocks(const hgemm_problem *problem, int cluster);
int hgemm_swap_ab_pair_blocks(const hgemm_problem *problem);

/* Fill the problem's tensor maps through the driver's cuTensorMapEncodeTiled
 * (found with cudaGetDriverEntryPointByVersion: no -lcuda), narrow_rows and
 * narrow_width set first, B's with the L2 promotion given (hgemm_b_promotion).
 * Returns 0, or -1 with the reason in err. */
int hgemm_encode_tensor_maps(hgemm_problem *problem, CUtensorMapL2promotion b_promotion, char *err, size_t err_len);

/* Dynamic shared memory a rung of each object asks for per block (0 for
 * the WMMA rungs' static arrays, and for rungs of the other object); the
 * case skips a rung the device cannot grant. */
size_t hgemm_sm80_shared_bytes(hgemm_launcher *rung);
size_t hgemm_sm90a_shared_bytes(hgemm_launcher *rung); /* with LADDER_HAVE_SM90A only */

/* x rounded up to a multiple of step: row strides, and tile widths to
 * wgmma's steps. */
static inline int hgemm_round_up(int x, int step)
{
    return (x + step - 1) / step * step;
}

static inline int hgemm_ld(int k)
{
    return hgemm_round_up(k, HGEMM_LD_ALIGN);
}

#ifdef __CUDACC__
#define HGEMM_HOST_DEVICE __host__ __device__
#else
#define HGEMM_HOST_DEVICE
#endif

/* How many slices of K a split-K rung cuts its work into, `tiles` tiles of
 * C on `sms` multiprocessors: enough tiles times slices to give every SM
 * one, each slice at least HGEMM_SPLIT_MIN_K_TILES k-tiles of 64 deep; 1
 * where there are `enough` tiles or more, or K is too short to cut. Past
 * enough, the partials' round trip and their sum cost more than the idle
 * SMs: swap_ab at 32 x 11008 x 4096 (86 tiles) took 29.6 us whole, 31.9 us
 * in 3 slices, 33.4 in 4 (H200); 86 SMs stream B as fast as DRAM gives it. */
#define HGEMM_SPLIT_MIN_K_TILES 4
static inline int hgemm_split_count(long long tiles, int k, int sms, int enough)
{
    int k_tiles = (k + 63) / 64;
    if (tiles >= enough) return 1;
    long long splits = sms / tiles, most = k_tiles / HGEMM_SPLIT_MIN_K_TILES;
    if (splits > most) splits = most;
    return splits < 2 ? 1 : (int)splits;
}

/* split_k's slices: its tiles are 128 x 128, enough where they give half
 * the SMs one (the rung skips a shape that gets 1). */
static inline int hgemm_split_k_count(int m, int n, int k, int sms)
{
    return hgemm_split_count((long long)((m + 127) / 128) * ((n + 127) / 128), k, sms, (sms + 1) / 2);
}

/* swap_ab computes C^T = B A^T, so that A's m rows become wgmma's N side:
 * 64, 128 or 256 wide, the least that holds m; 0 past 256 (the square-tile
 * rungs' shapes). */
#define HGEMM_SWAP_AB_MAX_M 256
static inline int hgemm_swap_ab_width(int m)
{
    return m <= 64 ? 64 : m <= 128 ? 128 : m <= HGEMM_SWAP_AB_MAX_M ? 256 : 0;
}

/* The rows of A in each of swap_ab's tiles (its tiles' columns of C^T, and
 * the rows its map loads): A's m rows shared evenly by as few tiles as
 * hold them, so that no box reaches past A but by a row (TMA's zero fill
 * of rows outside a matrix is slow): 200 rows at width 128 are two tiles
 * of 100, not 128 and 72. The wgmma still reads its whole width; the rows
 * past the box hold a stage's older bytes, and feed only columns of C^T
 * that are never stored. */
static inline HGEMM_HOST_DEVICE int hgemm_swap_ab_tile_cols(int m, int tile_width)
{
    int tiles = (m + tile_width - 1) / tile_width;
    return (m + tiles - 1) / tiles;
}

/* swap_ab's tiles across A's m rows at `tile_width` (each of
 * hgemm_swap_ab_tile_cols rows). */
static inline int hgemm_swap_ab_tiles_across(int m, int tile_width)
{
    int cols = hgemm_swap_ab_tile_cols(m, tile_width);
    return (m + cols - 1) / cols;
}

/* The rows of a tile's B operand (A's rows, in swap_ab) that each block
 * of a cluster brings into all of them by multicast: an even share of the
 * tile's `cols`, exactly (25 of 97 rows in fours). A share may start at any
 * row of the stage: the copy engine swizzles each 128-byte row by its
 * shared-memory address, not by its place in the box, so a box that
 * starts at row 25 of a 1024-byte-aligned stage lands as the stage's rows
 * 25 on would in one box. The last share may reach past the tile; those
 * rows feed columns that are never stored. */
static inline HGEMM_HOST_DEVICE int hgemm_cluster_share(int cols, int cluster)
{
    return (cols + cluster - 1) / cluster;
}

/* The stages of a warp-specialized ring for tiles of 64 x `consumers`
 * rows by `width`, 128 bytes each (swap_ab: rows of B by rows of A;
 * narrow_tiles: two consumers, rows of A by rows of B): the most that fit a
 * block's 227 KB with 1 KB for the ring's alignment and two 8-byte
 * barriers a stage (64-row tiles: 14 stages at width 64, 11 at 96, 9 at
 * 128; 128-row tiles: 8 at width 80, 7 at 128, 6 at 144, 4 at 256). A
 * constant expression, for the kernels' templates. One stage fewer for
 * the 64-row tiles (11 at width 80, cuBLAS's ring there) was 1.1-2.2%
 * slower at six of 12 shapes of swap_ab's 64-row tiles, within 0.8% at
 * the other six (H100, one call, two rounds, 2026-11-28: 19.2-19.3
 * against 19.0-19.1 us at 150 x 3800 x 4000, 14.8 against 14.5-14.6 at
 * 240 x 3800 x 2000). */
#define HGEMM_RING_STAGES(consumers, width) \
    ((227 * 1024 - 1024) / ((64 * (consumers) + (width)) * 128 + 16))

/* swap_ab's tiles: 128 of B's n rows by all of A's, or 64 rows (twice
 * the tiles, one consumer warpgroup each, a deeper ring of
 * HGEMM_RING_STAGES) where 128-row tiles would give fewer than half
 * the SMs one. A 64-row tile is at most 128 wide (past that its ring would
 * hold 5 stages): A's rows past 128 take two tiles, where the 64-row tiles
 * then make one wave at most (250 x 5000 x 3000: 79 x 2 tiles, 0.43 of
 * cuBLAS against 0.63 in 128-row tiles, H200). Where A's rows past 128 in
 * two tiles of 128 rows would make more than a wave, 192 rows (three
 * consumer warpgroups) where those make one: cuBLAS's own shape there. */
static inline int hgemm_swap_ab_rows(int m, int n, int sms)
{
    if (hgemm_swap_ab_width(m) > 128 && 2 * ((n + 127) / 128) > sms && 2 * ((n + 191) / 192) <= sms) return 192;
    if (!hgemm_swap_ab_width(m) || 2 * ((n + 127) / 128) >= sms) return 128;
    long long across = hgemm_swap_ab_width(m) > 128 ? 2 : 1;
    return (n + 63) / 64 * across <= sms ? 64 : 128;
}

/* The width of swap_ab's tiles (of its wgmma): 64- and 192-row tiles at
 * most 128; 128-row tiles too where A's rows in two tiles still make one
 * wave at most (the 6-stage ring of width 128, not the 4 of width 256). H100,
 * 128 wide against 256: 0.86 against 0.66 at 192 x 6144 x 4096 (96 tiles),
 * 0.95 against 0.80 at 200 x 8192 x 8192 (128); past one wave 0.70 against
 * 0.84 at 200 x 11008 x 4096 (172), 0.89 against 0.96 at 160 x 16384 x 4096,
 * 0.88 against 1.00 at 256 x 14336 x 4096. */
static inline int hgemm_swap_ab_tile_width(int m, int n, int sms)
{
    int width = hgemm_swap_ab_width(m);
    if (width <= 128) return width;
    int rows = hgemm_swap_ab_rows(m, n, sms);
    return rows != 128 || 2 * ((n + 127) / 128) <= sms ? 128 : width;
}

/* swap_ab's slices, over its tiles. 128- and 192-row tiles are enough
 * from half the SMs. 64-row tiles are enough where together they keep `stream_bytes`
 * of B in flight (a stage holds 8 KB of B; 112 KB a block at width 64, 72
 * KB at 128): what DRAM needs in flight to stream at its rate, its
 * bandwidth times its latency under load (hgemm_stream_bytes). Whole
 * against split in two, ratio to cuBLAS:
 *   H100 (4.2 MB: enough from 37 tiles at width 64, from 57 at 128): width
 *   64, 64 tiles 0.97 against 0.89 (64 x 4096 x 4096), 48 tiles 1.02
 *   against 0.91 (64 x 3072 x 8192), 32 tiles 0.79 against 0.94 in four
 *   (64 x 2048 x 8192); width 128, 64 tiles 0.91 against 0.82 (100 x 4096
 *   x 4096), 48 tiles 0.84 against 0.87 (100 x 3072 x 8192).
 *   H200 (6.2 MB: from 54 and 84 tiles), whole: width 64, 64 tiles 0.97,
 *   48 tiles 0.85 where 128-row tiles in 4 slices gave 0.93; width 128, 64
 *   tiles 0.87 (128 x 4096 x 14336) where split_k gave 0.89. */
static inline int hgemm_swap_ab_splits(int m, int n, int k, int sms, double stream_bytes)
{
    int rows = hgemm_swap_ab_rows(m, n, sms), width = hgemm_swap_ab_tile_width(m, n, sms);
    double in_flight = HGEMM_RING_STAGES(1, width) * 64 * 128;
    int enough = rows != 64 ? (sms + 1) / 2 : (int)ceil(stream_bytes / in_flight);
    return hgemm_split_count((long long)((n + rows - 1) / rows) * hgemm_swap_ab_tiles_across(m, width), k, sms, enough);
}

/* L2 requests the tensor copy engine makes, on average, for a box row (128
 * bytes of one row of A or B) where rows start `ld` elements apart: one
 * where the row starts on a 128-byte line; two where it runs into the
 * next line; three where it also starts inside a 32-byte sector, whose
 * piece goes alone, unless that piece is all of the row in the first
 * line. ld is a multiple of 8 elements (16 bytes), so the starts repeat
 * every 8 rows. K = 3000: 2.25 a row; Nsight Compute (H100) counted
 * 9.18M requests at 3000^3 against 4.02M at 3072^3, 2.28 a row. */
static inline double hgemm_box_row_requests(int ld)
{
    int requests = 0;
    for (int row = 0; row < 8; ++row) {
        int start = (int)((long long)row * ld * 2 % 128);
        requests += start == 0 ? 1 : start % 32 != 0 && start + 16 < 128 ? 3 : 2;
    }
    return requests / 8.0;
}

/* L2 requests an SM's copy engine sends a clock: Nsight Compute (H100)
 * counted 0.42-0.44 at 3000^3, for this case's rung and cuBLAS's alike. */
#define HGEMM_COPY_REQUESTS_PER_CLOCK 0.44

/* Clocks of one k-tile (64 deep), each way it can take them: an SM's copy
 * engine sending `box_rows` box rows (rows ld elements apart, at
 * HGEMM_COPY_REQUESTS_PER_CLOCK); wgmma multiplying a rows x width tile
 * (2048 BF16 multiply-adds a clock an SM, its dense rate on 9.0); DRAM
 * bringing the k-tile of n rows (128 bytes each) to the whole device. The
 * rules below weigh their tiles by the longest. */
static inline double hgemm_copy_clocks(double box_rows, int ld)
{
    return box_rows * hgemm_box_row_requests(ld) / HGEMM_COPY_REQUESTS_PER_CLOCK;
}

static inline double hgemm_multiply_clocks(int rows, int width)
{
    return (double)rows * width * 64 / 2048;
}

static inline double hgemm_dram_clocks(int n, double dram_bytes_per_clock)
{
    return n * 128.0 / dram_bytes_per_clock;
}

/* DRAM that brings this many bytes a clock an SM or more (an H200's 18.4,
 * 4.8 TB/s over 132 SMs at 1.98 GHz; an H100's 12.8) keeps up with
 * blocks that each stream their own copies: the 108-120 blocks of
 * hgemm_swap_ab_tall_slices, and 64-row blocks alone at 1.5 requests a
 * row (hgemm_swap_ab_pairs: 0.53-0.58 requests a clock an SM on an H200,
 * 0.42-0.46 on an H100). */
#define HGEMM_FAST_DRAM_BYTES_PER_SM 16.0
static inline int hgemm_fast_dram(double dram_bytes_per_clock, int sms)
{
    return dram_bytes_per_clock / sms >= HGEMM_FAST_DRAM_BYTES_PER_SM;
}

/* The L2 promotion of B's tensor maps: where DRAM is slow, L2 fetches the
 * pair of lines around each request (256B), not only its own line (128B,
 * what A's and C's maps keep). In the skinny shapes B is the large operand,
 * streamed from DRAM once, and the line beside a request is mostly the
 * next k-tile of the same row. H100, one call, two rounds, swap_ab, us,
 * 256B against 128B: 26.5-26.7 against 27.3-27.5 at 100 x 3072 x 8192
 * (0.89 of cuBLAS, from 0.86), 23.7 against 24.3-24.4 at 130 x 7000 x
 * 3000 (0.92, from 0.90), 85.6-85.9 against 87.2-87.3 at 160 x 7000 x
 * 16384, 18.6-18.7 against 18.9 at 77 x 5000 x 3000; within 1% at 16
 * other shapes of M 17-250 (200 x 8000 x 2000 ran 20.4-22.4 us either
 * way), and for narrow_tiles at four and persistent_multicast at 4096^3,
 * 6144^3 and 8192^3; 1% slower at 240 x 4608 x 4096 and 200 x 5120 x
 * 4096. A second call: 2.0-2.6% faster at the first two, level at nine
 * others. A's maps at 256B too: no better. On the H200 (fast DRAM) 256B
 * for B lost, one call, two rounds: 71.9-72.1 against 65.9-67.4 us at 160
 * x 7000 x 16384, 16.3-16.5 against 15.5-15.6 at 77 x 5000 x 3000,
 * 22.3-22.4 against 22.0 at 100 x 3072 x 8192, within 0.8% at nine others
 * (and with A's maps at 256B as well, earlier: hgemm.c,
 * HGEMM_L2_PROMOTION): it keeps 128B. */
static inline CUtensorMapL2promotion hgemm_b_promotion(double dram_bytes_per_clock, int sms)
{
    return hgemm_fast_dram(dram_bytes_per_clock, sms) ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
                                                       : CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
}

/* The blocks that `tiles` of B's tiles take in eights: clusters of four
 * tiles along B's rows (the last one filled out past N), two blocks across
 * A's rows each; against `slots8` (hgemm_swap_ab_pairs, _tall_pairs,
 * _halves, _narrow_two_across). */
static inline long long hgemm_eights_blocks(long long tiles)
{
    return (tiles + 3) / 4 * 4 * 2;
}

/* Whether `blocks` alone leave a fifth of the SMs or more idle: on fast
 * DRAM, where blocks alone keep their lead over blocks that share their
 * copies (hgemm_swap_ab_pairs, hgemm_swap_ab_narrow_two_across). */
static inline int hgemm_leaves_a_fifth_idle(long long blocks, int sms)
{
    return 5 * blocks <= 4LL * sms;
}

/* A k-tile where all three overlap: `box_rows` copied, a rows x width
 * multiply and `dram` clocks of DRAM's delivery; the longest. */
static inline double hgemm_k_tile_clocks(double box_rows, int ld, int rows, int width, double dram)
{
    return fmax(fmax(hgemm_copy_clocks(box_rows, ld), hgemm_multiply_clocks(rows, width)), dram);
}

/* A tile change of persistent_multicast, in clocks a column of the tile:
 * C's tile leaves through the copy engine while the next tile's loads
 * wait (H100, 4096^3: with the epilogue cut short, 173 against 185 us over
 * 4 rounds, 3 us or about 4.6K clocks a tile 256 wide). */
#define HGEMM_TILE_CHANGE_CLOCKS_PER_COLUMN 18

/* Clocks persistent_multicast spends on C = A B^T (m x n x k, rows ld
 * apart) in clusters of `cluster` blocks stacked in M that share B's
 * tile, tiles of 128 x width, on `slots` resident blocks: its rounds of
 * units (a tile a block), each its k-tiles and a tile change. A k-tile
 * takes the longer of its multiply (2048 BF16 multiply-adds a clock an
 * SM, wgmma's dense rate on 9.0) and its copies (128 rows of A and width
 * / cluster of B a block, hgemm_box_row_requests each). */
static inline double hgemm_multicast_clocks(int m, int n, int k, int ld, int cluster, int width, int slots)
{
    long long units = (long long)(((m + 127) / 128 + cluster - 1) / cluster) * ((n + width - 1) / width);
    long long clusters = slots / cluster, rounds = (units + clusters - 1) / clusters;
    double k_tile = fmax(hgemm_multiply_clocks(128, width), hgemm_copy_clocks(128.0 + width / cluster, ld));
    return (double)rounds * ((k + 63) / 64 * k_tile + HGEMM_TILE_CHANGE_CLOCKS_PER_COLUMN * width);
}

/* What a tile `width` wide costs a column, against 256 wide: each 32
 * columns narrower 2.5% more (a narrower tile reads more bytes a FLOP: 192
 * wide, a tenth more than 256); none past 256, where the tile takes two
 * wgmmas a k-step as wide as the whole. */
static inline double hgemm_narrower_cost(int width)
{
    return 1 + (width < 256 ? (256 - width) / 32.0 * 0.025 : 0);
}

/* persistent_multicast's clusters (of 2 or 4 blocks: `slots2` and `slots4`
 * resident blocks, 0 where none fits) and tile width (256, 224 or 192): the
 * fewest hgemm_multicast_clocks, each counted hgemm_narrower_cost longer
 * for a narrower tile; ties keep the earlier of {2, 256}, {2, 224},
 * {2, 192}, {4, 256}, ... Where rows start on 128-byte lines, the multiply
 * is the longer and the clusters of 2 keep what the rounds give: 3072^3 on
 * 132 SMs makes 2.18 waves of 128 x 256 tiles, 2.91 of 128 x 192. Where
 * they do not, the copies are (3000^3: 2.25 requests a row), and a cluster
 * of 4 sends a quarter of B's tile a block, not a half, on fewer SMs (120
 * of 132 on an H100). */
static inline hgemm_multicast_shape hgemm_multicast_shape_for(int m, int n, int k, int ld, int slots2, int slots4)
{
    static const hgemm_multicast_shape candidates[6] = {{2, 256}, {2, 224}, {2, 192}, {4, 256}, {4, 224}, {4, 192}};
    hgemm_multicast_shape best = candidates[0];
    double fewest = 0;
    for (int i = 0; i < 6; ++i) {
        hgemm_multicast_shape c = candidates[i];
        int slots = c.cluster == 2 ? slots2 : slots4;
        if (slots < c.cluster) continue;
        double clocks = hgemm_multicast_clocks(m, n, k, ld, c.cluster, c.width, slots) * hgemm_narrower_cost(c.width);
        if (fewest == 0 || clocks < fewest) best = c, fewest = clocks;
    }
    return best;
}

/* swap_ab's clusters: 1, or 4 tiles stacked in B's rows that share A's
 * tile by multicast, each block bringing hgemm_cluster_share of A's rows,
 * where the copy engine's requests would set the pace. A block's k-tile
 * sends its rows of B and its columns' rows of A, hgemm_box_row_requests
 * each at HGEMM_COPY_REQUESTS_PER_CLOCK, while DRAM brings that k-tile of
 * all of B in n x 128 bytes / `dram_bytes_per_clock` (the device's
 * bandwidth over its SM clock); each k-tile takes the longer. Fours where
 * that takes less than 0.8 of what ones take (a cluster waits for its
 * slowest block), and where their blocks fit at once (`slots4` resident
 * blocks in clusters of four). 77 x 5000 x 3000 on an H100: 721 clocks of
 * copies a block, 430 in fours (shares of 20), DRAM 378; 32 x 11000 x
 * 3000: 818 and 695, DRAM 832 (ones). Only where rows are off the 128-byte
 * grid, where the rate was measured: whole-line requests go faster (128 x
 * 4096 x 14336, H100: 0.66 a clock a block, from its time), and there
 * clusters of two lost (0.79 of cuBLAS against 0.98). The ones measured
 * here walked groups of 16 tile rows. Where A's rows take two tiles, the
 * ones in ws_group_units' order beat these fours, and there the fours
 * remain only as half of the eights (hgemm_swap_ab_two_across_alone). */
static inline int hgemm_swap_ab_cluster(int m, int n, int k, int ld, int sms, double stream_bytes, int slots4,
                                        double dram_bytes_per_clock)
{
    if (!hgemm_swap_ab_width(m) || slots4 < 4 || hgemm_box_row_requests(ld) == 1) return 1;
    int rows = hgemm_swap_ab_rows(m, n, sms), width = hgemm_swap_ab_tile_width(m, n, sms);
    int cols = hgemm_swap_ab_tile_cols(m, width);
    long long tiles_b = (n + rows - 1) / rows, tiles_a = hgemm_swap_ab_tiles_across(m, width);
    long long blocks = (tiles_b + 3) / 4 * 4 * tiles_a * hgemm_swap_ab_splits(m, n, k, sms, stream_bytes);
    if (blocks > slots4) return 1;
    double dram = hgemm_dram_clocks(n, dram_bytes_per_clock);
    double ones = fmax(hgemm_copy_clocks(rows + cols, ld), dram);
    double fours = fmax(hgemm_copy_clocks(rows + hgemm_cluster_share(cols, 4), ld), dram);
    return fours < 0.8 * ones ? 4 : 1;
}

/* The blocks a cluster of swap_ab's 64-row tiles across A's rows
 * (hgemm_swap_ab_across) takes along B's rows: 4 where its blocks fit at
 * once in clusters of four (`slots4`), else 2 where they fit in clusters
 * of two (`slots2`), else 0. Twos send half of A's tile a block, not a
 * quarter; H200, one call, 64 x 192 tiles in twos against fours: 0.80
 * of cuBLAS against 0.90 at 130 x 7000 x 3000, 0.80 against 0.90 at 160 x
 * 5000 x 3000; where fours do not fit (123 and 125 tiles on 120 slots),
 * against the 192-row tiles in eights the rules took before:
 * 0.90 against 0.69 at 130 x 7800 x 3000, 0.91-0.93 against 0.77 at 160
 * x 8000 x 3000. cuBLAS runs 64 x 136 tiles in twos at the first. */
static inline int hgemm_swap_ab_across_cluster(int n, int slots2, int slots4)
{
    int tiles = (n + 63) / 64;
    if (tiles <= slots4 / 4 * 4) return 4;
    return (tiles + 1) / 2 * 2 <= slots2 ? 2 : 0;
}

/* swap_ab's 64-row tiles across all of A's rows, for M from 129 to 224:
 * one tile 192 or 224 wide (wgmma's N; the least that holds M), one
 * consumer warpgroup, in clusters (hgemm_swap_ab_across_cluster) that
 * share A's tile. The rules
 * above take two tiles across A's rows there (or 128- and 192-row tiles
 * two across), so each k-tile of B is sent twice: 160 x 5000 x 3000 ran
 * 0.73 of cuBLAS in fours of 128 x 80 tiles. Where rows are off the
 * 128-byte grid the copies set the pace, and a block of these tiles sends
 * 64 rows of B and a quarter of A's, not 128 and a quarter of half: 104
 * box rows against 152 there. Taken where their blocks fit at once in
 * clusters of four (`slots4`) and their clocks (each k-tile the longest of
 * copies, multiply and DRAM's delivery of B, as hgemm_swap_ab_cluster
 * counts them) are under 0.78 of the other tiles' (their rounds, slices
 * and clusters). H100, against those tiles: gains where the estimate
 * gave 0.68-0.75 (160 x 5000 x 3000: 0.88 of cuBLAS against 0.73; 177 x
 * 6000 x 3000: 1.06 against 0.89), level at 0.80 (250 x 5000 x 3000),
 * slower at 0.87 (129 x 4096 x 4000, where the multiply is the longer).
 * The estimate leaves out that each block receives all of A's tile: 40 KB
 * a k-tile at 250 rows, where 128-row tiles receive 32 KB. Past 224 rows a
 * block's share is 64 and the estimate 0.80 at best: none taken there.
 * Nor where rows take 1.5 requests (K = 4000, 1500: two in every other
 * row): the blocks alone bring their rows at about 3.4 clocks each, which
 * multicast did not beat (a cluster's block took 2.6-4.1 clocks for each
 * row it received, hgemm.md's thirteenth session). One call a card, two
 * rounds, us, the tiles the rules give in their place against these
 * (2026-11-27):
 *                        H200                        H100
 *   176 x 4096 x 4000    18.4 against 22.8 (64 x 88) 20.3-20.4 against 23.6-23.8
 *   176 x 4000 x 4000    18.1-19.6 against 22.8-22.9 22.3-23.3 against 23.8
 *   210 x 4100 x 4000    21.3-22.7 against 25.5      24.6 against 26.1
 *   165 x 4200 x 4000                                21.4-21.5 against 24.0-24.1
 *   192 x 4096 x 4000                                21.5-21.6 against 23.3-23.4
 *   200 x 8000 x 4000    28.0-28.1 against 30.6-30.7 32.2-32.4 against 34.0-34.1
 *   200 x 7800 x 4000                                32.4-32.5 against 33.3-33.4
 *   160 x 8000 x 4000    26.5 against 27.6           (128 x 96 alone already)
 *   160 x 5000 x 4000    22.7 against 23.3           24.4-24.6 against 25.4-25.5
 *   140 x 5000 x 4000                                23.1 against 25.3-25.4
 *   220 x 4200 x 1500    12.1 against 15.3           13.1-13.2 against 15.9-16.0
 *   150 x 5200 x 1500    13.2-13.6 against 14.3-14.4 13.7 against 15.3-15.4
 *   160 x 6000 x 1500    13.4-13.6 against 14.5      (128 x 96 alone already)
 *   192 x 8192 x 1500    14.7-14.9 against 15.9      (128 x 96 alone already)
 *   190 x 4100 x 1500                                13.0-13.4 against 14.9-15.0
 * level at 150 x 5600 x 4000 (H200), slower at 180 x 7000 x 4000 (H200:
 * 27.0-27.2 against 25.2, 1.04 of cuBLAS). Returns the width, or 0. */
#define HGEMM_SWAP_ACROSS_MAX_M 224
static inline int hgemm_swap_ab_across(int m, int n, int k, int ld, int sms, double stream_bytes, int slots2,
                                       int slots4, double dram_bytes_per_clock)
{
    if (m <= 128 || m > HGEMM_SWAP_ACROSS_MAX_M || hgemm_box_row_requests(ld) <= 1.5) return 0;
    int across_cluster = hgemm_swap_ab_across_cluster(n, slots2, slots4);
    if (!across_cluster) return 0;
    int width = m <= 192 ? 192 : 224, k_tiles = (k + 63) / 64;
    double dram = hgemm_dram_clocks(n, dram_bytes_per_clock);
    double across = k_tiles * hgemm_k_tile_clocks(64 + hgemm_cluster_share(m, across_cluster), ld, 64, width, dram);
    /* the tiles the rules above give */
    int rows = hgemm_swap_ab_rows(m, n, sms), tile_width = hgemm_swap_ab_tile_width(m, n, sms);
    int cols = hgemm_swap_ab_tile_cols(m, tile_width), splits = hgemm_swap_ab_splits(m, n, k, sms, stream_bytes);
    int cluster = hgemm_swap_ab_cluster(m, n, k, ld, sms, stream_bytes, slots4, dram_bytes_per_clock);
    long long tiles_b = (n + rows - 1) / rows, tiles_a = hgemm_swap_ab_tiles_across(m, tile_width);
    long long blocks = (tiles_b + cluster - 1) / cluster * cluster * tiles_a * splits;
    long long slots = cluster == 4 ? slots4 : sms, rounds = (blocks + slots - 1) / slots;
    double copies = hgemm_copy_clocks(rows + (cluster == 4 ? hgemm_cluster_share(cols, 4) : cols), ld);
    double block =
        rounds * (double)((k_tiles + splits - 1) / splits) * fmax(copies, hgemm_multiply_clocks(rows, tile_width));
    double others = fmax(block, k_tiles * dram);
    return across < 0.78 * others ? width : 0;
}

/* swap_ab's wgmma width for 64-row tiles 128 wide in clusters of four:
 * 96 where the four blocks' shares of A's rows come to 96 or fewer (M 65
 * to 96 in one tile, 77 rows in shares of 20; or two tiles across M 129 to
 * 192), so that the ring holds 11 stages of 20 KB, not 9 of 24. cuBLAS at
 * 77 x 5000 x 3000 (H100) runs this tile 80 wide, 11 stages, in clusters
 * of four: 15.3 us against 19.9. The clusters of eight count their
 * multiply at this width (hgemm_swap_ab_pairs); the last rule narrows it
 * to the shares' rows in steps of 8 (hgemm_swap_ab_short_width). */
static inline int hgemm_swap_ab_cluster_width(int width, int rows, int cols, int cluster)
{
    return cluster == 4 && rows == 64 && width == 128 && 4 * hgemm_cluster_share(cols, 4) <= 96 ? 96 : width;
}

/* swap_ab's 192-row tiles, and 128-row tiles alone, 96 wide where A's
 * rows in two tiles come to 96 or fewer each (M 129 to 192; 160 rows: two
 * tiles of 80); 128-row tiles in clusters reach this width at a few
 * shapes on an H100 (129 x 5981 x 106) and none on an H200, and keep 128:
 * each k-tile's multiply takes three quarters of the 128-wide one's (192 x
 * 128: 768 clocks, where the copies of rows on the 128-byte grid take
 * about 410). cuBLAS runs 192x96 4x2 at 160 x 9216 x 4096. H200, one call,
 * two rounds, against 128 wide: 24.9 against 30.2 us at 137 x 8500 x 3072;
 * 27.9 against 32.4 at 178 x 8453 x 3000 (eights); 25.9, 26.5 against
 * 27.1, 27.0 at 160 x 6000 x 4096 (128-row tiles); 52.4, 52.9 against
 * 53.9, 53.7 at 160 x 8192 x 8192; 37.5 then 30.5 against 37.1, 36.9 at
 * 160 x 9216 x 4096 (0.80 then 0.98 of cuBLAS: bimodal); level at 192 x
 * 6144 x 4096 and 144 x 12288 x 4096. */
static inline int hgemm_swap_ab_multiply_width(int width, int rows, int cols, int cluster)
{
    return (rows == 192 || (rows == 128 && cluster == 1)) && width == 128 && cols <= 96 ? 96 : width;
}

/* swap_ab's clusters of eight: where its tiles go in clusters of four and
 * A's rows take two tiles, the two tiles of B's rows side by side join one
 * cluster (four along B's rows sharing A's tile, two along A's sharing B's),
 * each block bringing half of its B tile and a quarter of its A tile:
 * cuBLAS's nvjet 64x80 4x2 at 150 x 3000 x 3000 (H100), 52 box rows a
 * block a k-tile where our fours send 83. Taken where their blocks fit at
 * once (`slots8`) and a k-tile's longer of copies and multiply (as
 * hgemm_swap_ab_cluster counts them) is under HGEMM_EIGHTS_MAX_RATIO (0.7)
 * of the fours': eight blocks wait for one another at every stage.
 * H100, against the fours: 16.5 against 21.9 us at 150 x 3000 x 3000
 * (estimate 0.64), 25.3 against 27.3 at 250 x 5000 x 3000 (0.63), but
 * 20.1 against 19.7 at 250 x 5000 x 2000 (0.80: 1.75 requests a row, and
 * the multiply the longer). The multiply counts at the width the tile
 * runs (hgemm_swap_ab_multiply_width:
 * 192-row tiles 96 wide where A's rows in two tiles need no more), as
 * cuBLAS's nvjet 192x80 4x2 does at 150 x 11008 x 3000 (counted 128
 * wide, the estimate there had been 0.71). One call a card, two rounds,
 * us, against the build before (192 x 96 tiles alone or in fours):
 *                        H200                        H100
 *   150 x 11008 x 3000   26.4-26.6 against 36.1-36.7 (see below)
 *   144 x 11008 x 3000   26.4 against 36.7           (see below)
 *   176 x 10240 x 2000   21.1-21.2 against 25.1-25.2
 *   160 x 9216 x 5000    36.6-36.8 against 51.4
 *   192 x 11264 x 2000   22.0 against 27.0-27.1
 *   150 x 9216 x 3000                                30.0-30.2 against 38.4-38.6
 *   176 x 8960 x 3000                                30.0-30.3 against 38.2-38.3
 *   160 x 9984 x 5000                                47.3-47.5 against 61.3-61.5
 * DRAM's delivery of B is left out: it brings each k-tile of B once
 * whether the blocks run alone, in fours or in eights (Nsight Compute,
 * H100: 1.03-1.09 times B read at 8 shapes, either way), so it is no
 * difference between them, and counted in both it hid the copies' one
 * where it came out the longer: on the H100 (12.8 bytes a clock an SM)
 * the estimate gave 0.77 at 150 x 11008 x 3000, and the tiles ran alone,
 * while the eights there read B at 2.07 TB/s, 62% of DRAM's peak. H100,
 * one call each, two rounds, us, against the tiles alone the estimate
 * with DRAM gave (2026-11-27):
 *   150 x 11008 x 3000   33.5-33.6 against 41.4-41.5 (0.93 of cuBLAS, from 0.76)
 *   144 x 11008 x 3000   33.4-33.6 against 41.5-43.5 (0.92-0.93, from 0.72-0.75)
 *   200 x 11008 x 5000   53.0-53.2 against 71.1-72.6 (0.93-0.94, from 0.69-0.70)
 *   250 x 7600 x 3000    26.9-27.1 against 39.9-40.0 (0.93, from 0.63)
 *   240 x 7600 x 5000    39.5 against 63.4-63.6
 *   150 x 10240 x 2500   28.9 against 35.3-35.5
 *   177 x 3400 x 6000    24.3 against 30.9-31.0
 *   240 x 3800 x 2000    14.7-14.8 against 17.9-18.1
 *   140 x 3800 x 4000    19.3 against 21.1-21.2
 *   150 x 3800 x 4000    19.2-19.5 against 21.7-21.9
 *   177 x 3000 x 4000    18.4 against 19.0-19.2
 * level at 176 x 10240 x 6000, 180 x 9000 x 6000, 160 x 3400 x 2000 and
 * 192 x 11264 x 2000; slower at 176 x 10240 x 2000 (25.4-25.5 against
 * 23.7-23.9, 0.91 of cuBLAS), 160 x 11264 x 2000 (26.5 against 25.6-26.0),
 * 176 x 10240 x 3500 (36.2-36.4 against 35.3-35.4) and 130 x 3000 x 4000
 * (18.0-18.2 against 17.2-17.6).
 * On fast DRAM (HGEMM_FAST_DRAM_BYTES_PER_SM or more), 64-row tiles whose
 * rows take 1.5 requests (K = 4000: two in every other row) go alone
 * instead, where the blocks alone leave a fifth of the SMs or more idle
 * (an eighth first, with the figures that follow): the H200's blocks
 * alone brought their rows at 0.53-0.58 requests a clock an SM, the
 * H100's at 0.42-0.46, and from 120 blocks they slowed again (the L2
 * serves some 50 requests a clock in all: 0.42 a block at 120). H200, one
 * call, two rounds, us, alone against the eights (2026-11-27):
 *   130 x 3000 x 4000    14.8-14.9 against 17.6-17.7 (0.93 of cuBLAS, from 0.79)
 *   160 x 2400 x 4000    14.6 against 17.6
 *   150 x 2200 x 4000    14.5-14.6 against 17.6-17.7
 *   170 x 2800 x 4000    15.7 against 17.5-17.6
 *   177 x 3000 x 4000    16.1 against 17.6-17.7
 *   190 x 3000 x 4000    16.4 against 17.9
 *   135 x 3600 x 4000    16.9-17.0 against 17.8-17.9 (114 blocks alone)
 *   145 x 3400 x 4000    17.4 against 17.9-18.0
 *   190 x 3800 x 1500    11.1-11.3 against 11.6
 * but at 120 blocks alone 19.6-19.7 against 18.2 at 185 x 3800 x 4000,
 * 18.4-18.8 against 17.9-18.1 at 140 and 150 x 3800 x 4000. On the H100
 * the eights won at 177, 200 and 250 x 3000 x 4000 (18.2-19.4 against
 * 19.0-21.3 us) and lost by 2% at 130 x 3000 x 4000. Since the producer
 * waits with its whole warp (warp_specialized_kernel), the eights are
 * faster at these shapes, and the blocks alone keep the lead only up to a
 * fifth of the SMs idle. The producer's warp against its thread 0, one
 * call a card, two or three rounds, us (2026-11-27):
 *                        H200                          H100
 *   150 x 3800 x 4000    16.6-16.9 against 17.9-18.1   19.5-19.8 against 19.3-19.6
 *   140 x 3800 x 4000    16.4-16.7 against 17.6-17.9
 *   160 x 3000 x 6000    20.2-20.4 against 22.6-22.9   22.2-22.4 against 23.1-23.5
 *   130 x 3000 x 4000    (alone)                       17.5-17.7 against 17.9-18.2
 *   240 x 3800 x 2000    13.5 against 13.4-13.6        14.5-14.8 against 14.7-14.9
 *   88 x 3001 x 3000     14.3-14.5 against 14.8-15.0
 *   150 x 3000 x 3000    15.6-15.8 against 15.1-15.4   16.0-16.3 against 15.5-15.7
 *   200 x 3000 x 3000    17.1-17.3 against 16.5-16.9   17.5-17.7 against 17.1-17.4
 *   77 x 5000 x 3000     15.5-15.7 against 15.3-15.6   18.9-19.1 against 18.6-18.8
 *   200 x 8000 x 2000    20.9-21.0 against 20.7-20.9   22.7-23.2 against 22.4-22.9
 *   100 x 3072 x 8192    21.5-22.3 against 21.2-21.8   26.8-27.6 against 26.3-27.3
 * and within 1.5% at 16 other shapes and at 4096^3, 6144^3 and 8192^3
 * (persistent_multicast). Alone against the eights, H200:
 *   130 x 3000 x 4000    14.6-14.8 against 16.1-16.2   (94 blocks alone)
 *   150 x 2200 x 4000    14.4-14.5 against 16.1-16.2   (70)
 *   150 x 3200 x 4000    16.1-16.3 against 16.4        (100)
 *   145 x 3400 x 4000    17.0-17.3 against 16.4        (108)
 *   140 x 3500 x 4000    16.8-17.1 against 16.4        (110)
 *   135 x 3600 x 4000    16.6-16.8 against 16.4-16.5   (114)
 * 1 where taken, else 0. */
#define HGEMM_EIGHTS_MAX_RATIO 0.7
static inline int hgemm_swap_ab_pairs(int m, int n, int ld, int sms, int rows, int width, int splits, int cluster,
                                      int slots8, double dram_bytes_per_clock)
{
    if (cluster != 4 || slots8 < 8 || hgemm_swap_ab_tiles_across(m, width) != 2) return 0;
    int cols = hgemm_swap_ab_tile_cols(m, width);
    long long blocks = hgemm_eights_blocks((n + rows - 1) / rows) * splits;
    if (blocks > slots8) return 0;
    long long blocks_alone = (long long)(n + rows - 1) / rows * 2 * splits;
    if (rows == 64 && hgemm_box_row_requests(ld) <= 1.5 && hgemm_fast_dram(dram_bytes_per_clock, sms) &&
        hgemm_leaves_a_fifth_idle(blocks_alone, sms))
        return 0;
    int multiply_width = hgemm_swap_ab_multiply_width(width, rows, cols, cluster), share = hgemm_cluster_share(cols, 4);
    return hgemm_k_tile_clocks(rows / 2 + share, ld, rows, multiply_width, 0) <
           HGEMM_EIGHTS_MAX_RATIO * hgemm_k_tile_clocks(rows + share, ld, rows, multiply_width, 0);
}

/* swap_ab's two tiles across A's rows go alone where the rules above put
 * them in fours and not in eights: in ws_group_units' order the two
 * blocks that read one tile of B run side by side, and their reads meet
 * in L2 (Nsight Compute, H200, 256 x 4096 x 8192: 2.24 SMs served by each
 * L2 read against 1.75), which saves more than the fours' shared tile of
 * A. Forced in a scratch build, one call a card, two rounds, us, against
 * the fours (2026-11-27):
 *                        H200                        H100
 *   200 x 3000 x 4000    16.7-16.8 against 17.7      18.9-19.0 against 20.7
 *   250 x 3000 x 4000    18.5-18.6 against 18.6-18.7 19.9-20.4 against 21.3-21.4
 *   200 x 5000 x 4000    24.6 against 27.4-27.5      26.5-26.8 against 28.8-29.0
 *   256 x 6144 x 4000    27.4-27.5 against 28.7-28.8 27.6 against 35.8
 *   160 x 9216 x 4000    30.2-30.3 against 35.9-36.0 35.0 against 48.0
 *   240 x 7000 x 4000    27.6-27.7 against 29.6-29.7 29.6-30.0 against 38.5-38.6
 *   150 x 11008 x 3000   36.8-38.1 against 36.8-36.9 41.5-41.9 against 44.6-45.2
 *   200 x 11008 x 4000   37.6-37.7 against 41.5-42.1 (alone already)
 *   160 x 6000 x 4000                                25.4-25.5 against 33.7
 *   130 x 3000 x 4000                                17.4 against 20.9-21.0
 *   177 x 3000 x 4000    (in eights)                 18.6-18.7 against 21.1
 * (200 x 5000 x 4000 on the H200: one tile across A in 3 slices, which
 * hgemm_swap_ab_tall_slices takes for the tiles alone). Against the build
 * before, in later calls: 16.2-16.4 against 18.0-18.3 us at 200 x 3000 x
 * 4000 (H200, five rounds); but a second H100 gave the fours the lead
 * there, 18.7-19.1 against 19.7-20.3 (five rounds, two calls), where the
 * first had given the ones 18.9-19.0 against 20.7: H100s differ at that
 * shape. Returns the blocks a cluster along B's rows. */
static inline int hgemm_swap_ab_two_across_alone(int m, int width, int cluster, int pair)
{
    return cluster == 4 && pair == 1 && hgemm_swap_ab_tiles_across(m, width) == 2 ? 1 : cluster;
}

/* swap_ab's 192-row tiles in clusters of eight, where rows are off the
 * 128-byte grid, A's rows take two tiles 128 wide, and the 128-row tiles
 * run alone because four of them would not fit at once (`slots4`: 126
 * blocks at 160 x 8000 x 3000 against 120 on an H100). 88 blocks there,
 * each bringing 96 of B's rows and a quarter of an A tile. H100, forced
 * against the rule's ones: 31.7 against 43.2 us at 160 x 8000 x 3000,
 * 31.6 against 40.3 at 130 x 7800 x 3000; where the fours fit, these
 * lost (30.6 against 21.5 at 160 x 5000 x 3000). The tiles across A's rows
 * in twos, where taken, come first (hgemm_swap_ab_shape_for): 0.90
 * against these tiles' 0.69 at 130 x 7800 x 3000 (H200); these remain
 * past 224 rows, past 132 tiles of 64 rows, or where the estimate keeps
 * the tiles across A out. Taken where a k-tile's longest of copies,
 * multiply and DRAM (as hgemm_swap_ab_cluster counts them) is under
 * HGEMM_EIGHTS_MAX_RATIO of the 128-row tiles alone's, over all their rounds, as the eights of
 * hgemm_swap_ab_pairs are: where rows need fewer requests the 192-row
 * multiply sets the pace. H200, forced, in ws_group_units' order, against
 * 128 x 128 tiles alone (2026-11-27): 31.3-31.5 against 37.3-37.7 us at
 * 250 x 8000 x 3000 (2.25 requests a row; estimate 0.59), but 38.1
 * against 28.4-28.5 at 250 x 8000 x 4000 (1.5 a row; 0.89). One call a
 * card, two rounds, us, against the build before:
 *                        H200                        H100
 *   250 x 8000 x 4000    28.4 against 38.5           33.8-34.5 against 39.6-39.7
 *   250 x 8000 x 2000    19.4-19.6 against 24.6-24.7 21.9 against 26.0
 *   240 x 8300 x 4000    28.9-29.1 against 39.6-39.7 34.4-34.5 against 40.8-40.9
 *   160 x 8000 x 4000    (across A's rows in twos)   31.6 against 34.4-34.5
 * and level at 250 x 8000 x 3000 (eights both). 1 where taken. */
static inline int hgemm_swap_ab_tall_pairs(int m, int n, int ld, int sms, int rows, int width, int splits,
                                           int cluster, int slots4, int slots8, double dram_bytes_per_clock)
{
    if (cluster != 1 || rows != 128 || width != 128 || slots8 < 8 || hgemm_box_row_requests(ld) == 1) return 0;
    if (hgemm_swap_ab_tiles_across(m, width) != 2) return 0;
    long long tiles = (n + 127) / 128, fours = hgemm_eights_blocks(tiles) * splits; /* two across A's rows, in fours */
    if (fours <= slots4 || hgemm_eights_blocks((n + 191) / 192) > slots8) return 0;
    int cols = hgemm_swap_ab_tile_cols(m, width);
    double dram = hgemm_dram_clocks(n, dram_bytes_per_clock);
    double alone = hgemm_k_tile_clocks(128 + cols, ld, 128, hgemm_swap_ab_multiply_width(width, 128, cols, 1), dram);
    double eights = hgemm_k_tile_clocks(96 + hgemm_cluster_share(cols, 4), ld, 192,
                                        hgemm_swap_ab_multiply_width(width, 192, cols, 4), dram);
    return eights < HGEMM_EIGHTS_MAX_RATIO * alone * ((2 * tiles + sms - 1) / sms);
}

/* swap_ab's two tiles across A's rows, 64 wide, in place of slices of K:
 * where M is 65 to 128 (one tile 128 wide), rows are off the 128-byte
 * grid, and the rules above cut K into slices (64-row tiles too few to
 * keep enough of B in flight). Each block brings half of its B tile to the
 * block beside it and all of its half of A's rows, in clusters of eight
 * (four along B's rows sharing A's tile, cuBLAS's 64x56 4x2 at 100 x 3000
 * x 3000) where their blocks fit at once (`slots8`), else of two
 * (`slots2`: cuBLAS's 64x40 1x2 at 66 x 4000 x 3000). The sum of the
 * slices, a second kernel, goes. H200, one call, two rounds, against the
 * slices: 0.855 against 0.81 of cuBLAS at 100 x 3000 x 3000 (eights; a
 * pair alone 0.80), 0.91 against 0.81 at 66 x 4000 x 3000 (a pair alone;
 * the eights do not fit). On the grid they lost: 0.73 and 0.76 against
 * 0.93 at 100 x 3072 x 8192. Returns the blocks along B's rows (4 or 1),
 * or 0 where not taken. */
static inline int hgemm_swap_ab_halves(int m, int n, int ld, int rows, int width, int splits, int slots2, int slots8)
{
    if (rows != 64 || width != 128 || m <= 64 || splits < 2 || hgemm_box_row_requests(ld) == 1) return 0;
    long long tiles = (n + 63) / 64;
    if (hgemm_eights_blocks(tiles) <= slots8) return 4;
    return tiles * 2 <= slots2 ? 1 : 0;
}

/* swap_ab's 64-row tiles 96 and 128 wide (not those across all of A's
 * rows), whole in K, as wide as the rows of A a stage holds past 64:
 * `cluster` shares of the tile's `cols`, rounded up to wgmma's step of 8.
 * The ring deepens (13 stages at width 72, 9 at 128) and the multiply
 * wastes fewer columns; cuBLAS's widths there are the same (64x80 in fours
 * at 77 x 5000 x 3000, Nsight Compute, H200). H100, one call, two rounds,
 * against the build before, ratio to cuBLAS: alone, 0.97-0.98 against
 * 0.91-0.92 at 80 x 4096 x 4096 (80 wide), 0.96-0.97 against 0.90 at 72
 * and 88 x 4096 x 4096, 0.94 against 0.90 at 112 x 4096 x 4096, 0.96
 * against 0.93 at 120 x 4096 x 4096, 0.92-0.93 against 0.90 at 100 x 4096
 * x 4096; in eights 0.91-0.92 against 0.89 at 150 x 3000 x 3000 (80), in
 * fours 1.04 against 1.01 at 110 x 4000 x 5000 (112), 0.99 against 0.97 at
 * 66 x 4000 x 3000 (72). Not taken: narrower than 64, where the losses
 * outweighed the gains (alone 0.90 against 0.95 at 40 x 4096 x 4096, 40
 * wide; in fours 0.86 against 0.88 at 45 x 5000 x 3000, 48; in eights 0.89
 * against 0.87 at 77 x 3000 x 3000, 40), and in slices (0.84 against 0.86
 * at 100 x 3072 x 8192, 104 wide in 2). */
static inline int hgemm_swap_ab_short_width(int width, int rows, int cols, int splits, int cluster)
{
    if (rows != 64 || width > 128 || splits != 1) return width;
    int held = hgemm_round_up(cluster * hgemm_cluster_share(cols, cluster), 8);
    return held > 64 && held < width ? held : width;
}

/* 128-row tiles across all of A's rows (256 wide, M 129-256: past a wave
 * of 192-row tiles, N > 12672 on 132 SMs), and the 192-row ones that
 * replace them past a wave (hgemm_swap_ab_tall_rows), multiply as wide as
 * those rows, in steps of 16 from 144, where the 256-wide wgmma spent its
 * columns past M on padding (96 of them at M = 160); the ring deepens with
 * it (6 stages at 160, 4 at 256). cuBLAS's own tile at 160 x 16384 x 4096:
 * 128 x 160 (Nsight Compute, H200). */
static inline int hgemm_swap_ab_tall_width(int width, int rows, int cols)
{
    return (rows == 128 || rows == 192) && width == 256 ? hgemm_round_up(cols, 16) : width;
}

/* Past a wave, swap_ab's tiles alone, one across A's rows (128- or
 * 192-row tiles as wide as A's rows), run the last wave's `tail` tiles
 * while most SMs idle: 200 x 20480 x 4096 makes 160 tiles of 128 x 208 on
 * 132 SMs, two rounds for 1.2 waves of work. Those tiles go in slices of K
 * instead, as many as keep tail x slices within the SMs, each at least
 * HGEMM_SPLIT_MIN_K_TILES k-tiles (hgemm_split_count), and the waves before
 * them whole: rounds of 1 + 1 / slices, and the partials' sum covers only
 * the tail's columns of C. H200, one call, two rounds, against two rounds:
 * 0.971 against 0.72 of cuBLAS at 200 x 20480 x 4096 (28 tiles in 4),
 * 0.93 against 0.67 at 240 x 20000 x 4096 (25 in 5), 0.96 against 0.61 at
 * 224 x 17000 x 4096, 0.87 against 0.58 at 256 x 18000 x 4096 (9 in 14),
 * 1.01 against 0.87 at 64 x 20480 x 4096; 2% behind at K = 700 (233 x
 * 19001, 11 k-tiles in 2: 29.8 against 29.1 us). Returns the slices, 1
 * where none are cut. */
static inline int hgemm_swap_ab_tail_splits(int m, int n, int k, int sms, int rows, int width, int splits,
                                            int cluster, int pair)
{
    if (splits != 1 || cluster != 1 || pair != 1 || hgemm_swap_ab_tiles_across(m, width) != 1) return 1;
    long long tiles = (n + rows - 1) / rows, tail = tiles % sms;
    return tiles < sms || tail == 0 ? 1 : hgemm_split_count(tail, k, sms, sms);
}

/* Those 128-row tiles, where they make more than a wave, take 192 rows
 * where those make one (N from 16897 to 25344 on 132 SMs) and A's rows
 * are at most HGEMM_SWAP_TALL_SPLIT_MAX_M. Up to 192 rows, three consumer
 * warpgroups of 64 rows each: ptxas compiles them against 128 registers a
 * thread (setmaxnreg gives 152 only when the kernel runs), and 208 wide,
 * 104 accumulators, did not fit (ptxas asked for 130; 138 at 224; a kernel
 * of nothing but the ring's wgmma chain and the stores asks the same, the
 * accumulators and 26). A producer warp in place of the producer's
 * warpgroup (416 threads) does not lift the cap: ptxas still compiled
 * against 128, since one of the SM's four quarters holds 4 of the 13
 * warps, and the 192-wide kernel then spilled 4 bytes. From 193 to 208
 * rows, two consumers split the tile by columns instead, each all 192 rows
 * by 104 (three m64n104 wgmmas a k-step: 156 accumulators in the 168
 * registers of 384 threads, no spills): cuBLAS's own form there, nvjet
 * 192x208 coopB (Nsight Compute, H200, at 199 x 23000 x 4096 and 200 x
 * 20480 x 520); but only where the 128-row tiles' last wave would go in
 * HGEMM_SWAP_TALL_SPLIT_MAX_TAIL_SLICES slices of K or fewer (or whole, in
 * a second round: hgemm_swap_ab_tail_splits above), since a 192-row tile
 * is half as many rows again as a 128-row one and its wave leaves SMs
 * idle where N / 192 is short of the SMs. H200, one call, two rounds,
 * ratio to cuBLAS, the split 192-row tiles against the 128-row tiles 208
 * wide (a scratch switch; their last wave's tiles in slices):
 *   199 x 23000 x 4096   0.975-0.977 against 0.869 (48 tail tiles in 2)
 *   199 x 23000 x 2048   0.973-0.974 against 0.849-0.850 (in 2)
 *   208 x 25000 x 4096   0.956-0.962 against 0.849-0.854 (64 in 2)
 *   196 x 24000 x 4096   0.959-0.962 against 0.861 (56 in 2)
 *   193 x 25000 x 4096   0.958-0.961 against 0.854-0.859 (64 in 2)
 *   208 x 23000 x 8192   0.974-0.982 against 0.902-0.921 (48 in 2)
 *   208 x 21000 x 4096   0.992-1.001 against 0.978-0.981 (33 in 4)
 *   200 x 20480 x 4096   0.983-0.988 against 0.986-0.991 (28 in 4)
 *   204 x 19500 x 4096   59.3-59.6 us against 58.3-58.4 (21 in 6)
 *   193 x 20000 x 4096   0.991-0.993 against 1.006 (25 in 5)
 *   200 x 18000 x 4096   0.988 against 1.082-1.083 (9 in 14)
 *   200 x 17000 x 4096   0.880-0.881 against 1.012-1.013 (1 in 16)
 * (cuBLAS took a slow path at 204 x 19500: 3.5 of it). cuBLAS's 192 x 144
 * tiles at 129 x 20000 x 4096 (Nsight Compute, H200), 105 of them where
 * 128 rows gave 157. */
/* The widest tile three consumer warpgroups of 64 rows hold (the 192-row
 * tiles of swap_ab and narrow_tiles; ptxas's 128 registers, above), and
 * the form past it: two consumers each all 192 rows by half the width. */
#define HGEMM_THREE_CONSUMERS_MAX_WIDTH 192
#define HGEMM_SWAP_SPLIT_COLUMNS(rows, width) ((rows) == 192 && (width) > HGEMM_THREE_CONSUMERS_MAX_WIDTH)
#define HGEMM_SWAP_TALL_SPLIT_MAX_M 208
#define HGEMM_SWAP_TALL_SPLIT_MAX_TAIL_SLICES 4
static inline int hgemm_swap_ab_tall_rows(int m, int n, int k, int sms, int rows, int width)
{
    int past_a_wave = (n + 127) / 128 > sms, one_wave = (n + 191) / 192 <= sms;
    if (rows != 128 || width != 256 || !past_a_wave || !one_wave || m > HGEMM_SWAP_TALL_SPLIT_MAX_M) return rows;
    return m <= HGEMM_THREE_CONSUMERS_MAX_WIDTH ||
                   hgemm_swap_ab_tail_splits(m, n, k, sms, 128, width, 1, 1, 1) <= HGEMM_SWAP_TALL_SPLIT_MAX_TAIL_SLICES
               ? 192
               : rows;
}

/* Past a wave of 128-row tiles (N > 16896 on 132 SMs), where A's rows
 * take one 64-row tile (65 to 128 of them) and rows are off the 128-byte
 * grid: 64-row tiles in clusters of four that share A's tile, whole in K,
 * at the width the 128-row tiles had (96 or 128), in place of 128-row
 * tiles alone with their last wave in slices of K. hgemm_swap_ab_cluster
 * weighs one round of copies against DRAM's and keeps fours to one wave;
 * here an SM makes several rounds, each sending its A rows again, and the
 * fours send a quarter of them. H200, ratio to cuBLAS, 2026-11-29. First
 * forced in a scratch build, one call, one round, against the rules before
 * (and 128-row tiles 128 wide in fours; 192-row tiles with the last wave in
 * slices):
 *   120 x 36000 x 3000   0.881 against 0.751 (0.828; 0.789)
 *   87 x 36792 x 2040    0.998 against 0.805 (0.893; 0.868)
 *   100 x 34000 x 3000   0.886 against 0.812 (0.828; 0.821)
 *   77 x 30000 x 3000    0.992 against 0.887 (0.987; 0.897)
 *   96 x 36000 x 6000    1.022 against 0.993 (0.914; 0.969)
 *   128 x 33000 x 2500   61.5 against 67.8 us (67.4; 68.0; cuBLAS slow)
 * Then the rule built, a second call, one round, against it switched off:
 * 0.873 against 0.736 at 120 x 36000 x 3000, 0.973 against 0.785 at 87 x
 * 36792 x 2040, 0.857 against 0.789 at 100 x 34000 x 3000, 0.981 against
 * 0.853 at 77 x 30000 x 3000, 0.997 against 0.970 at 96 x 36000 x 6000,
 * 0.806 against 0.757 at 110 x 17000 x 3000, 0.972 against 0.848 at 77 x
 * 20000 x 3000, 0.816 against 0.710 at 120 x 18000 x 3000, 0.955 against
 * 0.896 at 70 x 30000 x 5000, 47.5 against 51.2 us at 100 x 24000 x 2500
 * (cuBLAS slow). */
static inline int hgemm_swap_ab_fours_past_a_wave(int m, int n, int ld, int sms, int rows, int width, int cluster,
                                                  int pair, int slots4)
{
    return m > 64 && m <= 128 && rows == 128 && cluster == 1 && pair == 1 && (n + 127) / 128 > sms &&
           hgemm_box_row_requests(ld) > 1 && slots4 >= 4 && (width == 96 || width == 128);
}

/* Slices of K summed in a cluster, where every tile is cut (no units
 * whole), tiles alone, in 2 or 4 slices, and the clusters of all tiles'
 * slices are resident at once (`slots2` and `slots4` blocks in clusters of
 * two and four): a tile's slices run as the blocks of one cluster and add
 * their products through distributed shared memory (the kernel's
 * SUM_IN_CLUSTER), with no partials in global memory and no second
 * kernel. Clusters of 3 or 5 did not fit a wave's blocks at once on an
 * H200 (40 clusters of three, 120 blocks: 40.3 us, twice the product's
 * time), nor 32 fours (128 blocks, 120 resident). H200, one call, two
 * rounds, us, against the partials and their sum: 21.4 against 22.6 at 100
 * x 3072 x 8192 (two slices), 16.9-17.0 against 18.5 at 100 x 4096 x 4096,
 * 23.9-24.6 against 26.4 at 77 x 4096 x 8192, 38.5 against 39.1 at 128 x
 * 4096 x 14336; H100, 26.9 against 27.7 at 100 x 3072 x 8192, level at 128
 * x 4096 x 14336. */
static inline int hgemm_swap_ab_sums_in_cluster(int m, int n, int rows, int width, int splits, int cluster, int pair,
                                                int whole, int slots2, int slots4)
{
    if (cluster != 1 || pair != 1 || whole != 0 || (splits != 2 && splits != 4)) return 0;
    long long blocks = (long long)(n + rows - 1) / rows * hgemm_swap_ab_tiles_across(m, width) * splits;
    return blocks <= (splits == 2 ? slots2 : slots4);
}

/* Where 128-row tiles two across A's rows (M 129-256) give a third of the
 * SMs or more nothing to do (N up to 5632 on 132 SMs: 80 blocks at 200 x
 * 5120), one tile across all of A's rows instead (as wide as they are, in
 * hgemm_swap_ab_tall_width's steps of 16), K in as many slices as the SMs
 * hold (hgemm_split_count): each k-tile of B goes out once, not once for
 * each half of A, and 120 blocks stream it where 80 did. H200, one call,
 * two rounds, us: 24.2 against 26.6-26.8 at 200 x 5120 x 4096 (40 tiles in
 * 3 slices; the product alone 18.3-19.2 under Nsight Compute, cuBLAS's
 * kernel 20.4-20.9, the slices' sum the rest), 22.2 against 23.8-24.0 at
 * 160 x 5120 x 4096, 20.4 against 21.7-22.0 at 130 x 4608 x 4096, 34.4
 * against 45.1-45.4 at 200 x 5000 x 8192; level at 240 and 250 x 4608-5120
 * x 4096 (against 20589db's rules). On the H100 they lose at 7 of these
 * 8 shapes: one call a card, two rounds, us, against the tiles two across
 * A's rows that the rules give without them (128 rows, 96 wide at 130 and
 * 160, 128 at 200 and 240; forced in a scratch build), 2026-11-27:
 *                       H200                         H100
 *   200 x 5120 x 4096   24.3-24.4 against 26.7       28.6-28.7 against 26.6-26.9
 *   200 x 5120 x 6144   29.5-29.6 against 35.8-35.9  36.7 against 36.0-36.1
 *   200 x 5120 x 8192   34.7-34.8 against 45.2-45.3  43.5-43.7 against 45.3-45.7
 *   240 x 4608 x 4096   25.8-26.0 against 26.7-26.8  28.0-28.1 against 26.8-27.1
 *   130 x 4608 x 4096   20.4-20.5 against 21.7-21.9  25.1-25.2 against 21.8-22.0
 *   130 x 4608 x 8192   29.4-29.6 against 35.5-35.7  39.0-39.2 against 35.9-36.0
 *   160 x 5120 x 4096   22.2-22.4 against 22.3-22.5  26.9-27.1 against 23.6
 *   160 x 5120 x 8192   32.9-33.0 against 36.1-36.3  42.0-42.2 against 40.7
 * (given up on the H100: 200 x 5120 x 8192, and 200 x 5000 x 8192, 42.8
 * against 45.3-45.5 in the ninth session's call). The tiles two across
 * (72-80 blocks) take the same time on both cards: their multiplies bind
 * them. The slices' 108-120 blocks stream all of B at
 * once and take 4-9 us longer on the H100, whose DRAM brings 12.8 bytes a
 * clock an SM (3.35 TB/s, 132 SMs at 1.98 GHz) where the H200's brings
 * 18.4 (4.8 TB/s). Nsight Compute (H100, 200 x 5120 x 4096, caches flushed
 * before each kernel): the slices' product 24.0 us, 43.6 MB from DRAM (1.8
 * TB/s), their sum 7.8-8.0 us more; the tiles two across 25.0 us, cuBLAS's
 * nvjet 128x72 22.4. So the slices take the place of two tiles across only
 * where DRAM brings HGEMM_FAST_DRAM_BYTES_PER_SM a clock an SM or more
 * (`dram_bytes_per_clock`, the device's, over its SMs).
 * The tiles are 128 rows only where 64-row ones would pass a wave (more
 * than a quarter of the SMs' count of tiles), so the slices are 3, summed
 * as split_k's partials (not in clusters of three: those did not fit a
 * wave's blocks at once, hgemm_swap_ab_sums_in_cluster). The partials'
 * sum costs as much at any K, so each slice is
 * HGEMM_TALL_SLICE_MIN_K_TILES k-tiles or more: 14.1 against 11.1-11.3 us
 * at 150 x 5000 x 1024, 5 k-tiles a slice. Up to 240 rows, tiles two
 * across as wide as their half of A's rows beat these slices and take
 * their place, but past 64 k-tiles where they are wider than 80
 * (hgemm_swap_ab_narrow_two_across). Returns the slices, 1 where the rule
 * does not apply. */
#define HGEMM_TALL_SLICE_MIN_K_TILES 16
static inline int hgemm_swap_ab_tall_slices(int m, int n, int k, int sms, int rows, int width, int splits,
                                            int cluster, int pair, double dram_bytes_per_clock)
{
    if (m <= 128 || rows != 128 || splits != 1 || cluster != 1 || pair != 1 ||
        !hgemm_fast_dram(dram_bytes_per_clock, sms) ||
        hgemm_swap_ab_tiles_across(m, width) != 2)
        return 1;
    long long tiles = (n + rows - 1) / rows;
    int slices = 3 * 2 * tiles > 2LL * sms ? 1 : hgemm_split_count(tiles, k, sms, sms);
    return (k + 63) / 64 / slices >= HGEMM_TALL_SLICE_MIN_K_TILES ? slices : 1;
}

/* The width of a tile that holds half of A's m rows: wgmma's step of 8
 * over ceil(m / 2). */
static inline int hgemm_swap_ab_half_width(int m)
{
    return hgemm_round_up((m + 1) / 2, 8);
}

/* The forms a swap_ab tile runs in: blocks alone, clusters of two or four
 * along B's rows (sharing A's tile), eights (fours side by side with the
 * next tile across A's rows, sharing B's), and a pair alone (two tiles
 * across A's rows sharing B's: 64-row ones 64 wide, hgemm_swap_ab_halves;
 * 128-row ones as wide as their rows of A,
 * hgemm_swap_ab_narrow_two_across). */
#define HGEMM_SWAP_ONES 1
#define HGEMM_SWAP_TWOS 2
#define HGEMM_SWAP_FOURS 4
#define HGEMM_SWAP_EIGHTS 8
#define HGEMM_SWAP_PAIR 16

/* swap_ab's 128-row tiles two across A's rows (M 129 to 240) multiply
 * as wide as their half of A's rows, rounded up to wgmma's step of 8 (88
 * at M = 176, 104 at 200), where they make one wave and 64-row tiles two
 * across would pass one (N from 4225 to 8448 on 132 SMs): in place of
 * the 64-row tiles across all of A's rows (hgemm_swap_ab_across), the
 * 192-row eights (hgemm_swap_ab_tall_pairs) and the 128-row tiles 96 or
 * 128 wide, alone or in eights. Where K is at most
 * HGEMM_NARROW_TWO_ACROSS_MAX_K_TILES k-tiles and rows take 2 requests or
 * fewer (K = 1500, 2000, 4000) they run alone, or, where DRAM is fast and
 * the blocks alone would leave less than a fifth of the SMs idle
 * (hgemm_swap_ab_pairs' measure), as a pair of blocks side by side across
 * A's rows that share B's tile (cuBLAS's nvjet 128x104 1x2 at 200 x 8000
 * x 2000, H200). Where rows take more (K = 2500, 3000, 5000), and past
 * those k-tiles where they take more than 1.5 (K = 6000), in eights: four
 * pairs along B's rows that share A's tile (cuBLAS's 128x104 4x2 at 200 x
 * 6000 x 3000, H200). Past those k-tiles at 1 request (K = 6144, 8192,
 * 16384) alone; at 1.5 (K = 8160, 12000) as a pair where DRAM is fast,
 * and on slower DRAM the rules above keep the shape (the H100's, forced
 * at five shapes: the blocks alone 2-7% faster at two, the pair 4% at
 * one, level within 2% at two). They take the place of
 * hgemm_swap_ab_tall_slices' tiles in slices up to 64 k-tiles; past them
 * only where they are 80 wide or less (M up to 160) and K is 128 k-tiles
 * or fewer, and the eights only up to 224 rows (past those the rules
 * above give the slices, not 64-row tiles across A's rows). Where the
 * pairs or the eights do not fit at once (`slots2`, `slots8`), the rules
 * above keep the shape. Forced in a scratch build, one call a card, two
 * rounds, us (ratio to cuBLAS), against the rules' tiles (2026-11-27):
 *                        H200: rules / alone / pair        H100: rules / alone / pair
 *   200 x 8000 x 2000    21.2 (0.80) / 18.7 / 18.3 (0.92)  22.5 (0.85) / 20.2 (0.95) / 21.5
 *   176 x 8000 x 2000    19.8 (0.82) / 18.5 / 17.9 (0.91)  21.3 (0.88) / 20.5 (0.91) / 20.7
 *   176 x 8400 x 2000    20.1 (0.83) / 18.7 / 18.2 (0.92)  22.1 (0.88) / 20.6 (0.94) / 21.4
 *   200 x 6000 x 2000    18.0 (0.85) / 16.0 (0.96) / 16.6  19.6 (0.85) / 17.9 (0.93) / 18.9
 *   160 x 6000 x 2000    16.4 (0.85) / 14.8 (0.94) / 15.8  18.4 (0.86) / 18.0 (0.88) / 18.4
 *   200 x 8000 x 4000    27.6 (0.92) / 27.3 / 26.5 (0.96)  32.0 (0.96) / 31.5 (0.97) / 32.8
 * At K = 6000 the rules' tiles kept the lead but at one shape of four:
 *   200 x 7000 x 6000    35.1 (0.88) / 38.4 / 35.7         44.5 (0.85) / 42.9 / 42.7 (0.89)
 *   160 x 6000 x 6000    30.6 (0.88) / 30.9 / 30.4         36.4 (0.92) / 39.8 / 38.3
 * and past a wave (176 x 10240 x 2000: 0.89-0.90 against 0.72-0.78).
 * Where rows take 2.25 requests, the pair beat the 64-row tiles across A's
 * rows in twos (200 x 8000 x 3000: 27.5 against 29.1, H200; 30.3 against
 * 30.7, H100), but the 64-row tiles across A's rows in fours and the
 * 128-row eights beat it by 10-18%, where a first form of this rule took
 * the pair at 2.25 requests: H200, one call, two rounds, us, the pair
 * against the rules' tiles (2026-11-27):
 *   177 x 6000 x 3000    24.4 against 21.7-21.8 (64 x 192 in fours)
 *   200 x 6000 x 3000    25.8-25.9 against 23.4 (64 x 224 in fours)
 *   200 x 7000 x 2500    24.1 against 21.6-21.7
 *   135 x 6000 x 3000    22.1-22.5 against 19.7-19.8
 *   230 x 6000 x 3000    28.0-28.1 against 23.7-23.8 (128 x 128 in eights)
 *   160 x 5000 x 3000    19.9-20.0 against 20.1
 * In the same call, that first form against the build before, at 2
 * requests a row or fewer (where it takes the shapes this rule takes):
 *   200 x 8000 x 2000    18.5-18.9 against 21.2-21.3 (a pair)
 *   176 x 8000 x 2000    18.0-18.4 against 19.9
 *   176 x 8400 x 2000    18.2-18.3 against 20.4
 *   140 x 8000 x 2000    17.1-17.2 against 18.8
 *   240 x 8000 x 2000    19.8-20.0 against 20.3-20.4
 *   200 x 6000 x 2000    16.0-16.2 against 17.8-17.9 (alone)
 *   160 x 6000 x 2000    14.4-14.6 against 16.3-16.4
 *   150 x 5200 x 1500    12.2-12.3 against 13.2
 *   200 x 6144 x 4096    23.7-23.8 against 27.3-27.4
 *   200 x 6000 x 4000    23.6 against 27.1
 *   200 x 8000 x 4000    26.9 against 27.7-27.8 (a pair)
 *   160 x 8000 x 4000    25.5-25.7 against 26.2-26.8
 * level at 180 x 7000 x 3500, 200 x 8000 x 1024 and 160 x 8192 x 4096,
 * slower at 192 x 8192 x 1500 (15.4-15.5 against 14.9-15.2).
 * The eights, where rows take more than 2 requests, against the rules'
 * tiles before them (64 x 192 and 64 x 224 in fours; 128 x 128 in eights
 * past 224 rows), this rule against the build before: H200, one call,
 * two rounds; H100, two calls, four rounds; us (ratio to cuBLAS; cuBLAS's
 * kernel is 2.2-3.3 times slower at the shapes with none):
 *                        H200                         H100
 *   200 x 6000 x 3000    21.2 (0.93) / 23.2 (0.85)    23.1-23.4 (0.91) / 24.5-24.7 (0.86)
 *   200 x 7680 x 3000    21.9-22.0 (0.94) / 24.0-24.1 26.2-26.4 (0.92) / 27.1-27.4 (0.88)
 *   135 x 6000 x 3000    19.4 (0.90) / 20.0-20.1      22.1-22.4 (0.92) / 22.9-23.1 (0.88)
 *   129 x 7000 x 3000    19.8-19.9 (0.93) / 20.6      23.9-24.2 (0.91) / 24.5-24.6 (0.89)
 *   160 x 5000 x 3000    19.9 (0.91) / 20.2-20.3      21.0-21.3 (0.90) / 21.2-21.4
 *   200 x 7000 x 2500    19.8-19.9 / 21.6             22.4-22.6 / 23.3-23.5
 *   177 x 6000 x 3000    20.8-20.9 / 21.8-22.0        22.8-23.0 / 23.6-23.9
 *   230 x 6000 x 3000    22.6-22.7 / 23.6-23.7        24.1-24.4 / 24.8-25.1
 *   190 x 6500 x 3000    20.9-21.4 / 23.1-23.2        24.0-24.4 / 25.3
 *   210 x 4300 x 3000    21.5 / 23.3                  22.5-22.8 / 23.7-24.0
 *   240 x 5000 x 2500    20.4 / 21.2                  21.3-21.8 / 22.2-22.3
 * level at 150 x 4500 x 3000 (H200: 19.6-19.7 both; H100: 20.9 against
 * 20.5-20.7), and slower past the slots (200 x 8000 x 3000, H200, forced
 * the session before: 128 blocks in two rounds, 33.9-34.7 against 28.2).
 * Up to 64 k-tiles where rows take 2 requests or fewer, the eights lost to
 * the blocks alone (H100, forced, two calls, four rounds): 27.5-27.7
 * against 25.8-26.0 at 200 x 6144 x 4096, 27.6-27.8 against 26.3-26.8 at
 * 200 x 6000 x 4000, 14.8-15.1 against 13.3-13.6 at 150 x 5200 x 1500,
 * 18.8-18.9 against 17.7-18.5 at 200 x 6000 x 2000, 19.3-19.4 against
 * 18.8-18.9 at 176 x 7000 x 2000; level at 160 x 6000 x 2000.
 * Past 64 k-tiles, this rule against the build before (64 x 192 and 64
 * x 224 in fours, 128 x 96 and 128 x 128 alone), one call a card, two
 * rounds, us (ratio to cuBLAS; forced, the blocks alone and the pair were
 * slower than the eights at each of the first five, on both cards):
 *                        H200                          H100
 *   200 x 7000 x 6000    32.7-32.8 (0.95) / 35.0 (0.89) 40.1-40.4 (0.95) / 47.2-47.3 (0.81)
 *   200 x 6000 x 6000    32.2-32.3 (0.96) / 34.4 (0.90) 36.7-36.9 (0.95) / 38.6 (0.90)
 *   160 x 6000 x 6000    28.8-28.9 (0.93) / 30.8-30.9   35.4-35.6 (0.94) / 36.2-36.4 (0.92)
 *   140 x 6000 x 6000    27.8-27.9 (0.96) / 30.6-30.7   35.1-35.4 (0.94) / 38.8-39.1 (0.85)
 *   180 x 7000 x 6000    31.1-31.2 / 33.2-33.6          39.9-40.5 / 42.3-44.1
 *   200 x 6000 x 5000    30.1 (0.95) / 33.3 (0.86)      33.5-33.8 (0.94) / 35.4-35.5 (0.89)
 *   150 x 7000 x 5000    28.7 (1.00) / 31.1-31.2 (0.93) 35.5-35.8 (0.95) / 36.3-36.4 (0.93)
 *   200 x 6000 x 9000    46.2 (1.06) / 51.7-51.8 (0.94) 50.7 (0.95) / 53.4-53.6 (0.90)
 *   200 x 6000 x 10000   47.3-47.6 (1.05) / 50.8 (0.98) 56.0-56.3 (0.96) / 58.4 (0.92)
 *   230 x 6000 x 6000    35.9-36.0 / 36.5-37.1          37.8-37.9 / 40.3-40.4
 *   176 x 5800 x 6000    28.2-29.1 / 30.0-30.7          34.3-34.9 (0.95) / 35.1-35.6 (0.93)
 *   160 x 7500 x 7000    37.5-37.8 / 39.4-39.6          48.0-48.2 / 48.6-48.8
 * (cuBLAS 2.5-3.3 times slower at the last).
 * Forced, the eights were slower than the rules' tiles at 1 and 1.5
 * requests: 43.8-44.0 against 42.8-43.0 at 160 x 6000 x 8192 (H100),
 * 27.5-27.7 against 26.1-26.6 at 200 x 6000 x 4000 (H100).
 * Past 64 k-tiles at 1 and 1.5 requests, and in place of the slices,
 * this rule against the build before (the rules' tiles: 128 x 96 and
 * 128 x 128 alone, 64 x 192 and 64 x 224 in fours, the slices), us
 * (ratio to cuBLAS), two rounds; H200 four calls, H100 one (2026-11-27):
 *                        H200                                     H100
 *   200 x 6000 x 8192    38.8-38.9 (0.99) / 45.7-45.9 (0.84)      43.7-44.0 (0.99) / 45.5 (0.96)
 *   160 x 6000 x 8192    33.1-33.2 / 36.3-36.4                    42.2-42.3 / 42.9-43.0
 *   230 x 6000 x 8192    43.4-43.6 / 46.0-46.1                    44.3 / 46.0
 *   200 x 8192 x 8192    41.9 (0.98) / 47.9-48.1 (0.86)
 *   140 x 5500 x 8192    30.5-30.6 / 34.2 (slices)                39.0 / 40.0-40.3
 *   176 x 7000 x 6144    28.9-29.1 / 30.2-30.4                    37.8 / 37.4-38.3
 *   200 x 6000 x 16384   73.5-73.7 (0.91) / 88.1-88.5 (0.76)
 *   200 x 8000 x 16384   88.1-88.5 (0.95) / 97.9-98.3 (0.86)
 *   230 x 6000 x 16384   84.4-84.8 / 89.0-89.3
 *   200 x 5000 x 16384   (the slices kept)                        71.8-72.5 / 82.7-83.6
 *   200 x 7000 x 12000   58.5-58.7 (0.95) / 67.1 (0.83)
 *   180 x 8000 x 12000   63.3 (1.01) / 71.9-73.3 (0.89)
 *   140 x 6000 x 12000   48.1-48.2 / 50.1-50.4
 *   150 x 6000 x 8160    35.6 / 36.7
 *   150 x 5000 x 4096    19.9 (0.98) / 22.0-22.2 (0.88, slices)
 *   130 x 4608 x 4096    18.5-18.6 (0.99) / 20.4-20.5 (0.90, slices)
 *   160 x 5000 x 4000    19.9-20.0 / 22.6-22.7 (slices)
 *   200 x 5000 x 4000    23.3-23.4 / 24.4-24.5 (slices)
 *   200 x 5120 x 4096    23.4 / 24.3-24.4 (slices)
 *   160 x 5120 x 8192    31.6-31.7 / 32.9-33.1 (slices)
 *   130 x 5000 x 8192    29.5 / 31.9-32.0 (slices)
 *   150 x 5000 x 6144    25.8-26.0 / 26.8-26.9 (slices)
 *   200 x 5000 x 3500    21.3-21.4 / 23.8-23.9 (fours)
 *   150 x 4800 x 3500    18.8-18.9 / 21.4-21.5 (fours)
 *   200 x 5000 x 5000    29.5 / 32.1-32.2 (fours)
 *   160 x 5200 x 6000    27.9-28.1 / 30.1-30.2 (fours)
 *   200 x 5000 x 10000   46.8-46.9 / 49.9-50.1 (fours)
 * level at 240 x 4608 x 4096 (25.6-25.7 against 25.8-25.9, slices);
 * slower at 160 x 7000 x 16384 (77.2-77.5, 0.84, against 71.9-72.4 for
 * 128 x 96 alone, H200). Past 64 k-tiles the slices kept their lead
 * where the tiles are wider than 80 or K is longer, and the 120-wide
 * eights (H200, us, the slices against the narrow tiles): 34.7-34.8
 * against 38.6-38.8 at 200 x 5000 x 8192, 38.6-38.7 against 43.2-43.3 at
 * 230 x 5000 x 8192, 31.9-32.1 against 36.1-36.2 at 180 x 4400 x 8192,
 * 29.4-29.6 against 31.0 at 200 x 5000 x 6144, 34.8-35.0 against 39.3-39.5
 * (a pair) at 200 x 5000 x 8160, 32.0-32.2 against 34.0 (forced) at 176 x
 * 5000 x 8192, 45.5 against 53.9-54.0 (a pair) at 200 x 5000 x 12000,
 * 56.5 against 70.7-70.8 at 200 x 5000 x 16384, 43.0-43.1 against 45.9
 * (a pair, forced) at 140 x 5000 x 12000, 32.7-32.9 against 35.4-35.6
 * (eights) at 240 x 5000 x 6000; level at 130 x 5000 x 16384 and 160 x
 * 5000 x 10240 (forced). At 1 request past 64 k-tiles the pair was slower
 * than the blocks alone at each shape above, on both cards (H100: 44.9-45.0
 * against 44.0-44.1 at 200 x 6000 x 8192, 54.2 against 52.9-53.1 at 200 x
 * 8000 x 8192).
 * Returns the form (HGEMM_SWAP_ONES, _PAIR or _EIGHTS), 0 where not
 * taken. */
#define HGEMM_NARROW_TWO_ACROSS_MAX_K_TILES 64
#define HGEMM_NARROW_OVER_SLICES_MAX_WIDTH 80
#define HGEMM_NARROW_OVER_SLICES_MAX_K_TILES 128
static inline int hgemm_swap_ab_narrow_two_across(int m, int n, int k, int ld, int sms, int slots2, int slots8,
                                                  double dram_bytes_per_clock)
{
    int width = hgemm_swap_ab_half_width(m);
    if (m <= 128 || width >= 128) return 0;
    long long tiles = (n + 127) / 128, blocks = tiles * 2;
    if (hgemm_swap_ab_rows(m, n, sms) != 128 || blocks > sms) return 0;
    double requests = hgemm_box_row_requests(ld);
    int k_tiles = (k + 63) / 64, long_k = k_tiles > HGEMM_NARROW_TWO_ACROSS_MAX_K_TILES;
    int fast = hgemm_fast_dram(dram_bytes_per_clock, sms);
    int slices_cut = long_k && hgemm_swap_ab_tall_slices(m, n, k, sms, 128, width, 1, 1, 1, dram_bytes_per_clock) > 1;
    if (requests > 2 || (long_k && requests > 1.5))
        return hgemm_eights_blocks(tiles) <= slots8 && !(slices_cut && m > HGEMM_SWAP_ACROSS_MAX_M) ? HGEMM_SWAP_EIGHTS
                                                                                                   : 0;
    if (slices_cut && (width > HGEMM_NARROW_OVER_SLICES_MAX_WIDTH || k_tiles > HGEMM_NARROW_OVER_SLICES_MAX_K_TILES))
        return 0;
    if (long_k && requests > 1) return fast && blocks <= slots2 ? HGEMM_SWAP_PAIR : 0;
    if (long_k || !fast || hgemm_leaves_a_fifth_idle(blocks, sms)) return HGEMM_SWAP_ONES;
    return blocks <= slots2 ? HGEMM_SWAP_PAIR : 0;
}

/* swap_ab's tiles: rows of B a tile, wgmma width, slices of K, blocks a
 * cluster along B's rows that share A's tile (1, 2 or 4), tile columns
 * side by side in the cluster that share B's tile (1 or 2): a cluster is
 * cluster x pair blocks; the units done whole, first, where only the
 * others are cut into the slices (0: all are); and whether a tile's slices
 * add up in their cluster (hgemm_swap_ab_sums_in_cluster; else as split_k's
 * partials do). */
typedef struct hgemm_swap_ab_shape {
    int rows, width, splits, cluster, pair, whole, sum_in_cluster;
} hgemm_swap_ab_shape;

/* The rules above in their order, on `sms` SMs (`slots2`, `slots4` and
 * `slots8` blocks resident in clusters of two, four and eight): the tiles
 * and slices (hgemm_swap_ab_rows, _tile_width, _splits) and their
 * clusters (hgemm_swap_ab_cluster); else 64-row tiles across A's rows
 * (hgemm_swap_ab_across, _across_cluster); two tiles across A's rows in
 * place of slices (hgemm_swap_ab_halves); 96 wide where a cluster's shares
 * fill no more (hgemm_swap_ab_cluster_width); then clusters of eight
 * (hgemm_swap_ab_pairs), two tiles across A's rows alone where not in
 * eights (hgemm_swap_ab_two_across_alone), and 192-row eights where
 * 128-row fours do not fit (hgemm_swap_ab_tall_pairs), and 128-row tiles
 * two across A's rows as wide as their half of them, alone or as a pair
 * where rows take 2 requests or fewer (1.5 past 64 k-tiles), in eights
 * where they take more, in one wave (hgemm_swap_ab_narrow_two_across);
 * 128- and 192-row tiles 96 wide where that holds A's rows
 * (hgemm_swap_ab_multiply_width);
 * last, 64-row tiles as wide as their rows of A past 64
 * (hgemm_swap_ab_short_width) and 128-row tiles across all of them, 192
 * rows past a wave (hgemm_swap_ab_tall_rows), as wide as those
 * (hgemm_swap_ab_tall_width); past a wave, 64-row tiles in fours where A's
 * rows take one and rows are off the grid
 * (hgemm_swap_ab_fours_past_a_wave); the last wave's tiles cut into slices of K
 * (hgemm_swap_ab_tail_splits), or all tiles where two across A's rows
 * leave SMs idle (hgemm_swap_ab_tall_slices); and the slices' sum in
 * clusters where those fit (hgemm_swap_ab_sums_in_cluster).
 * For M up to HGEMM_SWAP_AB_MAX_M. */
static inline hgemm_swap_ab_shape hgemm_swap_ab_shape_for(int m, int n, int k, int ld, int sms, double stream_bytes,
                                                          int slots2, int slots4, int slots8,
                                                          double dram_bytes_per_clock)
{
    hgemm_swap_ab_shape s = {hgemm_swap_ab_rows(m, n, sms), hgemm_swap_ab_tile_width(m, n, sms),
                             hgemm_swap_ab_splits(m, n, k, sms, stream_bytes),
                             hgemm_swap_ab_cluster(m, n, k, ld, sms, stream_bytes, slots4, dram_bytes_per_clock), 1,
                             0, 0};
    int across = hgemm_swap_ab_across(m, n, k, ld, sms, stream_bytes, slots2, slots4, dram_bytes_per_clock);
    if (across)
        s.rows = 64, s.width = across, s.splits = 1, s.cluster = hgemm_swap_ab_across_cluster(n, slots2, slots4);
    int halves = hgemm_swap_ab_halves(m, n, ld, s.rows, s.width, s.splits, slots2, slots8);
    if (halves) s.width = 64, s.splits = 1, s.cluster = halves, s.pair = 2;
    s.width = hgemm_swap_ab_cluster_width(s.width, s.rows, hgemm_swap_ab_tile_cols(m, s.width), s.cluster);
    if (hgemm_swap_ab_pairs(m, n, ld, sms, s.rows, s.width, s.splits, s.cluster, slots8, dram_bytes_per_clock))
        s.pair = 2;
    s.cluster = hgemm_swap_ab_two_across_alone(m, s.width, s.cluster, s.pair);
    if (hgemm_swap_ab_tall_pairs(m, n, ld, sms, s.rows, s.width, s.splits, s.cluster, slots4, slots8,
                                 dram_bytes_per_clock))
        s.rows = 192, s.splits = 1, s.cluster = 4, s.pair = 2;
    int narrow = hgemm_swap_ab_narrow_two_across(m, n, k, ld, sms, slots2, slots8, dram_bytes_per_clock);
    if (narrow)
        s.rows = 128, s.width = hgemm_swap_ab_half_width(m), s.splits = 1,
        s.cluster = narrow == HGEMM_SWAP_EIGHTS ? 4 : 1, s.pair = narrow == HGEMM_SWAP_ONES ? 1 : 2;
    s.width = hgemm_swap_ab_multiply_width(s.width, s.rows, hgemm_swap_ab_tile_cols(m, s.width), s.cluster);
    s.width = hgemm_swap_ab_short_width(s.width, s.rows, hgemm_swap_ab_tile_cols(m, s.width), s.splits, s.cluster);
    s.rows = hgemm_swap_ab_tall_rows(m, n, k, sms, s.rows, s.width);
    s.width = hgemm_swap_ab_tall_width(s.width, s.rows, hgemm_swap_ab_tile_cols(m, s.width));
    if (hgemm_swap_ab_fours_past_a_wave(m, n, ld, sms, s.rows, s.width, s.cluster, s.pair, slots4))
        s.rows = 64, s.cluster = 4, s.splits = 1;
    int tail_splits = hgemm_swap_ab_tail_splits(m, n, k, sms, s.rows, s.width, s.splits, s.cluster, s.pair);
    if (tail_splits > 1) s.whole = (n + s.rows - 1) / s.rows / sms * sms, s.splits = tail_splits;
    int tall_slices = narrow ? 1
                             : hgemm_swap_ab_tall_slices(m, n, k, sms, s.rows, s.width, s.splits, s.cluster, s.pair,
                                                         dram_bytes_per_clock);
    if (tall_slices > 1) s.width = hgemm_swap_ab_tall_width(256, s.rows, m), s.splits = tall_slices;
    s.sum_in_cluster =
        hgemm_swap_ab_sums_in_cluster(m, n, s.rows, s.width, s.splits, s.cluster, s.pair, s.whole, slots2, slots4);
    return s;
}

/* The forms that have a kernel, for tiles of `rows` of B (one to three
 * consumer warpgroups) by `width`; hgemm_swap_ab instantiates these and no
 * other, and the rules above never leave them (hgemm_test sweeps them).
 * A constant expression, for the kernels' templates. 64-row tiles are 64,
 * or 72 to 128 wide in steps of 8 (hgemm_swap_ab_short_width), 192 and
 * 224 across A's rows (hgemm_swap_ab_across); 128- and 192-row tiles 96
 * or 128 wide, in clusters only where one tile holds A's rows or in
 * eights (hgemm_swap_ab_two_across_alone); 128-row tiles 72 to 120 wide
 * alone, as a pair or in eights (hgemm_swap_ab_narrow_two_across), 144
 * to 256 wide in steps of 16, 192-row ones to 192 and 208 (its two
 * consumers split by columns; hgemm_swap_ab_tall_width and _tall_rows). */
#define HGEMM_SWAP_STEP_WIDTH(width, step, from, to) ((width) % (step) == 0 && (width) >= (from) && (width) <= (to))
#define HGEMM_SWAP_AB_FORMS(rows, width)                                                                              \
    ((rows) == 64    ? ((width) == 192 || (width) == 224 ? HGEMM_SWAP_TWOS | HGEMM_SWAP_FOURS                         \
                        : (width) == 64 ? HGEMM_SWAP_ONES | HGEMM_SWAP_FOURS | HGEMM_SWAP_EIGHTS | HGEMM_SWAP_PAIR    \
                        : HGEMM_SWAP_STEP_WIDTH(width, 8, 72, 128) ? HGEMM_SWAP_ONES | HGEMM_SWAP_FOURS | HGEMM_SWAP_EIGHTS \
                                                                : 0)                                                  \
     : (rows) == 128 ? ((width) == 64    ? HGEMM_SWAP_ONES | HGEMM_SWAP_FOURS                                         \
                        : HGEMM_SWAP_STEP_WIDTH(width, 8, 72, 120) ? HGEMM_SWAP_ONES | HGEMM_SWAP_EIGHTS | HGEMM_SWAP_PAIR \
                        : (width) == 128 ? HGEMM_SWAP_ONES | HGEMM_SWAP_FOURS | HGEMM_SWAP_EIGHTS                     \
                        : HGEMM_SWAP_STEP_WIDTH(width, 16, 144, 256) ? HGEMM_SWAP_ONES | HGEMM_SWAP_FOURS             \
                                                                : 0)                                                  \
     : (rows) == 192 ? ((width) == 96 || (width) == 128 ? HGEMM_SWAP_ONES | HGEMM_SWAP_EIGHTS                         \
                        : HGEMM_SWAP_STEP_WIDTH(width, 16, 144, HGEMM_THREE_CONSUMERS_MAX_WIDTH) ? HGEMM_SWAP_ONES    \
                        : (width) == HGEMM_SWAP_TALL_SPLIT_MAX_M ? HGEMM_SWAP_ONES                                    \
                                                                : 0)                                                  \
                     : 0)

/* The form of `cluster` blocks along B's rows by `pair` across A's. */
static inline HGEMM_HOST_DEVICE int hgemm_swap_ab_form(int cluster, int pair)
{
    if (pair == 2) return cluster == 4 ? HGEMM_SWAP_EIGHTS : cluster == 1 ? HGEMM_SWAP_PAIR : 0;
    return pair != 1 ? 0 : cluster == 1 ? HGEMM_SWAP_ONES : cluster == 2 ? HGEMM_SWAP_TWOS : cluster == 4 ? HGEMM_SWAP_FOURS : 0;
}

/* Whether swap_ab has a kernel for a shape: the rung checks this before it
 * launches. The 192-row tiles whose consumers split the columns store from
 * registers only: their slices never add up in a cluster. */
static inline int hgemm_swap_ab_launchable(hgemm_swap_ab_shape s)
{
    int rows_known = s.rows == 64 || s.rows == 128 || s.rows == 192;
    return rows_known && (HGEMM_SWAP_AB_FORMS(s.rows, s.width) & hgemm_swap_ab_form(s.cluster, s.pair)) != 0 &&
           !(HGEMM_SWAP_SPLIT_COLUMNS(s.rows, s.width) && s.sum_in_cluster);
}

/* narrow_tiles' tile rows of 128 across A's rows: one up to 128 of them
 * (its tiles in pairs that share A's), else two (a cluster that shares
 * B's tile). */
static inline int hgemm_narrow_tile_rows(int m)
{
    return m <= 128 ? 1 : 2;
}

/* A tensor map's box spans 256 elements of a dimension at most. */
#define HGEMM_MAX_BOX_ROWS 256

/* The rows of B that narrow_tiles' map brings a copy: half the tile where
 * two tile rows share it in a cluster, or where it is wider than a box
 * (the kernel then makes two copies); else all of it. */
static inline int hgemm_narrow_box(int m, int rows, int width)
{
    return (rows == 128 && hgemm_narrow_tile_rows(m) == 2) || width > HGEMM_MAX_BOX_ROWS ? width / 2 : width;
}

/* narrow_tiles' tile width on `sms` SMs: of 80, 96, ..., 320, the one whose
 * tiles (hgemm_narrow_tile_rows of 128, ceil(n / width) tile columns) give
 * an SM the fewest columns to make in all its rounds (rounds x width), each
 * counted hgemm_narrower_cost, the fewer rounds where two tie: where the
 * tiles fit one wave, the narrowest that does. A narrower tile pays only
 * where it fills SMs that a wider one leaves idle: 80 at 250 x 5000 (126
 * tiles), where 128 would give 80; at 216 x 9216, 80 gives 232 tiles, 1.76
 * waves, and 144 gives 128 in one (cuBLAS's own choice there: nvjet 144 x
 * 128 in clusters of two, Nsight Compute, H100). Past 256 (N from 16897 to
 * 21120 on 132 SMs in two tile rows, twice that in one) the tile takes two
 * wgmmas a k-step (288 at 256 x 18000: cuBLAS's nvjet 288x128, H200) and,
 * in one tile row, two boxes of B. Past one wave, rounds x width (before the
 * narrower cost) was the measured order of the widths at four shapes of six
 * (H200, one call, us, widths forced, 2026-11-29):
 *   256 x 22000 x 4096   112 (3 rounds, 336) 69.5, 176 (2, 352) 70.8,
 *                        128 (3, 384) 77.6, 208 (2, 416) 80.5, 256 (2, 512) 97.0
 *   240 x 26000 x 4096   208 (2, 416) 82.4, 112 (4, 448) 92.3, 256 (2, 512)
 *                        97.2, 128 (4, 512) 102.6, 176 (3, 528) 103.7
 *   256 x 25344 x 4096   128 (3, 384) 80.7, 208 (2, 416) 82.4, 112 (4, 448)
 *                        93.5, 256 (2, 512) 98.6, 176 (3, 528) 104.5
 *   250 x 22000 x 2048   as 256 x 22000: 39.1, 40.6, 42.1, 44.6, 53.7
 *   199 x 23000 x 4096   176 (2, 352) 72.9, 208 (2, 416) 79.7, 128 (3, 384)
 *                        86.1, 256 (2, 512) 94.7, 112 (4, 448) 103.2
 * and at 230 x 24000 x 8192 128 (384) took 142.8-165.5 against 208's
 * (416) 148.5: at those two, 128 in 3 rounds ran behind 208 in 2. 112
 * wide in 4 rounds lost to 208 in 2 by 12% at 240 x 26000, where its
 * columns are 8% fewer: hence the narrower cost, which keeps 208 there and
 * not 80 in 5 rounds. Where the tiles passed a wave
 * this rule took 256 before. The rule built, H200, a second call, two
 * rounds, ratio to cuBLAS (against 256 wide in an earlier call):
 *   256 x 22000 x 4096   0.934-0.935 (112, 3 rounds; 0.666-0.669)
 *   240 x 26000 x 4096   0.964-0.967 (208, 2; 0.810-0.814)
 *   256 x 25344 x 4096   0.970-0.975 (192, 2; 0.766-0.785)
 *   250 x 22000 x 2048   0.922-0.923 (112, 3; 0.672-0.673)
 *   230 x 24000 x 8192   1.005-1.014 (192, 2; 0.848)
 *   256 x 30000 x 4096   0.955-0.963 (240, 2; 0.929)
 *   256 x 40000 x 4096   1.025-1.031 (304, 2)
 * and where swap_ab is ahead: 0.884-0.889 at 200 x 28000 x 4096 (224),
 * 0.910-0.919 at 232 x 33000 x 4096 (256). */
#define HGEMM_NARROW_MIN_WIDTH 80
#define HGEMM_NARROW_MAX_WIDTH 320
static inline long long hgemm_narrow_rounds(int m, int n, int width, int sms)
{
    return ((long long)hgemm_narrow_tile_rows(m) * ((n + width - 1) / width) + sms - 1) / sms;
}

static inline int hgemm_narrow_width(int m, int n, int sms)
{
    int best = HGEMM_NARROW_MIN_WIDTH;
    long long best_rounds = 0;
    double best_cost = 0;
    for (int width = HGEMM_NARROW_MIN_WIDTH; width <= HGEMM_NARROW_MAX_WIDTH; width += 16) {
        long long rounds = hgemm_narrow_rounds(m, n, width, sms);
        double cost = (double)rounds * width * hgemm_narrower_cost(width);
        if (!best_rounds || cost < best_cost || (cost == best_cost && rounds < best_rounds))
            best = width, best_cost = cost, best_rounds = rounds;
    }
    return best;
}

/* Where A's rows are 129 to 192, narrow_tiles can instead cover them with
 * one tile row of 192 (three consumer warpgroups, no cluster), its tiles
 * the narrowest of 80, 96, ..., HGEMM_THREE_CONSUMERS_MAX_WIDTH whose
 * ceil(n / width) tiles run in one wave; 0 where none does. */
#define HGEMM_NARROW_TALL_ROWS 192
static inline int hgemm_narrow_tall_width(int m, int n, int sms)
{
    if (m > HGEMM_NARROW_TALL_ROWS) return 0;
    for (int width = HGEMM_NARROW_MIN_WIDTH; width <= HGEMM_THREE_CONSUMERS_MAX_WIDTH; width += 16)
        if ((n + width - 1) / width <= sms) return width;
    return 0;
}

/* narrow_tiles' tile rows: 128 up to 128 of A's rows; past them, 192
 * where that tile row's tiles (hgemm_narrow_tall_width) give an SM fewer
 * elements of C to make than two tile rows of 128 at hgemm_narrow_width,
 * in all their rounds; else 128. At 192 x 19000 on 132 SMs: 132 tiles of 192 x 144 (27648
 * elements an SM) against 126 of 128 x 288 (36864); at 160 x 5000, 63 of
 * 192 x 80 (15360) against 126 of 128 x 80 (10240). */
static inline int hgemm_narrow_rows(int m, int n, int sms)
{
    if (hgemm_narrow_tile_rows(m) == 1) return 128;
    int tall = hgemm_narrow_tall_width(m, n, sms), width = hgemm_narrow_width(m, n, sms);
    long long two_rows = hgemm_narrow_rounds(m, n, width, sms) * 128 * width;
    return tall && (long long)HGEMM_NARROW_TALL_ROWS * tall < two_rows ? HGEMM_NARROW_TALL_ROWS : 128;
}

/* The clusters a persistent launch takes to walk `units` units on
 * `clusters` resident ones: as few as finish them in the same number of
 * rounds, so that every cluster walks the same count (one less at most)
 * and the clusters left out stay idle from the start, not only through
 * the last round (4096^3 on 132 SMs: 256 units of two 128 x 256 tiles, 4
 * rounds either way, 64 clusters where 66 would leave 8 of them idle
 * through the last). */
static inline int hgemm_balanced_clusters(long long units, int clusters)
{
    if (clusters <= 0 || units <= 0) return clusters;
    long long rounds = (units + clusters - 1) / clusters;
    return (int)((units + rounds - 1) / rounds);
}

/* Bytes in flight that keep DRAM streaming: `dram_gbps` (the device's
 * theoretical bandwidth) times 1.25 us, about HBM's latency under load. */
static inline double hgemm_stream_bytes(double dram_gbps)
{
    return dram_gbps * 1e9 * 1.25e-6;
}

#ifndef __CUDACC__
#include "harness/case.h"
#include "cases/sgemm/sgemm.h"

/* Above this many multiply-adds a check compares sampled rows and columns
 * (sgemm's sample: whole rows and columns, first and last among them). */
#define HGEMM_FULL_CHECK_MNK SGEMM_FULL_CHECK_MNK

/* Compare C with the double-precision product of A (m x k) and B given as
 * n x k (both the FP32 values of the BF16 inputs, rows ld apart): every
 * element when sample is NULL, else the sampled rows and columns; every
 * element scanned for NaN and Inf. */
ladder_check hgemm_check_host(const float *a, const float *b_t, const float *c, long long m, long long n,
                              long long k, long long ld, const sgemm_sample *sample, double tolerance);

/* What a check accepts for sums of k exact products in FP32. */
double hgemm_tolerance(long long k);
#endif

#ifdef __cplusplus
}
#endif

#endif
