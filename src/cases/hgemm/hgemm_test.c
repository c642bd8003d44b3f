/* CPU tests of the HGEMM case: the checker (full and sampled) against the
 * definition of C = A B^T on BF16 values and against planted errors, the
 * BF16 rounding, the padded row stride, the tolerance, the sizes the case
 * accepts, the split-K rungs' slice counts, swap_ab's widths,
 * persistent_multicast's clusters, width and balanced grid, swap_ab's
 * clusters and the vendor rows' order. No GPU needed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hgemm.h"
#include "harness/check/bf16.h"
#include "harness/check/rng.h"
#include "harness/run/runner.h"
#include "harness/run/size.h"
#include "harness/testing/test_util.h"
#include "harness/check/validate.h"

extern const ladder_case hgemm_case;

/* A (m x k) and B (n x k), BF16 values in rows ld apart, and C = A B^T by
 * the definition, one element at a time, in double, rounded to FP32. */
typedef struct problem {
    long long m, n, k, ld;
    float *a, *b, *c;
} problem;

static problem make_problem(long long m, long long n, long long k, uint64_t seed)
{
    long long ld = hgemm_ld((int)k);
    problem p = {m, n, k, ld, calloc(m * ld, sizeof(float)), calloc(n * ld, sizeof(float)), malloc(m * n * sizeof(float))};
    float *draw = malloc((m > n ? m : n) * k * sizeof(float));
    ladder_fill_uniform(draw, m * k, seed, -1.0f, 1.0f);
    for (long long e = 0; e < m * k; ++e) p.a[e / k * ld + e % k] = ladder_from_bf16(ladder_to_bf16(draw[e]));
    ladder_fill_uniform(draw, n * k, ladder_hash64(seed), -1.0f, 1.0f);
    for (long long e = 0; e < n * k; ++e) p.b[e / k * ld + e % k] = ladder_from_bf16(ladder_to_bf16(draw[e]));
    free(draw);
    for (long long i = 0; i < m; ++i)
        for (long long j = 0; j < n; ++j) {
            double sum = 0;
            for (long long q = 0; q < k; ++q) sum += (double)p.a[i * ld + q] * p.b[j * ld + q];
            p.c[i * n + j] = (float)sum;
        }
    return p;
}

static void free_problem(problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
}

static ladder_check check(const problem *p, const sgemm_sample *sample)
{
    return hgemm_check_host(p->a, p->b, p->c, p->m, p->n, p->k, p->ld, sample, hgemm_tolerance(p->k));
}

static void test_checker(void)
{
    /* Odd k: the rows are padded (ld 40 for k 37). */
    problem p = make_problem(23, 19, 37, 7);
    EXPECT(p.ld == 40);
    ladder_check r = check(&p, NULL);
    EXPECTF(r.passed && r.rel_error < 1e-7, "the definition itself: error %.2e", r.rel_error);
    /* A product missing its last term fails. */
    for (long long j = 0; j < p.n; ++j) p.c[5 * p.n + j] -= p.a[5 * p.ld + p.k - 1] * p.b[j * p.ld + p.k - 1];
    r = check(&p, NULL);
    EXPECTF(!r.passed, "a missing term (row 5) passed: error %.2e, tolerance %.1e", r.rel_error, r.tolerance);
    free_problem(&p);

    /* The sample sees a wrong element in a sampled row, and a NaN anywhere. */
    p = make_problem(300, 200, 16, 11);
    sgemm_sample sample;
    sgemm_draw_sample(p.m, p.n, 3, &sample);
    EXPECT(check(&p, &sample).passed);
    p.c[sample.rows[3] * p.n + 17] += 1.0f;
    EXPECT(!check(&p, &sample).passed);
    p.c[sample.rows[3] * p.n + 17] -= 1.0f;
    p.c[p.n + 1] = NAN; /* row 1, column 1: unsampled unless drawn */
    r = check(&p, &sample);
    EXPECT(!r.passed && r.nonfinite == 1);
    free_problem(&p);
}

static void test_bf16(void)
{
    EXPECT(ladder_to_bf16(1.0f) == 0x3F80);
    EXPECT(ladder_to_bf16(-2.0f) == 0xC000);
    /* Ties to even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 (odd), so 1;
     * 1 + 3 2^-8 halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even). */
    EXPECT(ladder_to_bf16(1.0f + 0x1p-8f) == 0x3F80);
    EXPECT(ladder_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3F82);
    EXPECT(ladder_to_bf16(1.0f + 0x1p-8f + 0x1p-20f) == 0x3F81);
    EXPECT(ladder_from_bf16(0x3F81) == 1.0f + 0x1p-7f);
    for (uint32_t h = 0; h < 0x7F80; h += 37) EXPECT(ladder_to_bf16(ladder_from_bf16((uint16_t)h)) == h);
}

static void test_ld_and_tolerance(void)
{
    EXPECT(hgemm_ld(1) == 8 && hgemm_ld(8) == 8 && hgemm_ld(4093) == 4096 && hgemm_ld(4097) == 4104);
    /* Truncating FP32 accumulation: K 2^-23, never below FP32's own. */
    EXPECT_NEAR(hgemm_tolerance(4096), 4096 * 0x1p-23, 1e-12);
    for (long long k = 1; k <= (1 << 20); k *= 2) {
        EXPECT(hgemm_tolerance(k) >= ladder_fp32_tolerance((double)k));
        /* A missing term (about 1/sqrt(K) of the norm) stays visible, 4x over the tolerance, up to K = 16Ki. */
        if (k <= 16384) EXPECTF(1 / sqrt((double)k) > 2 * hgemm_tolerance(k), "K %lld", k);
    }
}

static int size_ok(const char *text)
{
    ladder_size size;
    char err[256];
    if (ladder_parse_size(text, &size, err, sizeof err) != 0) return 0;
    return hgemm_case.size_error(&size, err, sizeof err) == 0;
}

static void test_sizes(void)
{
    EXPECT(size_ok("4096") && size_ok("4095x4097x4093") && size_ok("1x4096x4096") && size_ok("4096x1x4096"));
    EXPECT(!size_ok("4096x4096"));
    EXPECT(!size_ok("3000000x8x8") && !size_ok("8x8x2000000000"));
    /* Every default and test size passes its own case's check; the decode
     * and long-K shapes of issue 25 are among the defaults. */
    ladder_size_list defaults;
    char err[256];
    EXPECT(ladder_parse_size_list(hgemm_case.default_size, &defaults, err, sizeof err) == 0);
    for (int i = 0; i < defaults.count; ++i) EXPECT(hgemm_case.size_error(&defaults.size[i], err, sizeof err) == 0);
    for (int i = 0; hgemm_case.test_sizes[i]; ++i) EXPECT(size_ok(hgemm_case.test_sizes[i]));
    EXPECT(strstr(hgemm_case.default_size, "16x4096x4096") && strstr(hgemm_case.default_size, "256x256x65536"));
    EXPECT(strstr(hgemm_case.default_size, "32x11008x4096")); /* swap_ab's shape */
}

/* The split-K rung's slices: about one tile-slice per SM, at least 4
 * k-tiles each; none where the tiles fill half the GPU or K is short. */
static void test_split_k_count(void)
{
    EXPECT(hgemm_split_k_count(256, 256, 65536, 132) == 33); /* 4 tiles of 128 x 128 */
    EXPECT(hgemm_split_k_count(1, 4096, 4096, 132) == 4);     /* 32 tiles */
    EXPECT(hgemm_split_k_count(4096, 4096, 4096, 132) == 1);  /* 1024 tiles: nothing to split */
    EXPECT(hgemm_split_k_count(256, 256, 448, 132) == 1);     /* 7 k-tiles: one slice of 4 at most */
    EXPECT(hgemm_split_k_count(200, 136, 4000, 132) == 15);   /* the test size: 63 k-tiles */
    const int shapes[][3] = {{256, 256, 65536}, {1, 4096, 4096}, {4096, 1, 4096}, {16, 4096, 4096},
                             {200, 136, 4000},  {640, 512, 1024}, {130, 300, 1},   {1, 1, 1 << 20}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        int m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        int splits = hgemm_split_k_count(m, n, k, 132), tiles = ((m + 127) / 128) * ((n + 127) / 128);
        EXPECTF(splits >= 1 && tiles * splits <= 132, "%dx%dx%d: %d slices of %d tiles", m, n, k, splits, tiles);
        EXPECTF(splits == 1 || (k + 63) / 64 >= HGEMM_SPLIT_MIN_K_TILES * splits, "%dx%dx%d: %d slices", m, n, k,
                splits);
    }
}

/* swap_ab's width, the least of 64, 128, 256 that holds M; the rows of A
 * it loads; its tiles (at widths 64 and 128, 64 of B's rows where 128-row
 * tiles would give fewer than half the SMs one) and their slices: 64-row
 * tiles are enough where they keep DRAM's bandwidth times its latency of B
 * in flight, 128-row tiles from half the SMs. */
