#include "sweep.h"

#include <math.h>

ladder_check ladder_compare_bytes(const void *got, const void *want, size_t bytes)
{
    const unsigned char *g = got, *w = want;
    size_t differing = 0;
#pragma omp parallel for reduction(+ : differing)
    for (long long i = 0; i < (long long)bytes; ++i) differing += g[i] != w[i];
    ladder_check c = {bytes ? (double)differing / (double)bytes : 0.0, 0.0, 0, differing == 0};
    return c;
}

ladder_fit ladder_fit_latency_bandwidth(const double *bytes, const double *seconds, const double *rel_spread,
                                       size_t n)
{
    ladder_fit none = {NAN, NAN, NAN, n};
    /* Minimise sum ((t - a - b x) / t)^2 / u: the normal equations with weights 1 / (t^2 u). */
    double sw = 0, sx = 0, sxx = 0, st = 0, sxt = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!(seconds[i] > 0)) return none;
        double spread = rel_spread && rel_spread[i] > 0 ? rel_spread[i] : 0;
        double uncertainty = spread * spread + LADDER_FIT_SPREAD_FLOOR * LADDER_FIT_SPREAD_FLOOR;
        double w = 1.0 / (seconds[i] * seconds[i] * uncertainty);
        sw += w;
        sx += w * bytes[i];
        sxx += w * bytes[i] * bytes[i];
        st += w * seconds[i];
        sxt += w * bytes[i] * seconds[i];
    }
    double det = sw * sxx - sx * sx;
    /* Distinct sizes make det > 0; guard against rounding with a relative test. */
    if (n < 2 || !(det > 1e-12 * sw * sxx)) return none;
    double slope = (sw * sxt - sx * st) / det;
    double intercept = (st - slope * sx) / sw;
    if (!(slope > 0)) return none;
    ladder_fit fit = {intercept, 1.0 / slope, NAN, n};
    if (intercept > 0) fit.half_peak_bytes = intercept / slope;
    return fit;
}
