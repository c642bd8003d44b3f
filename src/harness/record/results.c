#include "results.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "harness/check/check.h"
#include "harness/measure/timing.h"

/* The --ncu counters after `kernels`, by name, in JSON and CSV order: one
 * list, so that the two files cannot drift apart. */
static const struct counter_field {
    const char *name;
    size_t offset;
} counter_fields[] = {
    {"duration_ms", offsetof(ladder_counters, duration_ms)},
    {"dram_bytes_read", offsetof(ladder_counters, dram_bytes_read)},
    {"dram_bytes_written", offsetof(ladder_counters, dram_bytes_written)},
    {"dram_throughput_pct", offsetof(ladder_counters, dram_throughput_pct)},
    {"l2_read_bytes", offsetof(ladder_counters, l2_read_bytes)},
    {"global_load_sectors_per_request", offsetof(ladder_counters, global_load_sectors_per_request)},
    {"global_store_sectors_per_request", offsetof(ladder_counters, global_store_sectors_per_request)},
    {"shared_load_wavefronts_per_instruction", offsetof(ladder_counters, shared_load_wavefronts_per_instruction)},
    {"shared_bank_conflicts", offsetof(ladder_counters, shared_bank_conflicts)},
    {"achieved_occupancy_pct", offsetof(ladder_counters, achieved_occupancy_pct)},
};
#define COUNTER_FIELD_COUNT (sizeof counter_fields / sizeof counter_fields[0])

static double counter_value(const ladder_counters *c, size_t field)
{
    return *(const double *)((const char *)c + counter_fields[field].offset);
}
#define LADDER_JSON_SCHEMA 1

ladder_record *ladder_results_add(ladder_results *r)
{
    if (r->count == r->capacity) {
        size_t capacity = r->capacity ? 2 * r->capacity : 64;
        ladder_record *grown = realloc(r->records, capacity * sizeof *grown);
        if (!grown) ladder_die("out of host memory for result records");
        r->records = grown;
        r->capacity = capacity;
    }
    ladder_record *rec = &r->records[r->count++];
    memset(rec, 0, sizeof *rec);
    rec->median_ms = rec->min_ms = rec->max_ms = rec->rel_spread = NAN;
    rec->gbps = rec->gflops = rec->fraction_of_ceiling = NAN;
    rec->fraction_of_bandwidth = rec->fraction_of_fp32 = NAN;
    rec->speedup = rec->ratio_to_baseline = rec->ratio_to_reference = NAN;
    rec->rel_error = rec->tolerance = rec->sm_clock_mhz = NAN;
    rec->energy_j = rec->power_w = rec->energy_ms_per_run = rec->gflop_per_j = rec->gb_per_j = NAN;
    rec->ceiling = "";
    return rec;
}

ladder_summary *ladder_results_add_summary(ladder_results *r)
{
    if (r->summary_count == r->summary_capacity) {
        size_t capacity = r->summary_capacity ? 2 * r->summary_capacity : 16;
        ladder_summary *grown = realloc(r->summaries, capacity * sizeof *grown);
        if (!grown) ladder_die("out of host memory for result summaries");
        r->summaries = grown;
        r->summary_capacity = capacity;
    }
    ladder_summary *s = &r->summaries[r->summary_count++];
    memset(s, 0, sizeof *s);
    s->value = NAN;
    return s;
}

void ladder_add_summary(ladder_results *r, const char *name, double value, const char *unit, const char *note)
{
    ladder_summary *sum = ladder_results_add_summary(r);
    snprintf(sum->name, sizeof sum->name, "%s", name);
    sum->value = value;
    snprintf(sum->unit, sizeof sum->unit, "%s", unit);
    snprintf(sum->note, sizeof sum->note, "%s", note);
}

int ladder_record_usable(const ladder_record *rec) { return !rec->skipped && rec->valid && rec->median_ms > 0; }

void ladder_results_free(ladder_results *r)
{
    free(r->records);
    free(r->summaries);
    memset(r, 0, sizeof *r);
}

static int has_time(const ladder_record *rec) { return !rec->skipped && rec->median_ms > 0; }

