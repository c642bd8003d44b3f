/* CPU tests of the instr case's measures: the ulp distance against counting
 * nextafterf steps, the bound fraction, the documented bounds, and the
 * integer references, where division and shift part ways for negative x. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "harness/check/rng.h"
#include "harness/testing/test_util.h"
#include "instr.h"

/* The definition: how many nextafterf steps lead from a to b. */
static uint32_t steps_between(float a, float b)
{
    uint32_t steps = 0;
    float toward = b > a ? INFINITY : -INFINITY;
    while (a != b) {
        a = nextafterf(a, toward);
        ++steps;
    }
    return steps;
}

static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

static void test_ulp_distance(void)
{
    EXPECT(instr_ulp_distance(1.0f, 1.0f) == 0);
    EXPECT(instr_ulp_distance(0.0f, -0.0f) == 0);
    EXPECT(instr_ulp_distance(1.0f, nextafterf(1.0f, 2.0f)) == 1);
    EXPECT(instr_ulp_distance(1.0f, nextafterf(1.0f, 0.0f)) == 1); /* across the binade below */
    EXPECT(instr_ulp_distance(1.0f, 2.0f) == 1u << 23);
    EXPECT(instr_ulp_distance(FLT_TRUE_MIN, -FLT_TRUE_MIN) == 2); /* across zero */
    EXPECT(instr_ulp_distance(-1.0f, 1.0f) == 2 * 0x3F800000u);
    EXPECT(instr_ulp_distance(-FLT_MAX, FLT_MAX) == 2 * 0x7F7FFFFFu);
    EXPECT(instr_ulp_distance(NAN, 1.0f) == UINT32_MAX);
    EXPECT(instr_ulp_distance(1.0f, NAN) == UINT32_MAX);
    EXPECT(instr_ulp_distance(INFINITY, FLT_MAX) == 1);

    /* Random pairs a few steps apart, of both signs and around zero, against
     * the step count. */
    const float starts[] = {1.0f, -3.5f, 1e-38f, -1e-38f, 0.0f, 123456.0f, FLT_MIN, -2.0f};
    for (int s = 0; s < (int)(sizeof starts / sizeof starts[0]); ++s) {
        for (int trial = 0; trial < 40; ++trial) {
            float a = starts[s], b = a;
            int steps = (int)ladder_random_below(7, (uint64_t)(s * 100 + trial), 60);
            float toward = ladder_random_below(8, (uint64_t)(s * 100 + trial), 2) ? INFINITY : -INFINITY;
            for (int k = 0; k < steps; ++k) b = nextafterf(b, toward);
            EXPECTF(instr_ulp_distance(a, b) == steps_between(a, b) && instr_ulp_distance(b, a) == (uint32_t)steps,
                    "%a to %a: %u, expected %d", a, b, instr_ulp_distance(a, b), steps);
        }
    }
}

static void test_bound_fraction(void)
{
    instr_bound two_ulp = {2, -1}, exact = {0, -1}, absolute = {-1, 1e-6}, either = {3, 1e-6};
    EXPECT(instr_bound_fraction(0, 0.0, exact) == 0);
    EXPECT(isinf(instr_bound_fraction(1, 1e-9, exact)));
    EXPECT_NEAR(instr_bound_fraction(2, 0, two_ulp), 1.0, 0);
    EXPECT(instr_bound_fraction(3, 0, two_ulp) > 1);
    EXPECT_NEAR(instr_bound_fraction(1000, 5e-7, absolute), 0.5, 1e-12);
    EXPECT(instr_bound_fraction(1000, 2e-6, absolute) > 1);
    /* Either bound suffices: many ulp near zero but a small absolute error. */
    EXPECT_NEAR(instr_bound_fraction(50, 1e-7, either), 0.1, 1e-12);
    EXPECT_NEAR(instr_bound_fraction(3, 1.0, either), 1.0, 0);
}

/* The measure on real functions: the host's sinf, expf, logf and powf are
 * within 1 ulp of correct rounding, so they pass the CUDA bounds; a
 * truncated Taylor series of sin does not. */
