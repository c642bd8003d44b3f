/* CPU tests of the energy module: the counter's updates found in hand-made
 * readings (periodic, with a gap, standing still, going backwards,
 * wrapping, failing), the line through them, each rung's power from the
 * periods with its neighbours' edges taken off, the idle calibration,
 * the figures' arithmetic, the poller and the session with fake counters:
 * a counter that cannot be trusted gives an empty figure with its reason,
 * never a negative or infinite one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "energy.h"
#include "harness/testing/test_util.h"
#include "timing.h"

/* Readings every `gap_s`, each `call_s` long, of a counter that adds
 * `watts` x period at each update, every `period_s` from `phase_s`. */
static size_t periodic(ladder_energy_reading *r, size_t n, double gap_s, double call_s, double period_s, double phase_s,
                       double watts, unsigned long long start_mj)
{
    for (size_t i = 0; i < n; ++i) {
        double t = (double)i * gap_s, read_at = t + 0.5 * call_s;
        double updates = read_at < phase_s ? 0 : floor((read_at - phase_s) / period_s) + 1;
        r[i] = (ladder_energy_reading){t, t + call_s, start_mj + (unsigned long long)llround(updates * watts * period_s * 1e3), 1};
    }
    return n;
}

static void test_updates(void)
{
    /* 100 ms periods from 0.05 s, 3.4 ms readings, 350 W. */
    ladder_energy_reading r[200];
    size_t n = periodic(r, 200, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);
    ladder_energy_update u[16];
    const char *why = NULL;
    int found = ladder_energy_find_updates(r, 0, n, 0.1, NULL, u, 16, &why);
    EXPECT(found == 7 && why == NULL); /* 0.05, 0.15, ..., 0.65 in 0.68 s */
    for (int i = 0; i < found; ++i) {
        EXPECT(u[i].index == i);
        EXPECT_NEAR(u[i].seen_s, 0.05 + 0.1 * i, 3.4e-3);
        EXPECT(u[i].mj == 1000000 + 35000ull * (unsigned long long)(i + 1));
    }
    /* Found in two looks, the second numbering on from the first. */
    int first = ladder_energy_find_updates(r, 0, 60, 0.1, NULL, u, 16, &why);
    int more = ladder_energy_find_updates(r, 59, n, 0.1, &u[first - 1], u + first, 16 - first, &why);
    EXPECT(first + more == 7 && u[6].index == 6);
    /* Readings 50 to 109 lost (the thread held up over two updates): the
     * change across the gap cannot be placed and is left out; the next
     * update is numbered past both. */
    ladder_energy_reading gap[140];
    memcpy(gap, r, 50 * sizeof *r);
    memcpy(gap + 50, r + 110, 90 * sizeof *r);
    found = ladder_energy_find_updates(gap, 0, 140, 0.1, NULL, u, 16, &why);
    EXPECT(found == 5 && u[1].index == 1 && u[2].index == 4 && u[2].mj == 1000000 + 5 * 35000ull);

    /* The line through them: the period and the first update, to well under a reading. */
    found = ladder_energy_find_updates(r, 0, n, 0.1, NULL, u, 16, &why);
    ladder_energy_clock clock = ladder_energy_fit(u, found, 0.1);
    EXPECT_NEAR(clock.period_s, 0.1, 1e-3);
    EXPECT_NEAR(clock.first_s, 0.05, 2e-3);
    /* Two updates: the period given, through the first. */
    clock = ladder_energy_fit(u, 2, 0.098);
    EXPECT_NEAR(clock.period_s, 0.098, 1e-12);
    EXPECT_NEAR(clock.first_s, u[0].seen_s, 1e-12);
}

