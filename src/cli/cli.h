/* The command line, shared by its subcommands: the options of `run`, `list`
 * and `device` (parsed once, in options.c), the usage errors every
 * subcommand reports the same way, and one entry point per subcommand, each
 * in a file of its own (main.c only dispatches). */
#ifndef LADDER_CLI_H
#define LADDER_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "cases/registry.h"
#include "harness/device/device.h"
#include "harness/record/results.h"
#include "harness/record/run_document.h"
#include "harness/run/runner.h"
#include "harness/run/size.h"

#define MAX_SIZE_OPTIONS 16
#define MAX_DEVICES 64

/* argv[0] as the user typed it (build/ladder), for commands a message suggests. */
extern const char *ladder_program;
void print_usage(FILE *out);

typedef struct size_option {
    const char *case_name; /* NULL: every case */
    ladder_size_list sizes;
} size_option;

typedef struct cli {
    const char *command;
    const char *cases[64];
    int case_count;
    size_option sizes[MAX_SIZE_OPTIONS];
    int size_count;
    const char *variant;
    int ncu;
    int devices[MAX_DEVICES]; /* the GPUs to run on, in turn */
    int device_count;
    int all_devices;          /* --device all: resolved once the driver is asked */
    int samples;
    double time_cap_s;
    uint64_t seed;
    int seed_given;
    int quick;
    int quiet;
    int no_energy;
    const char *json_path, *csv_path;
    const char *hang_timeout; /* as typed, for the children of `try` */
    /* try's own options */
    int try_template;
    const char *try_name, *nvcc;
} cli;

/* A usage error: one line naming the option or argument, the pointer to
 * --help, exit code LADDER_EXIT_USAGE. */
void usage_error(const char *fmt, const char *arg) __attribute__((noreturn));
long parse_count(const char *option, const char *text, long min, long max);
const char *option_value(int argc, char **argv, int *i);

/* run, list and device: every option parsed, before the GPU is touched. */
cli parse_command_line(int argc, char **argv);
/* The sizes a case runs at: CASE=SPEC, else a bare --size, else its default
 * (*given says whether the user chose them). */
ladder_size_list sizes_for(const cli *c, const ladder_case *lc, int *given);
void join_arguments(int argc, char **argv, char *buf, size_t len);
/* The runner's options from the command line's: seed, samples, time cap
 * (short with --quick), the variant chosen. */
ladder_run_options run_options(const cli *c, uint64_t seed);

/* The GPUs of a run and its output files (run_gpus.c). */
const char *output_for_gpu(const cli *c, const char *path, int ordinal, char *buf, size_t len);
void check_outputs(const cli *c);
void resolve_devices(cli *c);
void open_gpu(const cli *c, int ordinal, ladder_device *device, ladder_run_info *info, int tensor);
void save_document(const ladder_run_document *doc);
/* The end of a run on one GPU: its document marked complete, or stopped by
 * the signal that asked (said on stderr, with what was kept); the results
 * freed, the energy and timing sessions closed. */
void end_gpu_run(ladder_run_document *doc, ladder_results *results);

/* run_command.c's steps, which `try` shares. Every size of every case
 * named, before the GPU is opened: a size a case cannot take is the same
 * usage error on any machine. */
void check_sizes(const cli *c, const ladder_case *const *selected, int count);
/* One case at one size: its ladder run. Returns 0, or -1 when a default
 * size does not fit this GPU (the case is skipped, said on stderr). */
int measure_case_at(const ladder_case *lc, const ladder_size *size, int size_given, const ladder_device *device,
                    const ladder_run_options *options, ladder_results *results);
/* With --ncu: the counters of records [first, count) (ncu.h). */
void collect_counters(const cli *c, const ladder_case *lc, const ladder_size *size, const ladder_device *device,
                      const ladder_run_options *options, const char *ncu, ladder_results *results, size_t first);
/* The child of `--ncu` (ncu.h): the same cases, sizes and variants, each
 * launched once for the profiler; the parent has timed and checked them.
 * The child of `try --ncu` runs it for the tried kernel's one-rung case. */
int profile_for_ncu(const cli *c, const ladder_case *const *selected, int count);
/* The table, summaries and counters of records [first, count); 1 when one is wrong. */
int print_case(const ladder_results *results, size_t first, size_t first_summary);

int command_list(const cli *c);
int command_run(cli *c, ladder_run_info *info);
int command_try(cli *c, ladder_run_info *info);
/* The child of `try` (try_child.c): the tried kernel in `object`, alone on the case's ladder. */
int try_child(const cli *c, const ladder_case *lc, const char *object);
int command_device(cli *c, ladder_run_info *info);
int command_script(const char *name, int argc, char **argv);
int command_occupancy(int argc, char **argv);
int command_blur(int argc, char **argv);

#endif
