/* CPU tests of the HGEMM case: the checker (full and sampled) against the
 * definition of C = A B^T on BF16 values and against planted errors, the
 * BF16 rounding, the padded row stride, the tolerance, and the sizes the
 * case accepts. No GPU needed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cases/hgemm.h"
#include "harness/bf16.h"
#include "harness/rng.h"
#include "harness/size.h"
#include "harness/test_util.h"
#include "harness/validate.h"

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
    /* Every default and test size passes its own case's check. */
    const char *defaults[] = {"4096", "8192", "4095x4097x4093", "1x4096x4096", "4096x1x4096"};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; ++i) EXPECT(size_ok(defaults[i]));
    for (int i = 0; hgemm_case.test_sizes[i]; ++i) EXPECT(size_ok(hgemm_case.test_sizes[i]));
}

int main(void)
{
    test_checker();
    test_bf16();
    test_ld_and_tolerance();
    test_sizes();
    return test_result("hgemm_test");
}
