/* CPU tests of the sweep helpers: the latency + bandwidth fit on synthetic
 * sweeps with known answers, noise and badly measured points, and the byte
 * comparison of copies. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sweep.h"
#include "harness/testing/test_util.h"

/* The sweep of the transfer and p2p cases: 4 KiB to 1 GiB. */
#define SWEEP_MIN_LOG2 12
#define SWEEP_MAX_LOG2 30
#define SIZES (SWEEP_MAX_LOG2 - SWEEP_MIN_LOG2 + 1)

/* A deterministic noise factor in [1 - amplitude, 1 + amplitude]. */
static double noise(uint64_t *state, double amplitude)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    double unit = (double)(*state >> 11) / 9007199254740992.0; /* [0, 1) */
    return 1.0 + amplitude * (2.0 * unit - 1.0);
}

/* The sweep's sizes, times from the model, each times a noise factor. */
static size_t synthetic_sweep(double latency_s, double bandwidth_bps, double amplitude, uint64_t seed,
                              double *bytes, double *seconds)
{
    uint64_t state = seed;
    size_t n = 0;
    for (int k = SWEEP_MIN_LOG2; k <= SWEEP_MAX_LOG2; ++k, ++n) {
        bytes[n] = ldexp(1.0, k);
        seconds[n] = (latency_s + bytes[n] / bandwidth_bps) * noise(&state, amplitude);
    }
    return n;
}

static void test_exact_model(void)
{
    double bytes[SIZES], seconds[SIZES];
    size_t n = synthetic_sweep(10e-6, 8e9, 0.0, 1, bytes, seconds);
    ladder_fit fit = ladder_fit_latency_bandwidth(bytes, seconds, NULL, n);
    EXPECT(fit.points == SIZES);
    EXPECT_NEAR(fit.latency_s, 10e-6, 1e-12);
    EXPECT_NEAR(fit.bandwidth_bps / 8e9, 1.0, 1e-9);
    /* The textbook figure: 10 us x 8 GB/s = 80 KB, where half the bandwidth is reached. */
    EXPECT_NEAR(fit.half_peak_bytes, 80e3, 1e-3);
    double at_half = fit.half_peak_bytes / (fit.latency_s + fit.half_peak_bytes / fit.bandwidth_bps);
    EXPECT_NEAR(at_half / fit.bandwidth_bps, 0.5, 1e-9);
}

/* 3 % noise on every point, over many draws: the weighted fit keeps the
 * microsecond intercept; an unweighted one would not (the 1 GiB point's
 * noise alone is ~600 us at 50 GB/s). */
static void test_noisy_model(void)
{
    const double latencies[] = {2e-6, 10e-6, 25e-6};
    const double bandwidths[] = {50e9, 25e9, 6e9};
    for (int m = 0; m < 3; ++m) {
        for (uint64_t seed = 1; seed <= 50; ++seed) {
            double bytes[SIZES], seconds[SIZES];
            size_t n = synthetic_sweep(latencies[m], bandwidths[m], 0.03, seed, bytes, seconds);
            ladder_fit fit = ladder_fit_latency_bandwidth(bytes, seconds, NULL, n);
            EXPECTF(fabs(fit.latency_s / latencies[m] - 1) < 0.05, "latency %g fitted as %g (seed %llu)",
                    latencies[m], fit.latency_s, (unsigned long long)seed);
            EXPECTF(fabs(fit.bandwidth_bps / bandwidths[m] - 1) < 0.03, "bandwidth %g fitted as %g (seed %llu)",
                    bandwidths[m], fit.bandwidth_bps, (unsigned long long)seed);
            double half_peak = latencies[m] * bandwidths[m];
            EXPECTF(fabs(fit.half_peak_bytes / half_peak - 1) < 0.08, "half peak %g fitted as %g", half_peak,
                    fit.half_peak_bytes);
        }
    }
}

/* Four mid-size points 40 % slow and measured with a 25 % spread (as pinned
 * host-to-device copies of 1-16 MiB were on the lent GPUs), the rest exact
 * with a 0.5 % spread: weighted by spread, the fit keeps the model's
 * bandwidth; with every point weighted alike, those four pull it down. */
