#include "validate.h"

#include <math.h>

ladder_check ladder_error_finish(ladder_error_sum sum, double tolerance)
{
    ladder_check c;
    double diff = sqrt(sum.diff_squared);
    c.rel_error = sum.ref_squared > 0 ? diff / sqrt(sum.ref_squared) : diff;
    c.tolerance = tolerance;
    c.nonfinite = sum.nonfinite;
    c.passed = sum.nonfinite == 0 && c.rel_error <= tolerance;
    return c;
}

#define COMPARE_LOOP(OUT, REF, N)                                                     \
    double diff_squared = 0, ref_squared = 0;                                         \
    size_t nonfinite = 0;                                                             \
    _Pragma("omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)")   \
    for (long long i = 0; i < (long long)(N); ++i) {                                  \
        double o = (OUT)[i], r = (REF)[i];                                            \
        ref_squared += r * r;                                                         \
        if (!isfinite(o)) ++nonfinite;                                                \
        else diff_squared += (o - r) * (o - r);                                       \
    }                                                                                 \
    ladder_error_sum sum = {diff_squared, ref_squared, nonfinite};

ladder_check ladder_compare_f32(const float *out, const float *ref, size_t n, double tolerance)
{
    COMPARE_LOOP(out, ref, n)
    return ladder_error_finish(sum, tolerance);
}

ladder_check ladder_compare_f32_f64(const float *out, const double *ref, size_t n, double tolerance)
{
    COMPARE_LOOP(out, ref, n)
    return ladder_error_finish(sum, tolerance);
}

double ladder_fp32_tolerance(double length)
{
    const double unit_roundoff = 5.96e-8; /* 2^-24 */
    double scaled = 8.0 * unit_roundoff * sqrt(length > 1 ? length : 1);
    return scaled > 2 * unit_roundoff ? scaled : 2 * unit_roundoff;
}