static void test_swap_ab_splits(void)
{
    /* an H100 SXM's 3352 GB/s: 4.19 MB in flight */
#define SPLITS_H100(m, n, k, sms) hgemm_swap_ab_splits(m, n, k, sms, hgemm_stream_bytes(3352))
    EXPECT(hgemm_swap_ab_width(1) == 64 && hgemm_swap_ab_width(64) == 64);
    EXPECT(hgemm_swap_ab_width(65) == 128 && hgemm_swap_ab_width(128) == 128);
    EXPECT(hgemm_swap_ab_width(129) == 256 && hgemm_swap_ab_width(256) == 256);
    EXPECT(hgemm_swap_ab_width(257) == 0);
    EXPECT(hgemm_swap_ab_tile_cols(1, 64) == 1 && hgemm_swap_ab_tile_cols(17, 64) == 17);
    EXPECT(hgemm_swap_ab_tile_cols(64, 64) == 64 && hgemm_swap_ab_tile_cols(65, 128) == 65);
    EXPECT(hgemm_swap_ab_tile_cols(200, 256) == 200 && hgemm_swap_ab_tile_cols(200, 128) == 100);
    EXPECT(hgemm_swap_ab_tile_cols(129, 128) == 65 && hgemm_swap_ab_tile_cols(256, 128) == 128);
    EXPECT(hgemm_swap_ab_tile_cols(201, 128) == 101); /* the second tile's box: one row past A */
    EXPECT(hgemm_swap_ab_tile_width(200, 4096, 132) == 128);  /* 64-row tiles */
    EXPECT(hgemm_swap_ab_tile_width(192, 6144, 132) == 128);  /* 128-row tiles, 48 x 2 */
    EXPECT(hgemm_swap_ab_tile_width(200, 8448, 132) == 128);  /* 66 x 2 */
    EXPECT(hgemm_swap_ab_tile_width(200, 8576, 132) == 128);  /* 67 x 2: past a wave; 45 x 2 of 192 rows */
    EXPECT(hgemm_swap_ab_tile_width(200, 16384, 132) == 256); /* 86 x 2 of 192 rows: past a wave too */
    EXPECT(hgemm_swap_ab_tile_width(100, 8576, 132) == 128 && hgemm_swap_ab_tile_width(17, 64, 132) == 64);
    EXPECT(hgemm_swap_ab_rows(32, 11008, 132) == 128 && hgemm_swap_ab_rows(32, 8448, 132) == 128); /* 86, 66 */
    EXPECT(hgemm_swap_ab_rows(32, 8320, 132) == 64 && hgemm_swap_ab_rows(128, 4096, 132) == 64);  /* 65, 32 */
    EXPECT(hgemm_swap_ab_rows(129, 4096, 132) == 64);  /* 64 tiles by 2 of 65 of A's rows */
    EXPECT(hgemm_swap_ab_rows(250, 5000, 132) == 128); /* 79 x 2 tiles of 64 rows: more than a wave */
    EXPECT(hgemm_swap_ab_rows(64, 8320, 132) == 64);   /* 130 tiles of 64 rows, A's in one */
    EXPECT(hgemm_swap_ab_rows(200, 11008, 132) == 192 && hgemm_swap_ab_rows(200, 8448, 132) == 128); /* 58, 66 x 2 */
    EXPECT(hgemm_swap_ab_rows(200, 16384, 132) == 128 && hgemm_swap_ab_rows(128, 11008, 132) == 128); /* 86 x 2, 86 */
    EXPECT(SPLITS_H100(32, 11008, 4096, 132) == 1);  /* 86 tiles of 128 rows */
    EXPECT(SPLITS_H100(64, 2368, 4096, 132) == 1);   /* width 64: 37 tiles keep 4 MB of B in flight */
    EXPECT(SPLITS_H100(64, 2304, 4096, 132) == 3);   /* 36 do not: 132 / 36 slices */
    EXPECT(SPLITS_H100(128, 3648, 4096, 132) == 1);  /* width 128: 57 tiles */
    EXPECT(SPLITS_H100(128, 3584, 4096, 132) == 2);  /* 56 */
    EXPECT(SPLITS_H100(200, 4096, 4096, 132) == 1);  /* 64 tiles of 64 rows by 2 of 100 of A's rows */
    EXPECT(SPLITS_H100(200, 2048, 8192, 132) == 1);  /* 32 by 2: 64 tiles of 72 KB in flight */
    EXPECT(SPLITS_H100(200, 1536, 8192, 132) == 2);  /* 24 by 2: 48 */
    EXPECT(SPLITS_H100(200, 11008, 4096, 132) == 1); /* 58 x 2 tiles of 192 rows */
    EXPECT(SPLITS_H100(200, 16384, 4096, 132) == 1); /* 128 tiles of 128 rows at width 256 */
    EXPECT(SPLITS_H100(40, 1000, 700, 132) == 2);    /* the test size: 16 tiles, 11 k-tiles */
    EXPECT(SPLITS_H100(16, 300, 129, 132) == 1);     /* 3 k-tiles: nothing to cut */
    EXPECT(SPLITS_H100(200, 136, 4000, 132) == 15);  /* 3 tiles by 2, 63 k-tiles: 15 slices at most */
    /* an H200's 4915 GB/s: 6.1 MB, enough from 54 tiles at width 64 */
    EXPECT(hgemm_swap_ab_splits(64, 3456, 4096, 132, hgemm_stream_bytes(4915)) == 1); /* 54 tiles */
    EXPECT(hgemm_swap_ab_splits(64, 3392, 8192, 132, hgemm_stream_bytes(4915)) == 2); /* 53 */
    EXPECT(hgemm_swap_ab_splits(128, 4096, 14336, 132, hgemm_stream_bytes(4915)) == 2);
#undef SPLITS_H100
    EXPECT(hgemm_split_k_count(256, 256, 65536, 132) == hgemm_split_count(4, 65536, 132, 66));
}

/* persistent_multicast's shape: the copy engine's requests a box row, by
 * where the rows start in a 128-byte line; the clocks; the choice. */
