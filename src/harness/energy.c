#include "energy.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "nvml.h"

/* ---------------- NVML ---------------- */

static int nvml_read_mj(void *context, unsigned long long *mj)
{
    int (*get_energy)(nvml_device, unsigned long long *) =
        (int (*)(nvml_device, unsigned long long *))ladder_nvml_symbol("nvmlDeviceGetTotalEnergyConsumption");
    return get_energy ? get_energy((nvml_device)context, mj) : -1;
}

int ladder_energy_nvml_counter(const char *pci_bus_id, ladder_energy_counter *counter, char *why, size_t why_len)
{
    if (!ladder_nvml_symbol("nvmlDeviceGetTotalEnergyConsumption")) {
        snprintf(why, why_len, "no energy counter: NVML is missing or too old");
        return -1;
    }
    nvml_device device = ladder_nvml_device(pci_bus_id);
    if (!device) {
        snprintf(why, why_len, "no energy counter: NVML does not know this GPU");
        return -1;
    }
    unsigned long long mj;
    int status = nvml_read_mj(device, &mj);
    if (status != 0) {
        /* 3: NVML_ERROR_NOT_SUPPORTED (before Volta, many virtual GPUs) */
        snprintf(why, why_len, "no energy counter: NVML error %d%s", status,
                 status == 3 ? " (not supported on this GPU)" : "");
        return -1;
    }
    *counter = (ladder_energy_counter){nvml_read_mj, device};
    return 0;
}

double ladder_board_power_limit_w(const char *pci_bus_id)
{
    int (*get_limit)(nvml_device, unsigned *) =
        (int (*)(nvml_device, unsigned *))ladder_nvml_symbol("nvmlDeviceGetEnforcedPowerLimit");
    nvml_device device = get_limit ? ladder_nvml_device(pci_bus_id) : NULL;
    unsigned milliwatts;
    return device && get_limit(device, &milliwatts) == 0 ? milliwatts / 1e3 : NAN;
}

/* ---------------- the poller ---------------- */

struct ladder_energy_poller {
    ladder_energy_counter counter;
    pthread_t thread;
    pthread_mutex_t lock;
    int stop;
    ladder_energy_reading *readings;
    size_t count, capacity;
};

/* A counter that answers at once (a fake) is read no faster than this, so
 * that a test's poller does not fill memory. */
#define MIN_READING_GAP_S 200e-6

