/* CPU tests of the HGEMM case: the checker (full and sampled) against the
 * definition of C = A B^T on BF16 values and against planted errors, the
 * BF16 rounding, the padded row stride, the tolerance, the sizes the case
 * accepts, the split-K rungs' slice counts, persistent_multicast's
 * clusters, tiles and balanced grid, narrow_tiles' widths and the vendor
 * rows' order (swap_ab's rules: hgemm_swap_ab_shape_test.c). No GPU
 * needed. */
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
    test_multicast_shape();
    test_narrow_tiles();
    test_balanced_clusters();
    test_b_promotion();
    test_vendor_rows();
    return test_result("hgemm_test");
}