static void test_measure_on_host_functions(void)
{
    uint32_t worst[4] = {0, 0, 0, 0};
    uint32_t taylor_worst = 0;
    for (int i = 0; i < 20000; ++i) {
        float unit = (float)ladder_random_below(3, (uint64_t)i, 1u << 24) / (float)(1u << 24);
        float angle = -3.14159f + 6.28318f * unit, exponent = -80 + 160 * unit, positive = exp2f(-100 + 199 * unit);
        float base = exp2f(-4 + 8 * unit), power = -8 + 16 * (1 - unit);
        worst[0] = max_u32(worst[0], instr_ulp_distance(sinf(angle), (float)instr_reference(INSTR_SIN, angle, 0)));
        worst[1] = max_u32(worst[1], instr_ulp_distance(expf(exponent), (float)instr_reference(INSTR_EXP, exponent, 0)));
        worst[2] = max_u32(worst[2], instr_ulp_distance(logf(positive), (float)instr_reference(INSTR_LOG, positive, 0)));
        worst[3] = max_u32(worst[3], instr_ulp_distance(powf(base, power), (float)instr_reference(INSTR_POW, base, power)));
        float taylor = angle - angle * angle * angle / 6 + angle * angle * angle * angle * angle / 120;
        taylor_worst = max_u32(taylor_worst, instr_ulp_distance(taylor, (float)instr_reference(INSTR_SIN, angle, 0)));
    }
    for (int f = 0; f < 4; ++f) EXPECTF(worst[f] <= 1, "host function %d: %u ulp", f, worst[f]);
    EXPECT(taylor_worst > 2);
    EXPECT(instr_reference(INSTR_DIVIDE, 4.0f, 2.0f) == 0.5); /* y / x: x is the swept divisor */
    EXPECT_NEAR(instr_reference(INSTR_AFFINE_FLOAT, 1.0f, 0), 1.4, 1e-15);
}

static void test_documented_bounds(void)
{
    EXPECT(instr_documented_bound(INSTR_SIN, INSTR_ACCURATE, 1, 0).ulps == 2);
    instr_bound sin_fast = instr_documented_bound(INSTR_SIN, INSTR_INTRINSIC, 1, 0);
    EXPECT(sin_fast.ulps < 0 && fabs(sin_fast.absolute - pow(2, -21.41)) < 1e-10);
    /* __cosf's bound is its own; -use_fast_math inherits the intrinsic's bound. */
    instr_bound cos_fast = instr_documented_bound(INSTR_COS, INSTR_INTRINSIC, 1, 0);
    EXPECT(cos_fast.ulps < 0 && fabs(cos_fast.absolute - pow(2, -21.19)) < 1e-10);
    EXPECT(instr_documented_bound(INSTR_COS, INSTR_FAST_MATH, 1, 0).absolute == cos_fast.absolute);
    EXPECT(instr_documented_bound(INSTR_SIN, INSTR_FAST_MATH, 1, 0).absolute == sin_fast.absolute);
    EXPECT(instr_documented_bound(INSTR_EXP, INSTR_INTRINSIC, 80, 0).ulps == 95);
    EXPECT(instr_documented_bound(INSTR_EXP, INSTR_INTRINSIC, -0.5f, 0).ulps == 2);
    EXPECT(instr_documented_bound(INSTR_LOG, INSTR_ACCURATE, 1e20f, 0).ulps == 1);
    EXPECT(instr_documented_bound(INSTR_LOG, INSTR_INTRINSIC, 1.5f, 0).absolute > 0);
    EXPECT(instr_documented_bound(INSTR_LOG, INSTR_INTRINSIC, 3.0f, 0).ulps == 3);
    EXPECT(instr_documented_bound(INSTR_POW, INSTR_ACCURATE, 3, 2).ulps == 4);
    /* __powf's derived bound grows with |y log2 x| and stays above exp2's own. */
    double near_one = instr_documented_bound(INSTR_POW, INSTR_INTRINSIC, 1.0f, 1.0f).ulps;
    double widest = instr_documented_bound(INSTR_POW, INSTR_INTRINSIC, 16.0f, -8.0f).ulps;
    EXPECTF(near_one >= 4 && near_one < 10, "near one: %g", near_one);
    EXPECTF(widest > 100 && widest < 400, "widest: %g", widest);
    EXPECT(instr_documented_bound(INSTR_DIVIDE, INSTR_ACCURATE, 3, 1).ulps == 0);
    EXPECT(instr_documented_bound(INSTR_DIVIDE, INSTR_FAST_MATH, 3, 1).ulps == 2);

    /* The float-literal affine map, evaluated as the GPU's FFMA does, is
     * within its derived bound over [1, 2.0625]; the double form within 1 ulp. */
    uint32_t float_worst = 0, double_worst = 0;
    for (float x = 1.0f; x <= 2.0625f; x += 1.0f / 8192) {
        double ref = instr_reference(INSTR_AFFINE_FLOAT, x, 0);
        float_worst = max_u32(float_worst, instr_ulp_distance(fmaf(x, 1.1f, 0.3f), (float)ref));
        double_worst = max_u32(double_worst, instr_ulp_distance((float)fma(x, 1.1, 0.3), (float)ref));
    }
    EXPECTF(float_worst >= 1 && float_worst <= instr_documented_bound(INSTR_AFFINE_FLOAT, INSTR_ACCURATE, 1, 0).ulps,
            "float literals: %u ulp", float_worst);
    EXPECTF(double_worst <= instr_documented_bound(INSTR_AFFINE_DOUBLE, INSTR_ACCURATE, 1, 0).ulps,
            "double literals: %u ulp", double_worst);
}

