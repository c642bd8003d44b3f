/* The all-reduce ladder's summaries, as nccl-tests reports an all-reduce:
 * each route's latency and bus bandwidth fitted over its sweep, the ladder's
 * best at each end of the sweep, and per message size the best rung against
 * NCCL. Made from the records alone, so that the tests can feed it records
 * of their own. */
#include "allreduce.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/measure/sweep.h"

static const ladder_variant *variant_of(const ladder_record *rec)
{
    return rec->index >= 0 && rec->index < allreduce_case.variant_count ? &allreduce_case.variants[rec->index] : NULL;
}

/* The size part of a variant's name: "64KiB" of "ring_64KiB". */
static const char *size_label(const ladder_variant *v) { return strrchr(v->name, '_') + 1; }

void allreduce_summarize(ladder_results *r, size_t first, int gpus)
{
    const ladder_variant *variants = allreduce_case.variants;
    char name[48], note[160];
    ladder_add_summary(r, "gpus", gpus, "", "GPUs of the run: the run's device, then every other visible one");
    if (gpus < 2) return;

    /* Each rung's fit over its sweep, its bus bandwidth from the fitted algbw;
     * then the best of the ladder's own rungs at each end: the lowest
     * latency (small messages) and the highest bus bandwidth (large ones),
     * which are seldom the same rung. */
    double best_latency = NAN, best_busbw = NAN;
    char best_latency_rung[32] = "none", best_busbw_rung[32] = "none";
    for (int rung = 0; rung < ALLREDUCE_RUNGS; ++rung) {
        double bytes[ALLREDUCE_SWEEP_POINTS], seconds[ALLREDUCE_SWEEP_POINTS], spread[ALLREDUCE_SWEEP_POINTS];
        size_t n = 0;
        const char *route = NULL;
        for (size_t i = first; i < r->count && n < ALLREDUCE_SWEEP_POINTS; ++i) {
            const ladder_variant *v = variant_of(&r->records[i]);
            if (!v || v->impl != variants[rung * ALLREDUCE_SWEEP_POINTS].impl || !ladder_record_usable(&r->records[i]))
                continue;
            bytes[n] = r->records[i].bytes;
            seconds[n] = r->records[i].median_ms * 1e-3;
            spread[n] = r->records[i].rel_spread;
            ++n;
        }
        route = variants[rung * ALLREDUCE_SWEEP_POINTS].name;
        size_t route_len = (size_t)(strrchr(route, '_') - route);
        ladder_fit fit = ladder_fit_latency_bandwidth(bytes, seconds, spread, n);
        snprintf(name, sizeof name, "%.*s_latency_us", (int)route_len, route);
        snprintf(note, sizeof note, "intercept of time = latency + bytes / bandwidth, %zu sizes, %d GPUs", fit.points,
                 gpus);
        ladder_add_summary(r, name, fit.latency_s * 1e6, "us", note);
        snprintf(name, sizeof name, "%.*s_busbw_gbps", (int)route_len, route);
        double busbw = allreduce_bus_bandwidth(fit.bandwidth_bps / 1e9, gpus);
        ladder_add_summary(r, name, busbw, "GB/s", "fitted algbw (1 / slope) x 2(n-1)/n: the large-message bus bandwidth");
        if (allreduce_is_nccl(&variants[rung * ALLREDUCE_SWEEP_POINTS])) continue;
        if (fit.latency_s > 0 && (isnan(best_latency) || fit.latency_s * 1e6 < best_latency)) {
            best_latency = fit.latency_s * 1e6;
            snprintf(best_latency_rung, sizeof best_latency_rung, "%.*s", (int)route_len, route);
        }
        if (busbw > 0 && (isnan(best_busbw) || busbw > best_busbw)) {
            best_busbw = busbw;
            snprintf(best_busbw_rung, sizeof best_busbw_rung, "%.*s", (int)route_len, route);
        }
    }
    snprintf(note, sizeof note, "lowest fitted latency of the ladder's rungs (%s); NCCL's: nccl_latency_us",
             best_latency_rung);
    ladder_add_summary(r, "best_latency_us", best_latency, "us", note);
    snprintf(note, sizeof note, "highest fitted bus bandwidth of the ladder's rungs (%s); NCCL's: nccl_busbw_gbps",
             best_busbw_rung);
    ladder_add_summary(r, "best_busbw_gbps", best_busbw, "GB/s", note);

    /* Per size: the best rung against NCCL, as nccl-tests reports them. */
    for (int point = 0; point < ALLREDUCE_SWEEP_POINTS; ++point) {
        const ladder_record *best = NULL, *baseline = NULL;
        for (size_t i = first; i < r->count; ++i) {
            const ladder_record *rec = &r->records[i];
            const ladder_variant *v = variant_of(rec);
            if (!v || v->param != variants[point].param || !ladder_record_usable(rec)) continue;
            if (allreduce_is_nccl(v)) baseline = rec;
            else if (!best || rec->median_ms < best->median_ms) best = rec;
        }
        if (!best && !baseline) continue;
        const char *label = size_label(&variants[point]);
        snprintf(name, sizeof name, "busbw_%s_best_gbps", label);
        snprintf(note, sizeof note, "best rung %s: %.2f us, algbw %.2f GB/s", best ? best->variant : "none",
                 best ? best->median_ms * 1e3 : NAN, best ? best->gbps : NAN);
        ladder_add_summary(r, name, best ? allreduce_bus_bandwidth(best->gbps, gpus) : NAN, "GB/s", note);
        snprintf(name, sizeof name, "busbw_%s_nccl_gbps", label);
        snprintf(note, sizeof note, "ncclAllReduce: %.2f us, algbw %.2f GB/s", baseline ? baseline->median_ms * 1e3 : NAN,
                 baseline ? baseline->gbps : NAN);
        ladder_add_summary(r, name, baseline ? allreduce_bus_bandwidth(baseline->gbps, gpus) : NAN, "GB/s", note);
        snprintf(name, sizeof name, "best_vs_nccl_%s", label);
        ladder_add_summary(r, name, best && baseline ? baseline->median_ms / best->median_ms : NAN, "ratio",
            "NCCL's time / the best rung's: > 1, the ladder is faster (targets: >= 1.3 to 64 KiB, >= 1.0 from 256 MiB)");
    }
}
