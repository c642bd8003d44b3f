/* ladder: the command line. Parses, validates everything it can before the
 * GPU is touched, then hands each case to the harness's runner. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cases/blur/blur.h"
#include "cases/registry.h"
#include "harness/record/atomic_file.h"
#include "harness/check/check.h"
#include "harness/measure/contention.h"
#include "harness/device/device.h"
#include "harness/measure/energy.h"
#include "harness/measure/ncu.h"
#include "harness/device/occupancy_calc.h"
#include "harness/record/progress.h"
#include "harness/record/results.h"
#include "harness/record/run_document.h"
#include "harness/run/runner.h"
#include "harness/run/size.h"
#include "harness/run/stop.h"
#include "harness/measure/timing.h"
#include "harness/measure/watchdog.h"
#include "io/matrix_market.h"
#include "io/netpbm.h"

#define LADDER_VERSION "0.1.0"
#define MAX_SIZE_OPTIONS 16
#define MAX_DEVICES 64

static const char usage_text[] =
    "usage: ladder <command> [options]\n"
    "\n"
    "commands:\n"
    "  list [CASE]            the cases, or one case's variants with their stories\n"
    "  run [CASE...]          check and time every variant (default: every case)\n"
    "  device                 properties, theoretical peaks and measured ceilings\n"
    "  report RESULTS.json [B.json] -o REPORT.html\n"
    "                         one HTML page: roofline, a chart per ladder, the sweeps;\n"
    "                         with B.json, the two runs overlaid\n"
    "  compare A.json B.json [--threshold PCT] [--json FILE] [--fail-on-energy]\n"
    "                         every rung's median (and energy) in both, B/A, the changes beyond\n"
    "                         noise; exit 1 when a rung got slower (or, with --fail-on-energy,\n"
    "                         costlier in energy)\n"
    "  occupancy (--cc X.Y | --device N) --threads T [--regs R] [--smem BYTES] [--json]\n"
    "                         resident blocks and warps per SM, the occupancy and what\n"
    "                         limits it; --cc needs no GPU; here --json is a flag that\n"
    "                         prints one JSON object instead of the text\n"
    "  blur IN OUT [--variant NAME|INDEX] [--device N]\n"
    "                         smooth a PPM (P6) or PAM (P7) image with a blur rung (default:\n"
    "                         the best); without a GPU, with the CPU reference\n"
    "\n"
    "options for run (and device, where they apply):\n"
    "  --size SPEC            problem size for every case named, e.g. 8192x8192 or 2^28-3;\n"
    "                         a comma-separated list runs the ladder at each size\n"
    "  --size CASE=SPEC       problem size for one case (repeatable)\n"
    "  --variant NAME|INDEX   run one variant (and the baseline)\n"
    "  --device N|LIST|all    GPU ordinal (default 0), a list (0,1) or every GPU, run in turn;\n"
    "                         with several, --json/--csv FILE.json write FILE-gpuN.json per GPU\n"
    "  --samples N            at least N timed samples per variant (default 10, minimum 10)\n"
    "  --time-cap SECONDS     sampling time per variant after the minimum (default 1)\n"
    "  --seed N               random seed for the inputs (default: from the clock, printed)\n"
    "  --matrix FILE          run spmv on a Matrix Market file (its size becomes file:FILE)\n"
    "  --quick                small sizes and short sampling, for a fast look\n"
    "  --json FILE            write every record as JSON, rewritten whole after every case:\n"
    "                         an interrupted run (Ctrl-C, SIGTERM, an error) keeps the cases\n"
    "                         it finished, marked incomplete\n"
    "  --csv FILE             the same records as CSV\n"
    "  --quiet                no progress line on the terminal\n"
    "  --no-energy            no energy figures: skips the back-to-back launches that measure\n"
    "                         each rung's energy (about 0.1 s a rung on an H100)\n"
    "  --ncu                  also profile one launch of each variant with Nsight Compute and\n"
    "                         show its counters (DRAM bytes, sectors per request, bank\n"
    "                         conflicts, occupancy) beside the timings; needs ncu\n"
    "  --hang-timeout SECONDS a variant whose GPU work does not finish in this long ends the\n"
    "                         run with exit code 4, naming it (default: 50 times its longest\n"
    "                         launch so far, at least 20 s, 120 s for its first; 0: never)\n"
    "  --help, --version\n";

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
} cli;

static void usage_error(const char *fmt, const char *arg) __attribute__((noreturn));
static void usage_error(const char *fmt, const char *arg)
{
    fputs("ladder: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (see ladder --help)\n", stderr);
    exit(LADDER_EXIT_USAGE);
}

static long parse_count(const char *option, const char *text, long min, long max)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (!*text || *end || v < min || v > max) {
        fprintf(stderr, "ladder: %s needs a whole number from %ld to %ld, not '%s' (see ladder --help)\n", option,
                min, max, text);
        exit(LADDER_EXIT_USAGE);
    }
    return v;
}

static void add_size(cli *c, const char *arg)
{
    if (c->size_count == MAX_SIZE_OPTIONS) usage_error("too many --size options%s", "");
    size_option *s = &c->sizes[c->size_count++];
    const char *spec = arg;
    const char *equals = strchr(arg, '=');
    static char names[MAX_SIZE_OPTIONS][64];
    if (equals) {
        size_t len = (size_t)(equals - arg);
        if (len >= sizeof names[0]) usage_error("unknown case in --size '%s'", arg);
        memcpy(names[c->size_count - 1], arg, len);
        names[c->size_count - 1][len] = '\0';
        s->case_name = names[c->size_count - 1];
        if (!ladder_find_case(s->case_name)) usage_error("unknown case '%s' in --size", s->case_name);
        spec = equals + 1;
    }
    char err[256];
    if (ladder_parse_size_list(spec, &s->sizes, err, sizeof err) != 0) usage_error("%s", err);
}

/* --matrix FILE: spmv's size becomes the form "file", which reads FILE. The
 * file is read and parsed here, before the GPU is touched, so a malformed
 * one gets its precise error on any machine; the case reads it again. */
