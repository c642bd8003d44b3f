#include "energy.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/check/check.h"
#include "harness/device/nvml.h"

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

size_t ladder_energy_poller_readings(ladder_energy_poller *p, size_t first, ladder_energy_reading *out, size_t max)
{
    pthread_mutex_lock(&p->lock);
    size_t n = p->count > first ? p->count - first : 0;
    if (n > max) n = max;
    memcpy(out, p->readings + first, n * sizeof *out);
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
static const char too_little[] = "the energy counter moved too little to resolve a period";

/* The counter moved between readings i-1 and i: at some moment between the
 * first one's start and the second one's end. */
static double update_time(const ladder_energy_reading *r, size_t i) { return 0.5 * (r[i - 1].start_s + r[i].end_s); }

int ladder_energy_find_updates(const ladder_energy_reading *r, size_t from, size_t count, double period_s,
                               const ladder_energy_update *previous, ladder_energy_update *out, int max,
                               const char **reason)
{
    int n = 0;
    ladder_energy_update last = previous ? *previous : (ladder_energy_update){-1, NAN, 0};
    for (size_t i = from; i < count; ++i) {
        if (!r[i].ok) return *reason = read_failed, -1;
        if (i == from) continue;
        if (r[i].mj < r[i - 1].mj) return *reason = went_backwards, -1;
        if (r[i].mj == r[i - 1].mj || n == max) continue;
        /* Readings far apart (the thread was held up) cannot place the
         * update: it is left out, and the next one numbered past it. */
        if (r[i].end_s - r[i - 1].start_s > 0.5 * period_s) continue;
        double seen = update_time(r, i);
        long step = last.index < 0 ? 1 : lround((seen - last.seen_s) / period_s);
        last = (ladder_energy_update){last.index + (step > 1 ? step : 1), seen, r[i].mj};
        out[n++] = last;
    }
    return n;
}

ladder_energy_clock ladder_energy_fit(const ladder_energy_update *u, int count, double period_s)
{
    if (count < 3) return (ladder_energy_clock){count ? u[0].seen_s - (double)u[0].index * period_s : NAN, period_s};
    double mean_k = 0, mean_t = 0;
    for (int i = 0; i < count; ++i) mean_k += (double)u[i].index, mean_t += u[i].seen_s;
    mean_k /= count;
    mean_t /= count;
    double kk = 0, kt = 0;
    for (int i = 0; i < count; ++i) {
        kk += ((double)u[i].index - mean_k) * ((double)u[i].index - mean_k);
        kt += ((double)u[i].index - mean_k) * (u[i].seen_s - mean_t);
    }
    if (!(kk > 0)) return (ladder_energy_clock){mean_t - mean_k * period_s, period_s};
    double slope = kt / kk;
    return (ladder_energy_clock){mean_t - slope * mean_k, slope};
}

static double overlap(double a0, double a1, double b0, double b1)
{
    double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0;
}

static const char unaligned[] = "the rung could not be placed on the energy counter's updates";
static const char not_positive[] = "the board's power came out not positive";

void ladder_energy_attribute(ladder_energy_clock clock, const double *joules, int periods, const double *switch_s,
                             int rungs, double *watts, const char **reasons)
{
    /* Each period's owner, or -1: one rung ran it for most of its length and
     * rungs ran all of it (no idle or unknown stretch inside). */
    int *owner = malloc((size_t)(periods > 0 ? periods : 1) * sizeof *owner);
    if (!owner) ladder_die("out of host memory for the energy periods");
    for (int k = 0; k < periods; ++k) {
        double k0 = clock.first_s + k * clock.period_s, k1 = k0 + clock.period_s, covered = 0;
        owner[k] = -1;
        for (int i = 0; i < rungs; ++i) {
            double o = overlap(switch_s[i], switch_s[i + 1], k0, k1);
            covered += o;
            if (o >= LADDER_ENERGY_OWNED * clock.period_s) owner[k] = i;
        }
        if (!isfinite(joules[k]) || covered < 0.999 * clock.period_s) owner[k] = -1;
    }
    for (int i = 0; i < rungs; ++i) {
        double j = 0, s = 0;
        for (int k = 0; k < periods; ++k)
            if (owner[k] == i) j += joules[k], s += clock.period_s;
        watts[i] = s > 0 ? j / s : NAN;
    }
    /* The neighbours' edges, at the neighbours' own powers: a few sweeps
     * settle it, each edge being a few percent of a period. */
    double *next = malloc((size_t)(rungs > 0 ? rungs : 1) * sizeof *next);
    if (!next) ladder_die("out of host memory for the energy periods");
    for (int sweep = 0; sweep < 8; ++sweep) {
        for (int i = 0; i < rungs; ++i) {
            double j = 0, own = 0;
            for (int k = 0; k < periods; ++k) {
                if (owner[k] != i) continue;
                double k0 = clock.first_s + k * clock.period_s, k1 = k0 + clock.period_s;
                double others = 0, mine = overlap(switch_s[i], switch_s[i + 1], k0, k1);
                for (int l = 0; l < rungs; ++l) {
                    double o = l == i ? 0 : overlap(switch_s[l], switch_s[l + 1], k0, k1);
                    /* A neighbour with no power of its own: its edge stays in. */
                    if (o > 0 && isfinite(watts[l])) others += watts[l] * o;
                    else mine += o;
                }
                j += joules[k] - others;
                own += mine;
            }
            next[i] = own > 0 ? j / own : NAN;
        }
        memcpy(watts, next, (size_t)rungs * sizeof *watts);
    }
    for (int i = 0; i < rungs; ++i) {
        reasons[i] = NULL;
        if (isnan(watts[i])) reasons[i] = unaligned;
        else if (!(watts[i] > 0) || !isfinite(watts[i])) watts[i] = NAN, reasons[i] = not_positive;
    }
    free(next);
    free(owner);
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

/* The readings of the calibration or of a chain: one per ~3.4 ms on an H100,
 * so 2^16 hold a chain of three minutes (coalescing's 143 rungs take 15 s). */
#define MAX_READINGS (1 << 16)
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
        n = ladder_energy_poller_readings(p, 0, readings, MAX_READINGS);
        cal = ladder_energy_calibrate_readings(readings, n);
        int updates = 0;
        for (size_t i = 1; i < n; ++i) updates += readings[i].mj != readings[i - 1].mj;
        if (cal.usable && updates >= CALIBRATION_UPDATES) break;
        /* Not yet enough updates: wait, up to four of the longest periods taken. */
    } while (ladder_now_seconds() - start < 4 * LADDER_ENERGY_MAX_PERIOD_S &&
             (cal.usable || cal.reason == stood_still || cal.reason == too_coarse));
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

/* Launches go in batches of about this much GPU time, two ahead of the GPU,
 * so that it never waits for the host; the batch that ends a rung is cut to
 * end on the update. */
#define BATCH_S 1e-3
#define BATCHES_AHEAD 2
/* A rung whose launch is longer than this share of a period gets two or
 * more periods, one of them whole; a shorter one, one, its edges within a
 * launch of the updates. */
#define SHORT_LAUNCH 0.05
/* Batch events in flight at most: two of the rung ending, its cut batch,
 * two of the next; a few spare. */
#define CHAIN_RING 8

typedef struct chain {
    cudaStream_t stream;
    ladder_energy_poller *poller;
    size_t read, scanned;            /* readings copied; readings looked at for updates */
    ladder_energy_update *updates;
    int update_count, update_capacity;
    double period_s, started_s;
    const char *failure;
    /* The batches in flight, oldest first: their end events and launches. */
    cudaEvent_t done[CHAIN_RING];
    long in_flight_launches[CHAIN_RING];
    int batch_rung[CHAIN_RING];
    long issued, retired;
    int rung;                        /* the rung being issued */
    long rung_launches_done;         /* its launches finished so far, */
    cudaEvent_t rung_newest;         /* the newest of its batches finished */
    double gpu_free_s;               /* when the work issued so far should end, host clock */
} chain;

static void issue(chain *c, const ladder_energy_rung *r, long launches, double seconds_per_run)
{
    int slot = (int)(c->issued % (CHAIN_RING));
    for (long k = 0; k < launches; ++k) r->launch(r->context, c->stream);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(c->done[slot], c->stream));
    c->in_flight_launches[slot] = launches;
    c->batch_rung[slot] = c->rung;
    ++c->issued;
    double now = ladder_now_seconds();
    c->gpu_free_s = (c->gpu_free_s > now ? c->gpu_free_s : now) + (double)launches * seconds_per_run;
}

