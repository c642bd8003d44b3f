#include "runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_profiler_api.h>

#include "harness/check/check.h"
#include "harness/measure/contention.h"
#include "harness/measure/energy.h"
#include "harness/measure/ncu.h"
#include "harness/record/progress.h"
#include "stop.h"
#include "harness/measure/timing.h"
#include "harness/measure/watchdog.h"

int ladder_find_variant(const ladder_case *c, const char *selector)
{
    char *end;
    long index = strtol(selector, &end, 10);
    if (*selector && *end == '\0') return index >= 0 && index < c->variant_count ? (int)index : -1;
    for (int i = 0; i < c->variant_count; ++i)
        if (strcmp(c->variants[i].name, selector) == 0) return i;
    return -1;
}

static void poison_output(const ladder_case *c, void *state, const ladder_variant *v)
{
    ladder_output out = c->output(state, v);
    if (v->flags & LADDER_HOST) memset(out.ptr, out.poison, out.bytes);
    else CUDA_CHECK(cudaMemset(out.ptr, out.poison, out.bytes));
}

ladder_check ladder_validate_variant(const ladder_case *c, void *state, const ladder_variant *v, uint64_t seed)
{
    if (c->prepare) c->prepare(state, v);
    c->fill_inputs(state, seed);
    /* A caller that set no watch (a GPU test) still gets a named hang. */
    ladder_watch unnamed = {c->name, v->name, "", NULL, 0, 1};
    int own_watch = !ladder_watchdog_current();
    if (own_watch) ladder_watchdog_watch(&unnamed);
    int on_gpu = !(v->flags & LADDER_HOST);
    if (on_gpu) ladder_watchdog_arm("checked run");
    poison_output(c, state, v);
    CUDA_CHECK(cudaDeviceSynchronize());
    c->run(state, v, ladder_stream());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaStreamSynchronize(ladder_stream()));
    if (on_gpu) ladder_watchdog_disarm();
    if (own_watch) ladder_watchdog_watch(NULL);
    return c->check(state, v);
}

typedef struct variant_launch {
    const ladder_case *c;
    void *state;
    const ladder_variant *v;
} variant_launch;

static void launch_variant(void *context, cudaStream_t stream)
{
    variant_launch *l = context;
    l->c->run(l->state, l->v, stream);
}

static void fill_performance(ladder_record *rec, const ladder_case *c, void *state, const ladder_variant *v,
                             const ladder_device *d)
{
    ladder_work work = c->variant_work ? c->variant_work(state, v) : c->work(state);
    double seconds = rec->median_ms * 1e-3;
    rec->bytes = work.bytes;
    rec->flops = work.flops;
    rec->gbps = work.bytes > 0 ? work.bytes / seconds / 1e9 : NAN;
    rec->gflops = work.flops > 0 ? work.flops / seconds / 1e9 : NAN;
    ladder_set_fractions(rec, c->ceiling, d);
}

void ladder_set_fractions(ladder_record *rec, ladder_ceiling_kind kind, const ladder_device *d)
{
    if (d->ceilings_measured) {
        rec->fraction_of_bandwidth = rec->gbps / ladder_bandwidth_ceiling(d);
        rec->fraction_of_fp32 = rec->gflops / d->ceilings.fma_gflops;
    }
    if (kind == LADDER_CEILING_BANDWIDTH)
        rec->fraction_of_ceiling = rec->fraction_of_bandwidth;
    else if (kind == LADDER_CEILING_FP32)
        rec->fraction_of_ceiling = rec->fraction_of_fp32;
    else
        rec->fraction_of_ceiling = d->ceilings.tensor_bf16_gflops > 0 ? rec->gflops / d->ceilings.tensor_bf16_gflops : NAN;
}

const char *ladder_ceiling_name(ladder_ceiling_kind kind)
{
    switch (kind) {
    case LADDER_CEILING_BANDWIDTH: return "bandwidth_gbps";
    case LADDER_CEILING_FP32: return "fma_gflops";
    default: return "tensor_bf16_gflops";
    }
}