static void add_matrix_file(cli *c, const char *path)
{
    if (access(path, R_OK) != 0) usage_error("cannot read the --matrix file '%s'", path);
    matrix_market_csr matrix;
    char err[512];
    if (matrix_market_load(path, &matrix, err, sizeof err) != 0) usage_error("%s", err);
    matrix_market_free(&matrix);
    if (c->size_count == MAX_SIZE_OPTIONS) usage_error("too many --size options%s", "");
    size_option *s = &c->sizes[c->size_count++];
    s->case_name = "spmv";
    s->sizes.count = 1;
    s->sizes.size[0] = (ladder_size){.count = 1, .dim = {1}, .form = "file", .input = path};
}

/* --device N, a list (0,2,3) or all. */
static void parse_devices(cli *c, const char *text)
{
    c->all_devices = strcmp(text, "all") == 0;
    c->device_count = 0;
    if (c->all_devices) return;
    char list[256];
    if (snprintf(list, sizeof list, "%s", text) >= (int)sizeof list) usage_error("--device list too long: '%.40s'", text);
    for (char *item = strtok(list, ","); item; item = strtok(NULL, ",")) {
        if (c->device_count == MAX_DEVICES) usage_error("--device names more than 64 GPUs%s", "");
        int ordinal = (int)parse_count("--device", item, 0, 1024);
        for (int g = 0; g < c->device_count; ++g)
            if (c->devices[g] == ordinal) usage_error("--device names GPU %s twice", item);
        c->devices[c->device_count++] = ordinal;
    }
    if (c->device_count == 0) usage_error("--device needs N, a list such as 0,1, or all, not '%s'", text);
}

static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) usage_error("option %s needs a value", argv[*i]);
    return argv[++*i];
}

