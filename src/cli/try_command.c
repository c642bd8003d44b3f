/* `ladder try CASE FILE.cu [FILE2.cu ...] [options of run]`: the user's own
 * kernel on a case's ladder (docs/try.md).
 *
 * Each file is compiled with nvcc into a shared object in a private folder
 * (harness/user/compile.h), checked for the entry point the case declares
 * in include/ladder_try.h, then run in a child process: this same program
 * again (try_child.c), which puts the kernel on the ladder as its only rung
 * and runs it through the same runner as every rung. A kernel that faults
 * leaves its CUDA context unusable and one that hangs never returns; in a
 * child, either ends that process only. The children run first, while the
 * GPU is otherwise idle and before the folder is removed (with --ncu, each
 * again under Nsight Compute, for its counters); then this process
 * runs the ladder's own rungs as `ladder run CASE` does, puts each tried
 * kernel's record beside them, prints the table with the tried rows
 * marked, and places each: between which rungs it lands, and which rung's
 * step to try next (harness/user/place.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "harness/check/check.h"
#include "harness/measure/ncu.h"
#include "harness/record/progress.h"
#include "harness/run/stop.h"
#include "harness/user/compile.h"
#include "harness/user/handoff.h"
#include "harness/user/load.h"
#include "harness/user/place.h"
#include "harness/user/sha256.h"

extern char **environ;

#define MAX_TRIED_FILES 8

typedef struct tried_file {
    const char *path;       /* as typed */
    char name[64];          /* the rung's name: the file's own name, or --name */
    char object[4200];      /* the shared object nvcc made */
    char sha256[65];
    char command[2048];     /* the nvcc command that made it */
} tried_file;

/* How one child ended, for one file at one size. */
typedef enum child_end { CHILD_FINISHED, CHILD_FAULTED, CHILD_HUNG, CHILD_STOPPED } child_end;

typedef struct child_outcome {
    child_end end;
    int exit_code;
    ladder_try_report report;
} child_outcome;

/* ---------------- before any GPU work: the case, the files, nvcc ---------------- */

static const ladder_case *triable_case(const cli *c)
{
    if (c->case_count == 0) usage_error("try needs a case and a kernel file: ladder try CASE FILE.cu%s", "");
    const ladder_case *lc = ladder_find_case(c->cases[0]);
    if (!lc) usage_error("unknown case '%s'", c->cases[0]);
    if (!lc->try_rung.impl) {
        fprintf(stderr, "ladder: try %s: %s\n", lc->name,
                lc->try_refusal ? lc->try_refusal : "this case has no entry point for a kernel of yours");
        exit(LADDER_EXIT_USAGE);
    }
    return lc;
}

/* `ladder try CASE --template`: the case's starter file, from the source tree. */
static int print_template(const ladder_case *lc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/src/cases/%s", LADDER_SOURCE_DIR, lc->try_template);
    FILE *f = fopen(path, "r");
    if (!f) ladder_die("cannot read the template %s: %s", path, strerror(errno));
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, got, stdout);
    fclose(f);
    return 0;
}

/* A file that is not there, not readable or a directory: one line, exit 2. */
static void check_source(const char *path)
{
    struct stat st;
    const char *problem = stat(path, &st) != 0 ? strerror(errno)
                          : S_ISDIR(st.st_mode) ? "it is a directory"
                          : !S_ISREG(st.st_mode) ? "it is not a regular file"
                          : access(path, R_OK) != 0 ? strerror(errno)
                                                    : NULL;
    if (problem) {
        fprintf(stderr, "ladder: try: cannot read the kernel file '%s': %s\n", path, problem);
        exit(LADDER_EXIT_USAGE);
    }
}