static void test_multicast_shape(void)
{
    EXPECT(hgemm_box_row_requests(3072) == 1.0); /* every row on a line */
    /* 6000-byte rows start at 0, 112, 96, 80, 64, 48, 32, 16: 1 + 2 + 2 + 3 + 2 + 3 + 2 + 3 */
    EXPECT(hgemm_box_row_requests(3000) == 18.0 / 8);
    EXPECT(hgemm_box_row_requests(4000) == 1.5);  /* 0, 64 */
    EXPECT(hgemm_box_row_requests(10000) == 1.75); /* 0, 32, 64, 96 */
    EXPECT(hgemm_box_row_requests(136) == 18.0 / 8); /* 0, 16, ..., 112: 112 is one piece of a sector */
    /* a k-tile's longest of its copies, multiply and DRAM: 128 box rows x 2.25 / 0.44, 192 x 96 x 64 / 2048 */
    EXPECT(fabs(hgemm_k_tile_clocks(128, 3000, 192, 96, 500) - 128 * 2.25 / 0.44) < 1e-9);
    EXPECT(hgemm_k_tile_clocks(128, 3072, 192, 96, 500) == 576); /* rows on the grid: the multiply */
    EXPECT(hgemm_k_tile_clocks(128, 3072, 192, 96, 700) == 700);
    /* 3000^3 in fours, 192 wide, on 120 blocks: 96 units, 30 clusters, 4
     * rounds of 47 k-tiles of the copies, 128 + 48 rows x 2.25 / 0.44
     * clocks (the multiply: 768), and a tile change of 18 x 192 */
    EXPECT(fabs(hgemm_multicast_clocks(3000, 3000, 3000, 3000, 4, 192, 120) -
                4 * (47 * 176 * 2.25 / 0.44 + 18 * 192)) < 1e-6);
    /* 256 wide: 72 units, 3 rounds of the multiply, 1024 clocks (copies 982) */
    EXPECT(hgemm_multicast_clocks(3000, 3000, 3000, 3000, 4, 256, 120) == 3 * (47 * 1024 + 18 * 256));
    /* 256 x 192 in pairs: 384 units on 66 pairs, 6 rounds of the multiply (copies 727) */
    EXPECT(hgemm_tall_clocks(6144, 6144, 6144, 6144, 132) == 6 * (96 * 1536 + 45 * 192));
    EXPECT(hgemm_tall_units(1800, 5400) == 8 * 15); /* 8 tile rows; 29 tiles, the last pair's second past N */
    /* rows on the grid, in twos: 4 rounds of the multiply (copies 582) */
    EXPECT(hgemm_multicast_clocks(4096, 4096, 4096, 4096, 2, 256, 132) == 4 * (64 * 1024 + 18 * 256));
    /* slots4 0 stands for no C tensor map here, which the 256-row tiles need too */
#define SHAPE_ROWS(m, n, k, slots2, slots4, blocks, tile_rows, wide)                                               \
    do {                                                                                                           \
        hgemm_multicast_shape s =                                                                                  \
            hgemm_multicast_shape_for(m, n, k, hgemm_ld(k), slots2, slots4, slots4 ? slots2 : 0);                 \
        EXPECTF(s.cluster == (blocks) && s.rows == (tile_rows) && s.width == (wide), "%dx%dx%d: %d x %d x %d", m, \
                n, k, s.cluster, s.rows, s.width);                                                                 \
    } while (0)
#define SHAPE(m, n, k, slots2, slots4, blocks, wide) SHAPE_ROWS(m, n, k, slots2, slots4, blocks, 128, wide)
    /* rows on the 128-byte grid: twos, narrower where the waves fill better */
    SHAPE(3072, 3072, 3072, 132, 120, 2, 192); /* 288 tiles of 256: 2.18 waves; 384 of 192: 2.91 */
    SHAPE(5120, 5120, 5120, 132, 120, 2, 224); /* 800 tiles of 256: 7 rounds, 6.06 full; 920 of 224: 6.97 */
    SHAPE(4096, 4096, 4096, 132, 120, 2, 256);
    SHAPE(8192, 8192, 8192, 132, 120, 2, 256);
    /* 6 rounds of 256 x 192 tiles in pairs, 9 of 128 x 256 (both fill 0.97) */
    SHAPE_ROWS(6144, 6144, 6144, 132, 120, 2, 256, 192);
    SHAPE(6144, 6144, 6144, 132, 0, 2, 256);   /* without C's tensor map */
    SHAPE(6144, 6144, 512, 132, 120, 2, 256);  /* short K: the tile changes decide */
    SHAPE(4000, 4500, 400, 132, 120, 2, 256);  /* 3 rounds of 256 x 192, 5 of 128 x 256, but 7 k-tiles */
    SHAPE_ROWS(6144, 6144, 4096, 132, 120, 2, 256, 192);
    SHAPE_ROWS(1800, 5400, 4160, 132, 120, 2, 256, 192); /* the GPU tests' sizes */
    SHAPE_ROWS(1000, 4500, 4096, 132, 120, 2, 256, 192);
    SHAPE_ROWS(2305, 2100, 4096, 132, 120, 2, 256, 192); /* 1 round of 60 pairs; 2 of 110 units 192 wide */
    /* rows off it: fours where the copies' time and the rounds allow */
    SHAPE(3000, 3000, 3000, 132, 120, 4, 224); /* 84 units on 28 of 30 clusters: 3 rounds, as 72 of 256 */
    SHAPE(5000, 5000, 5000, 132, 120, 4, 256);
    SHAPE(4000, 4000, 5000, 132, 120, 4, 224); /* 4 rounds in twos, 5 in fours: the copies decide */
    SHAPE(4096, 4096, 130, 132, 120, 2, 256);  /* the same, but 3 k-tiles: the tile changes decide */
    SHAPE(4096, 4096, 4000, 132, 120, 2, 256); /* 1.5 requests a row: 5 rounds in fours, 4 in twos */
    SHAPE(3000, 3000, 3000, 132, 0, 2, 192);   /* no cluster of four (C's rows not 16-byte multiples) */
    SHAPE(3000, 3000, 3000, 0, 0, 2, 256);     /* no cluster fits: the rung skips */
    /* the GPU tests' sizes for each kernel */
    SHAPE(2305, 2100, 130, 132, 120, 4, 192);
    SHAPE(1097, 2508, 130, 132, 120, 4, 256);
    SHAPE(1048, 2048, 133, 132, 120, 4, 224);
    SHAPE(2200, 4700, 200, 132, 120, 2, 224);
    SHAPE(1400, 5380, 72, 132, 120, 2, 256);
    SHAPE(1048, 2499, 66, 132, 0, 2, 224);
    SHAPE(2200, 4700, 100, 132, 120, 2, 224);
    SHAPE(2305, 2100, 128, 132, 120, 2, 192);
#undef SHAPE
#undef SHAPE_ROWS
    /* the whole-K ring: twos of 2 k-tiles or fewer */
    EXPECT(hgemm_multicast_shape_for(4096, 4096, 128, 128, 132, 120, 132).whole_k);
    EXPECT(hgemm_multicast_shape_for(4096, 4096, 64, 64, 132, 120, 132).whole_k);
    EXPECT(hgemm_multicast_shape_for(1400, 5380, 72, 72, 132, 120, 132).whole_k);
    EXPECT(!hgemm_multicast_shape_for(4096, 4096, 130, 136, 132, 120, 132).whole_k); /* 3 k-tiles */
    EXPECT(!hgemm_multicast_shape_for(4096, 4096, 4096, 4096, 132, 120, 132).whole_k);
    /* fours keep their ring: only twos have the room */
    hgemm_multicast_shape fours = hgemm_multicast_shape_for(4096, 4096, 128, 128, 0, 120, 0);
    EXPECT(fours.cluster == 4 && !fours.whole_k);
}

/* swap_ab's clusters of four: a block's share of A's rows, and where the
 * copies' clocks call for them (an H100's 3352 GB/s over 1.98 GHz, 120
 * blocks in clusters of four). */
static void test_swap_ab_cluster(void)
{
    EXPECT(hgemm_cluster_share(77, 4) == 20);   /* 80 of the 96 rows a stage holds: cuBLAS's 64x80 tile */
    EXPECT(hgemm_cluster_share(97, 4) == 25 && hgemm_cluster_share(193, 4) == 49);
    EXPECT(hgemm_cluster_share(128, 4) == 32 && hgemm_cluster_share(256, 2) == 128 && hgemm_cluster_share(80, 2) == 40);
    for (int cols = 1; cols <= 256; ++cols)
        for (int cluster = 1; cluster <= 4; cluster *= 2) {
            int share = hgemm_cluster_share(cols, cluster), width = cols <= 64 ? 64 : cols <= 128 ? 128 : 256;
            EXPECTF(cluster * share >= cols && cluster * (share - 1) < cols && cluster * share <= width,
                    "%d cols in %d: %d", cols, cluster, share);
        }
#define CLUSTER_H100(m, n, k, slots4) \
    hgemm_swap_ab_cluster(m, n, k, hgemm_ld(k), 132, hgemm_stream_bytes(3352.32), slots4, 3352.32 / 1.98)
    EXPECT(CLUSTER_H100(77, 5000, 3000, 120) == 4); /* copies 721 clocks a block, 450 in fours; DRAM 378 */
    EXPECT(CLUSTER_H100(250, 5000, 3000, 120) == 4);
    EXPECT(CLUSTER_H100(64, 4000, 3000, 120) == 4);
    EXPECT(CLUSTER_H100(32, 11000, 3000, 120) == 1);  /* DRAM's 832 clocks outlast the copies' 818 */
    EXPECT(CLUSTER_H100(200, 11008, 4000, 120) == 1); /* 1.5 requests a row: 996 against 846, DRAM 832 */
    EXPECT(CLUSTER_H100(77, 5000, 3072, 120) == 1);   /* rows on the grid */
    EXPECT(CLUSTER_H100(128, 4096, 14336, 120) == 1);
    EXPECT(CLUSTER_H100(77, 5000, 3000, 0) == 1);     /* no cluster of four fits */
    EXPECT(CLUSTER_H100(250, 5000, 3000, 76) == 1);   /* 80 blocks in fours: more than fit */
    EXPECT(CLUSTER_H100(300, 5000, 3000, 120) == 1);  /* not swap_ab's shape */
    /* the GPU test's sizes, one for each tile of swap_ab */
    EXPECT(CLUSTER_H100(31, 200, 493, 120) == 4 && CLUSTER_H100(66, 200, 493, 120) == 4);
    EXPECT(CLUSTER_H100(52, 8537, 66, 120) == 4 && CLUSTER_H100(157, 8537, 66, 120) == 4);
    EXPECT(CLUSTER_H100(129, 12844, 66, 120) == 4 && CLUSTER_H100(100, 8500, 70, 120) == 4);
#undef CLUSTER_H100
}

/* swap_ab's 64-row tiles across A's rows, in clusters of four or two (H100
 * as above; 132 blocks in twos). */
