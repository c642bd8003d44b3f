/* CPU tests of the energy module: the window between two updates of the
 * counter from hand-made readings (periodic, jittered, standing still,
 * going backwards, wrapping, failing, too coarse), the idle calibration,
 * the figures' arithmetic, the poller and the session with fake counters:
 * a counter that cannot be trusted gives an empty figure with its reason,
 * never a negative or infinite one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "energy.h"
#include "test_util.h"
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

static void test_span_between_updates(void)
{
    /* 100 ms periods, 3.4 ms readings, 350 W: two updates after 0.03 s. */
    ladder_energy_reading r[200];
    size_t n = periodic(r, 200, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);
    ladder_energy_span s = ladder_energy_span_of(r, n, 0.03, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_DONE);
    EXPECT_NEAR(s.joules, 35.0, 1e-9);
    EXPECT(s.periods == 1);
    EXPECT_NEAR(s.seconds, 0.1, 1e-12);
    EXPECT_NEAR(s.joules / s.seconds, 350.0, 1e-6);
    /* The host clock alone sees the span only to a reading's length. */
    s = ladder_energy_span_of(r, n, 0.03, 2, 0, 0.3);
    EXPECT(s.state == LADDER_ENERGY_DONE && s.periods == 0);
    EXPECT_NEAR(s.seconds, 0.1, 2 * 3.4e-3);
    /* A period measured 1 % off moves the figure 1 %, not a period. */
    s = ladder_energy_span_of(r, n, 0.03, 2, 0.101, 0.3);
    EXPECT(s.periods == 1 && fabs(s.joules / s.seconds - 350.0 / 1.01) < 1e-6);
    /* An update before the window opens is not in it: after 0.06 s the
     * first update counted is the one at 0.15 s. */
    s = ladder_energy_span_of(r, n, 0.06, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_DONE);
    EXPECT_NEAR(s.joules, 35.0, 1e-9);
    /* Only one update so far: pending, no figure. */
    s = ladder_energy_span_of(r, 40, 0.03, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_PENDING && isnan(s.joules));
    /* Readings all before the window: pending. */
    s = ladder_energy_span_of(r, 5, 1.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_PENDING);
}

static void test_span_faults(void)
{
    ladder_energy_reading r[200];
    size_t n = periodic(r, 200, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);

    /* Stands still: every reading the same. Pending until the stall time,
     * then failed with the reason. */
    for (size_t i = 0; i < n; ++i) r[i].mj = 5000;
    ladder_energy_span s = ladder_energy_span_of(r, 50, 0.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_PENDING);
    s = ladder_energy_span_of(r, n, 0.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_FAILED && strstr(s.reason, "stood still") && isnan(s.joules));

    /* One update, then nothing for longer than the stall time. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);
    for (size_t i = 20; i < n; ++i) r[i].mj = r[19].mj;
    s = ladder_energy_span_of(r, n, 0.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_FAILED && strstr(s.reason, "stood still"));

    /* Goes backwards between the updates. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);
    r[30].mj = r[29].mj - 1; /* between the two updates */
    s = ladder_energy_span_of(r, n, 0.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_FAILED && strstr(s.reason, "backwards") && isnan(s.joules));

    /* Wraps: the second update lands past 2^64. A wrapped difference would
     * be a huge positive number of joules; it is refused instead. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, ~0ull - 40000);
    s = ladder_energy_span_of(r, n, 0.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_FAILED && strstr(s.reason, "backwards"));

    /* A reading that failed. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 350.0, 1000000);
    r[10].ok = 0;
    s = ladder_energy_span_of(r, n, 0.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_FAILED && strstr(s.reason, "failed"));

    /* Too coarse: 0.5 W over a 100 ms period moves 50 mJ, under the 100 mJ
     * that resolve 1 %. */
    periodic(r, n, 3.4e-3, 3.4e-3, 0.1, 0.05, 0.5, 1000000);
    s = ladder_energy_span_of(r, n, 0.0, 2, 0.1, 0.3);
    EXPECT(s.state == LADDER_ENERGY_FAILED && strstr(s.reason, "too little"));
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
    struct timespec wait = {0, 60 * 1000000L};
    nanosleep(&wait, NULL);
    ladder_energy_reading r[4096];
    size_t n = ladder_energy_poller_readings(p, r, 4096);
    ladder_energy_poller_stop(p);
    EXPECTF(n >= 20, "the poller read the counter %zu times in 60 ms", n);
    int ordered = 1;
    for (size_t i = 1; i < n; ++i) ordered &= r[i].start_s >= r[i - 1].end_s && r[i].mj >= r[i - 1].mj && r[i].ok;
    EXPECT(ordered);
    ladder_energy_span s = ladder_energy_span_of(r, n, r[0].start_s, 2, 0.01, 0.05);
    EXPECT(s.state == LADDER_ENERGY_DONE);
    EXPECT_NEAR(s.joules / s.seconds, 100.0, 1e-6);
}

static void test_session(void)
{
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
        ladder_energy e = ladder_energy_measure(NULL, NULL, 1.0, 1e9, 1e9);
        EXPECT(e.reason && strstr(e.reason, broken[i].reason) && isnan(e.joules_per_run) && isnan(e.watts));
    }
    ladder_energy_open(&d, 0, &counter);
    EXPECT(strstr(d.energy_note, "--no-energy"));
    ladder_energy e = ladder_energy_measure(NULL, NULL, 1.0, 1e9, 1e9);
    EXPECT(e.reason && strstr(e.reason, "--no-energy") && isnan(e.joules_per_run));
    ladder_energy_close();
    e = ladder_energy_measure(NULL, NULL, 1.0, 1e9, 1e9);
    EXPECT(e.reason && isnan(e.joules_per_run));
}

int main(void)
{
    test_span_between_updates();
    test_span_faults();
    test_calibration();
    test_figures();
    test_poller();
    test_session();
    return test_result("energy_test");
}
