/* CPU tests of the SGEMM case: the CPU rungs against the definition, the
 * checker (full and sampled) against planted errors, the tolerance, and the
 * block swizzle. No GPU needed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgemm.h"
#include "harness/check/rng.h"
#include "harness/run/runner.h"
#include "harness/check/validate.h"
#include "harness/testing/test_util.h"

extern const ladder_case sgemm_case;

/* The definition, one element at a time, in double. */
static void naive_product(const float *a, const float *b, double *c, long long m, long long n, long long k)
{
    for (long long i = 0; i < m; ++i)
        for (long long j = 0; j < n; ++j) {
            double sum = 0;
            for (long long p = 0; p < k; ++p) sum += (double)a[i * k + p] * b[p * n + j];
            c[i * n + j] = sum;
        }
}

typedef struct problem {
    long long m, n, k;
    float *a, *b, *c;
    double *ref;
} problem;

static problem make_problem(long long m, long long n, long long k, uint64_t seed)
{
    problem p = {m, n, k, malloc(m * k * sizeof(float)), malloc(k * n * sizeof(float)),
                 malloc(m * n * sizeof(float)), malloc(m * n * sizeof(double))};
    ladder_fill_uniform(p.a, m * k, seed, -1.0f, 1.0f);
    ladder_fill_uniform(p.b, k * n, ladder_hash64(seed), -1.0f, 1.0f);
    naive_product(p.a, p.b, p.ref, m, n, k);
    return p;
}

static void free_problem(problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
    free(p->ref);
}

static void test_hand_checked(void)
{
    /* [1 2 3; 4 5 6] * [7 8; 9 10; 11 12] = [58 64; 139 154], exact in FP32. */
    const float a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12}, want[] = {58, 64, 139, 154};
    float c[4];
    sgemm_cpu_serial(a, b, c, 2, 2, 3);
    expect(memcmp(c, want, sizeof c) == 0, "cpu_serial: 2x3 times 3x2 by hand");
    sgemm_cpu_blocked(a, b, c, 2, 2, 3);
    expect(memcmp(c, want, sizeof c) == 0, "cpu_blocked: 2x3 times 3x2 by hand");
}

/* Largest |c - ref| / max(1, |ref|) over all elements. */
static double worst_error(const float *c, const double *ref, long long count)
{
    double worst = 0;
    for (long long e = 0; e < count; ++e) {
        double err = fabs(c[e] - ref[e]) / fmax(1.0, fabs(ref[e]));
        if (!(err <= worst)) worst = err; /* NaN wins */
    }
    return worst;
}

static void test_cpu_rungs(void)
{
    /* Odd sizes; 70x300x130 crosses every CPU block edge (64 rows, 256
     * columns, 128 deep). */
    const long long sizes[][3] = {{1, 1, 1}, {13, 17, 11}, {70, 300, 130}, {5, 1, 257}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        long long m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
        problem p = make_problem(m, n, k, 100 + s);
        char what[128];
        sgemm_cpu_serial(p.a, p.b, p.c, m, n, k);
        double serial = worst_error(p.c, p.ref, m * n);
        snprintf(what, sizeof what, "cpu_serial %lldx%lldx%lld: within FP32 rounding of the definition (%.1e)", m, n,
                 k, serial);
        expect(serial <= 1.2e-7, what);
        sgemm_cpu_blocked(p.a, p.b, p.c, m, n, k);
        double blocked = worst_error(p.c, p.ref, m * n);
        snprintf(what, sizeof what, "cpu_blocked %lldx%lldx%lld: within K roundings of the definition (%.1e)", m, n, k,
                 blocked);
        expect(blocked <= 1.2e-7 * (double)k, what);
        free_problem(&p);
    }
}