void ladder_results_relate(ladder_results *r, size_t first)
{
    /* The first rung that ran: variant 0 unless it was skipped at this size
     * (a CPU loop too slow for a large problem, say). */
    const ladder_record *rung0 = NULL;
    ladder_record *baseline = NULL;
    for (size_t i = first; i < r->count; ++i) {
        ladder_record *rec = &r->records[i];
        if (!rung0 && !rec->baseline && has_time(rec)) rung0 = rec;
        if (rec->baseline) {
            if (baseline) {
                baseline->baseline = 0;
                baseline->reference = 1;
            }
            baseline = rec;
        }
    }
    if (baseline && !has_time(baseline)) baseline = NULL;
    for (size_t i = first; i < r->count; ++i) {
        ladder_record *rec = &r->records[i];
        if (!has_time(rec)) continue;
        if (rung0) rec->speedup = rung0->median_ms / rec->median_ms;
        if (baseline) rec->ratio_to_baseline = baseline->median_ms / rec->median_ms;
        if (rec->reference || rec->baseline) continue;
        for (size_t j = first; j < r->count; ++j) {
            const ladder_record *ref = &r->records[j];
            if (ref->reference && has_time(ref) && strcmp(ref->precision, rec->precision) == 0) {
                rec->ratio_to_reference = ref->median_ms / rec->median_ms;
                snprintf(rec->reference_variant, sizeof rec->reference_variant, "%s", ref->variant);
            }
        }
    }
}

/* ---------------- JSON ---------------- */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    if (isfinite(v)) fprintf(out, "%.9g", v);
    else fputs("null", out);
}

static const char *json_bool(int b) { return b ? "true" : "false"; }

#define FIELD_STR(name, value) (fprintf(out, "%s\"" name "\": ", sep), json_string(out, value), sep = ", ")
#define FIELD_NUM(name, value) (fprintf(out, "%s\"" name "\": ", sep), json_number(out, value), sep = ", ")
#define FIELD_INT(name, value) (fprintf(out, "%s\"" name "\": %lld", sep, (long long)(value)), sep = ", ")
#define FIELD_BOOL(name, value) (fprintf(out, "%s\"" name "\": %s", sep, json_bool(value)), sep = ", ")

static void emit_device(FILE *out, const ladder_device *d)
{
    const char *sep = "";
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    fputs("{", out);
    FIELD_STR("name", d->name);
    FIELD_STR("cc", cc);
    FIELD_INT("ordinal", d->ordinal);
    FIELD_INT("sm_count", d->sm_count);
    FIELD_NUM("sm_clock_mhz", d->sm_clock_mhz);
    FIELD_NUM("mem_clock_mhz", d->mem_clock_mhz);
    FIELD_INT("bus_width_bits", d->bus_width_bits);
    FIELD_INT("l2_bytes", d->l2_bytes);
    FIELD_INT("smem_per_sm_bytes", d->smem_per_sm);
    FIELD_INT("regs_per_sm", d->regs_per_sm);
    FIELD_INT("global_mem_bytes", d->global_mem_bytes);
    FIELD_INT("driver_version", d->driver_version);
    FIELD_INT("runtime_version", d->runtime_version);
    FIELD_NUM("peak_dram_gbps", d->peak_dram_gbps);
    FIELD_NUM("peak_fp32_gflops", d->peak_fp32_gflops);
    if (d->peak_bf16_tensor_gflops > 0) {
        FIELD_NUM("peak_bf16_tensor_gflops", d->peak_bf16_tensor_gflops);
        FIELD_NUM("peak_tf32_tensor_gflops", d->peak_tf32_tensor_gflops);
    }
    FIELD_NUM("power_limit_w", d->energy_checked ? d->power_limit_w : NAN);
    FIELD_NUM("idle_power_w", d->energy_checked ? d->idle_power_w : NAN);
    FIELD_NUM("energy_counter_period_ms", d->energy_checked ? d->energy_period_ms : NAN);
    if (d->energy_checked && !d->energy_note[0]) fprintf(out, ", \"energy_note\": null");
    else FIELD_STR("energy_note", d->energy_checked ? d->energy_note : "not measured");
    fprintf(out, ", \"ceilings\": ");
    if (d->ceilings_measured) {
        const ladder_ceilings *c = &d->ceilings;
        sep = "";
        fputs("{", out);
        FIELD_NUM("memcpy_gbps", c->memcpy_gbps);
        FIELD_NUM("copy_kernel_gbps", c->copy_kernel_gbps);
        FIELD_NUM("bandwidth_gbps", ladder_bandwidth_ceiling(d));
        FIELD_NUM("fma_gflops", c->fma_gflops);
        FIELD_NUM("sgemm_gflops", c->sgemm_gflops);
        FIELD_INT("sgemm_n", c->sgemm_n);
        FIELD_NUM("ridge_flop_per_byte", ladder_ridge_point(d));
        if (c->tensor_bf16_gflops > 0) {
            FIELD_NUM("tensor_bf16_gflops", c->tensor_bf16_gflops);
            FIELD_NUM("cublas_bf16_gflops", c->cublas_bf16_gflops);
            FIELD_INT("cublas_bf16_n", c->cublas_bf16_n);
        }
        fputs("}", out);
    } else {
        fputs("null", out);
    }
    fputs("}", out);
}

