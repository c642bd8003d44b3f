#include "ncu.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/check/check.h"

/* What each counter tells (SPEC: "the counters that tell the story"):
 * DRAM traffic and how close it runs to peak, the L2 sectors the loads ask
 * for (with DRAM bytes: overfetch), sectors per global load and store
 * request (coalescing: 4 for a warp of floats, 32 when every lane has its
 * own sector), shared-memory wavefronts per load instruction and bank conflicts,
 * and achieved occupancy. The marker is found by its grid size. */
enum metric {
    GRID_SIZE,
    DURATION,
    DRAM_READ,
    DRAM_WRITE,
    DRAM_PCT,
    L2_READ_SECTORS,
    GLOBAL_SECTORS,
    GLOBAL_REQUESTS,
    GLOBAL_ST_SECTORS,
    GLOBAL_ST_REQUESTS,
    SHARED_WAVEFRONTS,
    SHARED_INSTRUCTIONS,
    BANK_CONFLICTS,
    OCCUPANCY_PCT,
    METRIC_COUNT
};

static const char *const metric_names[METRIC_COUNT] = {
    [GRID_SIZE] = "launch__grid_size",
    [DURATION] = "gpu__time_duration.sum",
    [DRAM_READ] = "dram__bytes_read.sum",
    [DRAM_WRITE] = "dram__bytes_write.sum",
    [DRAM_PCT] = "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    [L2_READ_SECTORS] = "lts__t_sectors_srcunit_tex_op_read.sum",
    [GLOBAL_SECTORS] = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    [GLOBAL_REQUESTS] = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    [GLOBAL_ST_SECTORS] = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    [GLOBAL_ST_REQUESTS] = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    [SHARED_WAVEFRONTS] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    [SHARED_INSTRUCTIONS] = "smsp__sass_inst_executed_op_shared_ld.sum",
    [BANK_CONFLICTS] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    [OCCUPANCY_PCT] = "sm__warps_active.avg.pct_of_peak_sustained_active",
};

#define MARKER_NAME "ladder_ncu_variant_marker"

const char *ladder_ncu_metrics(void)
{
    static char list[2048];
    if (!list[0]) {
        size_t used = 0;
        for (int m = 0; m < METRIC_COUNT; ++m) {
            used += (size_t)snprintf(list + used, sizeof list - used, m ? ",%s" : "%s", metric_names[m]);
            if (used >= sizeof list) ladder_die("the ncu metric list outgrew its buffer");
        }
    }
    return list;
}

/* ---------------- reading ncu's CSV ---------------- */

/* Split one CSV line in place: fields separated by commas, optionally quoted,
 * "" inside quotes standing for one quote. Returns the number of fields. */
static int split_csv_line(char *line, char **fields, int max_fields)
{
    int count = 0;
    char *p = line;
    for (;;) {
        char *start = p, *w = p;
        if (*p == '"') {
            ++p;
            for (; *p; ++p) {
                if (*p == '"' && p[1] == '"') *w++ = *p++;
                else if (*p == '"') break;
                else *w++ = *p;
            }
            if (*p == '"') ++p;
        } else {
            for (; *p && *p != ','; ++p) *w++ = *p;
        }
        while (*p && *p != ',') ++p; /* anything after a closing quote */
        int more = *p == ',';
        *w = '\0';
        if (count < max_fields) fields[count++] = start;
        if (!more) return count;
        ++p;
    }
}

/* ncu prints "1,610,634,496" and "n/a"; NaN for anything that is not a number. */
static double parse_value(const char *text)
{
    char digits[128];
    size_t n = 0;
    for (; *text && n + 1 < sizeof digits; ++text)
        if (*text != ',') digits[n++] = *text;
    digits[n] = '\0';
    char *end;
    double v = strtod(digits, &end);
    return n > 0 && *end == '\0' ? v : NAN;
}

typedef struct variant_sums {
    int kernels;
    double values[METRIC_COUNT];  /* sums; the percentages weighted by duration */
    int present[METRIC_COUNT];    /* kernels that reported the metric */
} variant_sums;

static void add_kernel(variant_sums *s, const double *values)
{
    ++s->kernels;
    double weight = isfinite(values[DURATION]) ? values[DURATION] : 0;
    for (int m = 0; m < METRIC_COUNT; ++m) {
        if (!isfinite(values[m])) continue;
        int weighted = m == DRAM_PCT || m == OCCUPANCY_PCT;
        s->values[m] += weighted ? values[m] * weight : values[m];
        ++s->present[m];
    }
}

static double ratio(double numerator, double denominator) { return denominator > 0 ? numerator / denominator : NAN; }