static void test_full_check(void)
{
    problem p = make_problem(37, 29, 45, 7);
    sgemm_cpu_blocked(p.a, p.b, p.c, p.m, p.n, p.k);
    ladder_check r = sgemm_check_host(p.a, p.b, p.c, p.m, p.n, p.k, NULL, sgemm_tolerance(p.k));
    expect(r.passed && r.rel_error > 0, "full check: an FP32 product passes (and is not bit-exact)");
    p.c[17 * p.n + 3] += 0.05f;
    r = sgemm_check_host(p.a, p.b, p.c, p.m, p.n, p.k, NULL, sgemm_tolerance(p.k));
    expect(!r.passed && r.nonfinite == 0, "full check: one element off by 0.05 fails");
    p.c[17 * p.n + 3] = NAN;
    r = sgemm_check_host(p.a, p.b, p.c, p.m, p.n, p.k, NULL, sgemm_tolerance(p.k));
    expect(!r.passed && r.nonfinite == 1, "full check: one NaN fails and is counted");
    free_problem(&p);
}

static int contains(const long long *lines, int count, long long line)
{
    for (int i = 0; i < count; ++i)
        if (lines[i] == line) return 1;
    return 0;
}

static void test_sample(void)
{
    sgemm_sample s;
    sgemm_draw_sample(4095, 1000, 42, &s);
    int distinct = 1, in_range = 1;
    for (int i = 0; i < s.row_count; ++i) {
        in_range &= s.rows[i] >= 0 && s.rows[i] < 4095;
        for (int j = 0; j < i; ++j) distinct &= s.rows[i] != s.rows[j];
    }
    for (int i = 0; i < s.col_count; ++i) {
        in_range &= s.cols[i] >= 0 && s.cols[i] < 1000;
        for (int j = 0; j < i; ++j) distinct &= s.cols[i] != s.cols[j];
    }
    expect(s.row_count == SGEMM_SAMPLE_LINES && s.col_count == SGEMM_SAMPLE_LINES && distinct && in_range,
           "sample of 4095x1000: 32 distinct rows and columns, in range");
    expect(contains(s.rows, s.row_count, 0) && contains(s.rows, s.row_count, 4094) && contains(s.cols, s.col_count, 0) &&
               contains(s.cols, s.col_count, 999),
           "sample: first and last row and column always in");
    sgemm_sample other;
    sgemm_draw_sample(4095, 1000, 43, &other);
    expect(memcmp(s.rows, other.rows, sizeof s.rows) != 0, "sample: another seed draws other rows");
    sgemm_draw_sample(20, 7, 42, &s);
    expect(s.row_count == 20 && s.col_count == 7 && s.rows[19] == 19 && s.cols[6] == 6,
           "sample of 20x7: every row and column");
}

static void test_sampled_check(void)
{
    problem p = make_problem(300, 200, 50, 9);
    sgemm_sample s;
    sgemm_draw_sample(p.m, p.n, 5, &s);
    sgemm_cpu_blocked(p.a, p.b, p.c, p.m, p.n, p.k);
    ladder_check r = sgemm_check_host(p.a, p.b, p.c, p.m, p.n, p.k, &s, sgemm_tolerance(p.k));
    expect(r.passed, "sampled check: an FP32 product passes");

    /* A row in the sample, a column outside it. */
    long long row = s.rows[5], col = 0;
    while (contains(s.cols, s.col_count, col)) ++col;
    float saved = p.c[row * p.n + col];
    p.c[row * p.n + col] += 0.05f;
    r = sgemm_check_host(p.a, p.b, p.c, p.m, p.n, p.k, &s, sgemm_tolerance(p.k));
    expect(!r.passed && r.nonfinite == 0, "sampled check: one element off by 0.05 in a sampled row fails");
    p.c[row * p.n + col] = saved;

    /* NaN in neither a sampled row nor a sampled column. */
    long long free_row = 0;
    while (contains(s.rows, s.row_count, free_row)) ++free_row;
    p.c[free_row * p.n + col] = NAN;
    r = sgemm_check_host(p.a, p.b, p.c, p.m, p.n, p.k, &s, sgemm_tolerance(p.k));
    expect(!r.passed && r.nonfinite == 1, "sampled check: a NaN outside the sample still fails");
    free_problem(&p);
}