static void test_scattered_points_count_less(void)
{
    double bytes[SIZES], seconds[SIZES], spread[SIZES];
    size_t n = synthetic_sweep(8e-6, 50e9, 0.0, 1, bytes, seconds);
    for (size_t i = 0; i < n; ++i) {
        int scattered = bytes[i] >= 0x1p20 && bytes[i] <= 0x1p23;
        spread[i] = scattered ? 0.25 : 0.005;
        if (scattered) seconds[i] *= 1.4;
    }
    ladder_fit weighted = ladder_fit_latency_bandwidth(bytes, seconds, spread, n);
    ladder_fit alike = ladder_fit_latency_bandwidth(bytes, seconds, NULL, n);
    EXPECTF(fabs(weighted.bandwidth_bps / 50e9 - 1) < 0.02, "weighted bandwidth %g", weighted.bandwidth_bps);
    EXPECTF(fabs(weighted.latency_s / 8e-6 - 1) < 0.05, "weighted latency %g", weighted.latency_s);
    EXPECTF(alike.bandwidth_bps / 50e9 < 0.95, "unweighted bandwidth %g: the scattered points should pull it",
            alike.bandwidth_bps);
}

/* A sweep that stops early (--quick) still fits, from its own sizes. */
static void test_partial_sweep(void)
{
    double bytes[SIZES], seconds[SIZES];
    synthetic_sweep(5e-6, 20e9, 0.0, 1, bytes, seconds);
    ladder_fit fit = ladder_fit_latency_bandwidth(bytes, seconds, NULL, 5); /* 4 KiB .. 64 KiB */
    EXPECT_NEAR(fit.latency_s, 5e-6, 1e-12);
    EXPECT_NEAR(fit.bandwidth_bps / 20e9, 1.0, 1e-9);
}

static void test_degenerate_inputs(void)
{
    double bytes[3] = {4096, 4096, 4096}, seconds[3] = {1e-5, 1.1e-5, 0.9e-5};
    EXPECT(isnan(ladder_fit_latency_bandwidth(bytes, seconds, NULL, 1).latency_s));
    EXPECT(isnan(ladder_fit_latency_bandwidth(bytes, seconds, NULL, 0).bandwidth_bps));
    EXPECT(isnan(ladder_fit_latency_bandwidth(bytes, seconds, NULL, 3).bandwidth_bps)); /* one size only */

    /* Time falling with size: no positive bandwidth. */
    double sizes[2] = {4096, 8192}, falling[2] = {2e-5, 1e-5};
    EXPECT(isnan(ladder_fit_latency_bandwidth(sizes, falling, NULL, 2).bandwidth_bps));

    /* A zero time is not a measurement. */
    double zero[2] = {0, 1e-5};
    EXPECT(isnan(ladder_fit_latency_bandwidth(sizes, zero, NULL, 2).latency_s));

    /* Pure bandwidth, no latency: a fit, but no half-peak size. */
    double proportional[2] = {4096 / 1e10, 8192 / 1e10};
    ladder_fit fit = ladder_fit_latency_bandwidth(sizes, proportional, NULL, 2);
    EXPECT_NEAR(fit.bandwidth_bps / 1e10, 1.0, 1e-9);
    EXPECT(isnan(fit.half_peak_bytes));
}

static void test_compare_bytes(void)
{
    unsigned char want[4099], got[4099];
    for (size_t i = 0; i < sizeof want; ++i) want[i] = (unsigned char)(i * 131 + 7);
    memcpy(got, want, sizeof got);
    ladder_check c = ladder_compare_bytes(got, want, sizeof got);
    EXPECT(c.passed && c.rel_error == 0 && c.tolerance == 0);

    got[4098] ^= 1; /* the last, odd byte */
    c = ladder_compare_bytes(got, want, sizeof got);
    EXPECT(!c.passed);
    EXPECT_NEAR(c.rel_error, 1.0 / 4099, 1e-15);
    /* ... but it is outside a shorter comparison. */
    EXPECT(ladder_compare_bytes(got, want, 4098).passed);

    memset(got, 0xFF, sizeof got); /* unwritten: poison */
    c = ladder_compare_bytes(got, want, sizeof got);
    EXPECT(!c.passed && c.rel_error > 0.9);
}

int main(void)
{
    test_exact_model();
    test_noisy_model();
    test_scattered_points_count_less();
    test_partial_sweep();
    test_degenerate_inputs();
    test_compare_bytes();
    return test_result("sweep_test");
}