static int collect_files(const cli *c, tried_file *files)
{
    int count = c->case_count - 1;
    if (count == 0)
        usage_error("try needs a kernel file: ladder try %s FILE.cu (--template writes a starting point)",
                    c->cases[0]);
    if (count > MAX_TRIED_FILES) usage_error("try takes at most 8 files at once%s", "");
    if (c->try_name && count > 1) usage_error("--name names one file's rung; %s names several files", "the command");
    for (int f = 0; f < count; ++f) {
        tried_file *t = &files[f];
        t->path = c->cases[f + 1];
        check_source(t->path);
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", t->path);
        snprintf(t->name, sizeof t->name, "%s", c->try_name ? c->try_name : basename(copy));
        for (int g = 0; g < f; ++g)
            if (strcmp(files[g].name, t->name) == 0) usage_error("two files make the rung '%s': rename one", t->name);
    }
    return count;
}

/* The architecture to build for: the GPU the run will use, asked before
 * anything else touches it; none visible, nvcc's default, which is enough
 * to report a compile error (the run then stops for want of a GPU). */
static const char *target_arch(const cli *c, char *arch, size_t len)
{
    int count = 0, major = 0, minor = 0, ordinal = c->devices[0];
    if (cudaGetDeviceCount(&count) != cudaSuccess || ordinal >= count ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    ladder_nvcc_arch(major, minor, arch, len);
    return arch;
}

/* Compile every file and find its entry point: a compile error or a
 * missing entry point is the user's to fix, exit 2. */
static void build_files(const cli *c, const ladder_case *lc, tried_file *files, int count)
{
    char nvcc[4096], err[1024];
    if (ladder_nvcc_find(c->nvcc, LADDER_NVCC, nvcc, sizeof nvcc, err, sizeof err) != 0) ladder_die("try: %s", err);
    const char *dir = ladder_user_workdir(err, sizeof err);
    if (!dir) ladder_die("try: %s", err);
    char arch[32], include[4096], shim[4096];
    const char *target = target_arch(c, arch, sizeof arch);
    snprintf(include, sizeof include, "%s/include", LADDER_SOURCE_DIR);
    snprintf(shim, sizeof shim, "%s/src/harness/user/launch_errors.cu", LADDER_SOURCE_DIR);
    for (int f = 0; f < count && !ladder_stop_signal(); ++f) {
        tried_file *t = &files[f];
        snprintf(t->object, sizeof t->object, "%s/tried%d.so", dir, f);
        ladder_progress_case(f, count, t->name);
        ladder_compile job = {nvcc, t->path, include, shim, target, t->object};
        char diagnostics[8192];
        int failed = ladder_user_compile(&job, t->command, sizeof t->command, diagnostics, sizeof diagnostics);
        ladder_progress_clear();
        if (ladder_stop_signal()) break;
        if (failed) {
            fprintf(stderr, "ladder: try: %s does not compile; nvcc's first lines:\n%s", t->path, diagnostics);
            exit(LADDER_EXIT_USAGE);
        }
        char entry_point[64];
        ladder_user_entry_name(lc, entry_point, sizeof entry_point);
        if (ladder_user_load(t->object, entry_point, err, sizeof err) != 0) {
            fprintf(stderr, "ladder: try: %s: %s\n", t->path, err);
            exit(LADDER_EXIT_USAGE);
        }
        ladder_user_unload();
        if (ladder_sha256_file(t->path, t->sha256, err, sizeof err) != 0) ladder_die("try: %s", err);
    }
    if (ladder_stop_signal()) exit(ladder_stop_exit_code());
}

/* ---------------- the children ---------------- */

static const char *self_path(void)
{
    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) ladder_die("try: cannot find this program's path: %s", strerror(errno));
    self[n] = '\0';
    return self;
}

/* The child's command line: this program's `try` for one file at one size,
 * with the run's seed and sampling. `reproduce` adds what the
 * compute-sanitizer line needs to run the file alone (--variant NAME). */
