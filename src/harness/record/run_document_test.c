/* A run keeps what it measured: the document written after every case is
 * whole whenever the process dies (killed outright between or during
 * writes), holds only finished cases, and a fatal error saves it first. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/check/check.h"
#include "run_document.h"
#include "harness/testing/test_util.h"

enum { VARIANTS_PER_CASE = 3 };

static void add_case(ladder_results *r, int case_number)
{
    for (int v = 0; v < VARIANTS_PER_CASE; ++v) {
        ladder_record *rec = ladder_results_add(r);
        snprintf(rec->case_name, sizeof rec->case_name, "case%d", case_number);
        snprintf(rec->variant, sizeof rec->variant, "v%d", v);
        snprintf(rec->size, sizeof rec->size, "1024");
        rec->index = v;
        rec->median_ms = rec->min_ms = rec->max_ms = 1.0 + v;
        rec->samples = 10;
        rec->valid = 1;
    }
}

/* The run loop's order: mark the case running, measure it, count it
 * finished, save; forever, until killed. */
static void write_until_killed(const char *path)
{
    ladder_device device = {0};
    snprintf(device.name, sizeof device.name, "Test GPU");
    ladder_results results = {0};
    ladder_run_info info = {.command_line = "ladder run", .seed = 1};
    ladder_run_document doc = {path, NULL, &device, &results, &info, 0};
    char err[512];
    for (int k = 0;; ++k) {
        info.running_case = "next";
        if (ladder_document_save(&doc, err, sizeof err) != 0) _exit(2);
        add_case(&results, k);
        info.running_case = NULL;
        doc.finished_cases++;
        if (ladder_document_save(&doc, err, sizeof err) != 0) _exit(2);
    }
}

static int python_check(const char *script, const char *path)
{
    char command[4096];
    snprintf(command, sizeof command, "python3 -c '%s' %s", script, path);
    return system(command);
}

static const char whole_document[] =
    "import json, sys, collections\n"
    "doc = json.load(open(sys.argv[1]))\n"
    "assert doc[\"complete\"] is False, doc[\"complete\"]\n"
    "count = collections.Counter(r[\"case\"] for r in doc[\"results\"])\n"
    "assert count and all(n == 3 for n in count.values()), count\n"
    "assert sorted(count) == sorted(\"case%d\" % k for k in range(len(count))), count\n";

int main(void)
{
    char dir[] = "/tmp/ladder_run_document_test_XXXXXX";
    EXPECT(mkdtemp(dir) != NULL);
    char path[256], err[512];

    /* Nothing is written before a case has finished. */
    snprintf(path, sizeof path, "%s/empty.json", dir);
    ladder_device device = {0};
    ladder_results results = {0};
    ladder_run_info info = {.command_line = "ladder run"};
    ladder_run_document doc = {path, NULL, &device, &results, &info, 0};
    EXPECT(ladder_document_save(&doc, err, sizeof err) == 0);
    EXPECT(access(path, F_OK) != 0);

    /* Killed at ten different moments: each time the file parses and holds
     * whole cases only, however far the writer had got. */
    snprintf(path, sizeof path, "%s/killed.json", dir);
    for (int attempt = 0; attempt < 10; ++attempt) {
        remove(path);
        pid_t child = fork();
        if (child == 0) write_until_killed(path);
        struct timespec pause = {0, 20000000L + 7000000L * attempt};
        nanosleep(&pause, NULL);
        while (access(path, F_OK) != 0) nanosleep(&(struct timespec){0, 1000000L}, NULL);
        kill(child, SIGKILL);
        int status;
        waitpid(child, &status, 0);
        EXPECTF(WIFSIGNALED(status), "the writer exited by itself (status %d)", status);
        EXPECTF(python_check(whole_document, path) == 0, "attempt %d: the kept document is not whole", attempt);
    }

    /* A fatal error in the third case: the first two are saved, with the
     * error as the reason the run stopped and the case that was running. */
    snprintf(path, sizeof path, "%s/error.json", dir);
    pid_t child = fork();
    if (child == 0) {
        ladder_run_info child_info = {.command_line = "ladder run"};
        ladder_run_document child_doc = {path, NULL, &device, &results, &child_info, 0};
        ladder_document_keep_on_error(&child_doc);
        for (int k = 0; k < 2; ++k) {
            add_case(&results, k);
            child_doc.finished_cases++;
        }
        child_info.running_case = "case2";
        add_case(&results, 2); /* measured in part when the error struck: still what the run saw */
        ladder_die("CUDA error cudaErrorIllegalAddress in a test");
    }
    int status;
    waitpid(child, &status, 0);
    EXPECTF(WIFEXITED(status) && WEXITSTATUS(status) == LADDER_EXIT_FAILURE, "fatal exit status %d", status);
    EXPECT(python_check("import json, sys\n"
                        "doc = json.load(open(sys.argv[1]))\n"
                        "assert doc[\"complete\"] is False and doc[\"running_case\"] == \"case2\", doc\n"
                        "assert doc[\"stopped_by\"] == \"error: CUDA error cudaErrorIllegalAddress in a test\", doc\n"
                        "assert [r[\"case\"] for r in doc[\"results\"]][:6] == [\"case0\"] * 3 + [\"case1\"] * 3\n",
                        path) == 0);

    char command[300];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    EXPECT(system(command) == 0);
    return test_result("run_document_test");
}
