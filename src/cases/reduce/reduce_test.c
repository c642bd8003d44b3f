/* CPU tests of the reduction case: the reference, the tolerance, and the
 * pass plan that sizes the scratch buffer of the multi-pass rungs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reduce.h"
#include "harness/check/rng.h"
#include "harness/testing/test_util.h"

static void test_reference(void)
{
    const float small[] = {1.0f, 2.0f, 3.0f, 4.5f};
    expect(reduce_reference(small, 4) == 10.5, "reference: 1 + 2 + 3 + 4.5 = 10.5");
    expect(reduce_reference(small, 1) == 1.0, "reference: one element is itself");

    long long n = 1000003;
    float *x = malloc((size_t)n * sizeof *x);
    ladder_fill_uniform(x, (size_t)n, 7, 0.5f, 1.5f);
    long double serial = 0;
    for (long long i = 0; i < n; ++i) serial += x[i];
    double ref = reduce_reference(x, n);
    expect(fabs(ref - (double)serial) <= 1e-12 * (double)serial,
           "reference: OpenMP double sum of 1000003 floats = serial long double sum");
    free(x);
}

/* A float sum in the worst order, one running total, must still pass: the
 * tolerance holds for any order the rungs or CUB might use. */
static void test_tolerance(void)
{
    expect(reduce_tolerance(1) > 0 && reduce_tolerance(1) < 1e-6, "tolerance: n = 1 is a few units of rounding");
    expect(reduce_tolerance(1000) < reduce_tolerance(1000000), "tolerance: grows with n");

    long long n = 1 << 20;
    float *x = malloc((size_t)n * sizeof *x);
    ladder_fill_uniform(x, (size_t)n, 11, 0.5f, 1.5f);
    float running = 0.0f;
    for (long long i = 0; i < n; ++i) running += x[i];
    double ref = reduce_reference(x, n);
    double error = fabs(running - ref) / ref;
    printf("  sequential float sum of 2^20: relative error %.2e, tolerance %.2e\n", error, reduce_tolerance(n));
    expect(error <= reduce_tolerance(n) / 4, "tolerance: a sequential float sum of 2^20 is well inside it");

    /* The smallest odd test size must see a single lost element. */
    ladder_fill_uniform(x, 4097, 12, 0.5f, 1.5f);
    double full = reduce_reference(x, 4097), lost = reduce_reference(x, 4096);
    expect((full - lost) / full > 2 * reduce_tolerance(4097), "tolerance: at n = 4097 one lost element fails");
    free(x);
}

static int plan_is(long long n, long long per_block, const long long *want, int want_passes)
{
    long long counts[64];
    int passes = reduce_pass_counts(n, per_block, counts, 64);
    if (passes != want_passes) return 0;
    for (int p = 0; p < passes; ++p)
        if (counts[p] != want[p]) return 0;
    return 1;
}

/* Every pass's partials are laid side by side in one buffer of
 * reduce_partials_capacity(n) floats; the two-pass and single-pass rungs use
 * at most ceil(n / 512) of them. */
static int capacity_holds(long long n)
{
    size_t capacity = reduce_partials_capacity(n);
    long long counts[64];
    for (long long per_block = REDUCE_THREADS; per_block <= 2 * REDUCE_THREADS; per_block *= 2) {
        int passes = reduce_pass_counts(n, per_block, counts, 64);
        size_t used = 0;
        for (int p = 0; p < passes; ++p) used += (size_t)((counts[p] + per_block - 1) / per_block);
        if (used > capacity) return 0;
    }
    long long two_pass_grid = (n + 2 * REDUCE_THREADS - 1) / (2 * REDUCE_THREADS);
    return capacity >= 1 && (size_t)two_pass_grid <= capacity && capacity <= (size_t)(n / (REDUCE_THREADS - 1) + 64);
}

static void test_passes(void)
{
    expect(plan_is(1, 256, (const long long[]){1}, 1), "passes: n = 1 is one launch");
    expect(plan_is(256, 256, (const long long[]){256}, 1), "passes: one full block is one launch");
    expect(plan_is(257, 256, (const long long[]){257, 2}, 2), "passes: 257 elements, then 2 partials");
    expect(plan_is(1LL << 28, 256, (const long long[]){1LL << 28, 1 << 20, 1 << 12, 16}, 4),
           "passes: 2^28 by 256 per block: 2^28, 2^20, 2^12, 16");
    expect(plan_is(1LL << 28, 512, (const long long[]){1LL << 28, 1 << 19, 1024, 2}, 4),
           "passes: 2^28 by 512 per block: 2^28, 2^19, 1024, 2");
    expect(plan_is(65539, 256, (const long long[]){65539, 257, 2}, 3), "passes: test size 65539 takes three");

    const long long sizes[] = {1, 2, 30, 255, 256, 257, 511, 512, 513, 4097, 65536, 65539, 1000003,
                               (1LL << 20) - 3, (1LL << 28) - 3, 1LL << 28, (1LL << 34) + 1};
    int all = 1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) all &= capacity_holds(sizes[i]);
    for (long long n = 1; n < 200000; n += 97) all &= capacity_holds(n);
    expect(all, "scratch: capacity covers every pass of every rung, 1 <= n <= 2^34 + 1");
}

int main(void)
{
    test_reference();
    test_tolerance();
    test_passes();
    printf("reduce_test: %d failed\n", test_failures);
    return test_failures ? 1 : 0;
}