static int child_arguments(const cli *c, const ladder_case *lc, const tried_file *t, const char *size_text,
                           int reproduce, char **argv, char bufs[][4200])
{
    int a = 0, b = 0;
    argv[a++] = (char *)self_path();
    argv[a++] = "try";
    argv[a++] = (char *)lc->name;
    argv[a++] = (char *)t->path;
    argv[a++] = "--name";
    argv[a++] = (char *)t->name;
    argv[a++] = "--size";
    snprintf(bufs[b], sizeof bufs[b], "%s=%s", lc->name, size_text);
    argv[a++] = bufs[b++];
    argv[a++] = "--device";
    snprintf(bufs[b], sizeof bufs[b], "%d", c->devices[0]);
    argv[a++] = bufs[b++];
    argv[a++] = "--seed";
    snprintf(bufs[b], sizeof bufs[b], "%llu", (unsigned long long)c->seed);
    argv[a++] = bufs[b++];
    argv[a++] = "--samples";
    snprintf(bufs[b], sizeof bufs[b], "%d", c->samples);
    argv[a++] = bufs[b++];
    argv[a++] = "--time-cap";
    snprintf(bufs[b], sizeof bufs[b], "%g", c->time_cap_s);
    argv[a++] = bufs[b++];
    if (c->quick) argv[a++] = "--quick";
    if (c->no_energy || reproduce) argv[a++] = "--no-energy";
    if (c->hang_timeout) {
        argv[a++] = "--hang-timeout";
        argv[a++] = (char *)c->hang_timeout;
    }
    if (reproduce) {
        argv[a++] = "--variant";
        argv[a++] = (char *)t->name;
        if (c->nvcc) {
            argv[a++] = "--nvcc";
            argv[a++] = (char *)c->nvcc;
        }
    }
    argv[a] = NULL;
    return a;
}

/* The environment of a child: ours, and the three variables of handoff.h. */
static char **child_environment(const char *object, const char *report, int check_test_sizes, char bufs[][4600])
{
    size_t n = 0;
    while (environ[n]) ++n;
    char **env = ladder_host_alloc((n + 4) * sizeof *env);
    size_t e = 0;
    for (size_t i = 0; i < n; ++i)
        if (strncmp(environ[i], "LADDER_TRY_", 11) != 0) env[e++] = environ[i];
    snprintf(bufs[0], sizeof bufs[0], "%s=%s", LADDER_TRY_CHILD_ENV, object);
    snprintf(bufs[1], sizeof bufs[1], "%s=%s", LADDER_TRY_REPORT_ENV, report);
    snprintf(bufs[2], sizeof bufs[2], "%s=%d", LADDER_TRY_TEST_SIZES_ENV, check_test_sizes);
    env[e++] = bufs[0];
    env[e++] = bufs[1];
    env[e++] = bufs[2];
    env[e] = NULL;
    return env;
}

/* The last lines the child wrote on stderr, for an end nobody foresaw. */
static void print_child_log(const char *log)
{
    FILE *f = fopen(log, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) fprintf(stderr, "  | %s", line);
    fclose(f);
}

static child_outcome run_child(const cli *c, const ladder_case *lc, const tried_file *t, int file_index,
                               int file_count, const char *size_text, int size_index)
{
    child_outcome out = {0};
    char report[4400], log[4400], err[512];
    snprintf(report, sizeof report, "%s.report%d", t->object, size_index);
    snprintf(log, sizeof log, "%s.stderr%d", t->object, size_index);
    char arg_bufs[8][4200], env_bufs[3][4600];
    char *argv[40];
    child_arguments(c, lc, t, size_text, 0, argv, arg_bufs);
    char **env = child_environment(t->object, report, size_index == 0, env_bufs);

    /* The child prints nothing for the user: its report says what it did,
     * its stderr is kept for an end its report cannot explain. */
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ladder_progress_case(file_index, file_count, t->name);
    ladder_progress_variant(0, 1, "in a child process");
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    free(env);
    if (rc != 0) ladder_die("try: cannot start the child for %s: %s", t->path, strerror(rc));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    ladder_progress_clear();
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    int have_report = ladder_try_report_read(report, &out.report, err, sizeof err) == 0;
    if (ladder_stop_signal()) out.end = CHILD_STOPPED;
    else if (out.exit_code == 0 && have_report && out.report.has_record) out.end = CHILD_FINISHED;
    else if (out.exit_code == LADDER_EXIT_HUNG) out.end = CHILD_HUNG;
    else out.end = CHILD_FAULTED;
    if (out.end == CHILD_FAULTED && !out.report.fault[0]) {
        snprintf(out.report.fault, sizeof out.report.fault, "its process ended with %s %d and no message of ladder's",
                 WIFEXITED(status) ? "exit code" : "signal", WIFEXITED(status) ? out.exit_code : WTERMSIG(status));
        print_child_log(log);
    }
    unlink(report);
    unlink(log);
    return out;
}