static cli parse_command_line(int argc, char **argv)
{
    cli c = {0};
    c.device_count = 1; /* GPU 0 */
    c.samples = 10;
    c.time_cap_s = 1.0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("ladder %s\n", LADDER_VERSION);
            exit(0);
        } else if (strcmp(a, "--size") == 0) {
            add_size(&c, option_value(argc, argv, &i));
        } else if (strcmp(a, "--matrix") == 0) {
            add_matrix_file(&c, option_value(argc, argv, &i));
        } else if (strcmp(a, "--variant") == 0) {
            c.variant = option_value(argc, argv, &i);
        } else if (strcmp(a, "--device") == 0) {
            parse_devices(&c, option_value(argc, argv, &i));
        } else if (strcmp(a, "--samples") == 0) {
            c.samples = (int)parse_count("--samples", option_value(argc, argv, &i), 10, 100000);
        } else if (strcmp(a, "--time-cap") == 0) {
            const char *text = option_value(argc, argv, &i);
            char *end;
            c.time_cap_s = strtod(text, &end);
            if (!*text || *end || !(c.time_cap_s >= 0) || c.time_cap_s > 3600)
                usage_error("--time-cap needs seconds from 0 to 3600, not '%s'", text);
        } else if (strcmp(a, "--seed") == 0) {
            const char *text = option_value(argc, argv, &i);
            char *end;
            c.seed = strtoull(text, &end, 10);
            if (!*text || *end) usage_error("--seed needs a whole number, not '%s'", text);
            c.seed_given = 1;
        } else if (strcmp(a, "--hang-timeout") == 0) {
            double seconds;
            char err[160];
            if (ladder_watchdog_parse(option_value(argc, argv, &i), &seconds, err, sizeof err) != 0)
                usage_error("%s", err);
            ladder_watchdog_set_fixed(seconds);
        } else if (strcmp(a, "--ncu") == 0) {
            c.ncu = 1;
        } else if (strcmp(a, "--quick") == 0) {
            c.quick = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            c.quiet = 1;
        } else if (strcmp(a, "--no-energy") == 0) {
            c.no_energy = 1;
        } else if (strcmp(a, "--json") == 0) {
            c.json_path = option_value(argc, argv, &i);
        } else if (strcmp(a, "--csv") == 0) {
            c.csv_path = option_value(argc, argv, &i);
        } else if (a[0] == '-') {
            usage_error("unknown option '%s'", a);
        } else if (!c.command) {
            c.command = a;
        } else {
            if (c.case_count == (int)(sizeof c.cases / sizeof c.cases[0])) usage_error("too many cases%s", "");
            c.cases[c.case_count++] = a;
        }
    }
    if (!c.command) {
        fputs(usage_text, stderr);
        exit(LADDER_EXIT_USAGE);
    }
    return c;
}

static int command_list(const cli *c)
{
    if (c->case_count == 0) {
        for (int i = 0; i < ladder_case_count; ++i)
            printf("%-12s %s (default size %s)\n", ladder_cases[i]->name, ladder_cases[i]->title,
                   ladder_cases[i]->default_size);
        return 0;
    }
    for (int k = 0; k < c->case_count; ++k) {
        const ladder_case *lc = ladder_find_case(c->cases[k]);
        if (!lc) usage_error("unknown case '%s'", c->cases[k]);
        printf("%s: %s\n  size: %s (default %s, quick %s)\n", lc->name, lc->title, lc->size_help, lc->default_size,
               lc->quick_size);
        for (int i = 0; i < lc->variant_count; ++i) {
            const ladder_variant *v = &lc->variants[i];
            printf("%3d  %-26s %s%s\n", i, v->name, (v->flags & LADDER_BASELINE) ? "[baseline] " : "", v->story);
        }
    }
    return 0;
}

/* The sizes a case runs at: CASE=SPEC, else a bare --size, else its default
 * (*given says whether the user chose them). */
static ladder_size_list sizes_for(const cli *c, const ladder_case *lc, int *given)
{
    const ladder_size_list *chosen = NULL;
    for (int i = 0; i < c->size_count; ++i)
        if (!c->sizes[i].case_name || strcmp(c->sizes[i].case_name, lc->name) == 0) chosen = &c->sizes[i].sizes;
    *given = chosen != NULL;
    if (chosen) return *chosen;
    ladder_size_list list;
    char err[256];
    if (ladder_parse_size_list(c->quick ? lc->quick_size : lc->default_size, &list, err, sizeof err) != 0)
        ladder_die("case %s has a bad built-in size: %s", lc->name, err);
    return list;
}

static void join_arguments(int argc, char **argv, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used + 1 < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, i ? " %s" : "%s", argv[i]);
}

static void save_document(const ladder_run_document *doc)
{
    char err[512];
    if (ladder_document_save(doc, err, sizeof err) != 0) ladder_die("%s", err);
}

/* The child of `--ncu` (ncu.h): the same cases, sizes and variants, each
 * launched once for the profiler; the parent has timed and checked them. */
static int profile_for_ncu(const cli *c, const ladder_case *const *selected, int count)
{
    ladder_device device;
    char open_err[512];
    if (ladder_device_open(c->devices[0], &device, open_err, sizeof open_err) != 0) ladder_die("%s", open_err);
    ladder_run_options options = {.seed = c->seed, .variant = c->variant};
    for (int k = 0; k < count; ++k) {
        int size_given;
        ladder_size_list sizes = sizes_for(c, selected[k], &size_given);
        for (int s = 0; s < sizes.count; ++s) {
            char err[512];
            if (ladder_profile_case(selected[k], &sizes.size[s], &options, err, sizeof err) != LADDER_OK)
                ladder_die("%s: %s", selected[k]->name, err);
        }
    }
    return 0;
}

