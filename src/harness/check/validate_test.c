#include <math.h>

#include "rng.h"
#include "harness/testing/test_util.h"
#include "validate.h"

int main(void)
{
    float ref[4] = {3, 0, 4, 0};
    float same[4] = {3, 0, 4, 0};
    ladder_check c = ladder_compare_f32(same, ref, 4, 0.0);
    EXPECT(c.passed);
    EXPECT_NEAR(c.rel_error, 0, 0);

    /* ||(0,0,1,0)|| / ||(3,0,4,0)|| = 1/5. */
    float off[4] = {3, 0, 5, 0};
    c = ladder_compare_f32(off, ref, 4, 0.25);
    EXPECT(c.passed);
    EXPECT_NEAR(c.rel_error, 0.2, 1e-12);
    c = ladder_compare_f32(off, ref, 4, 0.19);
    EXPECT(!c.passed);

    /* A single NaN fails at any tolerance, and so does Inf. */
    float with_nan[4] = {3, 0, NAN, 0};
    c = ladder_compare_f32(with_nan, ref, 4, 1e30);
    EXPECT(!c.passed);
    EXPECT(c.nonfinite == 1);
    float with_inf[4] = {3, INFINITY, 4, 0};
    c = ladder_compare_f32(with_inf, ref, 4, 1e30);
    EXPECT(!c.passed);

    /* An all-zero reference falls back to the absolute norm. */
    double zeros[2] = {0, 0};
    float small[2] = {0, 1e-3f};
    c = ladder_compare_f32_f64(small, zeros, 2, 1e-2);
    EXPECT(c.passed);
    EXPECT_NEAR(c.rel_error, 1e-3, 1e-9);

    /* Tolerances grow with the reduction length and never drop below 2 ulp. */
    EXPECT(ladder_fp32_tolerance(4096) > ladder_fp32_tolerance(64));
    EXPECT(ladder_fp32_tolerance(1) >= 2 * 5.96e-8);
    EXPECT(ladder_fp32_tolerance(1 << 28) < 1e-2);

    /* Random fills: reproducible, in range, never zero, seed-dependent. */
    float a[1000], b[1000], d[1000];
    ladder_fill_uniform(a, 1000, 42, 1.0f, 2.0f);
    ladder_fill_uniform(b, 1000, 42, 1.0f, 2.0f);
    ladder_fill_uniform(d, 1000, 43, 1.0f, 2.0f);
    int same_as_b = 1, differs_from_d = 0, in_range = 1;
    double mean = 0;
    for (int i = 0; i < 1000; ++i) {
        same_as_b &= a[i] == b[i];
        differs_from_d |= a[i] != d[i];
        in_range &= a[i] >= 1.0f && a[i] < 2.0f;
        mean += a[i] / 1000.0;
    }
    EXPECT(same_as_b);
    EXPECT(differs_from_d);
    EXPECT(in_range);
    EXPECT_NEAR(mean, 1.5, 0.05);
    EXPECT(ladder_random_below(1, 2, 10) < 10);
    return test_result("validate_test");
}