static void test_update_faults(void)
{
    ladder_energy_reading r[200];
    ladder_energy_update u[16];
    const char *why = NULL;
    size_t n = periodic(r, 200, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);

    /* Stands still: no update, no figure (the chain's clock then says
     * "stood still" after three periods). */
    for (size_t i = 0; i < n; ++i) r[i].mj = 5000;
    EXPECT(ladder_energy_find_updates(r, 0, n, 0.1, NULL, u, 16, &why) == 0);

    /* Goes backwards between two updates. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);
    r[30].mj = r[29].mj - 1;
    EXPECT(ladder_energy_find_updates(r, 0, n, 0.1, NULL, u, 16, &why) == -1 && strstr(why, "backwards"));

    /* Wraps past 2^64: a wrapped difference would be a huge positive number
     * of joules; it is refused instead. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, ~0ull - 40000);
    why = NULL;
    EXPECT(ladder_energy_find_updates(r, 0, n, 0.1, NULL, u, 16, &why) == -1 && strstr(why, "backwards"));

    /* A reading that failed. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);
    r[10].ok = 0;
    why = NULL;
    EXPECT(ladder_energy_find_updates(r, 0, n, 0.1, NULL, u, 16, &why) == -1 && strstr(why, "failed"));
}

static void test_attribution(void)
{
    /* Three rungs at 300, 500 and 200 W, each run for one 100 ms period
     * from update 0 at t = 1 s; the switches 2 ms late, 1 ms early. */
    const double watts_true[] = {300.0, 500.0, 200.0};
    ladder_energy_clock clock = {1.0, 0.1};
    const double switch_s[] = {0.97, 1.102, 1.199, 1.35};
    double joules[3];
    for (int k = 0; k < 3; ++k) {
        double k0 = 1.0 + 0.1 * k, k1 = k0 + 0.1;
        joules[k] = 0;
        for (int i = 0; i < 3; ++i) {
            double lo = fmax(switch_s[i], k0), hi = fmin(switch_s[i + 1], k1);
            if (hi > lo) joules[k] += watts_true[i] * (hi - lo);
        }
    }
    double watts[3];
    const char *reasons[3];
    ladder_energy_attribute(clock, joules, 3, switch_s, 3, watts, reasons);
    for (int i = 0; i < 3; ++i) {
        EXPECT(reasons[i] == NULL);
        EXPECT_NEAR(watts[i], watts_true[i], 1e-6 * watts_true[i]);
    }
    /* Without the neighbours' edges taken off, the 500 W rung would read
     * 2 % low: the correction is what the test checks. */
    EXPECT(fabs(joules[1] / 0.1 - 500.0) > 5.0);

    /* A rung that ran for under 80 % of any period owns none: no figure. */
    const double short_switch[] = {0.97, 1.05, 1.2, 1.35};
    ladder_energy_attribute(clock, joules, 3, short_switch, 3, watts, reasons);
    EXPECT(isnan(watts[0]) && reasons[0] && strstr(reasons[0], "placed"));
    /* A period whose update was not seen holds nothing. */
    joules[2] = NAN;
    ladder_energy_attribute(clock, joules, 3, switch_s, 3, watts, reasons);
    EXPECT(isnan(watts[2]) && reasons[2] != NULL);
    EXPECT_NEAR(watts[1], 500.0, 0.01 * 500.0); /* its 1 ms edge at 200 W stays in: 0.6 % low */
    /* Less energy than the neighbours' share: not positive, so no figure. */
    const double zero[] = {0.0, 0.0, 0.0};
    ladder_energy_attribute(clock, zero, 3, switch_s, 3, watts, reasons);
    for (int i = 0; i < 3; ++i) EXPECT(isnan(watts[i]) && reasons[i]);
}