static void test_swap_ab_across(void)
{
    EXPECT(hgemm_swap_ab_across_cluster(7000, 132, 120) == 4);  /* 110 tiles */
    EXPECT(hgemm_swap_ab_across_cluster(7800, 132, 120) == 2);  /* 122 tiles: 124 blocks in twos */
    EXPECT(hgemm_swap_ab_across_cluster(7680, 132, 120) == 4);  /* 120 tiles: fours, just */
    EXPECT(hgemm_swap_ab_across_cluster(8448, 132, 120) == 2);  /* 132 tiles */
    EXPECT(hgemm_swap_ab_across_cluster(8449, 132, 120) == 0);  /* 133 tiles: 134 blocks */
    EXPECT(hgemm_swap_ab_across_cluster(5000, 0, 0) == 0);      /* no cluster fits */
    EXPECT(hgemm_swap_ab_across_cluster(5000, 132, 0) == 2);
#define ACROSS_H100(m, n, k, slots4) \
    hgemm_swap_ab_across(m, n, k, hgemm_ld(k), 132, hgemm_stream_bytes(3352.32), 132, slots4, 3352.32 / 1.98)
    EXPECT(ACROSS_H100(160, 5000, 3000, 120) == 192); /* 104 box rows a block against 148 */
    EXPECT(ACROSS_H100(192, 5000, 3000, 120) == 192 && ACROSS_H100(193, 5000, 3000, 120) == 224);
    EXPECT(ACROSS_H100(200, 5000, 3000, 120) == 224); /* 114 against 153: 0.75 */
    EXPECT(ACROSS_H100(224, 5000, 3000, 120) == 224 && ACROSS_H100(225, 5000, 3000, 120) == 0);
    EXPECT(ACROSS_H100(250, 5000, 3000, 120) == 0);   /* past 224 rows (127 against 160: 0.79, measured level) */
    EXPECT(ACROSS_H100(129, 4096, 4000, 120) == 0);   /* 1.5 requests a row: blocks alone */
    EXPECT(ACROSS_H100(176, 4096, 4000, 120) == 0 && ACROSS_H100(176, 4096, 3000, 120) == 192); /* 1.5; 2.25 */
    EXPECT(ACROSS_H100(200, 8000, 1500, 120) == 0 && ACROSS_H100(200, 8000, 2000, 120) == 224); /* 1.5; 1.75 */
    EXPECT(ACROSS_H100(129, 2500, 3000, 120) == 0);   /* 64-row tiles two across already: 88 rows against 104 */
    EXPECT(ACROSS_H100(77, 5000, 3000, 120) == 0);    /* one tile across already */
    EXPECT(ACROSS_H100(200, 11008, 4000, 120) == 0);  /* 172 tiles: more than fit at once, in twos too */
    EXPECT(ACROSS_H100(250, 5000, 3072, 120) == 0);   /* rows on the grid */
    EXPECT(ACROSS_H100(200, 5000, 3000, 76) == 224);  /* 79 blocks: more than fit in fours, in twos */
    EXPECT(ACROSS_H100(160, 8000, 3000, 120) == 192); /* 125 tiles in twos: 144 box rows a block against 208 */
    EXPECT(ACROSS_H100(130, 7800, 3000, 120) == 192); /* 122 in twos: 129 rows against 193 */
    EXPECT(ACROSS_H100(300, 5000, 3000, 120) == 0);   /* not swap_ab's shape */
    /* the GPU test's sizes */
    EXPECT(ACROSS_H100(160, 4000, 66, 120) == 192 && ACROSS_H100(177, 4999, 493, 120) == 192);
    EXPECT(ACROSS_H100(209, 7001, 403, 120) == 224);
    EXPECT(ACROSS_H100(157, 8537, 66, 120) == 0 && ACROSS_H100(129, 12844, 66, 120) == 0);
#undef ACROSS_H100
    /* 64-row tiles 128 wide in clusters of four: 96 wide where the shares fill no more */
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 77, 4) == 96);  /* shares of 20 */
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 65, 4) == 96 && hgemm_swap_ab_cluster_width(128, 64, 96, 4) == 96);
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 97, 4) == 128); /* shares of 25: 100 rows */
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 77, 1) == 128); /* no cluster */
    EXPECT(hgemm_swap_ab_cluster_width(128, 128, 77, 4) == 128 && hgemm_swap_ab_cluster_width(64, 64, 40, 4) == 64);
    EXPECT(hgemm_swap_ab_cluster_width(192, 64, 160, 4) == 192); /* across A's rows */
    /* clusters of eight where A's rows take two tiles (128 blocks of eight resident; DRAM counts in neither) */
#define PAIRS_ON(bytes, m, n, k, rows, width, splits, cluster, slots8) \
    hgemm_swap_ab_pairs(m, n, hgemm_ld(k), 132, rows, width, splits, cluster, slots8, (bytes) / 1.98)
#define PAIRS(m, n, k, rows, width, splits, cluster, slots8) \
    PAIRS_ON(3352.32, m, n, k, rows, width, splits, cluster, slots8)
    EXPECT(PAIRS(150, 3000, 3000, 64, 96, 1, 4, 128));    /* 51 box rows against 83: 0.62 */
    EXPECT(PAIRS(250, 5000, 3000, 128, 128, 1, 4, 128));  /* 96 against 160, the multiply 512 clocks */
    EXPECT(!PAIRS(250, 5000, 2000, 128, 128, 1, 4, 128)); /* 1.75 requests a row: 0.80, measured slower */
    EXPECT(!PAIRS(250, 5000, 3000, 128, 128, 1, 4, 64));  /* 80 blocks: more than fit */
    EXPECT(!PAIRS(250, 5000, 3000, 128, 128, 1, 1, 128)); /* not in fours */
    EXPECT(!PAIRS(77, 5000, 3000, 64, 96, 1, 4, 128));    /* one tile across A's rows */
    EXPECT(!PAIRS(250, 5000, 3072, 128, 128, 1, 4, 128)); /* rows on the grid (fours are not taken there) */
    /* the GPU test's sizes */
    EXPECT(PAIRS(201, 2999, 130, 64, 128, 1, 4, 128) && PAIRS(250, 5001, 130, 128, 128, 1, 4, 128));
    EXPECT(PAIRS(150, 2500, 771, 64, 96, 1, 4, 128));
    EXPECT(PAIRS(157, 8537, 66, 192, 128, 1, 4, 128)); /* 116 box rows against 212, the multiply 96 wide: 0.60 */
    EXPECT(!PAIRS(160, 9216, 4000, 192, 128, 1, 4, 128)); /* copies under the multiply, 96 wide: 0.80 */
    /* DRAM's 832 clocks a k-tile (H100) outlast the eights' copies but are no
     * difference between them and the fours: 588 against 1079 */
    EXPECT(PAIRS(150, 11008, 3000, 192, 128, 1, 4, 128));
    EXPECT(PAIRS(250, 7600, 3000, 128, 128, 1, 4, 128));
    /* 64-row tiles at 1.5 requests a row: alone on fast DRAM (an H200's 18.4 bytes a clock an SM), where
     * the blocks alone leave a fifth of the SMs idle (94 blocks; 100; 108 and 114 do not) */
    EXPECT(PAIRS(130, 3000, 4000, 64, 72, 1, 4, 128) && !PAIRS_ON(4800.0, 130, 3000, 4000, 64, 72, 1, 4, 128));
    EXPECT(!PAIRS_ON(4800.0, 150, 3200, 4000, 64, 80, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 145, 3400, 4000, 64, 80, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 135, 3600, 4000, 64, 72, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 185, 3800, 4000, 64, 96, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 150, 3000, 3000, 64, 96, 1, 4, 128)); /* 2.25 requests a row */
#undef PAIRS
#undef PAIRS_ON
    /* 192-row tiles in clusters of eight where 128-row fours do not fit (H100: 120 in fours, 120 in eights) */
#define TALL_H100(m, n, k, cluster) \
    hgemm_swap_ab_tall_pairs(m, n, hgemm_ld(k), 132, 128, 128, 1, cluster, 120, 120, 3352.32 / 1.98)
    EXPECT(TALL_H100(160, 8000, 3000, 1) && TALL_H100(130, 7800, 3000, 1)); /* 128 blocks in fours; 88 in eights */
    EXPECT(!TALL_H100(160, 5000, 3000, 1));  /* the fours fit (80 blocks) */
    EXPECT(!TALL_H100(160, 8000, 3000, 4));  /* not alone */
    EXPECT(!TALL_H100(160, 8000, 3072, 1));  /* rows on the grid */
    EXPECT(!TALL_H100(100, 8000, 3000, 1));  /* one tile across A's rows */
    EXPECT(!TALL_H100(160, 12000, 3000, 1)); /* 63 x 2 tiles of 192 rows: more than fit */
    EXPECT(TALL_H100(250, 8000, 66, 1));     /* the GPU test's size */
    EXPECT(TALL_H100(250, 8000, 3000, 1));   /* 2.25 requests a row: 0.59 of the 128-row tiles alone */
    EXPECT(!TALL_H100(250, 8000, 4000, 1));  /* 1.5: the 192-row multiply the longer, 0.89 */
#undef TALL_H100
    /* two 64-wide tiles across A's rows in place of slices (H100: 132 blocks in twos, 120 in eights) */
    EXPECT(hgemm_swap_ab_halves(100, 3000, hgemm_ld(3000), 64, 128, 2, 132, 120) == 4); /* 96 blocks in eights */
    EXPECT(hgemm_swap_ab_halves(66, 4000, hgemm_ld(3000), 64, 128, 2, 132, 120) == 1);  /* 128 in eights: a pair alone */
    EXPECT(hgemm_swap_ab_halves(66, 4300, hgemm_ld(3000), 64, 128, 2, 132, 120) == 0);  /* 68 tiles: 136 blocks */
    EXPECT(hgemm_swap_ab_halves(100, 3000, hgemm_ld(3000), 64, 128, 1, 132, 120) == 0); /* not in slices */
    EXPECT(hgemm_swap_ab_halves(100, 3072, hgemm_ld(8192), 64, 128, 2, 132, 120) == 0); /* rows on the grid */
    EXPECT(hgemm_swap_ab_halves(64, 3000, hgemm_ld(3000), 64, 64, 2, 132, 120) == 0);   /* one tile 64 wide */
    EXPECT(hgemm_swap_ab_halves(100, 8000, hgemm_ld(3000), 128, 128, 2, 132, 120) == 0); /* 128-row tiles */
    EXPECT(hgemm_swap_ab_halves(100, 3000, hgemm_ld(515), 64, 128, 2, 132, 120) == 4);  /* the GPU test's sizes */
    EXPECT(hgemm_swap_ab_halves(66, 4000, hgemm_ld(515), 64, 128, 2, 132, 120) == 1);
    /* 128-row tiles two across A's rows as wide as their half of A's rows: alone, a pair, eights or not taken */
