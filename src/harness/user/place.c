#include "place.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double ladder_limiter_fraction(const ladder_record *rec, const char **ceiling)
{
    int tensor = strcmp(rec->ceiling, "tensor_bf16_gflops") == 0;
    double compute = tensor ? rec->fraction_of_ceiling : rec->fraction_of_fp32;
    double bandwidth = rec->fraction_of_bandwidth;
    int compute_limits = isfinite(compute) && !(bandwidth > compute);
    if (ceiling) *ceiling = compute_limits ? (tensor ? "BF16 tensor" : "FP32") : "bandwidth";
    return compute_limits ? compute : isfinite(bandwidth) ? bandwidth : NAN;
}

static int is_rung(const ladder_record *rec)
{
    return !rec->baseline && !rec->reference && !rec->user && ladder_record_usable(rec);
}

/* A fraction of a ceiling in two decimals; a first naive kernel on a tensor
 * ceiling can be far below 0.01, where two decimals would read as zero. */
static const char *fraction_text(double fraction, char *out, size_t len)
{
    snprintf(out, len, fraction >= 0.01 || fraction <= 0 ? "%.2f" : "%.1g", fraction);
    return out;
}

/* "rung 4 tiled_padded (0.84)" */
static void describe(const ladder_record *rec, char *out, size_t len)
{
    char fraction[16];
    snprintf(out, len, "rung %d %s (%s)", rec->index, rec->variant,
             fraction_text(ladder_limiter_fraction(rec, NULL), fraction, sizeof fraction));
}

static const char *story_of(const ladder_case *c, const ladder_record *rec)
{
    return rec->index >= 0 && rec->index < c->variant_count ? c->variants[rec->index].story : "";
}

void ladder_place(const ladder_case *c, const ladder_record *records, size_t count, const ladder_record *mine,
                  char *out, size_t len)
{
    const char *ceiling;
    double fraction = ladder_limiter_fraction(mine, &ceiling);
    int by_bytes = strcmp(ceiling, "bandwidth") == 0;
    char rate[64];
    snprintf(rate, sizeof rate, by_bytes ? "%.0f GB/s" : "%.0f GFLOP/s", by_bytes ? mine->gbps : mine->gflops);
    if (mine->skipped) {
        snprintf(out, len, "%s at %s: not run: %s\n", mine->variant, mine->size, mine->reason);
        return;
    }
    if (!mine->valid) {
        snprintf(out, len, "%s at %s: wrong result (error %.2e, tolerance %.2e): not placed\n", mine->variant,
                 mine->size, mine->rel_error, mine->tolerance);
        return;
    }
    if (mine->test_size_failures[0]) {
        snprintf(out, len, "%s: wrong at the case's test sizes (%s): not placed\n", mine->variant,
                 mine->test_size_failures);
        return;
    }
    if (fraction > LADDER_PLACE_CEILING_SLACK) {
        snprintf(out, len,
                 "%s at %s: %s would be %.2f of the measured %s ceiling, more than this GPU can do: check the work "
                 "count or the timing (not placed)\n",
                 mine->variant, mine->size, rate, fraction, ceiling);
        return;
    }
    const ladder_record *slower = NULL, *faster = NULL, *best = NULL, *slowest = NULL, *baseline = NULL;
    for (size_t i = 0; i < count; ++i) {
        const ladder_record *r = &records[i];
        if (r->baseline && ladder_record_usable(r)) baseline = r;
        if (!is_rung(r)) continue;
        if (!best || r->median_ms < best->median_ms) best = r;
        if (!slowest || r->median_ms > slowest->median_ms) slowest = r;
        if (r->median_ms > mine->median_ms && (!slower || r->median_ms < slower->median_ms)) slower = r;
        if (r->median_ms <= mine->median_ms && (!faster || r->median_ms > faster->median_ms)) faster = r;
    }
    char fraction_words[16];
    size_t used = (size_t)snprintf(out, len, "%s at %s: %s, %s of the %s ceiling: ", mine->variant, mine->size, rate,
                                   fraction_text(fraction, fraction_words, sizeof fraction_words), ceiling);
    if (used >= len) return;
    char a[128], b[128];
    if (!best) {
        snprintf(out + used, len - used, "no rung ran at this size to place it against\n");
        return;
    }
    if (!faster) {
        describe(best, a, sizeof a);
        used += (size_t)snprintf(out + used, len - used, "faster than every rung (the best: %s)\n", a);
        if (used >= len) return;
        if (baseline)
            snprintf(out + used, len - used, "against the vendor, %s: %.2fx (its time / yours)\n", baseline->variant,
                     baseline->median_ms / mine->median_ms);
        else
            snprintf(out + used, len - used, "no vendor baseline ran at this size to compare with\n");
        return;
    }
    if (!slower) {
        describe(slowest, a, sizeof a);
        used += (size_t)snprintf(out + used, len - used, "slower than every rung (the slowest: %s)\n", a);
    } else {
        describe(slower, a, sizeof a);
        describe(faster, b, sizeof b);
        used += (size_t)snprintf(out + used, len - used, "between %s and %s\n", a, b);
    }
    /* The next step is the slowest rung that is faster: the nearest one up. */
    if (used < len)
        snprintf(out + used, len - used, "next: rung %d %s: %s\n", faster->index, faster->variant,
                 story_of(c, faster));
}