static void measure_variant(const ladder_case *c, void *state, int index, const ladder_device *d,
                            const ladder_run_options *o, uint64_t *seed, ladder_record *rec)
{
    const ladder_variant *v = &c->variants[index];
    rec->index = index;
    snprintf(rec->variant, sizeof rec->variant, "%s", v->name);
    rec->baseline = (v->flags & LADDER_BASELINE) != 0;
    snprintf(rec->precision, sizeof rec->precision, "%s", v->precision ? v->precision : "");
    rec->host = (v->flags & LADDER_HOST) != 0;
    rec->ceiling = ladder_ceiling_name(c->ceiling);

    const char *reason = c->unsupported ? c->unsupported(state, v) : NULL;
    if (reason) {
        rec->skipped = 1;
        snprintf(rec->reason, sizeof rec->reason, "%s", reason);
        return;
    }

    /* Around the whole variant: a process that came and went in between
     * is missed, one that held the GPU at either end is not. */
    int others = ladder_contention_poll();
    ladder_check before = ladder_validate_variant(c, state, v, (*seed)++);

    variant_launch launch = {c, state, v};
    ladder_timing_options timing = {
        .min_samples = rec->host ? 3 : o->min_samples,
        .max_samples = rec->host ? 10 : 1000,
        .target_spread = 0.005,
        .time_cap_s = o->time_cap_s,
        .warmup_runs = rec->host ? 0 : 2,
    };
    ladder_timing t = rec->host ? ladder_time_host(launch_variant, &launch, &timing)
                                : ladder_time_device(launch_variant, &launch, &timing);

    ladder_check after = ladder_validate_variant(c, state, v, (*seed)++);
    others += ladder_contention_poll();

    rec->samples = (int)t.ms.count;
    rec->median_ms = t.ms.median;
    rec->min_ms = t.ms.min;
    rec->max_ms = t.ms.max;
    rec->rel_spread = t.ms.rel_spread;
    rec->throttled_samples = t.throttled_samples;
    rec->throttled = t.throttled_samples > 0;
    rec->sm_clock_mhz = t.sm_clock_mhz;
    rec->contended = others > 0;
    rec->noisy = t.ms.rel_spread > LADDER_NOISY_SPREAD;
    rec->rel_error = fmax(before.rel_error, after.rel_error);
    rec->tolerance = before.tolerance;
    rec->valid = before.passed && after.passed;
    fill_performance(rec, c, state, v, d);
}

static void run_variant(const ladder_case *c, void *state, int index, const ladder_device *d,
                        const ladder_run_options *o, uint64_t *seed, ladder_record *rec)
{
    /* Every wait of this variant on the GPU is bounded (watchdog.h); a hang marks this record. */
    ladder_watch watch = {rec->case_name, rec->variant, rec->size, &rec->hung, 0, 1};
    ladder_watchdog_watch(&watch);
    measure_variant(c, state, index, d, o, seed, rec);
    ladder_watchdog_watch(NULL);
}

static void set_energy(ladder_record *rec, ladder_energy e)
{
    rec->energy_j = e.joules_per_run;
    rec->power_w = e.watts;
    rec->energy_ms_per_run = e.ms_per_run;
    rec->gflop_per_j = e.gflop_per_j;
    rec->gb_per_j = e.gb_per_j;
    snprintf(rec->energy_reason, sizeof rec->energy_reason, "%s", e.reason ? e.reason : "");
}

/* The board's energy of each GPU rung that ran, measured once the whole
 * ladder is timed: its rungs back to back, one after another (energy.h). A
 * CPU variant, or a case spread over several GPUs or that prepares each
 * rung apart, has none that one board's counter can hold in a chain. */
static void fill_energy(const ladder_case *c, void *state, ladder_results *results, size_t first)
{
    size_t n = results->count - first;
    variant_launch *launches = ladder_host_alloc((n ? n : 1) * sizeof *launches);
    ladder_energy_rung *rungs = ladder_host_alloc((n ? n : 1) * sizeof *rungs);
    ladder_energy *energy = ladder_host_alloc((n ? n : 1) * sizeof *energy);
    size_t *record_of = ladder_host_alloc((n ? n : 1) * sizeof *record_of);
    int count = 0;
    double expected_s = 0;
    for (size_t i = first; i < results->count; ++i) {
        ladder_record *rec = &results->records[i];
        if (rec->skipped) continue;
        if (rec->host) {
            set_energy(rec, ladder_energy_missing("a CPU variant: the board's energy is not its own"));
            continue;
        }
        if (c->spans_gpus || c->prepare) {
            set_energy(rec, ladder_energy_missing("the case runs on several GPUs or prepares each rung apart"));
            continue;
        }
        const ladder_variant *v = &c->variants[rec->index];
        ladder_work work = c->variant_work ? c->variant_work(state, v) : c->work(state);
        launches[count] = (variant_launch){c, state, v};
        rungs[count] = (ladder_energy_rung){launch_variant, &launches[count], rec->median_ms, work.flops, work.bytes};
        record_of[count++] = i;
        /* A counter period or two a rung, longer launches several times their median. */
        expected_s += 0.25 + 3e-3 * (isfinite(rec->median_ms) ? rec->median_ms : 0);
    }
    if (count) {
        ladder_progress_variant(c->variant_count - 1, c->variant_count, "energy: the rungs back to back");
        /* The chain waits on the GPU too (watchdog.h): its expected length stands in for the longest stretch. */
        ladder_watch watch = {c->name, "(every rung back to back, for the energy)", results->records[first].size,
                              NULL, expected_s, 1};
        ladder_watchdog_watch(&watch);
        ladder_watchdog_arm("energy chain");
        ladder_energy_measure_ladder(rungs, count, energy);
        ladder_watchdog_disarm();
        ladder_watchdog_watch(NULL);
    }
    for (int k = 0; k < count; ++k) set_energy(&results->records[record_of[k]], energy[k]);
    free(launches);
    free(rungs);
    free(energy);
    free(record_of);
}