static void test_calibration(void)
{
    ladder_energy_reading r[300];
    /* Idle at 70 W, updates every 100 ms, readings of 3.4 ms back to back. */
    size_t n = periodic(r, 300, 3.4e-3, 3.4e-3, 0.1, 0.02, 70.0, 123456789);
    ladder_energy_calibration c = ladder_energy_calibrate_readings(r, n);
    EXPECT(c.usable);
    EXPECT_NEAR(c.period_s, 0.1, 1e-3);
    EXPECT_NEAR(c.idle_w, 70.0, 1.0);

    for (size_t i = 0; i < n; ++i) r[i].mj = 42;
    c = ladder_energy_calibrate_readings(r, n);
    EXPECT(!c.usable && strstr(c.reason, "stood still") && isnan(c.idle_w));

    /* Two updates a second apart: too coarse to be worth a window a rung. */
    n = periodic(r, 300, 3.4e-3, 3.4e-3, 0.6, 0.1, 70.0, 1000);
    c = ladder_energy_calibrate_readings(r, n);
    EXPECT(!c.usable && strstr(c.reason, "too coarse"));

    n = periodic(r, 300, 3.4e-3, 3.4e-3, 0.1, 0.02, 70.0, 1000);
    r[150].mj = 0;
    c = ladder_energy_calibrate_readings(r, n);
    EXPECT(!c.usable && strstr(c.reason, "backwards"));
}

static void test_figures(void)
{
    /* 350 W for 2 ms a run: 0.7 J; 1.4 TFLOP a run: 2000 GFLOP/J; 7 GB: 10 GB/J. */
    ladder_energy e = ladder_energy_figures(350.0, 2e-3, 1.4e12, 7e9);
    EXPECT(e.reason == NULL);
    EXPECT_NEAR(e.joules_per_run, 0.7, 1e-12);
    EXPECT_NEAR(e.ms_per_run, 2.0, 1e-12);
    EXPECT_NEAR(e.gflop_per_j, 2000.0, 1e-9);
    EXPECT_NEAR(e.gb_per_j, 10.0, 1e-12);
    e = ladder_energy_figures(350.0, 2e-3, 0, 7e9);
    EXPECT(isnan(e.gflop_per_j) && e.gb_per_j > 0);
    /* Never a negative, zero or infinite figure: the reason instead. */
    const double bad_watts[] = {0.0, -5.0, INFINITY, NAN};
    for (int i = 0; i < 4; ++i) {
        e = ladder_energy_figures(bad_watts[i], 2e-3, 1e9, 1e9);
        EXPECT(e.reason && isnan(e.joules_per_run) && isnan(e.watts) && isnan(e.gflop_per_j));
    }
    e = ladder_energy_figures(350.0, 0.0, 1e9, 1e9);
    EXPECT(e.reason && isnan(e.joules_per_run));
    e = ladder_energy_missing("why");
    EXPECT(strcmp(e.reason, "why") == 0 && isnan(e.joules_per_run) && isnan(e.gb_per_j));
}

/* Fake counters on the host clock, for the poller and the session. */
typedef struct fake_counter {
    enum { PERIODIC, STILL, BACKWARDS, BROKEN } kind;
    double period_s, watts, started;
} fake_counter;

static int read_fake(void *context, unsigned long long *mj)
{
    fake_counter *f = context;
    double t = ladder_now_seconds() - f->started;
    double updates = floor(t / f->period_s);
    switch (f->kind) {
    case PERIODIC: *mj = 1000 + (unsigned long long)(updates * f->watts * f->period_s * 1e3); return 0;
    case STILL: *mj = 1000; return 0;
    case BACKWARDS: *mj = (unsigned long long)(1e9 - updates * f->watts * f->period_s * 1e3); return 0;
    default: return 15; /* NVML_ERROR_NOT_SUPPORTED-like */
    }
}