/* The limiter's thresholds. Nsight Compute's Speed Of Light rule calls a
 * unit running above 80 % of its peak the bottleneck: at DRAM_BUSY_PCT of
 * DRAM peak, or COMPUTE_BUSY of the measured compute ceiling, the kernel is
 * bound by it. Shared loads of 32-bit words take one wavefront when the
 * lanes hit distinct banks; at CONFLICT_WAVEFRONTS or more per
 * instruction, with conflicts counted, they are serialized (a 16-byte load
 * takes 4 wavefronts without a conflict, but then no conflict is counted).
 * A warp of 4-byte loads needs 4 sectors per request and one of 16-byte
 * loads 16: above SCATTERED_SECTORS the lanes touch sectors of their own,
 * whatever the access width (the counters cannot tell a float4 load at 16
 * from a float at stride 4, so 16 itself is not flagged). Below
 * LOW_OCCUPANCY_PCT of the SM's warps (16 of 64 on Hopper), too few warps
 * are resident to hide memory latency, as Nsight Compute's occupancy rules
 * warn. */
#define DRAM_BUSY_PCT 80.0
#define COMPUTE_BUSY 0.80
#define CONFLICT_WAVEFRONTS 1.5
#define SCATTERED_SECTORS 16.0
#define LOW_OCCUPANCY_PCT 25.0

void ladder_limiter_line(const ladder_record *rec, char *out, size_t len)
{
    const ladder_counters *k = &rec->counters;
    out[0] = '\0';
    if (!rec->has_counters) return;
    if (k->kernels == 0) {
        snprintf(out, len, "limiter: no kernel ran under the profiler (a copy, or nothing launched)\n");
        return;
    }
    const char *ceiling;
    double fraction = ladder_limiter_fraction(rec, &ceiling);
    int compute = strcmp(ceiling, "bandwidth") != 0;
    if (k->dram_throughput_pct >= DRAM_BUSY_PCT)
        snprintf(out, len, "limiter: DRAM at %.0f %% of peak (memory-bound: fewer bytes, or it is done)\n",
                 k->dram_throughput_pct);
    else if (compute && fraction >= COMPUTE_BUSY)
        snprintf(out, len, "limiter: %s at %.2f of the measured ceiling (compute-bound: fewer operations, or it is "
                           "done)\n", ceiling, fraction);
    else if (k->shared_load_wavefronts_per_instruction >= CONFLICT_WAVEFRONTS && k->shared_bank_conflicts > 0)
        snprintf(out, len, "limiter: %.0f-way bank conflicts on shared loads (%.1f wavefronts per instruction: pad "
                           "the tile)\n", k->shared_load_wavefronts_per_instruction,
                 k->shared_load_wavefronts_per_instruction);
    else if (k->global_load_sectors_per_request > SCATTERED_SECTORS)
        snprintf(out, len, "limiter: global loads of %.1f sectors per request (uncoalesced: 4 is a warp of floats)\n",
                 k->global_load_sectors_per_request);
    else if (k->global_store_sectors_per_request > SCATTERED_SECTORS)
        snprintf(out, len,
                 "limiter: global stores of %.1f sectors per request (uncoalesced: 4 is a warp of floats)\n",
                 k->global_store_sectors_per_request);
    else if (k->achieved_occupancy_pct < LOW_OCCUPANCY_PCT)
        snprintf(out, len, "limiter: achieved occupancy %.0f %% (latency not hidden: more warps or more work in "
                           "flight)\n", k->achieved_occupancy_pct);
    else
        snprintf(out, len, "limiter: none stands out (DRAM at %.0f %% of peak, occupancy %.0f %%): latency, most "
                           "likely: more independent work in flight per thread\n",
                 k->dram_throughput_pct, k->achieved_occupancy_pct);
}