/* What the run saw of other processes on its GPU; checked is false (with the
 * reason in note) when NVML could not say. */
static void emit_contention(FILE *out, const ladder_contention *c)
{
    const char *sep = "";
    fputs("{", out);
    FIELD_BOOL("checked", c && c->checked);
    FIELD_STR("note", c ? c->note : "no GPU was opened");
    fputs(", \"processes\": [", out);
    for (int i = 0; c && i < c->process_count; ++i) {
        const ladder_gpu_process *p = &c->processes[i];
        sep = "";
        fputs(i ? ", {" : "{", out);
        FIELD_INT("pid", p->pid);
        FIELD_STR("name", p->name);
        if (p->used_memory_bytes == ~0ull) fprintf(out, ", \"used_memory_bytes\": null");
        else FIELD_INT("used_memory_bytes", p->used_memory_bytes);
        fputs("}", out);
    }
    fputs("]}", out);
}

static void emit_counters(FILE *out, const ladder_counters *c)
{
    fprintf(out, "{\"kernels\": %d", c->kernels);
    for (size_t f = 0; f < COUNTER_FIELD_COUNT; ++f) {
        fprintf(out, ", \"%s\": ", counter_fields[f].name);
        json_number(out, counter_value(c, f));
    }
    fputs("}", out);
}

static void emit_record(FILE *out, const ladder_record *rec)
{
    const char *sep = "";
    fputs("    {", out);
    FIELD_STR("case", rec->case_name);
    FIELD_STR("variant", rec->variant);
    FIELD_INT("index", rec->index);
    FIELD_STR("size", rec->size);
    FIELD_BOOL("baseline", rec->baseline);
    FIELD_BOOL("host", rec->host);
    FIELD_BOOL("skipped", rec->skipped);
    if (rec->skipped) FIELD_STR("reason", rec->reason);
    else fprintf(out, ", \"reason\": null");
    FIELD_INT("samples", rec->samples);
    FIELD_NUM("median_ms", rec->median_ms);
    FIELD_NUM("min_ms", rec->min_ms);
    FIELD_NUM("max_ms", rec->max_ms);
    FIELD_NUM("rel_spread", rec->rel_spread);
    FIELD_NUM("bytes", rec->bytes);
    FIELD_NUM("flops", rec->flops);
    FIELD_NUM("gbps", rec->gbps);
    FIELD_NUM("gflops", rec->gflops);
    FIELD_STR("ceiling", rec->ceiling);
    FIELD_NUM("fraction_of_ceiling", rec->fraction_of_ceiling);
    FIELD_NUM("fraction_of_bandwidth", rec->fraction_of_bandwidth);
    FIELD_NUM("fraction_of_fp32", rec->fraction_of_fp32);
    FIELD_NUM("speedup", rec->speedup);
    FIELD_NUM("ratio_to_baseline", rec->ratio_to_baseline);
    FIELD_BOOL("reference", rec->reference);
    if (rec->reference_variant[0]) FIELD_STR("reference_variant", rec->reference_variant);
    else fprintf(out, ", \"reference_variant\": null");
    FIELD_NUM("ratio_to_reference", rec->ratio_to_reference);
    FIELD_NUM("rel_error", rec->rel_error);
    FIELD_NUM("tolerance", rec->tolerance);
    if (rec->precision[0]) FIELD_STR("precision", rec->precision);
    else fprintf(out, ", \"precision\": null");
    FIELD_BOOL("valid", rec->valid);
    FIELD_BOOL("throttled", rec->throttled);
    FIELD_INT("throttled_samples", rec->throttled_samples);
    FIELD_BOOL("contended", rec->contended);
    FIELD_BOOL("noisy", rec->noisy);
    FIELD_BOOL("hung", rec->hung);
    FIELD_NUM("sm_clock_mhz", rec->sm_clock_mhz);
    FIELD_NUM("energy_j", rec->energy_j);
    FIELD_NUM("power_w", rec->power_w);
    FIELD_NUM("energy_ms_per_run", rec->energy_ms_per_run);
    FIELD_NUM("gflop_per_j", rec->gflop_per_j);
    FIELD_NUM("gb_per_j", rec->gb_per_j);
    if (rec->energy_reason[0]) FIELD_STR("energy_reason", rec->energy_reason);
    else fprintf(out, ", \"energy_reason\": null");
    fprintf(out, ", \"counters\": ");
    if (rec->has_counters) emit_counters(out, &rec->counters);
    else fputs("null", out);
    FIELD_BOOL("user", rec->user);
    if (rec->user) {
        FIELD_STR("source", rec->source);
        FIELD_STR("source_sha256", rec->source_sha256);
        FIELD_STR("compile_command", rec->compile_command);
        if (rec->test_size_failures[0]) FIELD_STR("test_size_failures", rec->test_size_failures);
        else fprintf(out, ", \"test_size_failures\": null");
    }
    fputs("}", out);
}