#define NARROW(dram_gbps, m, n, k, slots2, slots8) \
    hgemm_swap_ab_narrow_two_across(m, n, k, hgemm_ld(k), 132, slots2, slots8, (dram_gbps) / 1.98)
    enum { ALONE = HGEMM_SWAP_ONES, PAIR = HGEMM_SWAP_PAIR, EIGHTS = HGEMM_SWAP_EIGHTS };
    EXPECT(hgemm_eights_blocks(60) == 120 && hgemm_eights_blocks(61) == 128 && hgemm_eights_blocks(1) == 8);
    EXPECT(NARROW(4800.0, 200, 8400, 2000, 132, 120) == PAIR); /* 132 blocks, 1.75 requests, fast DRAM */
    EXPECT(NARROW(4800.0, 200, 8400, 2000, 130, 120) == 0);    /* pairs that do not fit: the rules' tiles */
    EXPECT(NARROW(3352.32, 200, 8400, 2000, 130, 120) == ALONE); /* alone on the H100's DRAM */
    EXPECT(NARROW(4800.0, 200, 8400, 1500, 132, 120) == PAIR);   /* 1.5 requests */
    /* 2.25 and 2.5 requests: eights where their blocks fit at once (96 at 6000 rows, 128 at 8000) */
    EXPECT(NARROW(4800.0, 200, 6000, 3000, 132, 120) == EIGHTS && NARROW(3352.32, 200, 6000, 3000, 132, 120) == EIGHTS);
    EXPECT(NARROW(4800.0, 200, 7000, 2500, 132, 120) == EIGHTS && NARROW(4800.0, 135, 6000, 3000, 132, 120) == EIGHTS);
    EXPECT(NARROW(4800.0, 200, 8000, 3000, 132, 120) == 0 && NARROW(4800.0, 200, 8000, 3000, 132, 128) == EIGHTS);
    EXPECT(NARROW(4800.0, 200, 7680, 3000, 132, 120) == EIGHTS && NARROW(4800.0, 200, 7681, 3000, 132, 120) == 0);
    /* past 64 k-tiles: eights where rows take more than 1.5 requests, a pair at 1.5 on fast DRAM, alone at 1 */
    EXPECT(NARROW(3352.32, 200, 6000, 6000, 132, 120) == EIGHTS && NARROW(4800.0, 140, 6000, 6000, 132, 120) == EIGHTS);
    EXPECT(NARROW(3352.32, 200, 6000, 5000, 132, 120) == EIGHTS); /* 2.25 requests */
    EXPECT(NARROW(3352.32, 200, 6000, 8192, 132, 120) == ALONE && NARROW(4800.0, 200, 6000, 8192, 132, 120) == ALONE);
    EXPECT(NARROW(4800.0, 200, 6000, 12000, 132, 120) == PAIR && NARROW(3352.32, 200, 6000, 12000, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 200, 8448, 12000, 130, 120) == 0); /* 132 blocks in pairs: more than fit */
    EXPECT(NARROW(3352.32, 200, 6000, 4096, 132, 120) == ALONE && NARROW(3352.32, 200, 6000, 4112, 132, 120) == EIGHTS);
    EXPECT(NARROW(3352.32, 160, 8000, 6000, 132, 120) == 0); /* 128 blocks in eights: more than fit */
    /* 104 blocks, 106 */
    EXPECT(NARROW(4800.0, 200, 6656, 4096, 132, 120) == ALONE && NARROW(4800.0, 200, 6657, 4096, 132, 120) == PAIR);
    /* 64 k-tiles */
    EXPECT(NARROW(4800.0, 200, 8000, 4096, 132, 120) == PAIR && NARROW(4800.0, 200, 8000, 4160, 132, 120) == ALONE);
    /* M from 129 to 240 (120 wide) */
    EXPECT(NARROW(3352.32, 129, 8000, 2000, 132, 120) == ALONE && NARROW(3352.32, 128, 8000, 2000, 132, 120) == 0);
    EXPECT(NARROW(3352.32, 240, 8000, 2000, 132, 120) == ALONE && NARROW(3352.32, 241, 8000, 2000, 132, 120) == 0);
    EXPECT(NARROW(3352.32, 129, 6000, 3000, 132, 120) == EIGHTS && NARROW(3352.32, 241, 6000, 3000, 132, 120) == 0);
    /* from past a wave of 64-row tiles to a wave of 128-row ones */
    EXPECT(NARROW(3352.32, 200, 4224, 2000, 132, 120) == 0 && NARROW(3352.32, 200, 4225, 2000, 132, 120) == ALONE);
    EXPECT(NARROW(3352.32, 200, 8448, 2000, 132, 120) == ALONE && NARROW(3352.32, 200, 8449, 2000, 132, 120) == 0);
    EXPECT(NARROW(3352.32, 200, 4224, 3000, 132, 120) == 0 && NARROW(3352.32, 200, 4225, 3000, 132, 120) == EIGHTS);
    /* in place of the tall slices: up to 64 k-tiles; past them 80 wide or less, up to 128 k-tiles */
    EXPECT(NARROW(4800.0, 130, 4608, 4096, 132, 120) == ALONE && NARROW(3352.32, 130, 4608, 4096, 132, 120) == ALONE);
    EXPECT(NARROW(4800.0, 200, 5000, 4096, 132, 120) == ALONE && NARROW(4800.0, 200, 5000, 8192, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 160, 5120, 8192, 132, 120) == ALONE && NARROW(4800.0, 176, 5120, 8192, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 160, 5120, 8256, 132, 120) == 0 && NARROW(3352.32, 200, 5000, 16384, 132, 120) == ALONE);
    EXPECT(NARROW(4800.0, 200, 5000, 8160, 132, 120) == 0);  /* a pair wider than 80 */
    EXPECT(NARROW(4800.0, 150, 6000, 8160, 132, 120) == PAIR); /* past 5632 rows of B the slices do not cut */
    /* the eights in their place up to 224 rows, where the rules before them give 64-row tiles across A's */
    EXPECT(NARROW(4800.0, 224, 5000, 6000, 132, 120) == EIGHTS && NARROW(4800.0, 225, 5000, 6000, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 200, 5000, 10000, 132, 120) == EIGHTS);
    EXPECT(NARROW(3352.32, 240, 5000, 6000, 132, 120) == EIGHTS); /* the H100's DRAM: no slices */
#undef NARROW
    /* all of swap_ab's rules in their order (H100: 120 blocks in fours and in eights) */
#define SHAPE(dram_gbps, m, n, k, r, w, s, c, p)                                                                   \
    do {                                                                                                           \
        hgemm_swap_ab_shape got = hgemm_swap_ab_shape_for(m, n, k, hgemm_ld(k), 132, hgemm_stream_bytes(dram_gbps), \
                                                          132, 120, 120, (dram_gbps) / 1.98);                     \
        EXPECTF(got.rows == (r) && got.width == (w) && got.splits == (s) && got.cluster == (c) && got.pair == (p), \
                "%dx%dx%d: %d rows, %d wide, %d slices, clusters of %d x %d", m, n, k, got.rows, got.width,        \
                got.splits, got.cluster, got.pair);                                                                \
    } while (0)
