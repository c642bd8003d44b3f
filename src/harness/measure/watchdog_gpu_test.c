/* On a GPU, the watchdog as a run meets it: a child process runs a finished
 * case, then a case whose second rung launches a kernel that never ends
 * (watchdog_test_kernels.cu: built into this test alone), through the real
 * runner with its results document, under LADDER_HANG_TIMEOUT. The parent
 * checks that the child stopped within the limit with LADDER_EXIT_HUNG and the
 * documented line, and that the document holds the finished case whole, the
 * hung rung marked `hung`, and is marked incomplete.
 * Usage: watchdog_gpu_test   (exit 77 without a GPU) */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/case.h"
#include "harness/testing/gpu_test.h"
#include "harness/check/rng.h"
#include "harness/record/run_document.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "timing.h"
#include "watchdog.h"

#define HANG_LIMIT_S 3

void watchdog_test_double(const float *in, float *out, int n, cudaStream_t stream);
void watchdog_test_spin(const int *never_set, cudaStream_t stream);

typedef struct spin_state {
    int n;
    float *host_in, *host_out, *dev_in, *dev_out;
    int *dev_flag;
} spin_state;

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    (void)status, (void)err, (void)err_len;
    spin_state *s = calloc(1, sizeof *s);
    s->n = (int)size->dim[0];
    s->host_in = ladder_host_alloc((size_t)s->n * sizeof(float));
    s->host_out = ladder_host_alloc((size_t)s->n * sizeof(float));
    CUDA_CHECK(cudaMalloc((void **)&s->dev_in, (size_t)s->n * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&s->dev_out, (size_t)s->n * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&s->dev_flag, sizeof(int)));
    CUDA_CHECK(cudaMemset(s->dev_flag, 0, sizeof(int)));
    return s;
}

static void destroy(void *state)
{
    spin_state *s = state;
    CUDA_CHECK(cudaFree(s->dev_in));
    CUDA_CHECK(cudaFree(s->dev_out));
    CUDA_CHECK(cudaFree(s->dev_flag));
    free(s->host_in);
    free(s->host_out);
    free(s);
}

static void fill_inputs(void *state, uint64_t seed)
{
    spin_state *s = state;
    ladder_fill_uniform(s->host_in, (size_t)s->n, seed, 0.5f, 1.5f);
    CUDA_CHECK(cudaMemcpy(s->dev_in, s->host_in, (size_t)s->n * sizeof(float), cudaMemcpyHostToDevice));
}

typedef void (*test_launcher)(spin_state *s, cudaStream_t stream);

static void launch_double(spin_state *s, cudaStream_t stream) { watchdog_test_double(s->dev_in, s->dev_out, s->n, stream); }
static void launch_spin(spin_state *s, cudaStream_t stream) { watchdog_test_spin(s->dev_flag, stream); }

static void run(void *state, const ladder_variant *v, cudaStream_t stream) { ((test_launcher)v->impl)(state, stream); }

static ladder_output output(void *state, const ladder_variant *v)
{
    (void)v;
    spin_state *s = state;
    return (ladder_output){s->dev_out, (size_t)s->n * sizeof(float), 0xFF};
}

static ladder_check check(void *state, const ladder_variant *v)
{
    (void)v;
    spin_state *s = state;
    CUDA_CHECK(cudaMemcpy(s->host_out, s->dev_out, (size_t)s->n * sizeof(float), cudaMemcpyDeviceToHost));
    double err = 0, norm = 0;
    for (int i = 0; i < s->n; ++i) {
        double ref = 2.0 * s->host_in[i];
        err += (s->host_out[i] - ref) * (s->host_out[i] - ref);
        norm += ref * ref;
    }
    ladder_check c = {sqrt(err / norm), 1e-6, 0, 0};
    c.passed = c.rel_error <= c.tolerance;
    return c;
}

static ladder_work work(void *state)
{
    spin_state *s = state;
    return (ladder_work){8.0 * s->n, 0};
}

static const ladder_variant finishing_variants[] = {
    LADDER_RUNG("doubles", "out = 2 in: finishes", launch_double, 0),
};
static const ladder_variant hanging_variants[] = {
    LADDER_RUNG("doubles", "out = 2 in: finishes", launch_double, 0),
    LADDER_RUNG("spins", "waits for a flag nothing sets: never finishes", launch_spin, 0),
};

#define TEST_CASE(case_name, table)                                                                             \
    {.name = case_name, .title = "watchdog test", .size_help = "N", .default_size = "1000003",                  \
     .quick_size = "1000003", .ceiling = LADDER_CEILING_BANDWIDTH, .variants = table,                          \
     .variant_count = (int)(sizeof table / sizeof table[0]), .create = create, .destroy = destroy,             \
     .fill_inputs = fill_inputs, .run = run, .output = output, .check = check, .work = work}