/* One case at one size: run, print, profile with --ncu. Returns 1 when a
 * variant produced a wrong result. */
static int run_case_at(const cli *c, const ladder_case *lc, const ladder_size *size, int size_given,
                       const ladder_device *device, const ladder_run_options *options, const char *ncu,
                       ladder_results *results)
{
    char err[512];
    size_t first = results->count, first_summary = results->summary_count;
    ladder_status status = ladder_run_case(lc, size, device, options, results, err, sizeof err);
    if (status == LADDER_BAD_SIZE) {
        fprintf(stderr, "ladder: %s: %s (see ladder list %s)\n", lc->name, err, lc->name);
        exit(LADDER_EXIT_USAGE);
    }
    /* A size the user asked for must fit; a default size that does not fit
     * a smaller GPU skips that case and lets the others run. */
    if (status == LADDER_NO_MEMORY && size_given) ladder_die("%s: %s", lc->name, err);
    if (status == LADDER_NO_MEMORY) {
        fprintf(stderr, "ladder: %s skipped: %s; try --quick or --size %s=...\n", lc->name, err, lc->name);
        return 0;
    }
    ladder_progress_clear();
    ladder_print_table(stdout, results, first);
    ladder_print_summaries(stdout, results, first_summary);
    if (c->ncu && !ladder_stop_signal()) {
        int rc = ladder_ncu_collect(ncu, lc, size, device->ordinal, options, results, first, err, sizeof err);
        if (rc == LADDER_EXIT_HUNG) ladder_die_unrecoverable(LADDER_EXIT_HUNG, err);
        if (rc) ladder_die("%s", err);
        ladder_print_counters(stdout, results, first);
    }
    fflush(stdout);
    int invalid = 0;
    for (size_t i = first; i < results->count; ++i)
        invalid |= !results->records[i].skipped && !results->records[i].valid;
    return invalid;
}

/* Every size of every case named, before the GPU is opened: a size a case
 * cannot take is the same usage error on any machine. */
static void check_sizes(const cli *c, const ladder_case *const *selected, int count)
{
    for (int k = 0; k < count; ++k) {
        int size_given;
        ladder_size_list sizes = sizes_for(c, selected[k], &size_given);
        for (int s = 0; s < sizes.count; ++s) {
            char err[512];
            if (ladder_check_size(selected[k], &sizes.size[s], err, sizeof err) != LADDER_OK) {
                fprintf(stderr, "ladder: %s: %s (see ladder list %s)\n", selected[k]->name, err, selected[k]->name);
                exit(LADDER_EXIT_USAGE);
            }
        }
    }
}

/* The output file for one GPU of the run: FILE itself with one GPU, else
 * FILE with "-gpuN" before its extension (run.json: run-gpu0.json, ...), one
 * whole document per GPU in the schema of a single-GPU run. */
static const char *output_for_gpu(const cli *c, const char *path, int ordinal, char *buf, size_t len)
{
    if (!path || c->device_count == 1) return path;
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    size_t stem = dot && (!slash || dot > slash) && dot[1] ? (size_t)(dot - path) : strlen(path);
    if ((size_t)snprintf(buf, len, "%.*s-gpu%d%s", (int)stem, path, ordinal, path + stem) >= len)
        ladder_die("output path too long: %.60s...", path);
    return buf;
}

/* Before any work: an output that cannot be written fails now, not after
 * minutes of measuring. */
static void check_outputs(const cli *c)
{
    for (int g = 0; g < c->device_count; ++g) {
        char json[4096], csv[4096], err[512];
        const char *json_path = output_for_gpu(c, c->json_path, c->devices[g], json, sizeof json);
        const char *csv_path = output_for_gpu(c, c->csv_path, c->devices[g], csv, sizeof csv);
        if (json_path && ladder_check_writable(json_path, err, sizeof err) != 0) ladder_die("%s", err);
        if (csv_path && ladder_check_writable(csv_path, err, sizeof err) != 0) ladder_die("%s", err);
    }
}

/* Without a GPU (or a driver) nothing can be measured: the run fails, and
 * says what works here instead, with the exact commands. */