static void test_poller(void)
{
    fake_counter f = {PERIODIC, 0.01, 100.0, ladder_now_seconds()};
    ladder_energy_counter counter = {read_fake, &f};
    ladder_energy_poller *p = ladder_energy_poller_start(&counter);
    /* Until the readings span 60 ms (six updates), not for 60 ms: on a loaded
     * machine (CI's two cores building beside the tests) the poller thread may
     * not run at once, and a fixed sleep then sees two updates. 2 s at most. */
    ladder_energy_reading r[4096];
    size_t n = 0;
    for (int waited_ms = 0; waited_ms < 2000; waited_ms += 10) {
        struct timespec wait = {0, 10 * 1000000L};
        nanosleep(&wait, NULL);
        n = ladder_energy_poller_readings(p, 0, r, 4096);
        if (n >= 20 && r[n - 1].end_s - r[0].start_s >= 0.065) break;
    }
    ladder_energy_poller_stop(p);
    EXPECTF(n >= 20, "the poller read the counter %zu times", n);
    int ordered = 1;
    for (size_t i = 1; i < n; ++i) ordered &= r[i].start_s >= r[i - 1].end_s && r[i].mj >= r[i - 1].mj && r[i].ok;
    EXPECT(ordered);
    ladder_energy_update u[64];
    const char *why = NULL;
    int found = ladder_energy_find_updates(r, 0, n, 0.01, NULL, u, 64, &why);
    EXPECTF(found >= 4, "%d updates of a 10 ms counter in %.0f ms of readings", found,
            n ? 1e3 * (r[n - 1].end_s - r[0].start_s) : 0.0);
    if (found >= 2) EXPECT_NEAR((double)(u[found - 1].mj - u[0].mj) / 1e3 / (u[found - 1].seen_s - u[0].seen_s), 100.0, 10.0);
}

static void test_session(void)
{
    /* Never launched: a session without a counter touches no GPU. */
    const ladder_energy_rung rung = {NULL, NULL, 1.0, 1e9, 1e9};
    ladder_device d;
    memset(&d, 0, sizeof d);
    /* A working counter: 20 ms periods, 90 W idle. */
    fake_counter f = {PERIODIC, 0.02, 90.0, ladder_now_seconds()};
    ladder_energy_counter counter = {read_fake, &f};
    ladder_energy_open(&d, 1, &counter);
    EXPECT(d.energy_checked && d.energy_note[0] == '\0');
    EXPECT_NEAR(d.energy_period_ms, 20.0, 1.0);
    EXPECT_NEAR(d.idle_power_w, 90.0, 5.0);
    EXPECT(isnan(d.power_limit_w)); /* no NVML here: unknown, not 0 */

    /* Each broken counter: the device says why, and a rung's figures are
     * empty with that reason, without touching the GPU. */
    const struct {
        int kind;
        const char *reason;
    } broken[] = {{STILL, "stood still"}, {BACKWARDS, "backwards"}, {BROKEN, "failed"}};
    for (int i = 0; i < 3; ++i) {
        fake_counter b = {broken[i].kind, 0.02, 90.0, ladder_now_seconds()};
        ladder_energy_counter bc = {read_fake, &b};
        ladder_energy_open(&d, 1, &bc);
        EXPECTF(strstr(d.energy_note, broken[i].reason), "a broken counter's note: '%s'", d.energy_note);
        EXPECT(isnan(d.idle_power_w) && isnan(d.energy_period_ms));
        ladder_energy e;
        ladder_energy_measure_ladder(&rung, 1, &e);
        EXPECT(e.reason && strstr(e.reason, broken[i].reason) && isnan(e.joules_per_run) && isnan(e.watts));
    }
    ladder_energy_open(&d, 0, &counter);
    EXPECT(strstr(d.energy_note, "--no-energy"));
    ladder_energy e;
    ladder_energy_measure_ladder(&rung, 1, &e);
    EXPECT(e.reason && strstr(e.reason, "--no-energy") && isnan(e.joules_per_run));
    ladder_energy_close();
    ladder_energy_measure_ladder(&rung, 1, &e);
    EXPECT(e.reason && isnan(e.joules_per_run));
}

int main(void)
{
    test_updates();
    test_update_faults();
    test_attribution();
    test_calibration();
    test_figures();
    test_poller();
    test_session();
    return test_result("energy_test");
}