void ladder_emit_json(FILE *out, const ladder_device *device, const ladder_results *r, const ladder_run_info *info)
{
    fprintf(out, "{\n  \"tool\": \"ladder\",\n  \"version\": \"%s\",\n  \"schema\": %d,\n", LADDER_VERSION,
            LADDER_JSON_SCHEMA);
    fputs("  \"command\": ", out);
    json_string(out, info->command_line ? info->command_line : "");
    char date[32];
    struct tm utc;
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&info->started, &utc));
    fprintf(out, ",\n  \"date\": \"%s\"", date);
    fprintf(out, ",\n  \"seed\": %llu,\n  \"quick\": %s,\n", (unsigned long long)info->seed, json_bool(info->quick));
    fprintf(out, "  \"complete\": %s,\n  \"running_case\": ", json_bool(info->complete));
    if (info->running_case) json_string(out, info->running_case);
    else fputs("null", out);
    fputs(",\n  \"stopped_by\": ", out);
    if (info->stopped_by) json_string(out, info->stopped_by);
    else fputs("null", out);
    fputs(",\n  \"contention\": ", out);
    emit_contention(out, info->contention);
    fputs(",\n", out);
    fputs("  \"units\": {\"gbps\": \"1e9 bytes per second, bytes read + written\", "
          "\"gflops\": \"1e9 floating-point operations per second\", \"time\": \"milliseconds\"},\n",
          out);
    fputs("  \"device\": ", out);
    emit_device(out, device);
    fputs(",\n  \"results\": [\n", out);
    for (size_t i = 0; i < r->count; ++i) {
        emit_record(out, &r->records[i]);
        fputs(i + 1 < r->count ? ",\n" : "\n", out);
    }
    fputs("  ],\n  \"summaries\": [\n", out);
    for (size_t i = 0; i < r->summary_count; ++i) {
        const ladder_summary *s = &r->summaries[i];
        const char *sep = "";
        fputs("    {", out);
        FIELD_STR("case", s->case_name);
        FIELD_STR("size", s->size);
        FIELD_STR("name", s->name);
        FIELD_NUM("value", s->value);
        FIELD_STR("unit", s->unit);
        FIELD_STR("note", s->note);
        fputs(i + 1 < r->summary_count ? "},\n" : "}\n", out);
    }
    fputs("  ]\n}\n", out);
}

/* ---------------- files, written whole or not at all ---------------- */

typedef struct json_job {
    const ladder_device *device;
    const ladder_results *results;
    const ladder_run_info *info;
} json_job;

static int emit_json_job(FILE *out, const void *context, char *err, size_t err_len)
{
    (void)err, (void)err_len;
    const json_job *job = context;
    ladder_emit_json(out, job->device, job->results, job->info);
    return 0;
}