static void die_without_gpu(cudaError_t e)
{
    fprintf(stderr,
            "ladder: no CUDA device found (%s)\n"
            "ladder measures on an NVIDIA GPU: it needs one with its driver (compute capability 7.5 or newer\n"
            "for the default build). Without one, these work:\n"
            "  ladder list [CASE]          the cases, and each rung's one-line story\n"
            "  ladder report %s/nvidia-h100-80gb-hbm3.json -o report.html\n"
            "                              the report of a committed run on a real GPU (others beside it)\n"
            "  ladder compare %s/nvidia-h100-80gb-hbm3.json %s/nvidia-h200.json\n"
            "                              two committed runs side by side\n"
            "  ladder occupancy --cc 9.0 --threads 256 --regs 64 --smem 49152\n"
            "                              the occupancy calculator, for any compute capability\n"
            "  ladder blur IN.ppm OUT.ppm  smooth a PPM/PAM image with the CPU reference\n",
            e == cudaSuccess ? "device count is 0" : cudaGetErrorString(e), LADDER_RESULTS_DIR, LADDER_RESULTS_DIR,
            LADDER_RESULTS_DIR);
    exit(LADDER_EXIT_FAILURE);
}

/* Before any work on a GPU: there is one. */
static int require_gpu(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) die_without_gpu(e);
    return count;
}

/* --device all: every GPU the run can see (this needs the driver). */
static void resolve_devices(cli *c)
{
    int count = require_gpu();
    if (!c->all_devices) return;
    c->device_count = count < MAX_DEVICES ? count : MAX_DEVICES;
    for (int g = 0; g < c->device_count; ++g) c->devices[g] = g;
}

/* Open one GPU of the run: its properties, whether it is the run's own, its
 * measured ceilings (the tensor ones when `tensor`: a few seconds, spent
 * only where a case is held to them, and by `ladder device`); printed as the
 * header of its block. */
static void open_gpu(const cli *c, int ordinal, ladder_device *device, ladder_run_info *info, int tensor)
{
    char err[512];
    if (ladder_device_open(ordinal, device, err, sizeof err) != 0) ladder_die("%s", err);
    if (c->device_count > 1) printf("\n==== GPU %d of this run: %s ====\n", ordinal, device->name);
    ladder_contention_open(device->pci_bus_id);
    info->contention = ladder_contention_seen();
    if (!info->contention->checked) fprintf(stderr, "ladder: %s\n", info->contention->note);
    ladder_contention_poll();
    ladder_device_measure_ceilings(device, c->quick);
    if (tensor) ladder_device_measure_tensor_ceilings(device, c->quick);
    ladder_energy_open(device, !c->no_energy, NULL);
    ladder_print_device(stdout, device);
}

/* Every selected case on one GPU, its document rewritten after each case.
 * Returns 1 when a variant produced a wrong result. */
static int run_on_gpu(const cli *c, int ordinal, int first_gpu, const ladder_case *const *selected, int count,
                      const char *ncu, ladder_run_info *info)
{
    ladder_device device;
    int tensor = 0;
    for (int k = 0; k < count; ++k) tensor |= selected[k]->ceiling == LADDER_CEILING_BF16_TENSOR;
    open_gpu(c, ordinal, &device, info, tensor);
    ladder_run_options options = {
        .seed = info->seed, .quick = c->quick, .min_samples = c->samples,
        .time_cap_s = c->quick ? fmin(c->time_cap_s, 0.2) : c->time_cap_s, .variant = c->variant};
    ladder_results results = {0};
    char json[4096], csv[4096];
    ladder_run_document doc = {output_for_gpu(c, c->json_path, ordinal, json, sizeof json),
                               output_for_gpu(c, c->csv_path, ordinal, csv, sizeof csv), &device, &results, info, 0};
    info->complete = 0;
    info->running_case = NULL;
    ladder_document_keep_on_error(&doc);
    int invalid = 0;
    for (int k = 0; k < count && !ladder_stop_signal(); ++k) {
        if (selected[k]->spans_gpus && !first_gpu) {
            printf("\n%s: ran once, from GPU %d, over every GPU of the run\n", selected[k]->name, c->devices[0]);
            continue;
        }
        int size_given;
        ladder_size_list sizes = sizes_for(c, selected[k], &size_given);
        ladder_progress_case(k, count, selected[k]->name);
        for (int s = 0; s < sizes.count && !ladder_stop_signal(); ++s) {
            info->running_case = selected[k]->name;
            save_document(&doc);
            invalid |= run_case_at(c, selected[k], &sizes.size[s], size_given, &device, &options, ncu, &results);
            if (ladder_stop_signal()) break; /* this case stays the running one */
            info->running_case = NULL;
            doc.finished_cases++;
            save_document(&doc);
        }
    }
    ladder_progress_clear();
    ladder_document_keep_on_error(NULL);
    if (ladder_stop_signal()) {
        info->stopped_by = ladder_stop_signal_name();
        save_document(&doc);
        fprintf(stderr, "ladder: stopped by %s\n", info->stopped_by);
        ladder_document_announce_kept(&doc);
    } else {
        info->complete = 1;
        save_document(&doc);
    }
    ladder_results_free(&results);
    ladder_energy_close();
    ladder_timing_shutdown();
    return invalid;
}

