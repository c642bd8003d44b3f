/* HGEMM's cost model and the square-tile rungs' shapes: the slices of K
 * that split_k cuts (and swap_ab's slices build on), what a k-tile costs
 * the copy engine, the tensor cores and DRAM in clocks,
 * persistent_multicast's clusters and width, and the balance of the
 * persistent grids. hgemm.h includes it (through hgemm_narrow_shape.h). */
#ifndef LADDER_HGEMM_COSTS_H
#define LADDER_HGEMM_COSTS_H

#include <cuda.h>
#include <math.h>

/* The rules that kernels use too are compiled for both sides. */
#ifdef __CUDACC__
#define HGEMM_HOST_DEVICE __host__ __device__
#else
#define HGEMM_HOST_DEVICE
#endif

/* x rounded up to a multiple of step: row strides, and tile widths to
 * wgmma's steps. */
static inline int hgemm_round_up(int x, int step)
{
    return (x + step - 1) / step * step;
}

/* K's tiles of 64 (HGEMM_TILE_K, which C code cannot see): what each cost
 * below counts K in. */
HGEMM_HOST_DEVICE static inline int hgemm_k_tiles(int k)
{
    return (k + 63) / 64;
}

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
    int k_tiles = hgemm_k_tiles(k);
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

/* Clocks of `units` spread over `clusters` clusters at once: each round
 * its k-tiles (k_tile clocks each) and a tile change. */
static inline double hgemm_rounds_clocks(long long units, long long clusters, int k, double k_tile,
                                         double tile_change)
{
    long long rounds = (units + clusters - 1) / clusters;
    return (double)rounds * (hgemm_k_tiles(k) * k_tile + tile_change);
}

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
    double k_tile = fmax(hgemm_multiply_clocks(128, width), hgemm_copy_clocks(128.0 + width / cluster, ld));
    return hgemm_rounds_clocks(units, slots / cluster, k, k_tile, HGEMM_TILE_CHANGE_CLOCKS_PER_COLUMN * width);
}

/* What a tile `width` wide costs a column, against 256 wide: each 32
 * columns narrower 2.5% more (a narrower tile reads more bytes a FLOP: 192
 * wide, a tenth more than 256); none past 256, where the tile takes two
 * wgmmas a k-step as wide as the whole. */
static inline double hgemm_narrower_cost(int width)
{
    return 1 + (width < 256 ? (256 - width) / 32.0 * 0.025 : 0);
}

/* persistent_multicast's shape: blocks a cluster, tile rows (128, or 256:
 * hgemm_tall_clocks) and width, and whether a tile's K fits in a ring of
 * HGEMM_WHOLE_K_TILES stages (hgemm_multicast_shape_for). */
typedef struct hgemm_multicast_shape {
    int cluster, rows, width, whole_k;
} hgemm_multicast_shape;

/* persistent_multicast's 256 x 192 tiles: a ring of HGEMM_TALL_STAGES
 * stages of 56 KB (a consumer's second row group is stored under the next
 * tile's first HGEMM_TALL_STAGES k-tiles). Taken only where a tile has
 * HGEMM_TALL_MIN_K_TILES k-tiles or more: what they gain is clock at the
 * power limit, which a long multiply reaches (HGEMM_TALL_COST); at short
 * K the tile changes hold the time, and theirs cost more (H200, one call:
 * 46.5 against 42.4 us at 4000 x 4500 x 400, 7 k-tiles; level at 6144 x
 * 6144 x 4096; 572.0-572.7 against 575.6-576.6 us at 6144^3). */
#define HGEMM_TALL_STAGES 3
#define HGEMM_TALL_MIN_K_TILES 64

/* A tile change of the 256 x 192 tiles: 192 KB of C a block where 128 x 256
 * has 128 KB, and fewer registers to hold it in (a producer's timeline at
 * 6144^3, H200: 6.2K clocks past the k-tiles' own against 3.3K), about 45
 * clocks a column. */
#define HGEMM_TALL_TILE_CHANGE_CLOCKS (45 * 192)