/* With --ncu: the tried kernel at one size under Nsight Compute, while its
 * shared object exists: its child again, which under ncu launches it once
 * after its marker as `run --ncu`'s child launches a rung (try_child.c);
 * the counters go into the record the timed child made, so the table, JSON
 * and CSV have them beside the rungs'. Profiling is no check of the
 * kernel, which passed: a failure costs its counters only, said in one
 * line. */
static void profile_child(const cli *c, const ladder_case *lc, const tried_file *t, int file_index, int file_count,
                          const char *size_text, const char *ncu, child_outcome *out)
{
    if (!c->ncu || out->end != CHILD_FINISHED || ladder_stop_signal()) return;
    char arg_bufs[8][4200], err[512];
    char *argv[40];
    child_arguments(c, lc, t, size_text, 0, argv, arg_bufs);
    char *env[] = {LADDER_TRY_CHILD_ENV, (char *)t->object, NULL};
    ladder_counters counters;
    int seen = 0;
    ladder_progress_case(file_index, file_count, t->name);
    ladder_progress_variant(0, 1, "under Nsight Compute");
    int rc = ladder_ncu_profile(ncu, argv, env, t->name, 1, &counters, &seen, err, sizeof err);
    ladder_progress_clear();
    if (rc == 0 && seen) {
        out->report.record.has_counters = 1;
        out->report.record.counters = counters;
    } else {
        fprintf(stderr, "ladder: try: %s at %s: no counters: %s\n", t->path, size_text,
                rc ? err : "ncu saw no launch of it");
    }
}

/* ---------------- the report ---------------- */

/* The tried kernel's record at one size, beside the ladder's records
 * [first, count): made from the child's report, or, where the child did
 * not finish, a skipped row that says why; with the failures of the checks
 * at the case's test sizes (`checked`: the report of the first size's
 * child, which made them). */
static void add_tried_record(const ladder_case *lc, const ladder_device *device, const tried_file *t,
                             const child_outcome *o, const ladder_try_report *checked, const char *size_text,
                             ladder_results *results)
{
    ladder_record *rec = ladder_results_add(results);
    if (o->end == CHILD_FINISHED) {
        *rec = o->report.record;
        ladder_set_fractions(rec, lc->ceiling, device);
    } else {
        snprintf(rec->case_name, sizeof rec->case_name, "%s", lc->name);
        snprintf(rec->size, sizeof rec->size, "%s", size_text);
        rec->skipped = 1;
        rec->hung = o->end == CHILD_HUNG;
        snprintf(rec->reason, sizeof rec->reason, "%s at %s (%s): %s",
                 o->end == CHILD_HUNG ? "hung" : o->end == CHILD_STOPPED ? "stopped" : "faulted", o->report.size,
                 o->report.stage, o->report.fault);
    }
    snprintf(rec->variant, sizeof rec->variant, "%s", t->name);
    rec->index = -1;
    rec->ceiling = ladder_ceiling_name(lc->ceiling);
    rec->user = 1;
    snprintf(rec->source, sizeof rec->source, "%s", t->path);
    snprintf(rec->source_sha256, sizeof rec->source_sha256, "%s", t->sha256);
    snprintf(rec->compile_command, sizeof rec->compile_command, "%s", t->command);
    size_t used = 0;
    for (int k = 0; k < checked->check_count; ++k) {
        const ladder_try_check *check = &checked->checks[k];
        if (check->passed || check->skipped[0] || used + 1 >= sizeof rec->test_size_failures) continue;
        used += (size_t)snprintf(rec->test_size_failures + used, sizeof rec->test_size_failures - used,
                                 "%s%s: error %.2e, tolerance %.2e%s", used ? "; " : "", check->size,
                                 check->rel_error, check->tolerance, check->nonfinite ? " (NaN or Inf)" : "");
    }
}