static int command_run(cli *c, ladder_run_info *info)
{
    const ladder_case *selected[64];
    int count = 0;
    if (c->case_count == 0) {
        for (int i = 0; i < ladder_case_count; ++i) selected[count++] = ladder_cases[i];
    } else {
        for (int k = 0; k < c->case_count; ++k) {
            selected[count] = ladder_find_case(c->cases[k]);
            if (!selected[count]) usage_error("unknown case '%s'", c->cases[k]);
            ++count;
        }
    }
    for (int i = 0; i < c->size_count; ++i) {
        int named = 0;
        for (int k = 0; k < count; ++k) named |= !c->sizes[i].case_name || !strcmp(c->sizes[i].case_name, selected[k]->name);
        if (!named) usage_error("--size names case '%s', which is not being run", c->sizes[i].case_name);
    }
    if (c->variant)
        for (int k = 0; k < count; ++k)
            if (ladder_find_variant(selected[k], c->variant) < 0)
                usage_error("no variant '%s' in the case", c->variant);
    check_sizes(c, selected, count);

    if (getenv(LADDER_NCU_CHILD_ENV)) return profile_for_ncu(c, selected, count);
    char ncu[4096], err[512];
    if (c->ncu && ladder_ncu_find(ncu, sizeof ncu, err, sizeof err) != 0) ladder_die("%s", err);
    if (!c->all_devices) check_outputs(c);
    ladder_stop_on_signals();
    resolve_devices(c);
    if (c->all_devices) check_outputs(c);

    printf("ladder %s, seed %llu%s\n", LADDER_VERSION, (unsigned long long)info->seed, c->quick ? ", quick" : "");
    ladder_progress_enable(!c->quiet && isatty(STDERR_FILENO));
    int invalid = 0;
    for (int g = 0; g < c->device_count && !ladder_stop_signal(); ++g)
        invalid |= run_on_gpu(c, c->devices[g], g == 0, selected, count, ncu, info);
    if (ladder_stop_signal()) return ladder_stop_exit_code();
    if (invalid) {
        fprintf(stderr, "ladder: some variants produced wrong results (check column)\n");
        return LADDER_EXIT_INVALID;
    }
    return 0;
}

static int command_device(cli *c, ladder_run_info *info)
{
    if (c->case_count || c->size_count || c->variant || c->ncu)
        usage_error("device takes no cases, sizes, variants or --ncu%s", "");
    if (!c->all_devices) check_outputs(c);
    resolve_devices(c);
    if (c->all_devices) check_outputs(c);
    for (int g = 0; g < c->device_count; ++g) {
        ladder_device device;
        open_gpu(c, c->devices[g], &device, info, 1);
        ladder_results none = {0};
        info->complete = 1;
        char json[4096], csv[4096];
        ladder_run_document doc = {output_for_gpu(c, c->json_path, c->devices[g], json, sizeof json),
                                   output_for_gpu(c, c->csv_path, c->devices[g], csv, sizeof csv), &device, &none,
                                   info, 1};
        save_document(&doc);
        ladder_timing_shutdown();
    }
    return 0;
}

/* Reports and comparisons are made by Python (plain SVG, no plotting library),
 * next to the sources; the C tool only hands the arguments over. */
static int command_script(const char *name, int argc, char **argv)
{
    char script[4096];
    snprintf(script, sizeof script, "%s/%s", LADDER_SCRIPT_DIR, name);
    char *args[argc + 2];
    args[0] = "python3";
    args[1] = script;
    for (int i = 2; i < argc; ++i) args[i] = argv[i];
    args[argc] = NULL;
    execvp("python3", args);
    ladder_die("cannot run python3 for %s: %s", name, strerror(errno));
}