/* What the 256 x 192 tiles' clocks count for against 128 x 256 tiles':
 * a k-tile brings 128 rows of A (the pair shares its 256) and 192 of B a
 * block, 320 rows for 256 x 192 products where 128 x 256 brings 256 for 128
 * x 256: a sixth fewer L2 bytes a FLOP. At the power limit that is clock:
 * Nsight Compute at 6144^3 on an H200, 1658 against 1618 MHz, 88.4M
 * against 105.7M L2 sectors read; the kernel 0.8% faster where these clocks
 * counted it 1.1% slower. */
#define HGEMM_TALL_COST 0.98

/* The units of persistent_multicast's 256 x 192 tiles: pairs side by side
 * along N that share A's tile (each block brings half of it). */
static inline long long hgemm_tall_units(int m, int n)
{
    return (long long)((m + 255) / 256) * (((n + 191) / 192 + 1) / 2);
}

/* Clocks persistent_multicast spends on C = A B^T in 256 x 192 tiles on
 * `slots` resident blocks: as hgemm_multicast_clocks, a unit a pair. */
static inline double hgemm_tall_clocks(int m, int n, int k, int ld, int slots)
{
    double k_tile = fmax(hgemm_multiply_clocks(256, 192), hgemm_copy_clocks(128.0 + 192, ld));
    return hgemm_rounds_clocks(hgemm_tall_units(m, n), slots / 2, k, k_tile, HGEMM_TALL_TILE_CHANGE_CLOCKS);
}

/* K of 128 or less: 2 k-tiles a tile. A ring that deep leaves room beside
 * it for all of a tile's C (hgemm_sm90a_kernels.cu, WS_WHOLE_K_STORE_BUFFERS),
 * where the epilogue, not the multiply, is most of the time. */
#define HGEMM_WHOLE_K_TILES 2

/* persistent_multicast's clusters (of 2 or 4 blocks: `slots2` and `slots4`
 * resident blocks, 0 where none fits) and tile width (256, 224 or 192): the
 * fewest hgemm_multicast_clocks, each counted hgemm_narrower_cost longer
 * for a narrower tile; ties keep the earlier of {2, 256}, {2, 224},
 * {2, 192}, {4, 256}, ... Then 256 x 192 tiles in pairs (`tall_slots`
 * blocks resident, 0 without C's tensor map) where hgemm_tall_clocks,
 * counted HGEMM_TALL_COST, are fewer still: 6144^3 on 132 SMs makes 6
 * rounds of them, 9 of 128 x 256. Where rows start on 128-byte lines, the multiply
 * is the longer and the clusters of 2 keep what the rounds give: 3072^3 on
 * 132 SMs makes 2.18 waves of 128 x 256 tiles, 2.91 of 128 x 192. Where
 * they do not, the copies are (3000^3: 2.25 requests a row), and a cluster
 * of 4 sends a quarter of B's tile a block, not a half, on fewer SMs (120
 * of 132 on an H100). Twos of 2 k-tiles or fewer take the whole-K ring. */
static inline hgemm_multicast_shape hgemm_multicast_shape_for(int m, int n, int k, int ld, int slots2, int slots4,
                                                              int tall_slots)
{
    static const hgemm_multicast_shape candidates[6] = {{2, 128, 256}, {2, 128, 224}, {2, 128, 192},
                                                        {4, 128, 256}, {4, 128, 224}, {4, 128, 192}};
    hgemm_multicast_shape best = candidates[0];
    double fewest = 0;
    for (int i = 0; i < 6; ++i) {
        hgemm_multicast_shape c = candidates[i];
        int slots = c.cluster == 2 ? slots2 : slots4;
        if (slots < c.cluster) continue;
        double clocks = hgemm_multicast_clocks(m, n, k, ld, c.cluster, c.width, slots) * hgemm_narrower_cost(c.width);
        if (fewest == 0 || clocks < fewest) best = c, fewest = clocks;
    }
    if (tall_slots >= 2 && hgemm_k_tiles(k) >= HGEMM_TALL_MIN_K_TILES &&
        hgemm_tall_clocks(m, n, k, ld, tall_slots) * HGEMM_TALL_COST < fewest) {
        hgemm_multicast_shape tall = {2, 256, 192, 0};
        return tall;
    }
    best.whole_k = best.cluster == 2 && hgemm_k_tiles(k) <= HGEMM_WHOLE_K_TILES;
    return best;
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

#endif