static ladder_counters finish(const variant_sums *s)
{
    double v[METRIC_COUNT];
    for (int m = 0; m < METRIC_COUNT; ++m) v[m] = s->present[m] ? s->values[m] : NAN;
    ladder_counters c = {
        .kernels = s->kernels,
        .duration_ms = v[DURATION] * 1e-6, /* ncu's base unit is the nanosecond */
        .dram_bytes_read = v[DRAM_READ],
        .dram_bytes_written = v[DRAM_WRITE],
        .dram_throughput_pct = ratio(v[DRAM_PCT], v[DURATION]),
        .l2_read_bytes = v[L2_READ_SECTORS] * 32,
        .global_load_sectors_per_request = ratio(v[GLOBAL_SECTORS], v[GLOBAL_REQUESTS]),
        .global_store_sectors_per_request = ratio(v[GLOBAL_ST_SECTORS], v[GLOBAL_ST_REQUESTS]),
        .shared_load_wavefronts_per_instruction = ratio(v[SHARED_WAVEFRONTS], v[SHARED_INSTRUCTIONS]),
        .shared_bank_conflicts = v[BANK_CONFLICTS],
        .achieved_occupancy_pct = ratio(v[OCCUPANCY_PCT], v[DURATION]),
    };
    return c;
}

#define MAX_COLUMNS 4096 /* the raw page adds launch and device attributes: a few hundred */

int ladder_ncu_parse(const char *csv, ladder_counters *counters, int *seen, int variant_count, char *err,
                     size_t err_len)
{
    char *text = strdup(csv);
    variant_sums *sums = calloc((size_t)variant_count, sizeof *sums);
    char **fields = malloc(MAX_COLUMNS * sizeof *fields);
    if (!text || !sums || !fields) ladder_die("out of host memory reading ncu's report");
    for (int i = 0; i < variant_count; ++i) seen[i] = 0;

    int column[METRIC_COUNT], name_column = -1, header_found = 0, units_row = 0, current = -1, rc = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
        if (strncmp(line, "==", 2) == 0) continue; /* ==PROF==, ==WARNING==: ncu's own messages */
        int n = split_csv_line(line, fields, MAX_COLUMNS);
        if (!header_found) {
            if (strcmp(fields[0], "ID") != 0) continue;
            for (int m = 0; m < METRIC_COUNT; ++m) column[m] = -1;
            for (int f = 0; f < n; ++f) {
                if (strcmp(fields[f], "Kernel Name") == 0) name_column = f;
                for (int m = 0; m < METRIC_COUNT; ++m)
                    if (strcmp(fields[f], metric_names[m]) == 0) column[m] = f;
            }
            if (name_column < 0 || column[GRID_SIZE] < 0) {
                snprintf(err, err_len, "ncu's report has no kernel name or grid size column");
                rc = -1;
                break;
            }
            header_found = units_row = 1;
            continue;
        }
        if (units_row) { /* the line under the header gives units: base units were asked for */
            units_row = 0;
            continue;
        }
        if (n <= name_column) continue;
        double values[METRIC_COUNT];
        for (int m = 0; m < METRIC_COUNT; ++m) values[m] = column[m] >= 0 && column[m] < n ? parse_value(fields[column[m]]) : NAN;
        if (strstr(fields[name_column], MARKER_NAME)) {
            double index = values[GRID_SIZE] - 1;
            if (!(index >= 0 && index < variant_count)) {
                snprintf(err, err_len, "ncu's report has a marker for variant %.0f, which does not exist", index);
                rc = -1;
                break;
            }
            current = (int)index;
            seen[current] = 1;
        } else if (current >= 0) {
            add_kernel(&sums[current], values);
        }
    }
    if (rc == 0 && !header_found) {
        snprintf(err, err_len, "ncu wrote no counters");
        rc = -1;
    }
    if (rc == 0)
        for (int i = 0; i < variant_count; ++i) counters[i] = finish(&sums[i]);
    free(fields);
    free(sums);
    free(text);
    return rc;
}

/* ---------------- running ncu ---------------- */