#define SHAPE_H100(...) SHAPE(3352.32, __VA_ARGS__)
    SHAPE_H100(150, 3000, 3000, 64, 80, 1, 4, 2);   /* two tiles of 75 across A in eights, 80 wide */
    SHAPE_H100(160, 8000, 3000, 64, 192, 1, 2, 1);  /* fours would not fit: one tile across A, in twos */
    SHAPE_H100(200, 8000, 2000, 128, 104, 1, 1, 1); /* two of 100, 104 wide: alone at 1.75 requests on the H100 */
    SHAPE(4800.0, 200, 8000, 2000, 128, 104, 1, 1, 2); /* a pair on the H200: 126 blocks alone past 105 */
    SHAPE(4800.0, 200, 6000, 2000, 128, 104, 1, 1, 1); /* 94 alone */
    SHAPE(4800.0, 200, 8400, 2000, 128, 104, 1, 1, 2); /* 132 blocks in pairs on 132 slots */
    SHAPE_H100(250, 8000, 3000, 192, 128, 1, 4, 2); /* past 224 rows: 192-row tiles in eights */
    SHAPE_H100(160, 5000, 3000, 128, 80, 1, 4, 2);  /* 2.25 requests: two of 80 across A, in eights */
    SHAPE_H100(160, 4000, 3000, 64, 192, 1, 4, 1);  /* a wave of 64-row tiles: one tile across A's rows */
    SHAPE_H100(77, 5000, 3000, 64, 80, 1, 4, 1);    /* fours' shares of 20: 80 wide */
    SHAPE_H100(100, 3000, 3000, 64, 64, 1, 4, 2);   /* two tiles 64 wide in eights, not two slices */
    SHAPE_H100(250, 5000, 2000, 128, 128, 1, 1, 1); /* eights' estimate 0.80: two across A alone, not fours */
    SHAPE_H100(32, 11008, 4096, 128, 64, 1, 1, 1);  /* rows on the grid: alone */
    SHAPE_H100(200, 11008, 4096, 192, 128, 1, 1, 1); /* two tiles of 100 on the grid: alone, 128 wide */
    SHAPE_H100(66, 4000, 3000, 64, 72, 1, 4, 1);    /* 63 tiles: enough whole on the H100; shares of 17 */
    SHAPE(4800.0, 66, 4000, 3000, 64, 64, 1, 1, 2); /* two slices on an H200: a pair alone in their place */
    SHAPE_H100(160, 9216, 4096, 192, 96, 1, 1, 1);  /* two tiles of 80 rows, on the grid: alone, 96 wide */
    SHAPE_H100(192, 6144, 4096, 128, 96, 1, 1, 1);  /* 128-row tiles, two of 96: alone */
    SHAPE_H100(160, 8192, 8192, 128, 80, 1, 1, 1);  /* 128 blocks past 64 k-tiles at 1 request: alone, 80 wide */
    SHAPE_H100(144, 12288, 4096, 192, 96, 1, 1, 1); /* 192-row tiles: 128 blocks */
    SHAPE_H100(160, 16384, 4096, 128, 160, 1, 1, 1); /* past a wave: all of A in one tile, 160 wide */
    SHAPE_H100(256, 16384, 4096, 128, 256, 1, 1, 1); /* 256 wide */
    SHAPE_H100(129, 20000, 4096, 192, 144, 1, 1, 1); /* 157 tiles of 128 rows: 105 of 192, 144 wide */
    SHAPE_H100(240, 20000, 4096, 128, 240, 5, 1, 1); /* A's rows past 192: 128 rows, the last 25 in 5 slices */
    SHAPE_H100(192, 20000, 4096, 192, 192, 1, 1, 1);
    /* 193 to 208 rows: 192-row tiles 208 wide, their two consumers splitting the columns, where the 128-row
     * tiles' last wave would go in 4 slices or fewer */
    SHAPE_H100(199, 23000, 4096, 192, 208, 1, 1, 1); /* 180 tiles of 128 rows, the last 48 in 2: 120 of 192 */
    SHAPE_H100(208, 21000, 4096, 192, 208, 1, 1, 1); /* the last 33 in 4 */
    SHAPE_H100(193, 20000, 4096, 128, 208, 5, 1, 1); /* the last 25 in 5: the 128-row tiles stay */
    SHAPE_H100(200, 18000, 4096, 128, 208, 14, 1, 1); /* the last 9 in 14 */
    SHAPE_H100(208, 16896, 4096, 128, 208, 1, 1, 1); /* 132 of 128 rows: one wave */
    SHAPE_H100(200, 21000, 520, 192, 208, 1, 1, 1);  /* 9 k-tiles: the last 33 in 2 at most */
    /* past a wave of 128-row tiles, 65 to 128 of A's rows, rows off the grid: 64-row tiles in fours, whole */
    SHAPE_H100(120, 36000, 3000, 64, 128, 1, 4, 1);
    SHAPE_H100(87, 36792, 2040, 64, 96, 1, 4, 1);
    SHAPE_H100(110, 17000, 3000, 64, 128, 1, 4, 1);  /* 133 tiles of 128 rows */
    SHAPE_H100(110, 16896, 3000, 128, 128, 1, 1, 1); /* 132: one wave, the rules before */
    SHAPE_H100(100, 34000, 2048, 128, 128, 8, 1, 1); /* on the grid: the last wave in slices */
    SHAPE_H100(64, 40000, 3000, 128, 64, 2, 1, 1);   /* 64 rows of A: as before */
    SHAPE_H100(130, 36000, 3000, 128, 144, 7, 1, 1); /* 130: as before */
    SHAPE_H100(209, 20000, 4096, 128, 224, 5, 1, 1); /* past 208 rows: 128 rows, the last wave in slices */
    SHAPE_H100(200, 26000, 4096, 128, 208, 1, 1, 1); /* 136 tiles of 192 rows: past a wave too */
    SHAPE_H100(256, 11008, 4096, 192, 128, 1, 1, 1); /* 192-row tiles 128 wide: alone */
    SHAPE_H100(256, 8192, 8192, 128, 128, 1, 1, 1); /* 128-row tiles 128 wide: alone */
    SHAPE_H100(32, 4096, 4096, 64, 64, 1, 1, 1);    /* 32 rows: 64 wide */
    SHAPE_H100(100, 4096, 4096, 64, 104, 1, 1, 1);  /* 64-row tiles alone, 100 rows: 104 wide */
    SHAPE_H100(200, 8192, 8192, 128, 104, 1, 1, 1); /* two tiles of 100: 104 wide */
    SHAPE_H100(220, 11008, 4096, 192, 128, 1, 1, 1); /* 116 blocks, tiles of 110 */
    SHAPE_H100(130, 4608, 4096, 128, 72, 1, 1, 1); /* not one across in slices: the H100's DRAM */
    SHAPE_H100(160, 9216, 4000, 192, 96, 1, 1, 1);  /* off the grid: alone, not in fours */
    SHAPE_H100(178, 8453, 66, 192, 96, 1, 4, 2);    /* 192-row eights, 89 rows a tile */
    SHAPE(4800.0, 150, 11008, 3000, 192, 96, 1, 4, 2); /* 192-row eights, their multiply 96 wide */
    SHAPE_H100(150, 11008, 3000, 192, 96, 1, 4, 2);     /* the same on the H100, whose DRAM is no difference */
    SHAPE_H100(200, 8482, 106, 192, 128, 1, 1, 1);  /* two tiles of 100: 128 wide, alone */
    /* past a wave, tiles alone and one across A's rows cut the last wave's tiles into slices of K */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 208, 1, 1, 1) == 4); /* 160 tiles: 28 in 4 */
    EXPECT(hgemm_swap_ab_tail_splits(240, 20000, 4096, 132, 128, 240, 1, 1, 1) == 5); /* 157: 25 in 5 */
    EXPECT(hgemm_swap_ab_tail_splits(200, 26000, 4096, 132, 128, 208, 1, 1, 1) == 1); /* 204: 72 too many */
    EXPECT(hgemm_swap_ab_tail_splits(160, 16384, 4096, 132, 128, 160, 1, 1, 1) == 1); /* 128: one wave */
    EXPECT(hgemm_swap_ab_tail_splits(64, 33792, 4096, 132, 128, 64, 1, 1, 1) == 1);   /* 264: two whole waves */
    EXPECT(hgemm_swap_ab_tail_splits(64, 35000, 4096, 132, 128, 64, 1, 1, 1) == 13);  /* 274: 10 in 13 */
    EXPECT(hgemm_swap_ab_tail_splits(64, 35000, 512, 132, 128, 64, 1, 1, 1) == 2);    /* 8 k-tiles: 2 of 4 */
    EXPECT(hgemm_swap_ab_tail_splits(64, 35000, 256, 132, 128, 64, 1, 1, 1) == 1);    /* 4 k-tiles: too short */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 104, 1, 1, 2) == 1); /* two across A's rows */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 208, 1, 4, 1) == 1); /* in fours */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 208, 2, 1, 1) == 1); /* already in slices */
    {
        hgemm_swap_ab_shape tail = hgemm_swap_ab_shape_for(200, 34000, 4096, hgemm_ld(4096), 132,
                                                           hgemm_stream_bytes(4800.0), 132, 120, 120, 4800.0 / 1.98);
        EXPECTF(tail.rows == 128 && tail.width == 208 && tail.splits == 16 && tail.whole == 264,
                "200x34000x4096: %d rows, %d wide, %d slices past %d whole", tail.rows, tail.width, tail.splits,
                tail.whole);
        hgemm_swap_ab_shape plain = hgemm_swap_ab_shape_for(200, 11008, 4096, hgemm_ld(4096), 132,
                                                            hgemm_stream_bytes(4800.0), 132, 120, 120, 4800.0 / 1.98);
        EXPECT(plain.whole == 0);
    }
    /* two 128-row tiles across A's rows leaving a third of the SMs idle: one across, K in slices (132 SMs),
     * where DRAM brings 16 bytes a clock an SM or more (an H200's 18.4, not an H100's 12.8) */
#define H200_BYTES (4800.0 / 1.98)
#define H100_BYTES (3352.32 / 1.98)
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, H200_BYTES) == 3); /* 40 tiles, 80 blocks: 120 */
    EXPECT(hgemm_swap_ab_tall_slices(131, 4700, 3136, 132, 128, 96, 1, 1, 1, H200_BYTES) == 3);  /* the GPU test's: 16 a slice */
    EXPECT(hgemm_swap_ab_tall_slices(131, 4700, 3008, 132, 128, 96, 1, 1, 1, H200_BYTES) == 1);  /* 47 k-tiles: 15 a slice */
    EXPECT(hgemm_swap_ab_tall_slices(150, 5000, 1024, 132, 128, 96, 1, 1, 1, H200_BYTES) == 1);  /* 5 a slice */
    EXPECT(hgemm_swap_ab_tall_slices(200, 8192, 4096, 132, 128, 128, 1, 1, 1, H200_BYTES) == 1); /* 128 blocks already */
    EXPECT(hgemm_swap_ab_tall_slices(100, 5120, 4096, 132, 128, 128, 1, 1, 1, H200_BYTES) == 1); /* one tile across */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 4, 1, H200_BYTES) == 1); /* in fours */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, H100_BYTES) == 1); /* the H100's DRAM */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, 16.0 * 132) == 3);  /* the least it takes */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, 15.9 * 132) == 1);
