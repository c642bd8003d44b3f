/* swap_ab's tiles, continued (hgemm_swap_ab_tiles.h has the first
 * rules): the widths past 64 rows of A, the tall tiles and what they do
 * past a wave (192 rows, 64-row fours, the last wave in slices of K), the
 * slices summed in a cluster, the narrow 128-row tiles two across A's
 * rows; then hgemm_swap_ab_shape_for, every rule in its order, and the
 * forms that have a kernel (HGEMM_SWAP_AB_FORMS,
 * hgemm_swap_ab_launchable). On top of hgemm_swap_ab_tiles.h. */
#ifndef LADDER_HGEMM_SWAP_AB_SHAPE_H
#define LADDER_HGEMM_SWAP_AB_SHAPE_H

#include "hgemm_swap_ab_tiles.h"

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
    return hgemm_k_tiles(k) / slices >= HGEMM_TALL_SLICE_MIN_K_TILES ? slices : 1;
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
    int k_tiles = hgemm_k_tiles(k), long_k = k_tiles > HGEMM_NARROW_TWO_ACROSS_MAX_K_TILES;
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

#endif