int ladder_ncu_find(char *path, size_t len, char *err, size_t err_len)
{
    const char *chosen = getenv("LADDER_NCU");
    if (chosen && *chosen) {
        if (access(chosen, X_OK) == 0) {
            snprintf(path, len, "%s", chosen);
            return 0;
        }
        snprintf(err, err_len, "--ncu: LADDER_NCU=%s is not an executable", chosen);
        return -1;
    }
    const char *search = getenv("PATH");
    char *dirs = strdup(search ? search : "");
    if (!dirs) ladder_die("out of host memory");
    char *save = NULL;
    int found = 0;
    for (char *dir = strtok_r(dirs, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        snprintf(path, len, "%s/ncu", *dir ? dir : ".");
        found = access(path, X_OK) == 0;
    }
    free(dirs);
    if (!found) snprintf(err, err_len, "--ncu: Nsight Compute (ncu) not found on PATH; install it or set LADDER_NCU");
    return found ? 0 : -1;
}

static char *read_whole_file(FILE *f)
{
    size_t used = 0, capacity = 1 << 16;
    char *buf = malloc(capacity);
    if (!buf) ladder_die("out of host memory");
    size_t got;
    while ((got = fread(buf + used, 1, capacity - used - 1, f)) > 0) {
        used += got;
        if (capacity - used < 2) {
            char *grown = realloc(buf, capacity *= 2);
            if (!grown) ladder_die("out of host memory reading ncu's report");
            buf = grown;
        }
    }
    buf[used] = '\0';
    return buf;
}

/* The first line ncu flagged as an error, for the message when it fails. */
static void first_error_line(const char *report, char *out, size_t len)
{
    const char *e = strstr(report, "==ERROR==");
    if (!e) {
        out[0] = '\0';
        return;
    }
    size_t n = strcspn(e, "\r\n");
    snprintf(out, len, ": %.*s", (int)(n < 300 ? n : 300), e);
}

int ladder_ncu_profile(const char *ncu, char *const *command, char *const *env, const char *what, int variant_count,
                       ladder_counters *counters, int *seen, char *err, size_t err_len)
{
    char *argv[64] = {(char *)ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
                      "--profile-from-start", "off", "--metrics", (char *)ladder_ncu_metrics()};
    int a = 12;
    for (int i = 0; command[i]; ++i) {
        if (a + 1 >= (int)(sizeof argv / sizeof *argv)) ladder_die("--ncu: the profiled command is too long");
        argv[a++] = command[i];
    }
    argv[a] = NULL;

    /* ncu's report (and its messages) go to a temporary file; the child
     * itself prints nothing there, and its errors still reach stderr. */
    FILE *report_file = tmpfile();
    if (!report_file) {
        snprintf(err, err_len, "--ncu: cannot create a temporary file: %s", strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fclose(report_file);
        snprintf(err, err_len, "--ncu: cannot start ncu: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(fileno(report_file), STDOUT_FILENO);
        setenv(LADDER_NCU_CHILD_ENV, "1", 1);
        for (int i = 0; env && env[i] && env[i + 1]; i += 2) setenv(env[i], env[i + 1], 1);
        execv(ncu, argv);
        fprintf(stderr, "ladder: --ncu: cannot run %s: %s\n", ncu, strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    rewind(report_file);
    char *report = read_whole_file(report_file);
    fclose(report_file);

    int rc = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == LADDER_EXIT_HUNG) {
        /* The child's watchdog named the variant on stderr. */
        snprintf(err, err_len, "--ncu: %s hung under the profiler (the watchdog's line above names the variant)", what);
        rc = LADDER_EXIT_HUNG;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char reason[400];
        first_error_line(report, reason, sizeof reason);
        snprintf(err, err_len, "--ncu: profiling %s failed (ncu exit %d)%s", what,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, reason);
        rc = -1;
    }
    if (rc == 0 && ladder_ncu_parse(report, counters, seen, variant_count, err, err_len) != 0) rc = -1;
    free(report);
    return rc;
}

int ladder_ncu_collect(const char *ncu, const ladder_case *c, const ladder_size *size, int device_ordinal,
                       const ladder_run_options *o, ladder_results *results, size_t first, char *err,
                       size_t err_len)
{
    char self[4096], size_arg[128], size_text[96], device_arg[16], seed_arg[32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(err, err_len, "--ncu: cannot find this program's path: %s", strerror(errno));
        return -1;
    }
    self[n] = '\0';
    ladder_format_size(size, size_text, sizeof size_text);
    snprintf(size_arg, sizeof size_arg, "%s=%s", c->name, size_text);
    snprintf(device_arg, sizeof device_arg, "%d", device_ordinal);
    snprintf(seed_arg, sizeof seed_arg, "%llu", (unsigned long long)o->seed);
    char *command[16] = {self, "run", (char *)c->name, "--size", size_arg, "--device", device_arg, "--seed",
                         seed_arg};
    if (o->variant) {
        command[9] = "--variant";
        command[10] = (char *)o->variant;
    }

    ladder_counters *counters = calloc((size_t)c->variant_count, sizeof *counters);
    int *seen = calloc((size_t)c->variant_count, sizeof *seen);
    if (!counters || !seen) ladder_die("out of host memory");
    int rc = ladder_ncu_profile(ncu, command, NULL, c->name, c->variant_count, counters, seen, err, err_len);
    if (rc == 0)
        for (size_t i = first; i < results->count; ++i) {
            ladder_record *rec = &results->records[i];
            if (!seen[rec->index]) continue;
            rec->has_counters = 1;
            rec->counters = counters[rec->index];
        }
    free(seen);
    free(counters);
    return rc;
}