static int variant_wanted(const ladder_case *c, const ladder_run_options *o, int selected, int i)
{
    return !o->variant || i == selected || (c->variants[i].flags & LADDER_BASELINE);
}

/* Whether the size's form, if it names one, is among the case's size_forms. */
static int form_accepted(const ladder_case *c, const ladder_size *size)
{
    if (!size->form[0]) return 1;
    size_t len = strlen(size->form);
    for (const char *f = c->size_forms; f && *f;) {
        size_t word = strcspn(f, " ");
        if (word == len && strncmp(f, size->form, len) == 0) return 1;
        f += word;
        f += strspn(f, " ");
    }
    return 0;
}

ladder_status ladder_check_size(const ladder_case *c, const ladder_size *size, char *err, size_t err_len)
{
    if (!form_accepted(c, size)) {
        snprintf(err, err_len, "the size names the form '%s:', which this case does not take", size->form);
        return LADDER_BAD_SIZE;
    }
    return c->size_error && c->size_error(size, err, err_len) ? LADDER_BAD_SIZE : LADDER_OK;
}

ladder_status ladder_run_case(const ladder_case *c, const ladder_size *size, const ladder_device *d,
                              const ladder_run_options *o, ladder_results *results, char *err, size_t err_len)
{
    if (ladder_check_size(c, size, err, err_len) != LADDER_OK) return LADDER_BAD_SIZE;
    ladder_status status = LADDER_OK;
    void *state = c->create(size, &status, err, err_len);
    if (!state) return status;

    int selected = o->variant ? ladder_find_variant(c, o->variant) : -1;
    uint64_t seed = o->seed;
    char size_text[64];
    ladder_format_size(size, size_text, sizeof size_text);
    size_t first = results->count;
    for (int i = 0; i < c->variant_count && !ladder_stop_signal(); ++i) {
        if (!variant_wanted(c, o, selected, i)) continue;
        ladder_progress_variant(i, c->variant_count, c->variants[i].name);
        ladder_record *rec = ladder_results_add(results);
        snprintf(rec->case_name, sizeof rec->case_name, "%s", c->name);
        snprintf(rec->size, sizeof rec->size, "%s", size_text);
        run_variant(c, state, i, d, o, &seed, rec);
    }
    if (!ladder_stop_signal()) fill_energy(c, state, results, first);
    ladder_results_relate(results, first);
    /* A ladder cut short by a stop signal has no whole-ladder figures. */
    if (c->summarize && !ladder_stop_signal()) {
        size_t first_summary = results->summary_count;
        c->summarize(state, results, first);
        for (size_t i = first_summary; i < results->summary_count; ++i) {
            snprintf(results->summaries[i].case_name, sizeof results->summaries[i].case_name, "%s", c->name);
            snprintf(results->summaries[i].size, sizeof results->summaries[i].size, "%s", size_text);
        }
    }
    c->destroy(state);
    return LADDER_OK;
}

ladder_status ladder_profile_case(const ladder_case *c, const ladder_size *size, const ladder_run_options *o,
                                  char *err, size_t err_len)
{
    if (ladder_check_size(c, size, err, err_len) != LADDER_OK) return LADDER_BAD_SIZE;
    ladder_status status = LADDER_OK;
    void *state = c->create(size, &status, err, err_len);
    if (!state) return status;
    int selected = o->variant ? ladder_find_variant(c, o->variant) : -1;
    char size_text[64];
    ladder_format_size(size, size_text, sizeof size_text);
    for (int i = 0; i < c->variant_count; ++i) {
        const ladder_variant *v = &c->variants[i];
        if (!variant_wanted(c, o, selected, i) || (v->flags & LADDER_HOST)) continue;
        if (c->unsupported && c->unsupported(state, v)) continue;
        if (c->prepare) c->prepare(state, v);
        c->fill_inputs(state, o->seed + (uint64_t)i);
        ladder_watch watch = {c->name, v->name, size_text, NULL, 0, LADDER_WATCHDOG_PROFILE_FACTOR};
        ladder_watchdog_watch(&watch);
        ladder_watchdog_arm("warm-up launch for the profiler");
        poison_output(c, state, v);
        c->run(state, v, ladder_stream()); /* warm-up: lazy module loading, library setup */
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
        ladder_watchdog_disarm();
        CUDA_CHECK(cudaProfilerStart());
        ladder_watchdog_arm("profiled launch");
        ladder_ncu_launch_marker(i, ladder_stream());
        c->run(state, v, ladder_stream());
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
        ladder_watchdog_disarm();
        ladder_watchdog_watch(NULL);
        CUDA_CHECK(cudaProfilerStop());
    }
    c->destroy(state);
    return LADDER_OK;
}