/* Retire finished batches; the newest one finished tells where the GPU is.
 * Returns whether one of the current rung's finished. */
static int retire(chain *c, double seconds_per_run)
{
    int rung_progress = 0;
    while (c->retired < c->issued) {
        cudaError_t e = cudaEventQuery(c->done[c->retired % (CHAIN_RING)]);
        if (e == cudaErrorNotReady) return rung_progress;
        CUDA_CHECK(e);
        int slot = (int)(c->retired % (CHAIN_RING));
        if (c->batch_rung[slot] == c->rung) {
            c->rung_launches_done += c->in_flight_launches[slot];
            c->rung_newest = c->done[slot];
            rung_progress = 1;
        }
        ++c->retired;
        double left = 0;
        for (long b = c->retired; b < c->issued; ++b) left += (double)c->in_flight_launches[b % (CHAIN_RING)];
        c->gpu_free_s = ladder_now_seconds() + left * seconds_per_run;
    }
    return rung_progress;
}

/* Copy the new readings and find the new updates; a fault ends the chain. */

static void look(chain *c)
{
    size_t room = MAX_READINGS - c->read;
    c->read += ladder_energy_poller_readings(c->poller, c->read, readings + c->read, room);
    if (room == 0) c->failure = stood_still; /* a chain of many minutes: no counter behaves so */
    while (c->scanned < c->read && readings[c->scanned].start_s < c->started_s) ++c->scanned;
    if (c->scanned + 1 >= c->read) return;
    while (c->update_capacity - c->update_count < (int)(c->read - c->scanned)) {
        c->update_capacity = c->update_capacity ? 2 * c->update_capacity : 256;
        c->updates = realloc(c->updates, (size_t)c->update_capacity * sizeof *c->updates);
        if (!c->updates) ladder_die("out of host memory for the energy counter's updates");
    }
    const char *why = NULL;
    int found = ladder_energy_find_updates(readings, c->scanned, c->read, c->period_s,
                                           c->update_count ? &c->updates[c->update_count - 1] : NULL,
                                           c->updates + c->update_count, c->update_capacity - c->update_count, &why);
    if (found < 0) {
        c->failure = why;
        return;
    }
    c->update_count += found;
    /* The last reading looked at is the reference for the next look. */
    c->scanned = c->read - 1;
    double last = c->update_count ? c->updates[c->update_count - 1].seen_s : c->started_s;
    if (readings[c->read - 1].end_s - last > 3 * c->period_s) c->failure = stood_still;
}

