/* swap_ab's tiles (rung 12, C^T = B A^T: A's few rows as wgmma's N
 * side), rule by rule, each with the figures that chose it: the tile's
 * rows of B and width, its slices of K, the clusters that share A's tile,
 * 64-row tiles across A's rows, the widths in clusters, clusters of eight
 * and two tiles across A's rows. hgemm_swap_ab_shape.h goes on, and puts
 * the rules together. On top of hgemm_costs.h. */
#ifndef LADDER_HGEMM_SWAP_AB_TILES_H
#define LADDER_HGEMM_SWAP_AB_TILES_H

#include "hgemm_costs.h"

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
    int width = m <= 192 ? 192 : 224, k_tiles = hgemm_k_tiles(k);
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

#endif