/* One value: both divisions are consistent, the shift reference is the
 * host's >> and &, and the two differ exactly for negative non-multiples. */
static void check_integer_value(int32_t v, int *differ, int *negative_non_multiples)
{
    int32_t q, r, shift_q, shift_r;
    instr_int_reference(INSTR_SIGNED_DIVIDE, v, &q, &r);
    instr_int_reference(INSTR_SIGNED_SHIFT_MASK, v, &shift_q, &shift_r);
    EXPECT((int64_t)q * INSTR_DIVISOR + r == v && (int64_t)shift_q * INSTR_DIVISOR + shift_r == v);
    EXPECT(shift_r >= 0 && shift_r < INSTR_DIVISOR && r > -INSTR_DIVISOR && r < INSTR_DIVISOR);
    EXPECT(shift_q == (v >> INSTR_DIVISOR_LOG2) && shift_r == (v & (INSTR_DIVISOR - 1)));
    int is_negative_non_multiple = v < 0 && v % INSTR_DIVISOR != 0;
    *negative_non_multiples += is_negative_non_multiple;
    if (q != shift_q) {
        ++*differ;
        EXPECT(is_negative_non_multiple && shift_q == q - 1 && shift_r == r + INSTR_DIVISOR);
    } else {
        EXPECT(!is_negative_non_multiple && shift_r == r);
    }
    uint32_t u = (uint32_t)v;
    instr_int_reference(INSTR_UNSIGNED_DIVIDE, v, &q, &r);
    EXPECT((uint32_t)q == u >> INSTR_DIVISOR_LOG2 && (uint32_t)r == (u & (INSTR_DIVISOR - 1)));
}

static void test_integer_references(void)
{
    int32_t q, r;
    /* The pitfall on one value: -17 / 16 is -1 remainder -1; -17 >> 4 is -2
     * and -17 & 15 is 15. */
    instr_int_reference(INSTR_SIGNED_DIVIDE, -17, &q, &r);
    EXPECT(q == -1 && r == -1);
    instr_int_reference(INSTR_SIGNED_SHIFT_MASK, -17, &q, &r);
    EXPECT(q == -2 && r == 15);

    /* Every value near zero, then a sweep of the whole range. */
    int differ = 0, negative_non_multiples = 0;
    for (int32_t v = -300; v <= 300; ++v) check_integer_value(v, &differ, &negative_non_multiples);
    for (int64_t x = INT32_MIN; x <= INT32_MAX; x += 99991) check_integer_value((int32_t)x, &differ, &negative_non_multiples);
    check_integer_value(INT32_MAX, &differ, &negative_non_multiples);
    EXPECT(differ == negative_non_multiples && differ > 250);
}

int main(void)
{
    test_ulp_distance();
    test_bound_fraction();
    test_measure_on_host_functions();
    test_documented_bounds();
    test_integer_references();
    return test_result("instr_test");
}