static ladder_energy_clock chain_clock(const chain *c)
{
    return ladder_energy_fit(c->updates, c->update_count, c->period_s);
}

void ladder_energy_measure_ladder(const ladder_energy_rung *rungs, int n, ladder_energy *out)
{
    if (n <= 0) return;
    if (!session.usable) {
        for (int i = 0; i < n; ++i) out[i] = ladder_energy_missing(session.reason);
        return;
    }
    chain c = {.stream = ladder_stream(), .period_s = session.period_s};
    double *switch_s = malloc((size_t)(n + 1) * sizeof *switch_s);
    double *seconds_per_run = malloc((size_t)n * sizeof *seconds_per_run);
    long *launches = calloc((size_t)n, sizeof *launches);
    cudaEvent_t *starts = malloc((size_t)n * sizeof *starts), *ends = malloc((size_t)n * sizeof *ends);
    if (!switch_s || !seconds_per_run || !launches || !starts || !ends)
        ladder_die("out of host memory for the energy chain");
    for (int i = 0; i < n; ++i) {
        CUDA_CHECK(cudaEventCreate(&starts[i]));
        CUDA_CHECK(cudaEventCreate(&ends[i]));
    }
    for (int b = 0; b < CHAIN_RING; ++b) CUDA_CHECK(cudaEventCreate(&c.done[b]));
    c.poller = ladder_energy_poller_start(&session.counter);

    long period = 0; /* the update at which the current rung's periods begin */
    int ran = 0;
    for (int j = 0; j < n && !c.failure; ++j, ++ran) {
        const ladder_energy_rung *r = &rungs[j];
        double per_run = r->ms_per_run > 0 ? r->ms_per_run * 1e-3 : BATCH_S;
        long per_batch = (long)ceil(BATCH_S / per_run);
        if (per_batch > 100000) per_batch = 100000;
        long periods = per_run <= SHORT_LAUNCH * c.period_s ? 1 : 2 + (long)(per_run / c.period_s);
        c.rung = j;
        c.rung_launches_done = 0;
        CUDA_CHECK(cudaEventRecord(starts[j], c.stream));
        for (int b = 0; b < BATCHES_AHEAD; ++b) issue(&c, r, per_batch, per_run), launches[j] += per_batch;
        /* The GPU is on this rung from the moment the previous one's last
         * launch ends; the first rung's periods begin at the first update
         * after it started. */
        CUDA_CHECK(cudaEventSynchronize(j ? ends[j - 1] : starts[0]));
        switch_s[j] = ladder_now_seconds();
        if (j == 0) c.started_s = switch_s[0];
        if (j > 0) {
            /* A switch later than a tenth of a period after the update that
             * should have begun this rung's periods (the host was held up)
             * moves them on to the next update. */
            ladder_energy_clock clock = chain_clock(&c);
            long next = (long)ceil((switch_s[j] - clock.first_s) / clock.period_s - 0.1);
            if (next > period) period = next;
        }
        for (;;) {
            int progress = retire(&c, per_run);
            look(&c);
            if (c.failure) break;
            if (progress) {
                /* The time per run back to back, from the rung's own launches so far. */
                float ms;
                CUDA_CHECK(cudaEventElapsedTime(&ms, starts[j], c.rung_newest));
                per_run = ms * 1e-3 / (double)c.rung_launches_done;
            }
            if (c.update_count == 0) {
                if (c.issued - c.retired < BATCHES_AHEAD) issue(&c, r, per_batch, per_run), launches[j] += per_batch;
                else sleep_seconds(50e-6);
                continue;
            }
            ladder_energy_clock clock = chain_clock(&c);
            double end = clock.first_s + (double)(period + periods) * clock.period_s;
            if (j == n - 1) {
                /* The last rung runs until its last update is seen: no idle
                 * stretch inside its periods. */
                if (c.updates[c.update_count - 1].index >= period + periods) break;
                if (c.issued - c.retired < BATCHES_AHEAD) issue(&c, r, per_batch, per_run), launches[j] += per_batch;
                else sleep_seconds(50e-6);
                continue;
            }
            double left = end - c.gpu_free_s;
            if (left > (double)per_batch * per_run) {
                if (c.issued - c.retired < BATCHES_AHEAD) issue(&c, r, per_batch, per_run), launches[j] += per_batch;
                else sleep_seconds(50e-6);
                continue;
            }
            long last = lround(left / per_run);
            if (last > 0) issue(&c, r, last, per_run), launches[j] += last;
            break;
        }
        CUDA_CHECK(cudaEventRecord(ends[j], c.stream));
        period += periods;
    }
    CUDA_CHECK(cudaEventSynchronize(ends[ran - 1]));
    switch_s[ran] = ladder_now_seconds();
    look(&c);
    ladder_energy_poller_stop(c.poller);

    /* Each period's energy, from the value at its first update to the value at the next. */
    ladder_energy_clock clock = chain_clock(&c);
    long periods = c.update_count ? c.updates[c.update_count - 1].index : 0;
    double *joules = malloc((size_t)(periods > 0 ? periods : 1) * sizeof *joules);
    double *watts = malloc((size_t)n * sizeof *watts);
    const char **reasons = malloc((size_t)n * sizeof *reasons);
    if (!joules || !watts || !reasons) ladder_die("out of host memory for the energy chain");
    for (long k = 0; k < periods; ++k) joules[k] = NAN;
    for (int u = 1; u < c.update_count && !c.failure; ++u) {
        const ladder_energy_update *a = &c.updates[u - 1], *b = &c.updates[u];
        if (b->index != a->index + 1) continue;
        if (b->mj - a->mj < LADDER_ENERGY_MIN_MJ) c.failure = too_little;
        joules[a->index] = (double)(b->mj - a->mj) / 1e3;
    }
    if (!c.failure) ladder_energy_attribute(clock, joules, (int)periods, switch_s, ran, watts, reasons);
    for (int i = 0; i < n; ++i) {
        float ms = 0;
        if (i < ran) CUDA_CHECK(cudaEventElapsedTime(&ms, starts[i], ends[i]));
        seconds_per_run[i] = launches[i] ? ms * 1e-3 / (double)launches[i] : NAN;
        if (c.failure || i >= ran) out[i] = ladder_energy_missing(c.failure ? c.failure : stood_still);
        else if (reasons[i]) out[i] = ladder_energy_missing(reasons[i]);
        else out[i] = ladder_energy_figures(watts[i], seconds_per_run[i], rungs[i].flops, rungs[i].bytes);
        if (out[i].reason) ladder_energy_say_once(out[i].reason);
        CUDA_CHECK(cudaEventDestroy(starts[i]));
        CUDA_CHECK(cudaEventDestroy(ends[i]));
    }
    for (int b = 0; b < CHAIN_RING; ++b) CUDA_CHECK(cudaEventDestroy(c.done[b]));
    free(c.updates);
    free(joules);
    free(watts);
    free(reasons);
    free(switch_s);
    free(seconds_per_run);
    free(launches);
    free(starts);
    free(ends);
}