int ladder_write_json(const char *path, const ladder_device *device, const ladder_results *results,
                      const ladder_run_info *info, char *err, size_t err_len)
{
    json_job job = {device, results, info};
    return ladder_write_atomically(path, emit_json_job, &job, err, err_len);
}

static void csv_number(FILE *out, double v)
{
    if (isfinite(v)) fprintf(out, ",%.9g", v);
    else fputs(",", out);
}

/* Quoted, with quotes doubled (RFC 4180). */
static void csv_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Empty fields when the run had no --ncu. */
static void emit_csv_counters(FILE *out, const ladder_record *rec)
{
    if (rec->has_counters) fprintf(out, ",%d", rec->counters.kernels);
    else fputs(",", out);
    for (size_t f = 0; f < COUNTER_FIELD_COUNT; ++f)
        csv_number(out, rec->has_counters ? counter_value(&rec->counters, f) : NAN);
}

static int emit_csv_job(FILE *out, const void *context, char *err, size_t err_len)
{
    (void)err, (void)err_len;
    const json_job *job = context;
    fputs("device,case,variant,index,size,baseline,host,skipped,samples,median_ms,min_ms,max_ms,rel_spread,"
          "bytes,flops,gbps,gflops,ceiling,fraction_of_ceiling,fraction_of_bandwidth,fraction_of_fp32,speedup,ratio_to_baseline,rel_error,valid,"
          "throttled,contended,noisy,precision,reference,reference_variant,ratio_to_reference,sm_clock_mhz,kernels",
          out);
    for (size_t f = 0; f < COUNTER_FIELD_COUNT; ++f) fprintf(out, ",%s", counter_fields[f].name);
    fputs(",energy_j,power_w,energy_ms_per_run,gflop_per_j,gb_per_j,energy_reason,user,source,source_sha256,"
          "compile_command,test_size_failures\n",
          out);
    for (size_t i = 0; i < job->results->count; ++i) {
        const ladder_record *rec = &job->results->records[i];
        csv_string(out, job->device->name);
        fprintf(out, ",%s,%s,%d,%s,%d,%d,%d,%d", rec->case_name, rec->variant, rec->index, rec->size, rec->baseline,
                rec->host, rec->skipped, rec->samples);
        csv_number(out, rec->median_ms);
        csv_number(out, rec->min_ms);
        csv_number(out, rec->max_ms);
        csv_number(out, rec->rel_spread);
        csv_number(out, rec->bytes);
        csv_number(out, rec->flops);
        csv_number(out, rec->gbps);
        csv_number(out, rec->gflops);
        fprintf(out, ",%s", rec->ceiling);
        csv_number(out, rec->fraction_of_ceiling);
        csv_number(out, rec->fraction_of_bandwidth);
        csv_number(out, rec->fraction_of_fp32);
        csv_number(out, rec->speedup);
        csv_number(out, rec->ratio_to_baseline);
        csv_number(out, rec->rel_error);
        fprintf(out, ",%d,%d,%d,%d,", rec->valid, rec->throttled, rec->contended, rec->noisy);
        csv_string(out, rec->precision); /* empty at the case's own precision */
        fprintf(out, ",%d,", rec->reference);
        csv_string(out, rec->reference_variant); /* empty where there is no reference */
        csv_number(out, rec->ratio_to_reference);
        csv_number(out, rec->sm_clock_mhz);
        emit_csv_counters(out, rec);
        csv_number(out, rec->energy_j);
        csv_number(out, rec->power_w);
        csv_number(out, rec->energy_ms_per_run);
        csv_number(out, rec->gflop_per_j);
        csv_number(out, rec->gb_per_j);
        fputc(',', out);
        csv_string(out, rec->energy_reason);
        fprintf(out, ",%d,", rec->user);
        csv_string(out, rec->source);
        fputc(',', out);
        csv_string(out, rec->source_sha256);
        fputc(',', out);
        csv_string(out, rec->compile_command);
        fputc(',', out);
        csv_string(out, rec->test_size_failures);
        fputc('\n', out);
    }
    return 0;
}

int ladder_write_csv(const char *path, const ladder_device *device, const ladder_results *results, char *err,
                     size_t err_len)
{
    json_job job = {device, results, NULL};
    return ladder_write_atomically(path, emit_csv_job, &job, err, err_len);
}
