/* CPU tests of the GEMV cases: the OpenMP double reference against the
 * definition, both orientations; the componentwise check and its tolerance
 * (a plain FP32 loop passes, a lost term, a lost column or a NaN fails at
 * the test sizes); the partials buffer of the two-pass gemv_t rungs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemv.h"
#include "harness/check/rng.h"
#include "harness/testing/test_util.h"

/* Small integers: every sum is exact in double, so the reference must equal
 * the definition exactly. */
static void test_reference_small(void)
{
    enum { M = 3, N = 5 };
    float a[M * N], x[N], xt[M];
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) a[i * N + j] = (float)((i * 7 + j * 3) % 11 - 5);
    for (int j = 0; j < N; ++j) x[j] = (float)(j - 2);
    for (int i = 0; i < M; ++i) xt[i] = (float)(2 * i + 1);

    double ref[N], scale[N];
    gemv_reference(a, x, M, N, 0, ref, scale);
    int exact = 1;
    for (int i = 0; i < M; ++i) {
        double sum = 0, magnitude = 0;
        for (int j = 0; j < N; ++j) {
            sum += a[i * N + j] * x[j];
            magnitude += fabs(a[i * N + j] * x[j]);
        }
        exact &= ref[i] == sum && scale[i] == magnitude;
    }
    expect(exact, "reference: y = A x and sum |a_ij x_j| equal the definition (3 x 5)");

    gemv_reference(a, xt, M, N, 1, ref, scale);
    exact = 1;
    for (int j = 0; j < N; ++j) {
        double sum = 0, magnitude = 0;
        for (int i = 0; i < M; ++i) {
            sum += a[i * N + j] * xt[i];
            magnitude += fabs(a[i * N + j] * xt[i]);
        }
        exact &= ref[j] == sum && scale[j] == magnitude;
    }
    expect(exact, "reference: y = A^T x and its scale equal the definition (3 x 5)");
}

/* The transposed reference walks column blocks; on a shape wider than one
 * block it must agree with the plain reference of the explicit transpose. */
static void test_reference_transposed(void)
{
    long long m = 37, n = 1001;
    float *a = malloc((size_t)(m * n) * sizeof *a), *at = malloc((size_t)(m * n) * sizeof *at);
    float *x = malloc((size_t)m * sizeof *x);
    double *ref = malloc((size_t)n * sizeof *ref), *scale = malloc((size_t)n * sizeof *scale);
    double *ref_t = malloc((size_t)n * sizeof *ref_t), *scale_t = malloc((size_t)n * sizeof *scale_t);
    ladder_fill_uniform(a, (size_t)(m * n), 3, -1.0f, 1.0f);
    ladder_fill_uniform(x, (size_t)m, 4, -1.0f, 1.0f);
    for (long long i = 0; i < m; ++i)
        for (long long j = 0; j < n; ++j) at[j * m + i] = a[i * n + j];
    gemv_reference(a, x, m, n, 1, ref_t, scale_t);
    gemv_reference(at, x, n, m, 0, ref, scale);
    double worst = 0;
    for (long long j = 0; j < n; ++j) {
        worst = fmax(worst, fabs(ref[j] - ref_t[j]));
        worst = fmax(worst, fabs(scale[j] - scale_t[j]));
    }
    expect(worst <= 1e-12, "reference: A^T x on 37 x 1001 equals (explicit A^T) x");
    free(a), free(at), free(x), free(ref), free(scale), free(ref_t), free(scale_t);
}

/* y = A x in float, one running sum per row: the order of rung 1. */
static void float_gemv(const float *a, const float *x, float *y, long long m, long long n, long long skip_column)
{
    for (long long i = 0; i < m; ++i) {
        float sum = 0.0f;
        for (long long j = 0; j < n; ++j)
            if (j != skip_column) sum += a[i * n + j] * x[j];
        y[i] = sum;
    }
}