static void parse_compute_capability(const char *text, int *major, int *minor)
{
    char *end;
    long whole = strtol(text, &end, 10);
    if (end == text || *end != '.' || whole < 0 || whole > 99) usage_error("--cc needs X.Y, such as 8.6, not '%s'", text);
    const char *fraction = end + 1;
    long part = strtol(fraction, &end, 10);
    if (end == fraction || *end || part < 0 || part > 9) usage_error("--cc needs X.Y, such as 8.6, not '%s'", text);
    *major = (int)whole;
    *minor = (int)part;
}

/* `ladder occupancy`: the calculator on the command line, with a GPU or
 * without one (--cc). Its own options: --json here is a flag. */
static int command_occupancy(int argc, char **argv)
{
    int major = -1, minor = 0, device = -1, threads = 0, regs = 0, json = 0;
    long long smem = 0;
    const char *cc_text = NULL;
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--cc") == 0) {
            cc_text = option_value(argc, argv, &i);
            parse_compute_capability(cc_text, &major, &minor);
        }
        else if (strcmp(a, "--device") == 0) device = (int)parse_count("--device", option_value(argc, argv, &i), 0, 1024);
        else if (strcmp(a, "--threads") == 0) threads = (int)parse_count("--threads", option_value(argc, argv, &i), 1, 1 << 20);
        else if (strcmp(a, "--regs") == 0) regs = (int)parse_count("--regs", option_value(argc, argv, &i), 0, 1 << 16);
        else if (strcmp(a, "--smem") == 0) smem = parse_count("--smem", option_value(argc, argv, &i), 0, 1L << 30);
        else if (strcmp(a, "--json") == 0) json = 1;
        else usage_error("unknown option '%s' for occupancy", a);
    }
    if ((major < 0) == (device < 0)) usage_error("occupancy needs exactly one of --cc X.Y and --device N%s", "");
    if (threads == 0) usage_error("occupancy needs --threads%s", "");
    ladder_sm_limits limits;
    char err[512];
    if (major >= 0 && ladder_sm_limits_for(major, minor, &limits) != 0)
        usage_error("unknown compute capability '%s' (the table has 1.0 to 12.1)", cc_text);
    if (device >= 0 && ladder_sm_limits_for_device(device, &limits, err, sizeof err) != 0) ladder_die("%s", err);
    ladder_occupancy r;
    if (ladder_occupancy_compute(&limits, threads, regs, smem, &r, err, sizeof err) != 0) usage_error("%s", err);
    const char *limiter = ladder_limiter_name(r.limiter);
    if (json) {
        /* a resource the kernel does not use limits nothing: null */
        static const char *const keys[] = {"threads", "blocks", "registers", "shared_memory"};
        printf("{\"cc\": \"%d.%d\", \"threads\": %d, \"regs\": %d, \"smem\": %lld, \"blocks_per_sm\": %d, "
               "\"warps_per_sm\": %d, \"max_warps_per_sm\": %d, \"occupancy\": %.6f, \"limiter\": \"%s\", "
               "\"blocks_by\": {",
               limits.cc_major, limits.cc_minor, threads, regs, smem, r.blocks_per_sm, r.warps_per_sm,
               r.max_warps_per_sm, r.occupancy, limiter);
        for (int k = 0; k < 4; ++k) {
            if (r.blocks_by_limit[k] >= LADDER_UNLIMITED) printf("%s\"%s\": null", k ? ", " : "", keys[k]);
            else printf("%s\"%s\": %d", k ? ", " : "", keys[k], r.blocks_by_limit[k]);
        }
        printf("}, \"regs_per_block\": %d, \"smem_per_block\": %lld, \"carveout_kb\": %d, \"reason\": \"%s\"}\n",
               r.regs_per_block, r.smem_per_block, r.carveout_kb, r.reason);
        return 0;
    }
    printf("compute capability %d.%d: %d threads per block, %d registers per thread, %lld bytes of shared memory\n",
           limits.cc_major, limits.cc_minor, threads, regs, smem);
    static const char *const resources[] = {"warp slots", "block slots", "registers", "shared memory"};
    for (int k = 0; k < 4; ++k) {
        if (r.blocks_by_limit[k] >= LADDER_UNLIMITED) printf("  %-14s no limit\n", resources[k]);
        else printf("  %-14s %d blocks\n", resources[k], r.blocks_by_limit[k]);
    }
    if (r.blocks_per_sm == 0) {
        printf("0 blocks per SM: cannot launch (%s)\n", r.reason);
        return 0;
    }
    printf("%d blocks per SM, %d of %d warps: occupancy %.1f%%, limited by %s\n", r.blocks_per_sm, r.warps_per_sm,
           r.max_warps_per_sm, 100 * r.occupancy, limiter);
    if (r.carveout_kb >= 0)
        printf("shared memory: %lld bytes per block as allocated; the driver picks the %d KB carveout\n",
               r.smem_per_block, r.carveout_kb);
    return 0;
}

