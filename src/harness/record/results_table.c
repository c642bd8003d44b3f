/* Results on the terminal: the device line, the compact table of a case at
 * one size (the records of results.c), its summaries and --ncu's counters. */
#include "results.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/measure/timing.h"

void ladder_print_device(FILE *out, const ladder_device *d)
{
    fprintf(out, "device %d: %s (compute capability %d.%d), %d SMs, SM clock %.0f MHz, "
                 "memory %.0f MHz x %d bit, L2 %.1f MB, %.1f GB\n",
            d->ordinal, d->name, d->cc_major, d->cc_minor, d->sm_count, d->sm_clock_mhz, d->mem_clock_mhz,
            d->bus_width_bits, d->l2_bytes / 1e6, d->global_mem_bytes / 1e9);
    fprintf(out, "  per SM: %zu KB shared memory, %d registers, %d threads, %d FP32 lanes\n",
            d->smem_per_sm / 1024, d->regs_per_sm, d->max_threads_per_sm, d->fp32_lanes_per_sm);
    fprintf(out, "  theoretical: DRAM %.0f GB/s, FP32 %.0f GFLOP/s", d->peak_dram_gbps, d->peak_fp32_gflops);
    if (d->peak_bf16_tensor_gflops > 0)
        fprintf(out, ", dense tensor BF16 %.0f, TF32 %.0f GFLOP/s", d->peak_bf16_tensor_gflops,
                d->peak_tf32_tensor_gflops);
    fputc('\n', out);
    if (d->ceilings_measured) {
        const ladder_ceilings *c = &d->ceilings;
        fprintf(out, "  measured:    cudaMemcpy D2D %.0f GB/s (%.0f%% of DRAM), copy kernel %.0f GB/s, "
                     "FMA %.0f GFLOP/s (%.0f%% of FP32), cuBLAS SGEMM %lld^3 %.0f GFLOP/s (FP32, no TF32)\n",
                c->memcpy_gbps, 100 * c->memcpy_gbps / d->peak_dram_gbps, c->copy_kernel_gbps, c->fma_gflops,
                100 * c->fma_gflops / d->peak_fp32_gflops, c->sgemm_n, c->sgemm_gflops);
        if (c->tensor_bf16_gflops > 0)
            fprintf(out, "  tensor:      BF16 tensor kernel %.0f GFLOP/s (%.0f%% of BF16), cuBLAS BF16 %lld^3 %.0f GFLOP/s "
                         "(FP32 accumulation)\n",
                    c->tensor_bf16_gflops, 100 * c->tensor_bf16_gflops / d->peak_bf16_tensor_gflops, c->cublas_bf16_n,
                    c->cublas_bf16_gflops);
        fprintf(out, "  ridge point: %.1f FLOP/byte; GB/s counts bytes read + written, 1 GB = 10^9 bytes\n",
                ladder_ridge_point(d));
    }
    if (!d->clocks_readable) fprintf(out, "  (NVML not available: SM clock and throttling not recorded)\n");
    if (d->energy_checked && !d->energy_note[0])
        fprintf(out, "  energy:      board power limit %.0f W, idle %.0f W before the first case; the energy counter "
                     "moves every %.0f ms\n",
                d->power_limit_w, d->idle_power_w, d->energy_period_ms);
    else if (d->energy_checked)
        fprintf(out, "  energy:      %s; board power limit %.0f W\n", d->energy_note, d->power_limit_w);
}

static void format_time(char *buf, size_t len, double ms)
{
    if (!(ms > 0)) snprintf(buf, len, "-");
    else if (ms < 1) snprintf(buf, len, "%.1f us", ms * 1e3);
    else if (ms < 1e3) snprintf(buf, len, "%.3f ms", ms);
    else snprintf(buf, len, "%.2f s", ms / 1e3);
}

static void format_number(char *buf, size_t len, const char *fmt, double v)
{
    if (isfinite(v)) snprintf(buf, len, fmt, v);
    else snprintf(buf, len, "-");
}

/* A row's first column: the rung's index; a tried kernel (ladder try) is no
 * rung of the ladder, so its row says whose it is. */
static void position_of(const ladder_record *rec, char *buf, size_t len)
{
    snprintf(buf, len, rec->user ? "you" : "%d", rec->index);
}