#undef H200_BYTES
#undef H100_BYTES
    SHAPE(4800.0, 250, 5120, 4096, 128, 256, 3, 1, 1); /* past 240 rows: the narrow tiles 128 wide */
    SHAPE(4800.0, 250, 4700, 3136, 128, 256, 3, 1, 1);
    SHAPE(4800.0, 200, 5120, 4096, 128, 104, 1, 1, 1); /* the narrow tiles alone in their place */
    SHAPE(4800.0, 131, 4700, 3136, 128, 72, 1, 1, 1);
    SHAPE(4800.0, 200, 5000, 8192, 128, 208, 3, 1, 1); /* past 64 k-tiles, 104 wide: the slices keep it */
    SHAPE(4800.0, 240, 5000, 6000, 128, 240, 3, 1, 1); /* the eights past 224 rows: the slices keep it */
    /* a tile's slices summed in their cluster: 2 or 4 slices, tiles alone, all clusters resident at once */
    EXPECT(hgemm_swap_ab_sums_in_cluster(100, 3072, 64, 128, 2, 1, 1, 0, 132, 120) == 1);  /* 96 blocks in twos */
    EXPECT(hgemm_swap_ab_sums_in_cluster(23, 1901, 64, 64, 4, 1, 1, 0, 132, 120) == 1);    /* 120 in fours */
    EXPECT(hgemm_swap_ab_sums_in_cluster(64, 2048, 64, 64, 4, 1, 1, 0, 132, 120) == 0);    /* 128: two rounds */
    EXPECT(hgemm_swap_ab_sums_in_cluster(200, 5120, 128, 208, 3, 1, 1, 0, 132, 120) == 0); /* threes */
    EXPECT(hgemm_swap_ab_sums_in_cluster(64, 20000, 128, 64, 4, 1, 1, 132, 132, 120) == 0); /* a tail */
    EXPECT(hgemm_swap_ab_sums_in_cluster(31, 200, 64, 64, 2, 4, 1, 0, 132, 120) == 0);     /* in fours already */
    {
        hgemm_swap_ab_shape summed = hgemm_swap_ab_shape_for(100, 3072, 8192, hgemm_ld(8192), 132,
                                                             hgemm_stream_bytes(4800.0), 132, 120, 120, 4800.0 / 1.98);
        EXPECT(summed.splits == 2 && summed.sum_in_cluster == 1);
    }
    /* two tiles across A's rows alone, where the fours would take them and the eights do not */
    EXPECT(hgemm_swap_ab_two_across_alone(200, 104, 4, 1) == 1); /* 64-row tiles of 100 rows */
    EXPECT(hgemm_swap_ab_two_across_alone(256, 128, 4, 1) == 1);
    EXPECT(hgemm_swap_ab_two_across_alone(150, 80, 4, 2) == 4);  /* in eights */
    EXPECT(hgemm_swap_ab_two_across_alone(100, 104, 4, 1) == 4); /* one tile holds A's rows */
    EXPECT(hgemm_swap_ab_two_across_alone(128, 128, 4, 1) == 4);
    EXPECT(hgemm_swap_ab_two_across_alone(200, 224, 4, 1) == 4); /* across A's rows in one tile */
    EXPECT(hgemm_swap_ab_two_across_alone(200, 104, 2, 1) == 2 && hgemm_swap_ab_two_across_alone(200, 104, 1, 1) == 1);
    /* 64-row tiles whole in K as wide as the rows of A a stage holds past 64, in steps of 8 */
    EXPECT(hgemm_swap_ab_short_width(96, 64, 77, 1, 4) == 80);  /* fours: shares of 20 */
    EXPECT(hgemm_swap_ab_short_width(128, 64, 100, 1, 1) == 104 && hgemm_swap_ab_short_width(128, 64, 65, 1, 1) == 72);
    EXPECT(hgemm_swap_ab_short_width(128, 64, 125, 1, 4) == 128); /* shares of 32 */
    EXPECT(hgemm_swap_ab_short_width(128, 64, 66, 1, 4) == 72);   /* shares of 17 */
    EXPECT(hgemm_swap_ab_short_width(64, 64, 39, 1, 4) == 64);    /* 64 rows or fewer: as it was */
    EXPECT(hgemm_swap_ab_short_width(128, 64, 64, 1, 1) == 128);
    EXPECT(hgemm_swap_ab_short_width(128, 64, 100, 2, 1) == 128); /* in slices */
    EXPECT(hgemm_swap_ab_short_width(128, 128, 100, 1, 1) == 128 && hgemm_swap_ab_short_width(192, 64, 150, 1, 4) == 192);
    /* 96 wide: 192-row tiles in any cluster, 128-row tiles alone, two tiles of 96 rows at most */
    EXPECT(hgemm_swap_ab_multiply_width(128, 192, 80, 4) == 96 && hgemm_swap_ab_multiply_width(128, 192, 96, 1) == 96);
    EXPECT(hgemm_swap_ab_multiply_width(128, 192, 97, 1) == 128 && hgemm_swap_ab_multiply_width(128, 128, 80, 4) == 128);
    EXPECT(hgemm_swap_ab_multiply_width(128, 128, 80, 1) == 96 && hgemm_swap_ab_multiply_width(128, 64, 80, 1) == 128);
    EXPECT(hgemm_swap_ab_multiply_width(256, 128, 129, 1) == 256 && hgemm_swap_ab_multiply_width(64, 192, 50, 1) == 64);
#undef SHAPE_H100
#undef SHAPE
}

/* Every shape swap_ab's rules give has a kernel: M 1 to 256 against N and
 * K on and off the 128-byte grid, on an H100 and an H200 (132 SMs), a
 * card where no cluster fits, and one of 114 SMs; and the shapes without
 * one are named. */
static void test_swap_ab_launchable(void)
{
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 96, 1, 4, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 96, 1, 1, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 64, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 224, 1, 2, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 256, 2, 4, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 72, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 100, 1, 1, 1}));  /* not a step of 8 */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 56, 1, 1, 1}));   /* under 64 */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 72, 1, 1, 2}));   /* a pair alone of 64-row tiles: 64 wide */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 128, 1, 1, 2})); /* 128-row tiles: no pair alone */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 128, 1, 1, 2})); /* 192-row tiles: no pair alone */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 96, 1, 4, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 96, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 96, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 96, 1, 1, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 128, 1, 4, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 96, 1, 4, 1})); /* 192-row tiles hold A's rows in two: no fours */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 112, 1, 4, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 80, 1, 1, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 120, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 72, 1, 4, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 80, 1, 4, 1})); /* 72 to 120 wide: alone, a pair, eights */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 136, 1, 1, 1})); /* from 144 in steps of 16 */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 80, 1, 1, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 128, 1, 3, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 256, 1, 4, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 192, 1, 1, 1})); /* across A's rows: in clusters */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 64, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 128, 1, 2, 1}));
    /* 192-row tiles 208 wide, two consumers splitting the columns: alone, never summed in a cluster */
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 208, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 208, 1, 4, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 224, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 208, 2, 1, 1, 0, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 192, 2, 1, 1, 0, 1}));
    static const struct {
        int sms, slots2, slots4, slots8;
        double dram_gbps;
    } cards[] = {{132, 132, 120, 120, 3352.32}, {132, 132, 120, 120, 4800.0}, {132, 132, 132, 128, 4800.0},
                 {132, 0, 0, 0, 4800.0}, {114, 114, 112, 112, 2039.0}};
    static const int ks[] = {64, 66, 106, 515, 2000, 3000, 3072, 4096, 8192};
    int failures = 0;
    for (size_t c = 0; c < sizeof cards / sizeof cards[0]; ++c)
        for (int m = 1; m <= HGEMM_SWAP_AB_MAX_M; ++m)
            for (int n = 64; n <= 20000; n += n < 4000 ? 97 : 331)
                for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
                    int k = ks[i];
                    hgemm_swap_ab_shape s = hgemm_swap_ab_shape_for(
                        m, n, k, hgemm_ld(k), cards[c].sms, hgemm_stream_bytes(cards[c].dram_gbps), cards[c].slots2,
                        cards[c].slots4, cards[c].slots8, cards[c].dram_gbps / 1.98);
                    if (!hgemm_swap_ab_launchable(s) && failures++ < 5)
                        EXPECTF(0, "%dx%dx%d on %d SMs: %d rows, %d wide, clusters of %d x %d", m, n, k,
                                cards[c].sms, s.rows, s.width, s.cluster, s.pair);
                }
    EXPECTF(failures == 0, "%d shapes without a kernel", failures);
}

/* narrow_tiles' rules, named shapes and swept: every choice is a width
 * the rung compiles (80 to 320 in steps of 16, a tile row of 192 at most
 * 192 wide and only where A's rows fit it and pass 128), B's box within
 * the copy engine's 256 rows, and where some width fits a wave of its
 * tile rows (one up to 128 of A's rows, else two), the narrowest that
 * does. */