static void test_tolerance(void)
{
    expect(fabs(sgemm_tolerance(4096) / sgemm_tolerance(256) - 4.0) < 1e-12,
           "tolerance grows as sqrt(K): 16x the terms, 4x the tolerance");
    expect(sgemm_tolerance(1) >= 1.19e-7 && sgemm_tolerance(1) < 1e-6,
           "tolerance at K = 1: a couple of FP32 roundings");

    /* At K = 1000: the FP32 product passes; the product missing its last k
     * (one term in 1000) fails. */
    long long m = 64, n = 48, k = 1000;
    problem p = make_problem(m, n, k, 11);
    sgemm_cpu_blocked(p.a, p.b, p.c, m, n, k);
    ladder_check good = sgemm_check_host(p.a, p.b, p.c, m, n, k, NULL, sgemm_tolerance(k));
    for (long long i = 0; i < m; ++i)
        for (long long j = 0; j < n; ++j) p.c[i * n + j] -= p.a[i * k + k - 1] * p.b[(k - 1) * n + j];
    ladder_check missing = sgemm_check_host(p.a, p.b, p.c, m, n, k, NULL, sgemm_tolerance(k));
    char what[128];
    snprintf(what, sizeof what, "K = 1000: FP32 error %.1e passes, a missing term (%.1e) fails; tolerance %.1e",
             good.rel_error, missing.rel_error, good.tolerance);
    expect(good.passed && !missing.passed && good.rel_error < good.tolerance / 4, what);
    free_problem(&p);
}

static void test_swizzle(void)
{
    const int shapes[][3] = {{1, 1, 8}, {9, 5, 8}, {32, 32, 8}, {17, 3, 4}, {7, 11, 1}, {3, 40, 8}};
    int all_once = 1, grouped = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        int blocks_m = shapes[s][0], blocks_n = shapes[s][1], group = shapes[s][2];
        int *seen = calloc((size_t)blocks_m * blocks_n, sizeof *seen);
        for (int id = 0; id < blocks_m * blocks_n; ++id) {
            int tm, tn;
            sgemm_swizzled_tile(id, blocks_m, blocks_n, group, &tm, &tn);
            if (tm < 0 || tm >= blocks_m || tn < 0 || tn >= blocks_n) {
                all_once = 0;
                continue;
            }
            ++seen[tm * blocks_n + tn];
            /* Consecutive blocks stay inside one group of tile rows. */
            grouped &= tm / group == id / (group * blocks_n);
        }
        for (int t = 0; t < blocks_m * blocks_n; ++t) all_once &= seen[t] == 1;
        free(seen);
    }
    expect(all_once, "swizzle: every tile exactly once (partial last group included)");
    expect(grouped, "swizzle: block ids run through one group of tile rows at a time");
    int tm, tn;
    sgemm_swizzled_tile(5, 4, 3, 1, &tm, &tn);
    expect(tm == 1 && tn == 2, "swizzle with groups of 1: plain row-major order");
}

/* The shared-memory gate: rungs above the 48 KB every GPU grants say what
 * they need; the k32 ring needs more than a Turing block can opt in to
 * (64 KB), so the case skips it there, and every ring fits Hopper's 227 KB. */
static void test_shared_bytes(void)
{
    size_t k16 = sgemm_shared_bytes(sgemm_tile_128x128_k16), k32 = sgemm_shared_bytes(sgemm_tile_128x128_k32);
    expect(sgemm_shared_bytes(sgemm_tiled16) == 0 && sgemm_shared_bytes(sgemm_async_2stage) == 0,
           "shared bytes: rungs within 48 KB report 0");
    expect(k16 > 48 * 1024 && k16 <= 64 * 1024, "shared bytes: the k16 ring opts in above 48 KB, within 64 KB");
    expect(k32 > 64 * 1024 && k32 <= 227 * 1024, "shared bytes: the k32 ring needs more than 64 KB, fits 227 KB");
    size_t tf32 = sgemm_shared_bytes(sgemm_tf32), three = sgemm_shared_bytes(sgemm_3xtf32);
    expect(tf32 > 64 * 1024 && 2 * tf32 <= 228 * 1024, "shared bytes: tf32 opts in above 64 KB, two blocks an SM fit");
    expect(three > 164 * 1024 && three <= 227 * 1024,
           "shared bytes: 3xtf32 needs more than an A100 grants (164 KB), fits Hopper's 227 KB");
}