/* `ladder blur IN OUT`: a real image through a rung of the blur ladder, or
 * through the CPU reference where there is no GPU; the output is written
 * whole or not at all, in the input's format. */
static int command_blur(int argc, char **argv)
{
    const char *paths[2], *variant = blur_default_variant;
    int path_count = 0, device_ordinal = 0, device_given = 0;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--variant") == 0) {
            variant = option_value(argc, argv, &i);
        } else if (strcmp(argv[i], "--device") == 0) {
            device_ordinal = (int)parse_count("--device", option_value(argc, argv, &i), 0, 1024);
            device_given = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage_error("unknown option '%s' for blur", argv[i]);
        } else if (path_count == 2) {
            usage_error("blur takes one input and one output, not '%s'", argv[i]);
        } else {
            paths[path_count++] = argv[i];
        }
    }
    if (path_count != 2) usage_error("blur needs IN and OUT image paths%s", "");
    char err[512];
    if (ladder_check_writable(paths[1], err, sizeof err) != 0) ladder_die("%s", err);
    int index = ladder_find_variant(&blur_case, variant);
    if (index < 0 || (blur_case.variants[index].flags & LADDER_BASELINE))
        usage_error("no blur rung '%s' (see ladder list blur)", variant);

    netpbm_image image;
    if (netpbm_read(paths[0], &image, err, sizeof err) != 0) ladder_die("%s", err);
    netpbm_image smoothed = image;
    smoothed.samples = ladder_host_alloc(netpbm_sample_count(&image) * (size_t)image.sample_bytes);
    ladder_device device;
    if (ladder_device_open(device_ordinal, &device, err, sizeof err) != 0) {
        if (device_given) ladder_die("%s", err);
        fprintf(stderr, "ladder blur: %s; smoothing on the CPU (OpenMP reference)\n", err);
        blur_reference(image.samples, smoothed.samples, image.width, image.height, image.channels, image.sample_bytes);
    } else {
        const ladder_variant *v = &blur_case.variants[index];
        const char *ran = blur_samples_on_gpu(image.samples, smoothed.samples, image.width, image.height,
                                              image.channels, image.sample_bytes, v, err, sizeof err);
        if (!ran) ladder_die("%s", err);
        if (strcmp(ran, v->name) != 0)
            fprintf(stderr, "ladder blur: %s takes 8-bit RGB; this %d-bit %d-channel image ran the %s kernel\n",
                    v->name, 8 * image.sample_bytes, image.channels, ran);
    }
    if (ladder_write_atomically(paths[1], netpbm_emit, &smoothed, err, sizeof err) != 0) ladder_die("%s", err);
    netpbm_free(&smoothed);
    netpbm_free(&image);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "report") == 0) return command_script("report.py", argc, argv);
    if (argc > 1 && strcmp(argv[1], "compare") == 0) return command_script("compare.py", argc, argv);
    if (argc > 1 && strcmp(argv[1], "occupancy") == 0) return command_occupancy(argc, argv);
    if (argc > 1 && strcmp(argv[1], "blur") == 0) return command_blur(argc, argv);
    cli c = parse_command_line(argc, argv);
    char command_line[4096];
    join_arguments(argc, argv, command_line, sizeof command_line);
    if (!c.seed_given) c.seed = (uint64_t)time(NULL);
    ladder_run_info info = {.command_line = command_line, .started = time(NULL), .seed = c.seed, .quick = c.quick};

    if (strcmp(c.command, "list") == 0) return command_list(&c);
    if (strcmp(c.command, "run") == 0) return command_run(&c, &info);
    if (strcmp(c.command, "device") == 0) return command_device(&c, &info);
    usage_error("unknown command '%s'", c.command);
}