static void test_narrow_tiles(void)
{
    /* narrow_tiles: the narrowest width whose tiles fit one wave; past one,
     * the fewest columns an SM makes in all its rounds, narrower ones
     * costing more (hgemm_narrower_cost) */
    EXPECT(hgemm_narrower_cost(256) == 1 && hgemm_narrower_cost(320) == 1);
    /* 126 and 394 tiles of two rows */
    EXPECT(hgemm_narrow_rounds(256, 18000, 288, 132) == 1 && hgemm_narrow_rounds(256, 22000, 112, 132) == 3);
    EXPECT(fabs(hgemm_narrower_cost(192) - 1.05) < 1e-12 && fabs(hgemm_narrower_cost(208) - 1.0375) < 1e-12);
    EXPECT(hgemm_narrow_width(256, 5000, 132) == 80 && hgemm_narrow_width(256, 5280, 132) == 80); /* 63, 66 x 2 */
    EXPECT(hgemm_narrow_width(256, 5281, 132) == 96);   /* 67 x 2 at 80 */
    EXPECT(hgemm_narrow_width(256, 9216, 132) == 144);  /* 64 x 2; 72 x 2 at 128 */
    EXPECT(hgemm_narrow_width(256, 9216, 114) == 176);  /* 53 x 2; 58 x 2 at 160 */
    EXPECT(hgemm_narrow_width(256, 11008, 132) == 176); /* 63 x 2; 69 x 2 at 160 */
    EXPECT(hgemm_narrow_width(256, 16896, 132) == 256); /* 66 x 2; 71 x 2 at 240 */
    EXPECT(hgemm_narrow_width(256, 17952, 132) == 272); /* 66 x 2; 71 x 2 at 256: two wgmmas a k-step */
    EXPECT(hgemm_narrow_width(256, 18000, 132) == 288); /* 63 x 2; 67 x 2 at 272 */
    EXPECT(hgemm_narrow_width(256, 20000, 132) == 304); /* 66 x 2; 70 x 2 at 288 */
    EXPECT(hgemm_narrow_width(256, 21120, 132) == 320); /* 66 x 2 */
    EXPECT(hgemm_narrow_width(256, 22000, 132) == 112); /* 3 rounds (394 tiles): 373.8 against 374 at 176 in 2 */
    EXPECT(hgemm_narrow_width(256, 26000, 132) == 208); /* 2 rounds: 431.6 against 455 at 80 in 5, 498 at 112 in 4 */
    EXPECT(hgemm_narrow_width(256, 23000, 132) == 176); /* 2 rounds of 131 x 2 */
    EXPECT(hgemm_narrow_width(256, 25344, 132) == 192); /* 2 rounds: 403 against 422 at 128 in 3 */
    /* up to 128 of A's rows, one tile row of 128: the narrowest whose tiles fit a wave of one row */
    EXPECT(hgemm_narrow_tile_rows(65) == 1 && hgemm_narrow_tile_rows(128) == 1 && hgemm_narrow_tile_rows(129) == 2);
    EXPECT(hgemm_narrow_width(120, 36000, 132) == 288); /* 125; 133 at 272 */
    EXPECT(hgemm_narrow_width(110, 17000, 132) == 144); /* 119; 133 at 128 */
    EXPECT(hgemm_narrow_width(128, 16896, 132) == 128); /* 132; two tile rows took 256 */
    EXPECT(hgemm_narrow_rounds(128, 33793, 256, 132) == 2 && hgemm_narrow_rounds(129, 16896, 256, 132) == 1);
    EXPECT(hgemm_narrow_rows(120, 18000, 132) == 128 && hgemm_narrow_rows(65, 5000, 132) == 128);
    /* B's box: half the tile where two tile rows share it or past 256 rows */
    EXPECT(hgemm_narrow_box(120, 128, 256) == 256 && hgemm_narrow_box(120, 128, 288) == 144);
    EXPECT(hgemm_narrow_box(200, 128, 144) == 72 && hgemm_narrow_box(160, 192, 144) == 144);
    /* one tile row of 192 where A's rows fit it: the narrowest in one wave */
    EXPECT(hgemm_narrow_tall_width(192, 19000, 132) == 144);  /* 132 tiles; 149 at 128 */
    EXPECT(hgemm_narrow_tall_width(160, 10560, 132) == 80);   /* 132 */
    EXPECT(hgemm_narrow_tall_width(160, 10561, 132) == 96);   /* 111; 133 at 80 */
    EXPECT(hgemm_narrow_tall_width(129, 25344, 132) == 192);  /* 132 */
    EXPECT(hgemm_narrow_tall_width(129, 25345, 132) == 0);    /* none fits */
    EXPECT(hgemm_narrow_tall_width(193, 5000, 132) == 0);     /* A's rows past 192 */
    /* and those tall tiles where an SM makes fewer elements of C with them */
    EXPECT(hgemm_narrow_rows(192, 19000, 132) == 192);  /* 192 x 144 against 128 x 288 */
    EXPECT(hgemm_narrow_rows(160, 9216, 132) == 192);   /* 192 x 80 against 128 x 144 */
    EXPECT(hgemm_narrow_rows(160, 5000, 132) == 128);   /* 192 x 80 (63 tiles) against 128 x 80 */
    EXPECT(hgemm_narrow_rows(192, 6144, 132) == 128);   /* 192 x 80 against 128 x 96 */
    EXPECT(hgemm_narrow_rows(129, 7001, 132) == 128);   /* 192 x 80 against 128 x 112: 15360, 14336 */
    EXPECT(hgemm_narrow_rows(150, 22001, 132) == 192);  /* 192 x 176 against two rounds of 128 x 256 */
    EXPECT(hgemm_narrow_rows(129, 25345, 132) == 128);  /* no tall width fits a wave */
    EXPECT(hgemm_narrow_rows(200, 19000, 132) == 128);  /* A's rows past 192 */
    static const int sms_list[] = {66, 78, 114, 132};
    int failures = 0;
    for (size_t c = 0; c < sizeof sms_list / sizeof sms_list[0]; ++c)
        for (int m = 65; m <= HGEMM_SWAP_AB_MAX_M; m += 7)
            for (int n = 64; n <= 60000; n += n < 4000 ? 97 : 331) {
                int sms = sms_list[c], rows = hgemm_narrow_rows(m, n, sms);
                int width = rows == 128 ? hgemm_narrow_width(m, n, sms) : hgemm_narrow_tall_width(m, n, sms);
                int fits = 0;
                for (int w = HGEMM_NARROW_MAX_WIDTH; w >= HGEMM_NARROW_MIN_WIDTH; w -= 16)
                    if ((m <= 128 ? 1LL : 2LL) * ((n + w - 1) / w) <= sms) fits = w;
                int ok = width % 16 == 0 && width >= HGEMM_NARROW_MIN_WIDTH &&
                         width <= (rows == 128 ? HGEMM_NARROW_MAX_WIDTH : HGEMM_THREE_CONSUMERS_MAX_WIDTH) &&
                         (rows == 128 || (rows == HGEMM_NARROW_TALL_ROWS && m <= HGEMM_NARROW_TALL_ROWS)) &&
                         (m > 128 || rows == 128) && (!fits || hgemm_narrow_width(m, n, sms) == fits) &&
                         hgemm_narrow_box(m, rows, width) <= HGEMM_MAX_BOX_ROWS;
                if (!ok && failures++ < 5)
                    EXPECTF(0, "%dx%d on %d SMs: %d rows, %d wide (the narrowest in a wave: %d)", m, n, sms, rows,
                            width, fits);
            }
    EXPECTF(failures == 0, "%d shapes with a width the rung lacks", failures);
}

/* The balanced grid: the same rounds, the fewest clusters. */
static void test_balanced_clusters(void)
{
    EXPECT(hgemm_balanced_clusters(256, 66) == 64);  /* 4096^3 on an H100: 4 rounds */
    EXPECT(hgemm_balanced_clusters(1024, 66) == 64); /* 8192^3: 16 rounds */
    EXPECT(hgemm_balanced_clusters(576, 66) == 64);  /* 6144^3: 9 rounds */
    EXPECT(hgemm_balanced_clusters(400, 66) == 58);  /* 5000^3: 7 rounds of 58, the last 52 */
    EXPECT(hgemm_balanced_clusters(264, 66) == 66);  /* whole rounds */
    EXPECT(hgemm_balanced_clusters(10, 66) == 10);   /* less than a round */
    EXPECT(hgemm_balanced_clusters(10, 0) == 0);     /* no cluster fits */
    for (long long units = 1; units < 2000; ++units) {
        int c = hgemm_balanced_clusters(units, 66);
        long long rounds = (units + 65) / 66;
        EXPECTF(c >= 1 && c <= 66 && (units + c - 1) / c == rounds && (c == 1 || (units + c - 2) / (c - 1) > rounds),
                "%lld units: %d clusters", units, c);
    }
}

/* B's maps ask L2 for the pair of lines around a request on an H100's
 * DRAM (3352 GB/s at 1.98 GHz: 12.8 bytes a clock an SM), for its own line
 * on an H200's (4800 GB/s: 18.4). */
static void test_b_promotion(void)
{
    EXPECT(hgemm_b_promotion(3352.32 / 1.98, 132) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
    EXPECT(hgemm_b_promotion(4800.0 / 1.98, 132) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
    EXPECT(hgemm_b_promotion(3352.32 / 1.98, 100) == CU_TENSOR_MAP_L2_PROMOTION_L2_128B); /* fewer SMs: 16.9 */
}

/* The vendor rows: cuBLAS last (the baseline), the padded-C reference
 * before it, flagged as vendor rows too and at the case's own precision, so
 * that every rung is compared with it. */
static void test_vendor_rows(void)
{
    const ladder_variant *last = &hgemm_case.variants[hgemm_case.variant_count - 1];
    EXPECT(strcmp(last->name, "cublas") == 0 && (last->flags & LADDER_BASELINE));
    int reference = ladder_find_variant(&hgemm_case, "cublas_c_aligned");
    EXPECT(reference >= 0 && reference < hgemm_case.variant_count - 1);
    if (reference >= 0)
        EXPECT((hgemm_case.variants[reference].flags & LADDER_BASELINE) && !hgemm_case.variants[reference].precision);
    for (int i = 0; i < hgemm_case.variant_count; ++i)
        if (!(hgemm_case.variants[i].flags & LADDER_BASELINE))
            EXPECTF(i < reference, "rung %d after the vendor rows", i);
}

int main(void)
{
    test_checker();
    test_bf16();
    test_ld_and_tolerance();
    test_sizes();
    test_split_k_count();
    test_swap_ab_splits();
    test_multicast_shape();
    test_swap_ab_cluster();
    test_swap_ab_across();
    test_swap_ab_launchable();
    test_narrow_tiles();
    test_balanced_clusters();
    test_b_promotion();
    test_vendor_rows();
    return test_result("hgemm_test");
}