static const ladder_case finishing_case = TEST_CASE("watchdog_finishes", finishing_variants);
static const ladder_case hanging_case = TEST_CASE("watchdog_spins", hanging_variants);

/* The child: what `ladder run --json` does for two cases, the second hanging. */
static int run_child(const char *json_path)
{
    ladder_device device;
    open_device_or_skip(&device);
    ladder_results results = {0};
    ladder_run_info info = {.command_line = "watchdog_gpu_test child", .started = time(NULL), .seed = 1};
    ladder_run_document doc = {json_path, NULL, &device, &results, &info, 0};
    ladder_document_keep_on_error(&doc);
    ladder_run_options options = {.seed = 1, .min_samples = 10, .time_cap_s = 0.2};
    ladder_size size = {.count = 1, .dim = {1000003}};
    const ladder_case *cases[] = {&finishing_case, &hanging_case};
    char err[256];
    for (int k = 0; k < 2; ++k) {
        info.running_case = cases[k]->name;
        if (ladder_document_save(&doc, err, sizeof err) != 0) ladder_die("%s", err);
        if (ladder_run_case(cases[k], &size, &device, &options, &results, err, sizeof err) != LADDER_OK)
            ladder_die("%s", err);
        info.running_case = NULL;
        doc.finished_cases++;
        if (ladder_document_save(&doc, err, sizeof err) != 0) ladder_die("%s", err);
    }
    printf("the spinning kernel finished: the watchdog did not trip\n");
    return 0;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return calloc(1, 1);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "child") == 0) return run_child(argv[2]);
    ladder_device device;
    open_device_or_skip(&device);

    char dir[] = "/tmp/watchdog_gpu_test_XXXXXX";
    if (!mkdtemp(dir)) ladder_die("cannot make a temporary folder");
    char json[256], log[256];
    snprintf(json, sizeof json, "%s/run.json", dir);
    snprintf(log, sizeof log, "%s/child.log", dir);

    double start = ladder_now_seconds();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(log, "w", stderr) || dup2(fileno(stderr), STDOUT_FILENO) < 0) _exit(127);
        char limit[16];
        snprintf(limit, sizeof limit, "%d", HANG_LIMIT_S);
        setenv(LADDER_HANG_TIMEOUT_ENV, limit, 1);
        execl("/proc/self/exe", argv[0], "child", json, (char *)NULL);
        _exit(127);
    }
    /* The test's own bound: a watchdog that never trips must not hang ctest. */
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (ladder_now_seconds() - start > 120) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            EXPECTF(0, "the child was still running after 120 s: the watchdog did not stop it");
            break;
        }
        test_sleep_ms(20);
    }
    double took = ladder_now_seconds() - start;
    const char *out = read_file(log);
    printf("child exited after %.1f s; its output:\n%s", took, out);

    EXPECTF(WIFEXITED(status) && WEXITSTATUS(status) == LADDER_EXIT_HUNG, "child status %d, expected exit %d",
            status, LADDER_EXIT_HUNG);
    EXPECTF(strstr(out, "ladder: watchdog_spins: variant spins at 1000003 did not finish in 3 s (checked run): "
                        "a hang or a deadlock. A hung GPU context cannot be recovered, so the run ends here") != NULL,
            "the documented line is missing");
    /* Within its limit: the finished rungs take a few seconds, the hang three. */
    EXPECTF(took >= HANG_LIMIT_S && took < HANG_LIMIT_S + 60, "stopped after %.1f s with a %d s limit", took,
            HANG_LIMIT_S);

    char command[2048];
    snprintf(command, sizeof command,
             "python3 - '%s' <<'PY'\n"
             "import json, sys\n"
             "doc = json.load(open(sys.argv[1]))\n"
             "assert doc['complete'] is False, doc['complete']\n"
             "assert doc['running_case'] == 'watchdog_spins', doc['running_case']\n"
             "assert 'did not finish in 3 s' in doc['stopped_by'], doc['stopped_by']\n"
             "done = [r for r in doc['results'] if r['case'] == 'watchdog_finishes']\n"
             "assert len(done) == 1 and done[0]['valid'] and done[0]['samples'] >= 10 and not done[0]['hung'], done\n"
             "spun = [r for r in doc['results'] if r['case'] == 'watchdog_spins']\n"
             "assert [r['variant'] for r in spun] == ['doubles', 'spins'], spun\n"
             "assert spun[0]['valid'] and not spun[0]['hung'], spun[0]\n"
             "assert spun[1]['hung'] and not spun[1]['valid'] and spun[1]['median_ms'] is None, spun[1]\n"
             "print('document: incomplete, running_case watchdog_spins, finished case whole, spins marked hung')\n"
             "PY",
             json);
    EXPECTF(system(command) == 0, "the kept document is not what it should be");

    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return test_result("watchdog_gpu_test");
}