static void sleep_seconds(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

static void *poll_counter(void *arg)
{
    ladder_energy_poller *p = arg;
    for (;;) {
        ladder_energy_reading r;
        r.start_s = ladder_now_seconds();
        r.ok = p->counter.read_mj(p->counter.context, &r.mj) == 0;
        r.end_s = ladder_now_seconds();
        pthread_mutex_lock(&p->lock);
        int stop = p->stop;
        if (!stop && p->count == p->capacity) {
            size_t capacity = p->capacity ? 2 * p->capacity : 256;
            ladder_energy_reading *grown = realloc(p->readings, capacity * sizeof *grown);
            if (!grown) stop = 1; /* the readings so far stand */
            else p->readings = grown, p->capacity = capacity;
        }
        if (!stop) p->readings[p->count++] = r;
        pthread_mutex_unlock(&p->lock);
        if (stop) return NULL;
        double spent = ladder_now_seconds() - r.start_s;
        if (spent < MIN_READING_GAP_S) sleep_seconds(MIN_READING_GAP_S - spent);
    }
}

ladder_energy_poller *ladder_energy_poller_start(const ladder_energy_counter *counter)
{
    ladder_energy_poller *p = calloc(1, sizeof *p);
    if (!p) ladder_die("out of host memory for the energy counter's readings");
    p->counter = *counter;
    pthread_mutex_init(&p->lock, NULL);
    if (pthread_create(&p->thread, NULL, poll_counter, p) != 0) ladder_die("cannot start the energy counter's thread");
    return p;
}

size_t ladder_energy_poller_readings(ladder_energy_poller *p, ladder_energy_reading *out, size_t max)
{
    pthread_mutex_lock(&p->lock);
    size_t n = p->count < max ? p->count : max;
    memcpy(out, p->readings, n * sizeof *out);
    pthread_mutex_unlock(&p->lock);
    return n;
}

void ladder_energy_poller_stop(ladder_energy_poller *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_mutex_destroy(&p->lock);
    free(p->readings);
    free(p);
}

/* ---------------- what the readings say ---------------- */

static const char stood_still[] = "the energy counter stood still";
static const char went_backwards[] = "the energy counter went backwards (or wrapped)";
static const char read_failed[] = "a reading of the energy counter failed";
static const char too_little[] = "the energy counter moved too little to resolve the window";

/* The counter moved between readings i-1 and i: at some moment between the
 * first one's start and the second one's end. */
static double update_time(const ladder_energy_reading *r, size_t i) { return 0.5 * (r[i - 1].start_s + r[i].end_s); }

ladder_energy_span ladder_energy_span_of(const ladder_energy_reading *r, size_t count, double after_s,
                                         int updates_wanted, double period_s, double stall_s)
{
    ladder_energy_span span = {LADDER_ENERGY_PENDING, NAN, NAN, 0, NULL};
    size_t first = 0;
    while (first < count && r[first].start_s < after_s) ++first;
    if (first == count) return span;
    size_t updates[2] = {0, 0}; /* the first update and the latest */
    int seen = 0;
    double last_change = after_s;
    for (size_t i = first; i < count; ++i) {
        if (!r[i].ok) return (ladder_energy_span){LADDER_ENERGY_FAILED, NAN, NAN, 0, read_failed};
        if (i == first) continue;
        if (r[i].mj < r[i - 1].mj) return (ladder_energy_span){LADDER_ENERGY_FAILED, NAN, NAN, 0, went_backwards};
        if (r[i].mj == r[i - 1].mj) continue;
        updates[seen ? 1 : 0] = i;
        last_change = update_time(r, i);
        if (++seen == updates_wanted) break;
    }
    if (seen < updates_wanted) {
        if (r[count - 1].end_s - last_change > stall_s) span = (ladder_energy_span){LADDER_ENERGY_FAILED, NAN, NAN, 0, stood_still};
        return span;
    }
    unsigned long long mj = r[updates[1]].mj - r[updates[0]].mj;
    if (mj < LADDER_ENERGY_MIN_MJ) return (ladder_energy_span){LADDER_ENERGY_FAILED, NAN, NAN, 0, too_little};
    double seen_s = update_time(r, updates[1]) - update_time(r, updates[0]);
    span.state = LADDER_ENERGY_DONE;
    span.joules = (double)mj / 1e3;
    span.seconds = seen_s;
    /* Periodic updates: the span is a whole number of periods, known far
     * better than the host clock sees the two updates (a reading takes
     * milliseconds). A span that is not near one stays as seen. */
    if (period_s > 0) {
        long periods = lround(seen_s / period_s);
        if (periods >= 1 && fabs(seen_s - (double)periods * period_s) <= 0.25 * period_s) {
            span.periods = (int)periods;
            span.seconds = (double)periods * period_s;
        }
    }
    return span;
}

/* At least this many updates (five periods) make the idle figures. */
#define CALIBRATION_UPDATES 6

static const char too_coarse[] = "the energy counter updates less often than every 0.5 s (too coarse)";

ladder_energy_calibration ladder_energy_calibrate_readings(const ladder_energy_reading *r, size_t count)
{
    ladder_energy_calibration cal = {0, NAN, NAN, NULL};
    size_t first_update = 0, last_update = 0;
    int updates = 0;
    for (size_t i = 0; i < count; ++i) {
        if (!r[i].ok) return cal.reason = read_failed, cal;
        if (i == 0) continue;
        if (r[i].mj < r[i - 1].mj) return cal.reason = went_backwards, cal;
        if (r[i].mj == r[i - 1].mj) continue;
        if (!updates++) first_update = i;
        last_update = i;
    }
    double span_s = updates >= 2 ? update_time(r, last_update) - update_time(r, first_update) : 0;
    if (updates == 0) return cal.reason = stood_still, cal;
    if (updates < 3 || span_s / (updates - 1) > LADDER_ENERGY_MAX_PERIOD_S) return cal.reason = too_coarse, cal;
    unsigned long long mj = r[last_update].mj - r[first_update].mj;
    if (mj < LADDER_ENERGY_MIN_MJ) return cal.reason = too_little, cal;
    cal.usable = 1;
    cal.period_s = span_s / (updates - 1);
    cal.idle_w = (double)mj / 1e3 / span_s;
    return cal;
}

ladder_energy ladder_energy_missing(const char *reason)
{
    return (ladder_energy){NAN, NAN, NAN, NAN, NAN, reason};
}

ladder_energy ladder_energy_figures(double watts, double seconds_per_run, double flops, double bytes)
{
    if (!(watts > 0) || !isfinite(watts)) return ladder_energy_missing("the board's power came out not positive");
    if (!(seconds_per_run > 0) || !isfinite(seconds_per_run))
        return ladder_energy_missing("no time per run back to back");
    ladder_energy e = {watts * seconds_per_run, watts, seconds_per_run * 1e3, NAN, NAN, NULL};
    if (flops > 0) e.gflop_per_j = flops / e.joules_per_run / 1e9;
    if (bytes > 0) e.gb_per_j = bytes / e.joules_per_run / 1e9;
    return e;
}

/* ---------------- the run's session ---------------- */

#define MAX_SAID 16

static struct {
    int usable;
    ladder_energy_counter counter;
    double period_s;
    const char *reason; /* !usable */
    char note[160];
    const char *said[MAX_SAID];
    int said_count;
} session = {.reason = "energy not measured (no counter opened)"};

void ladder_energy_say_once(const char *reason)
{
    for (int i = 0; i < session.said_count; ++i)
        if (strcmp(session.said[i], reason) == 0) return;
    if (session.said_count < MAX_SAID) session.said[session.said_count++] = reason;
    fprintf(stderr, "ladder: energy left empty where %s\n", reason);
}

/* Readings kept while a window or the calibration runs: one per ~3.4 ms on
 * an H100; 4096 outlast the longest window the stall check allows. */
#define MAX_READINGS 4096
static ladder_energy_reading readings[MAX_READINGS];

void ladder_energy_open(ladder_device *d, int enabled, const ladder_energy_counter *counter)
{
    session.usable = 0;
    session.said_count = 0;
    d->energy_checked = 1;
    d->power_limit_w = ladder_board_power_limit_w(d->pci_bus_id);
    d->idle_power_w = d->energy_period_ms = NAN;
    if (!enabled) snprintf(session.note, sizeof session.note, "not measured (--no-energy)");
    else if (counter) session.counter = *counter;
    else if (ladder_energy_nvml_counter(d->pci_bus_id, &session.counter, session.note, sizeof session.note) != 0)
        enabled = 0;
    if (!enabled) {
        session.reason = session.note;
        snprintf(d->energy_note, sizeof d->energy_note, "%s", session.note);
        return;
    }
    ladder_energy_poller *p = ladder_energy_poller_start(&session.counter);
    double start = ladder_now_seconds();
    size_t n = 0;
    ladder_energy_calibration cal;
    do {
        sleep_seconds(0.02);
        n = ladder_energy_poller_readings(p, readings, MAX_READINGS);
        cal = ladder_energy_calibrate_readings(readings, n);
        int updates = 0;
        for (size_t i = 1; i < n; ++i) updates += readings[i].mj != readings[i - 1].mj;
        if (cal.usable && updates >= CALIBRATION_UPDATES) break;
    } while (ladder_now_seconds() - start < 4 * LADDER_ENERGY_MAX_PERIOD_S && (cal.usable || cal.reason == stood_still || cal.reason == too_coarse));
    ladder_energy_poller_stop(p);
    if (!cal.usable) {
        snprintf(session.note, sizeof session.note, "%s", cal.reason);
        session.reason = session.note;
        snprintf(d->energy_note, sizeof d->energy_note, "%s", session.note);
        return;
    }
    session.usable = 1;
    session.period_s = cal.period_s;
    session.reason = NULL;
    d->energy_note[0] = '\0';
    d->idle_power_w = cal.idle_w;
    d->energy_period_ms = cal.period_s * 1e3;
}

void ladder_energy_close(void)
{
    session.usable = 0;
    session.reason = "energy not measured (no counter opened)";
}

/* Launches go in batches of about this much GPU time, a few batches ahead
 * of the GPU, so that it never waits for the host while the window is open. */
#define BATCH_S 2e-3
#define BATCHES_AHEAD 3

ladder_energy ladder_energy_measure(ladder_launch launch, void *context, double ms_per_run, double flops, double bytes)
{
    if (!session.usable) return ladder_energy_missing(session.reason);
    double seconds_per_run = ms_per_run > 0 ? ms_per_run * 1e-3 : BATCH_S;
    long per_batch = (long)ceil(BATCH_S / seconds_per_run);
    if (per_batch > 100000) per_batch = 100000;
    /* A long run is its own batch; one queued behind it is enough. */
    int ahead = seconds_per_run > 0.1 ? 1 : seconds_per_run > 0.01 ? 2 : BATCHES_AHEAD;
    cudaStream_t stream = ladder_stream();
    cudaEvent_t start, done[BATCHES_AHEAD];
    CUDA_CHECK(cudaEventCreate(&start));
    for (int i = 0; i < BATCHES_AHEAD; ++i) CUDA_CHECK(cudaEventCreate(&done[i]));

    ladder_energy_poller *p = ladder_energy_poller_start(&session.counter);
    long launches = 0, batches = 0, completed = 0;
    CUDA_CHECK(cudaEventRecord(start, stream));
    /* The window opens once the GPU is running the rung: a counter update
     * after that is an update in the middle of its launches. */
    int opened = 0;
    double after_s = 0, stall_s = 3 * session.period_s;
    ladder_energy_span span = {LADDER_ENERGY_PENDING, NAN, NAN, 0, NULL};
    while (span.state == LADDER_ENERGY_PENDING) {
        while (batches - completed < ahead + 1) {
            for (long k = 0; k < per_batch; ++k) launch(context, stream);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaEventRecord(done[batches % BATCHES_AHEAD], stream));
            launches += per_batch;
            ++batches;
        }
        if (!opened) {
            CUDA_CHECK(cudaEventSynchronize(start));
            after_s = ladder_now_seconds();
            opened = 1;
        }
        cudaError_t e = cudaEventQuery(done[completed % BATCHES_AHEAD]);
        if (e == cudaSuccess) ++completed;
        else if (e != cudaErrorNotReady) CUDA_CHECK(e);
        else sleep_seconds(100e-6);
        size_t n = ladder_energy_poller_readings(p, readings, MAX_READINGS);
        span = ladder_energy_span_of(readings, n, after_s, 2, session.period_s, stall_s);
        if (span.state == LADDER_ENERGY_PENDING && n == MAX_READINGS) span.state = LADDER_ENERGY_FAILED, span.reason = stood_still;
    }
    ladder_energy_poller_stop(p);
    cudaEvent_t last = done[(batches - 1) % BATCHES_AHEAD];
    CUDA_CHECK(cudaEventSynchronize(last));
    float elapsed_ms;
    CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start, last));
    CUDA_CHECK(cudaEventDestroy(start));
    for (int i = 0; i < BATCHES_AHEAD; ++i) CUDA_CHECK(cudaEventDestroy(done[i]));

    ladder_energy e = span.state == LADDER_ENERGY_DONE
                          ? ladder_energy_figures(span.joules / span.seconds, elapsed_ms * 1e-3 / (double)launches,
                                                  flops, bytes)
                          : ladder_energy_missing(span.reason);
    if (e.reason) ladder_energy_say_once(e.reason);
    return e;
}