static void test_check(long long m, long long n)
{
    float *a = malloc((size_t)(m * n) * sizeof *a), *x = malloc((size_t)n * sizeof *x);
    float *y = malloc((size_t)m * sizeof *y);
    double *ref = malloc((size_t)m * sizeof *ref), *scale = malloc((size_t)m * sizeof *scale);
    ladder_fill_uniform(a, (size_t)(m * n), 21, -1.0f, 1.0f);
    ladder_fill_uniform(x, (size_t)n, 22, -1.0f, 1.0f);
    gemv_reference(a, x, m, n, 0, ref, scale);
    char what[96];

    float_gemv(a, x, y, m, n, -1);
    ladder_check c = gemv_check_host(y, ref, scale, m, n);
    printf("  %lldx%lld sequential float sums: worst error %.2e of the scale, tolerance %.2e\n", m, n, c.rel_error,
           c.tolerance);
    snprintf(what, sizeof what, "check %lldx%lld: a sequential FP32 loop passes, 4x inside the tolerance", m, n);
    expect(c.passed && c.rel_error <= c.tolerance / 4, what);

    for (long long i = 0; i < m; ++i) y[i] = (float)ref[i];
    c = gemv_check_host(y, ref, scale, m, n);
    snprintf(what, sizeof what, "check %lldx%lld: the rounded reference passes", m, n);
    expect(c.passed && c.rel_error <= 6e-8, what);

    /* A row missing its largest term: a kernel that drops one element. */
    long long row = m / 2, largest = 0;
    for (long long j = 1; j < n; ++j)
        if (fabsf(a[row * n + j] * x[j]) > fabsf(a[row * n + largest] * x[largest])) largest = j;
    float saved = y[row];
    y[row] = (float)(ref[row] - (double)a[row * n + largest] * x[largest]);
    c = gemv_check_host(y, ref, scale, m, n);
    snprintf(what, sizeof what, "check %lldx%lld: one row missing one term fails (%.0fx the tolerance)", m, n,
             c.rel_error / c.tolerance);
    expect(!c.passed, what);
    y[row] = saved;

    /* Every row missing its last column: a float4 rung without its tail. */
    float_gemv(a, x, y, m, n, n - 1);
    c = gemv_check_host(y, ref, scale, m, n);
    snprintf(what, sizeof what, "check %lldx%lld: every row missing the last column fails (%.0fx)", m, n,
             c.rel_error / c.tolerance);
    expect(n == 1 || !c.passed, what);

    float_gemv(a, x, y, m, n, -1);
    y[m - 1] = NAN;
    c = gemv_check_host(y, ref, scale, m, n);
    snprintf(what, sizeof what, "check %lldx%lld: an unwritten (NaN) element fails and is counted", m, n);
    expect(!c.passed && c.nonfinite == 1, what);
    free(a), free(x), free(y), free(ref), free(scale);
}

static void test_tolerance(void)
{
    expect(gemv_tolerance(1) > 5.96e-8 && gemv_tolerance(1) < 1e-6, "tolerance: n = 1 is a few units of rounding");
    expect(gemv_tolerance(1024) < gemv_tolerance(32768), "tolerance: grows with the sum's length");
    /* A lost term of typical size (|a x| ~ 1/4 against a scale ~ n/4) is
     * about 1/n of the scale: caught up to the largest test length. */
    expect(1.0 / 4097 > 4 * gemv_tolerance(4097), "tolerance: at n = 4097 a typical lost term is 4x outside it");
}

static void test_partials(void)
{
    expect(gemv_t_partials_floats(1, 1, 64) == 1, "partials: 1 x 1 is one chunk of one column");
    expect(gemv_t_partials_floats(64, 10, 64) == 10 && gemv_t_partials_floats(65, 10, 64) == 20,
           "partials: a 65th row opens a second chunk");
    int holds = 1;
    for (long long m = 1; m < 5000; m += 37)
        holds &= gemv_t_partials_floats(m, 7, 128) <= gemv_t_partials_floats(m, 7, GEMV_T_MIN_CHUNK_ROWS) &&
                 gemv_t_partials_floats(m, 7, 64) * 64 >= (size_t)m * 7;
    expect(holds, "partials: chunks of 128 rows fit the buffer sized for chunks of 64");
}

static ladder_record *add_record(ladder_results *results, const char *name, double median_ms, int valid)
{
    ladder_record *r = ladder_results_add(results);
    snprintf(r->variant, sizeof r->variant, "%s", name);
    r->median_ms = median_ms;
    r->valid = valid;
    r->fraction_of_bandwidth = 1.0 / median_ms;
    r->ratio_to_baseline = 0.5 / median_ms;
    return r;
}

/* The summary names the fastest rung that validated: not a faster one that
 * failed, was skipped, or is the baseline. */
static void test_summary(void)
{
    ladder_results results = {0};
    add_record(&results, "earlier_size", 0.1, 1); /* another size's records come before `first` */
    size_t first = results.count;
    add_record(&results, "slow", 4.0, 1);
    add_record(&results, "wrong_but_fast", 0.5, 0);
    add_record(&results, "skipped", 0.4, 1)->skipped = 1;
    add_record(&results, "good", 1.0, 1);
    add_record(&results, "cublas", 0.25, 1)->baseline = 1;
    gemv_problem_summarize(NULL, &results, first);
    expect(results.summary_count == 2, "summary: two figures");
    expect(results.summary_count == 2 && results.summaries[0].value == 1.0 &&
               strstr(results.summaries[0].note, "good") && results.summaries[1].value == 0.5,
           "summary: the fastest validated rung's fraction of copy and ratio to cuBLAS");
    ladder_results_free(&results);

    ladder_results none = {0};
    add_record(&none, "wrong", 1.0, 0);
    gemv_problem_summarize(NULL, &none, 0);
    expect(none.summary_count == 2 && isnan(none.summaries[0].value) && isnan(none.summaries[1].value),
           "summary: NaN when no rung validated");
    ladder_results_free(&none);
}

int main(void)
{
    test_reference_small();
    test_reference_transposed();
    test_check(37, 1001);
    test_check(513, 4097);
    test_check(1000, 3);
    test_check(1, 1);
    test_tolerance();
    test_partials();
    test_summary();
    return test_result("gemv_test");
}
