/* Result records: one per variant run, written as the terminal table, JSON
 * (the documented contract, docs/json.md) and CSV. */
#ifndef LADDER_RESULTS_H
#define LADDER_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "harness/measure/contention.h"
#include "harness/device/device.h"

/* The version every results document and `ladder --version` carry: one place. */
#define LADDER_VERSION "0.1.0"

/* Numbers that do not apply (GFLOP/s of a copy, the ratio of a skipped
 * variant) are NAN here and null in JSON. */
/* Nsight Compute counters of one launch of a variant (`ladder run --ncu`,
 * ncu.h), summed over the kernels it launched; NaN where no kernel reported. */
typedef struct ladder_counters {
    int kernels;                   /* kernels launched: 0 for cudaMemcpy */
    double duration_ms;            /* their gpu__time_duration under ncu */
    double dram_bytes_read, dram_bytes_written;
    double dram_throughput_pct;    /* of DRAM peak, weighted by duration */
    double l2_read_bytes;          /* 32-byte sectors the SMs read from L2, in bytes */
    double global_load_sectors_per_request, global_store_sectors_per_request;
    double shared_load_wavefronts_per_instruction;
    double shared_bank_conflicts;  /* loads and stores */
    double achieved_occupancy_pct; /* active warps of the maximum, weighted by duration */
} ladder_counters;

typedef struct ladder_record {
    char case_name[32];
    char variant[64];
    int index;               /* position in the case's ladder */
    char size[64];           /* canonical size text, "8192x8192" */
    int baseline, host;      /* vendor-library record; CPU variant */
    int reference;           /* a vendor call beside the baseline (case.h): compared with, not the baseline */
    int skipped;
    char reason[200];        /* why skipped */
    char precision[48];      /* the variant's precision note, "" for none */
    int samples;
    double median_ms, min_ms, max_ms, rel_spread;
    double bytes, flops, gbps, gflops;
    const char *ceiling;     /* name of the ceiling in the device object */
    double fraction_of_ceiling;
    double fraction_of_bandwidth; /* gbps / the bandwidth ceiling: the speed-of-light view, */
    double fraction_of_fp32;      /* gflops / the FMA ceiling;      whichever is higher limits */
    double speedup;          /* the first rung that ran (variant 0 unless skipped): its median over this one */
    double ratio_to_baseline;/* baseline's median over this median: > 1 is faster */
    /* The reference of the record's own precision and, where there is one,
     * its median over this one (NaN and "" where none). */
    double ratio_to_reference;
    char reference_variant[64];
    double rel_error, tolerance;
    int valid;
    int throttled;           /* any sample throttled */
    int throttled_samples;
    int contended;           /* another process held the GPU while this was measured (contention.h) */
    int noisy;               /* the spread stayed above LADDER_NOISY_SPREAD: the median is not to be trusted */
    int hung;                /* did not finish within the watchdog's limit (watchdog.h): the run ended there */
    double sm_clock_mhz;
    /* The board's energy over the rung run back to back (energy.h): joules
     * per run, average watts, the time per run back to back, work per joule;
     * NAN where not measured, energy_reason saying why ("" when measured). */
    double energy_j, power_w, energy_ms_per_run, gflop_per_j, gb_per_j;
    char energy_reason[120];
    int has_counters;        /* --ncu profiled this variant */
    ladder_counters counters;
    /* A tried kernel's record (`ladder try`): the source file, its SHA-256,
     * the nvcc command that built it, and the case's test sizes where its
     * result was wrong, with the error and tolerance ("" for none). */
    int user;
    char source[512];
    char source_sha256[65];
    char compile_command[2048];
    char test_size_failures[512];
} ladder_record;

/* A figure of a case's whole ladder rather than of one variant, made by the
 * case's summarize hook (case.h): a fitted latency, an overlap efficiency. */
typedef struct ladder_summary {
    char case_name[32];
    char size[64];
    char name[48];   /* snake_case, stable: "h2d_pinned_latency_us" */
    double value;    /* NaN when it could not be derived */
    char unit[16];   /* "us", "GB/s", "ratio", "" */
    char note[160];  /* how it was derived, one line */
} ladder_summary;

typedef struct ladder_results {
    ladder_record *records;
    size_t count, capacity;
    ladder_summary *summaries;
    size_t summary_count, summary_capacity;
} ladder_results;

ladder_record *ladder_results_add(ladder_results *results);
ladder_summary *ladder_results_add_summary(ladder_results *results);
/* A summary in one call (the note copied, truncated to its field). */
void ladder_add_summary(ladder_results *results, const char *name, double value, const char *unit, const char *note);
/* The record ran, validated and has a time: it can enter a summary. */
int ladder_record_usable(const ladder_record *rec);
void ladder_results_free(ladder_results *results);

/* Fill speedup, ratio_to_baseline and ratio_to_reference for the records of
 * one case, [first, count), which are in ladder order. The last record marked
 * baseline is the baseline; those before it are references (case.h): each
 * becomes reference, not baseline, and is compared with the records of its
 * precision. */
void ladder_results_relate(ladder_results *results, size_t first);

/* results_table.c: the terminal table of one case's records [first, count). */
void ladder_print_table(FILE *out, const ladder_results *results, size_t first);
/* The summaries of one case at one size, summaries [first, summary_count). */
void ladder_print_summaries(FILE *out, const ladder_results *results, size_t first);
/* The counters of the records that have them (`--ncu`), one line each. */
void ladder_print_counters(FILE *out, const ladder_results *results, size_t first);
void ladder_print_device(FILE *out, const ladder_device *device);

typedef struct ladder_run_info {
    const char *command_line;
    time_t started;            /* written as UTC, ISO 8601 */
    uint64_t seed;
    int quick;
    /* A run's document is rewritten after every case: until the run ends it
     * is marked incomplete, with the case that was running, and a run that
     * was stopped says by what. */
    int complete;
    const char *running_case;  /* NULL between cases */
    const char *stopped_by;    /* "SIGINT", "SIGTERM", "error: ...", or NULL */
    const ladder_contention *contention; /* NULL: not checked (no device opened) */
} ladder_run_info;

/* Write the whole document to a temporary file beside `path`, then rename
 * it into place: a reader never sees half a file. Returns 0, or -1 with a
 * message in err. */
int ladder_write_json(const char *path, const ladder_device *device, const ladder_results *results,
                      const ladder_run_info *info, char *err, size_t err_len);
int ladder_write_csv(const char *path, const ladder_device *device, const ladder_results *results,
                     char *err, size_t err_len);

/* The JSON document to an open stream (used by the writer and the tests). */
void ladder_emit_json(FILE *out, const ladder_device *device, const ladder_results *results,
                      const ladder_run_info *info);

#endif