void ladder_print_table(FILE *out, const ladder_results *r, size_t first)
{
    if (first >= r->count) return;
    const ladder_record *head = &r->records[first];
    fprintf(out, "\n%s %s  (ceiling: %s)\n", head->case_name, head->size, head->ceiling);
    int flagged = 0, referenced = 0, tried = 0;
    /* A tensor-core case's compute column is its own ceiling, not FP32's. */
    int tensor = strcmp(head->ceiling, "tensor_bf16_gflops") == 0;
    /* Energy columns where any rung has energy: watts and work per joule,
     * in the unit of the case's ceiling. */
    int energy = 0, per_byte = strcmp(head->ceiling, "bandwidth_gbps") == 0;
    for (size_t i = first; i < r->count; ++i) energy |= isfinite(r->records[i].energy_j);
    char energy_head[32] = "";
    if (energy) snprintf(energy_head, sizeof energy_head, " %6s %8s", "W", per_byte ? "GB/J" : "GFLOP/J");
    fprintf(out, "%3s  %-26s %10s %7s %9s %9s %6s %6s %8s %8s%s %9s  %s\n", "#", "variant", "median", "spread",
            "GB/s", "GFLOP/s", "%bw", tensor ? "%tc" : "%fp32", "speedup", "vs base", energy_head, "error", "check");
    for (size_t i = first; i < r->count; ++i) {
        const ladder_record *rec = &r->records[i];
        char name[80], time[16], spread[16], gbps[16], gflops[16], bandwidth[16], fp32[16], speedup[16], ratio[16],
            error[16], against_reference[96] = "";
        snprintf(name, sizeof name, "%s%s", rec->variant, rec->baseline ? " *" : rec->reference ? " +" : "");
        char position[16];
        position_of(rec, position, sizeof position);
        tried |= rec->user;
        if (rec->skipped) {
            fprintf(out, "%3s  %-26s skipped: %s\n", position, name, rec->reason);
            continue;
        }
        format_time(time, sizeof time, rec->median_ms);
        format_number(spread, sizeof spread, "%.1f%%", 100 * rec->rel_spread);
        format_number(gbps, sizeof gbps, "%.0f", rec->gbps);
        format_number(gflops, sizeof gflops, "%.0f", rec->gflops);
        format_number(bandwidth, sizeof bandwidth, "%.1f%%", 100 * rec->fraction_of_bandwidth);
        format_number(fp32, sizeof fp32, "%.1f%%", 100 * (tensor ? rec->fraction_of_ceiling : rec->fraction_of_fp32));
        format_number(speedup, sizeof speedup, "%.2fx", rec->speedup);
        format_number(ratio, sizeof ratio, "%.3f", rec->ratio_to_baseline);
        format_number(error, sizeof error, "%.1e", rec->rel_error);
        if (isfinite(rec->ratio_to_reference))
            snprintf(against_reference, sizeof against_reference, "%s%.3f of %s", rec->precision[0] ? ", " : "  ",
                     rec->ratio_to_reference, rec->reference_variant);
        char watts[16], per_joule[16], energy_cells[40] = "";
        format_number(watts, sizeof watts, "%.0f", rec->power_w);
        format_number(per_joule, sizeof per_joule, "%.3g", per_byte ? rec->gb_per_j : rec->gflop_per_j);
        if (energy) snprintf(energy_cells, sizeof energy_cells, " %6s %8s", watts, per_joule);
        fprintf(out, "%3s  %-26s %10s %7s %9s %9s %6s %6s %8s %8s%s %9s  %s%s%s%s%s%s%s\n", position, name, time,
                spread, gbps, gflops, bandwidth, fp32, speedup, ratio, energy_cells, error, rec->valid ? "ok" : "FAIL",
                rec->throttled ? " throttled" : "", rec->contended ? " contended" : "", rec->noisy ? " noisy" : "",
                rec->precision[0] ? "  " : "", rec->precision, against_reference);
        flagged |= rec->throttled || rec->contended || rec->noisy;
        referenced |= rec->reference;
    }
    fprintf(out, "  * vendor baseline; vs base = baseline time / variant time; spread = interquartile range / median;\n"
                 "  %%bw, %%fp32: of the measured bandwidth and FMA ceilings (the higher one is the limiter)%s\n",
            tensor ? "; %tc: of the\n  measured BF16 tensor-core ceiling, in place of %fp32" : "");
    if (tried)
        fprintf(out, "  you: your kernel (ladder try), checked and timed as every rung is; speedup and vs base as theirs\n");
    if (referenced)
        fprintf(out, "  + reference: a vendor call beside the baseline (another precision or layout); \"X of NAME\" =\n"
                     "  that reference's time / the variant's time, for the variants at its precision\n");
    if (energy)
        fprintf(out, "  W: the whole board's average power with the rung run back to back, idle power included;\n"
                     "  %s: the problem's %s per joule of it\n",
                per_byte ? "GB/J" : "GFLOP/J", per_byte ? "GB" : "GFLOP");
    if (flagged)
        fprintf(out, "  throttled: a sample ran under a power or thermal slowdown; contended: another process held the\n"
                     "  GPU meanwhile; noisy: the spread stayed above %.0f%% at the time cap. Their medians are not to\n"
                     "  be trusted\n",
                100 * LADDER_NOISY_SPREAD);
}

