/* narrow_tiles' shape (rung 13, B's tiles as narrow as fill a wave): its
 * tile rows of A (one or two of 128, or one of 192), B's box, and the
 * width, each with the figures that chose it. On top of
 * hgemm_swap_ab_shape.h (the widest tile of three consumers), and the last
 * of the rules' headers that hgemm.h includes. */
#ifndef LADDER_HGEMM_NARROW_SHAPE_H
#define LADDER_HGEMM_NARROW_SHAPE_H

#include "hgemm_swap_ab_shape.h"

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

#endif