static uint32_t bits_of(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* The split of the tensor rungs: hi = tf32(x) keeps 10 mantissa bits (the
 * low 13 are zero), rounded to nearest, ties away from zero; lo = tf32(x -
 * hi) likewise; hi + lo is x to 2^-22 relative. Over magnitudes from 2^-60
 * to 2^60, both signs. */
static void test_tf32_split(void)
{
    int hi_tf32 = 1, lo_tf32 = 1, hi_near = 1, sum_near = 1, lo_needed = 0;
    double worst_sum = 0;
    for (uint64_t i = 0; i < 200000; ++i) {
        float mantissa = 1.0f + (float)ladder_random_below(7, i, 1u << 23) / (float)(1u << 23);
        int exponent = (int)ladder_random_below(8, i, 121) - 60;
        float x = ldexpf(i % 2 ? -mantissa : mantissa, exponent);
        float hi = sgemm_tf32_round(x), lo = sgemm_tf32_round(x - hi);
        hi_tf32 &= (bits_of(hi) & 0x1FFFu) == 0;
        lo_tf32 &= (bits_of(lo) & 0x1FFFu) == 0;
        hi_near &= fabs((double)hi - x) <= ldexp(fabs((double)x), -11);
        double sum_error = fabs((double)hi + (double)lo - x) / fabs((double)x);
        sum_near &= sum_error <= ldexp(1.0, -22);
        worst_sum = fmax(worst_sum, sum_error);
        lo_needed |= lo != 0.0f;
    }
    expect(hi_tf32 && lo_tf32, "tf32 split: hi and lo have their low 13 mantissa bits zero (TF32-representable)");
    expect(hi_near, "tf32 split: hi is x to 2^-11 relative (round to nearest)");
    char what[128];
    snprintf(what, sizeof what, "tf32 split: hi + lo is x to 2^-22 relative (worst %.2e)", worst_sum);
    expect(sum_near && lo_needed, what);

    /* Ties go away from zero, as cvt.rna; just below a tie goes down. */
    float tie = 1.0f + ldexpf(1.0f, -11), below = nextafterf(tie, 0.0f);
    expect(sgemm_tf32_round(tie) == 1.0f + ldexpf(1.0f, -10) && sgemm_tf32_round(-tie) == -(1.0f + ldexpf(1.0f, -10)),
           "tf32 round: a tie rounds away from zero, both signs");
    expect(sgemm_tf32_round(below) == 1.0f, "tf32 round: just below a tie rounds down");
    expect(sgemm_tf32_round(2.0f - ldexpf(1.0f, -12)) == 2.0f, "tf32 round: the carry moves into the exponent");
    expect(sgemm_tf32_round(0.0f) == 0.0f && sgemm_tf32_round(1.5f) == 1.5f, "tf32 round: TF32 values stay");
}

/* C from inputs split as the tensor rungs split them, in double: PASSES 1
 * is the tf32 rung's product (rounded inputs), 3 the 3xtf32 one (hi*hi +
 * hi*lo + lo*hi). The tensor cores' own FP32 sums add the FP32 rounding of
 * the GPU rungs on top, which the FP32 tolerance already covers. */
static void split_product(const problem *p, int passes)
{
    for (long long i = 0; i < p->m; ++i)
        for (long long j = 0; j < p->n; ++j) {
            double sum = 0;
            for (long long q = 0; q < p->k; ++q) {
                float x = p->a[i * p->k + q], y = p->b[q * p->n + j];
                float x_hi = sgemm_tf32_round(x), y_hi = sgemm_tf32_round(y);
                double term = (double)x_hi * y_hi;
                if (passes == 3)
                    term += (double)x_hi * sgemm_tf32_round(y - y_hi) + (double)sgemm_tf32_round(x - x_hi) * y_hi;
                sum += term;
            }
            p->c[i * p->n + j] = (float)sum;
        }
}

/* The tf32 rung's tolerance: a TF32 product passes it (and fails the FP32
 * one: it needs its own), the product missing one term in 1000 fails it.
 * The 3xtf32 product passes the FP32 tolerance by a wide margin. */
static void test_tf32_tolerance(void)
{
    long long m = 64, n = 48, k = 1000;
    problem p = make_problem(m, n, k, 21);
    split_product(&p, 1);
    ladder_check tf32 = sgemm_check_host(p.a, p.b, p.c, m, n, k, NULL, sgemm_tf32_tolerance(k));
    ladder_check tf32_as_fp32 = sgemm_check_host(p.a, p.b, p.c, m, n, k, NULL, sgemm_tolerance(k));
    char what[160];
    snprintf(what, sizeof what, "tf32 product: error %.1e passes its tolerance %.1e, not the FP32 one %.1e",
             tf32.rel_error, tf32.tolerance, tf32_as_fp32.tolerance);
    expect(tf32.passed && !tf32_as_fp32.passed && tf32.rel_error > 1e-4 && tf32.rel_error < tf32.tolerance / 2, what);
    for (long long i = 0; i < m; ++i)
        for (long long j = 0; j < n; ++j) p.c[i * n + j] -= p.a[i * k + k - 1] * p.b[(k - 1) * n + j];
    ladder_check missing = sgemm_check_host(p.a, p.b, p.c, m, n, k, NULL, sgemm_tf32_tolerance(k));
    snprintf(what, sizeof what, "tf32 tolerance: a product missing one term in 1000 fails (%.1e)", missing.rel_error);
    expect(!missing.passed, what);

    split_product(&p, 3);
    ladder_check three = sgemm_check_host(p.a, p.b, p.c, m, n, k, NULL, sgemm_tolerance(k));
    snprintf(what, sizeof what, "3xtf32 product: error %.1e, within a tenth of the FP32 tolerance %.1e",
             three.rel_error, three.tolerance);
    expect(three.passed && three.rel_error < three.tolerance / 10, what);
    expect(fabs(sgemm_tf32_tolerance(4096) - 1e-3) < 1e-4, "tf32 tolerance at K = 4096: about 1e-3");
    free_problem(&p);
}

/* cuBLAS TF32 is the tf32 rung's reference: a vendor row before the FP32
 * baseline (last) with the rung's precision note, letter for letter (the
 * results pair them by it). */
static void test_tf32_reference(void)
{
    int rung = ladder_find_variant(&sgemm_case, "tf32"), reference = ladder_find_variant(&sgemm_case, "cublas_tf32");
    const ladder_variant *last = &sgemm_case.variants[sgemm_case.variant_count - 1];
    expect(rung >= 0 && reference >= 0, "tf32 and cublas_tf32 are in the table");
    if (rung < 0 || reference < 0) return;
    const ladder_variant *r = &sgemm_case.variants[rung], *ref = &sgemm_case.variants[reference];
    expect((ref->flags & LADDER_BASELINE) && reference < sgemm_case.variant_count - 1,
           "cublas_tf32: a vendor row before the baseline");
    expect(strcmp(last->name, "cublas") == 0 && (last->flags & LADDER_BASELINE) && !last->precision,
           "the FP32 cuBLAS is the baseline, last");
    expect(r->precision && ref->precision && strcmp(r->precision, ref->precision) == 0,
           "cublas_tf32 has the tf32 rung's precision note");
}

int main(void)
{
    test_hand_checked();
    test_cpu_rungs();
    test_full_check();
    test_sample();
    test_sampled_check();
    test_tolerance();
    test_swizzle();
    test_shared_bytes();
    test_tf32_split();
    test_tf32_tolerance();
    test_tf32_reference();
    printf("sgemm_test: %d failed\n", test_failures);
    return test_failures ? 1 : 0;
}