void ladder_print_summaries(FILE *out, const ladder_results *r, size_t first)
{
    if (first >= r->summary_count) return;
    fprintf(out, "\n%s summary\n", r->summaries[first].case_name);
    for (size_t i = first; i < r->summary_count; ++i) {
        const ladder_summary *s = &r->summaries[i];
        char value[32];
        format_number(value, sizeof value, "%.4g", s->value);
        fprintf(out, "  %-34s %10s %-6s %s\n", s->name, value, s->unit, s->note);
    }
}

void ladder_print_counters(FILE *out, const ladder_results *r, size_t first)
{
    int any = 0;
    for (size_t i = first; i < r->count; ++i) any |= r->records[i].has_counters;
    if (!any) return;
    fprintf(out, "\n%s counters (Nsight Compute, one launch of each variant)\n", r->records[first].case_name);
    fprintf(out, "%3s  %-26s %7s %9s %10s %10s %6s %10s %7s %7s %7s %10s %6s\n", "#", "variant", "kernels",
            "ncu time", "DRAM read", "DRAM write", "%DRAM", "L2 read", "ld s/r", "st s/r", "smem wf", "bank confl",
            "occup");
    for (size_t i = first; i < r->count; ++i) {
        const ladder_record *rec = &r->records[i];
        if (!rec->has_counters) continue;
        const ladder_counters *c = &rec->counters;
        char time[16], read[16], written[16], dram[16], l2[16], load_sectors[16], store_sectors[16], wavefronts[16],
            conflicts[16], occupancy[16];
        format_time(time, sizeof time, c->duration_ms);
        format_number(read, sizeof read, "%.1f MB", c->dram_bytes_read / 1e6);
        format_number(written, sizeof written, "%.1f MB", c->dram_bytes_written / 1e6);
        format_number(dram, sizeof dram, "%.0f%%", c->dram_throughput_pct);
        format_number(l2, sizeof l2, "%.1f MB", c->l2_read_bytes / 1e6);
        format_number(load_sectors, sizeof load_sectors, "%.2f", c->global_load_sectors_per_request);
        format_number(store_sectors, sizeof store_sectors, "%.2f", c->global_store_sectors_per_request);
        format_number(wavefronts, sizeof wavefronts, "%.2f", c->shared_load_wavefronts_per_instruction);
        format_number(conflicts, sizeof conflicts, "%.3g", c->shared_bank_conflicts);
        format_number(occupancy, sizeof occupancy, "%.0f%%", c->achieved_occupancy_pct);
        char position[16];
        position_of(rec, position, sizeof position);
        fprintf(out, "%3s  %-26s %7d %9s %10s %10s %6s %10s %7s %7s %7s %10s %6s\n", position, rec->variant,
                c->kernels, time, read, written, dram, l2, load_sectors, store_sectors, wavefronts, conflicts,
                occupancy);
    }
    fprintf(out, "  %%DRAM: of peak DRAM throughput; ld s/r, st s/r: 32-byte sectors per global load and store\n"
                 "  request (4 for a warp of floats); smem wf: shared-memory wavefronts per load instruction;\n"
                 "  occup: achieved occupancy. Sums over the variant's kernels; - where none reported\n"
                 "  (cudaMemcpy launches no kernel)\n");
}