/* A fault: one line naming the file, the error and the size, and the exact
 * compute-sanitizer command that runs the file alone to find the line. */
static void report_fault(const cli *c, const ladder_case *lc, const tried_file *t, const child_outcome *o)
{
    fprintf(stderr, "ladder: try: %s faulted at %s %s (%s): %s\n", t->path, lc->name, o->report.size,
            o->report.stage, o->report.fault);
    char arg_bufs[8][4200], command[8192];
    char *argv[48] = {"compute-sanitizer", "--tool", "memcheck", "--target-processes", "all"};
    /* The line works from any folder: the file's path made absolute. */
    char cwd[2048] = "", path[4200];
    if (t->path[0] != '/' && !getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
    snprintf(path, sizeof path, "%s%s%s", cwd, cwd[0] ? "/" : "", t->path);
    tried_file alone = *t;
    alone.path = path;
    child_arguments(c, lc, &alone, o->report.size, 1, argv + 5, arg_bufs);
    ladder_shell_join(argv, command, sizeof command);
    fprintf(stderr, "  to find the line: %s\n", command);
}

/* ---------------- the command ---------------- */

/* The ladder's rungs, then the tried kernels' records, at one size (their
 * children's outcomes; `checked`, the first size's, made the checks at the
 * case's test sizes): the table, the placements. Returns the exit code
 * this size asks for (0, or LADDER_EXIT_INVALID, _HUNG, _USER_FAULT). */
static int report_size(const cli *c, const ladder_case *lc, const ladder_size *size, int size_given,
                       const ladder_device *device, const ladder_run_options *options, const char *ncu,
                       int ladder_rungs, const tried_file *files, int count, const child_outcome *outcomes,
                       const child_outcome *checked, ladder_results *results)
{
    char size_text[64];
    ladder_format_size(size, size_text, sizeof size_text);
    size_t first = results->count, first_summary = results->summary_count;
    /* A default size too large for this GPU skips the ladder (said on
     * stderr); the tried kernels' records still stand. */
    if (ladder_rungs && measure_case_at(lc, size, size_given, device, options, results) == 0)
        collect_counters(c, lc, size, device, options, ncu, results, first);
    size_t ladder_end = results->count;
    for (int f = 0; f < count; ++f)
        add_tried_record(lc, device, &files[f], &outcomes[f], &checked[f].report, size_text, results);
    ladder_results_relate(results, first);
    int invalid = print_case(results, first, first_summary);
    int code = 0;
    for (int f = 0; f < count; ++f) {
        const ladder_record *rec = &results->records[ladder_end + (size_t)f];
        invalid |= rec->test_size_failures[0] != '\0';
        char line[2048];
        ladder_place(lc, &results->records[first], results->count - first, rec, line, sizeof line);
        fputs(line, stdout);
        if (c->ncu) {
            ladder_limiter_line(rec, line, sizeof line);
            fputs(line, stdout);
        }
        if (outcomes[f].end == CHILD_FAULTED) {
            fflush(stdout);
            report_fault(c, lc, &files[f], &outcomes[f]);
            code = LADDER_EXIT_USER_FAULT;
        } else if (outcomes[f].end == CHILD_HUNG) {
            fprintf(stderr, "ladder: try: %s: %s\n", files[f].path, outcomes[f].report.fault);
            if (code != LADDER_EXIT_USER_FAULT) code = LADDER_EXIT_HUNG;
        }
    }
    fflush(stdout);
    return code ? code : invalid ? LADDER_EXIT_INVALID : 0;
}

/* Whether --variant names a tried file's rung: then only the tried files
 * run (how the compute-sanitizer line reproduces a fault). */
static int variant_is_tried(const cli *c, const tried_file *files, int count)
{
    for (int f = 0; c->variant && f < count; ++f)
        if (strcmp(c->variant, files[f].name) == 0) return 1;
    return 0;
}

int command_try(cli *c, ladder_run_info *info)
{
    const ladder_case *lc = triable_case(c);
    if (c->try_template) {
        if (c->case_count > 1) usage_error("--template takes no file: ladder try %s --template > FILE.cu", lc->name);
        return print_template(lc);
    }
    if (c->device_count != 1 || c->all_devices) usage_error("try runs on one GPU: --device N%s", "");
    for (int i = 0; i < c->size_count; ++i)
        if (c->sizes[i].case_name && strcmp(c->sizes[i].case_name, lc->name) != 0)
            usage_error("--size names case '%s', which is not being run", c->sizes[i].case_name);
    check_sizes(c, &lc, 1);
    const char *object = getenv(LADDER_TRY_CHILD_ENV);
    if (object && *object) {
        if (!c->try_name) ladder_die("the child of try was started without --name");
        return try_child(c, lc, object);
    }

    tried_file files[MAX_TRIED_FILES];
    int count = collect_files(c, files);
    int ladder_rungs = !variant_is_tried(c, files, count);
    if (c->variant && ladder_rungs && ladder_find_variant(lc, c->variant) < 0)
        usage_error("no variant '%s' in the case, nor a tried file of that name", c->variant);
    char ncu[4096], err[512];
    if (c->ncu && ladder_ncu_find(ncu, sizeof ncu, err, sizeof err) != 0) ladder_die("%s", err);
    check_outputs(c);
    ladder_stop_on_signals();
    ladder_progress_enable(!c->quiet && isatty(STDERR_FILENO));
    build_files(c, lc, files, count);
    resolve_devices(c);

    /* Every tried file at every size, in children, while nothing else of
     * ours is on the GPU; then the shared objects go. */
    int size_given;
    ladder_size_list sizes = sizes_for(c, lc, &size_given);
    child_outcome *outcomes = ladder_host_alloc((size_t)sizes.count * (size_t)count * sizeof *outcomes);
    for (int s = 0; s < sizes.count && !ladder_stop_signal(); ++s) {
        char size_text[64];
        ladder_format_size(&sizes.size[s], size_text, sizeof size_text);
        for (int f = 0; f < count && !ladder_stop_signal(); ++f) {
            outcomes[s * count + f] = run_child(c, lc, &files[f], f, count, size_text, s);
            profile_child(c, lc, &files[f], f, count, size_text, ncu, &outcomes[s * count + f]);
        }
    }
    ladder_user_workdir_remove();
    if (ladder_stop_signal()) {
        fprintf(stderr, "ladder: stopped by %s\n", ladder_stop_signal_name());
        return ladder_stop_exit_code();
    }

    printf("ladder %s, seed %llu%s\n", LADDER_VERSION, (unsigned long long)info->seed, c->quick ? ", quick" : "");
    ladder_device device;
    open_gpu(c, c->devices[0], &device, info, lc->ceiling == LADDER_CEILING_BF16_TENSOR);
    ladder_run_options options = run_options(c, info->seed);
    if (!ladder_rungs) options.variant = NULL;
    ladder_results results = {0};
    ladder_run_document doc = {c->json_path, c->csv_path, &device, &results, info, 0};
    info->complete = 0;
    ladder_document_keep_on_error(&doc);
    int code = 0;
    for (int s = 0; s < sizes.count && !ladder_stop_signal(); ++s) {
        info->running_case = lc->name;
        save_document(&doc);
        /* The exit codes rank as their numbers do: 5 a fault, 4 a hang, 3 a wrong result. */
        int size_code = report_size(c, lc, &sizes.size[s], size_given, &device, &options, ncu, ladder_rungs,
                                    files, count, &outcomes[s * count], outcomes, &results);
        if (size_code > code) code = size_code;
        if (ladder_stop_signal()) break;
        info->running_case = NULL;
        doc.finished_cases++;
        save_document(&doc);
    }
    free(outcomes);
    end_gpu_run(&doc, &results);
    return ladder_stop_signal() ? ladder_stop_exit_code() : code;
}
