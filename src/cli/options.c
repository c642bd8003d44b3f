/* The options of `run`, `list` and `device`, and the usage text: everything
 * the user typed is checked here, before the GPU is touched. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness/check/check.h"
#include "harness/measure/watchdog.h"
#include "io/matrix_market.h"

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
    "  try CASE FILE.cu [FILE2.cu ...] [--name NAME] [--nvcc PATH] [options of run]\n"
    "                         your kernel on the case's ladder: FILE.cu defines the entry point\n"
    "                         that include/ladder_try.h declares; compiled with nvcc, checked at\n"
    "                         the case's odd sizes, timed beside every rung in a child process\n"
    "                         (a fault or hang there keeps the ladder); exit 5: it faulted\n"
    "  try CASE --template    a starter FILE.cu for the case, on standard output\n"
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

const char *ladder_program = "ladder";

/* The usage, then the cases by name: what `ladder run CASE` can take. */
void print_usage(FILE *out)
{
    fputs(usage_text, out);
    fputs("\ncases (ladder list CASE tells each one's rungs):\n ", out);
    int column = 1;
    for (int i = 0; i < ladder_case_count; ++i) {
        const char *name = ladder_cases[i]->name;
        if (column + 1 + (int)strlen(name) > 98) {
            fputs("\n ", out);
            column = 1;
        }
        column += fprintf(out, " %s", name);
    }
    fputs("\n", out);
}

void usage_error(const char *fmt, const char *arg)
{
    fputs("ladder: ", stderr);
    fprintf(stderr, fmt, arg);
    /* a message that already points somewhere ("see ladder list blur") needs no second pointer */
    fputs(strstr(fmt, "(see ") ? "\n" : " (see ladder --help)\n", stderr);
    exit(LADDER_EXIT_USAGE);
}

long parse_count(const char *option, const char *text, long min, long max)
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

const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) usage_error("option %s needs a value", argv[*i]);
    return argv[++*i];
}

cli parse_command_line(int argc, char **argv)
{
    cli c = {0};
    c.device_count = 1; /* GPU 0 */
    c.samples = 10;
    c.time_cap_s = 1.0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_usage(stdout);
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
            c.hang_timeout = argv[i];
        } else if (strcmp(a, "--template") == 0) {
            c.try_template = 1;
        } else if (strcmp(a, "--name") == 0) {
            c.try_name = option_value(argc, argv, &i);
        } else if (strcmp(a, "--nvcc") == 0) {
            c.nvcc = option_value(argc, argv, &i);
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
        print_usage(stderr);
        exit(LADDER_EXIT_USAGE);
    }
    if (strcmp(c.command, "try") != 0 && (c.try_template || c.try_name || c.nvcc))
        usage_error("--template, --name and --nvcc are options of try%s", "");
    return c;
}

/* The sizes a case runs at: CASE=SPEC, else a bare --size, else its default
 * (*given says whether the user chose them). */
ladder_size_list sizes_for(const cli *c, const ladder_case *lc, int *given)
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

ladder_run_options run_options(const cli *c, uint64_t seed)
{
    return (ladder_run_options){.seed = seed, .quick = c->quick, .min_samples = c->samples,
                                .time_cap_s = c->quick ? fmin(c->time_cap_s, 0.2) : c->time_cap_s,
                                .variant = c->variant};
}

void join_arguments(int argc, char **argv, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used + 1 < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, i ? " %s" : "%s", argv[i]);
}
