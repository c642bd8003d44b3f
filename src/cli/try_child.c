/* The child of `ladder try` (try_command.c starts it): the tried kernel on
 * the case's ladder as its only rung, through the same runner as every
 * rung. It loads the shared object, checks the kernel at the case's test
 * sizes (odd ones among them, fresh inputs each time), times it at the one
 * size it was given, and keeps its report (handoff.h) up to date at every
 * step, from its fatal hook too: a fault or a hang here ends this process
 * only, and the parent reads how far it got. With try --ncu, the parent
 * also runs it under ncu, where it launches the kernel once to be profiled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "harness/check/check.h"
#include "harness/measure/contention.h"
#include "harness/measure/energy.h"
#include "harness/measure/ncu.h"
#include "harness/measure/watchdog.h"
#include "harness/run/runner.h"
#include "harness/user/handoff.h"
#include "harness/user/load.h"

static ladder_try_report report;
static const char *report_path;

/* `stage`: what the child does next, or NULL to keep the last one. */
static void save_report(const char *stage)
{
    if (stage) snprintf(report.stage, sizeof report.stage, "%s", stage);
    if (ladder_try_report_write(report_path, &report) != 0)
        fprintf(stderr, "ladder: cannot write the tried kernel's report to %s\n", report_path);
}

static void keep_fault(const char *message)
{
    snprintf(report.fault, sizeof report.fault, "%s", message);
    save_report(NULL);
}

/* Two checked runs at each of the case's test sizes; the worse is kept. */
static void check_test_sizes(const ladder_case *tried, uint64_t seed)
{
    for (int s = 0; tried->test_sizes[s] && report.check_count < LADDER_TRY_MAX_CHECKS; ++s) {
        ladder_try_check *check = &report.checks[report.check_count++];
        snprintf(check->size, sizeof check->size, "%s", tried->test_sizes[s]);
        snprintf(report.size, sizeof report.size, "%s", tried->test_sizes[s]);
        save_report("checked run");
        char err[512];
        ladder_size size;
        ladder_status status;
        if (ladder_parse_size(tried->test_sizes[s], &size, err, sizeof err) != 0) ladder_die("%s", err);
        void *state = tried->create(&size, &status, err, sizeof err);
        if (!state) ladder_die("%s %s: %s", tried->name, tried->test_sizes[s], err);
        const ladder_variant *v = &tried->variants[0];
        const char *reason = tried->unsupported ? tried->unsupported(state, v) : NULL;
        if (reason) snprintf(check->skipped, sizeof check->skipped, "%s", reason);
        ladder_watch watch = {tried->name, v->name, tried->test_sizes[s], NULL, 0, 1};
        ladder_watchdog_watch(&watch);
        check->passed = 1;
        for (uint64_t draw = 0; draw < 2 && !reason; ++draw) {
            ladder_check r = ladder_validate_variant(tried, state, v, seed + 1000 * (uint64_t)s + draw);
            if (draw == 0 || !r.passed || r.rel_error > check->rel_error) {
                check->rel_error = r.rel_error;
                check->tolerance = r.tolerance;
            }
            check->nonfinite += (long long)r.nonfinite;
            check->passed &= r.passed;
        }
        ladder_watchdog_watch(NULL);
        tried->destroy(state);
    }
}

int try_child(const cli *c, const ladder_case *lc, const char *object)
{
    /* The case with one rung, the tried kernel; no whole-ladder summary
     * (its figures are the ladder's, which the parent has). */
    ladder_variant rung = lc->try_rung;
    rung.name = c->try_name;
    rung.story = "your kernel";
    ladder_case tried = *lc;
    tried.variants = &rung;
    tried.variant_count = 1;
    tried.summarize = NULL;
    char err[1024];

    /* Under ncu (try --ncu, after the timed child finished): the kernel
     * launched once after its marker, as `run --ncu`'s child launches a
     * rung; no report, the parent reads ncu's. */
    char entry_point[64];
    ladder_user_entry_name(lc, entry_point, sizeof entry_point);
    if (getenv(LADDER_NCU_CHILD_ENV)) {
        if (ladder_user_load(object, entry_point, err, sizeof err) != 0) ladder_die("%s", err);
        const ladder_case *one = &tried;
        int rc = profile_for_ncu(c, &one, 1);
        ladder_user_unload();
        return rc;
    }

    report_path = getenv(LADDER_TRY_REPORT_ENV);
    if (!report_path || !*report_path) ladder_die("%s is set but %s is not", LADDER_TRY_CHILD_ENV, LADDER_TRY_REPORT_ENV);
    ladder_on_fatal(keep_fault);
    save_report("loading the shared object");
    if (ladder_user_load(object, entry_point, err, sizeof err) != 0) ladder_die("%s", err);

    ladder_device device;
    if (ladder_device_open(c->devices[0], &device, err, sizeof err) != 0) ladder_die("%s", err);
    ladder_contention_open(device.pci_bus_id);
    ladder_energy_open(&device, !c->no_energy, NULL);

    const char *checks = getenv(LADDER_TRY_TEST_SIZES_ENV);
    if (checks && strcmp(checks, "1") == 0) check_test_sizes(&tried, c->seed ^ 0x7472794b65726e6cull);

    int size_given;
    ladder_size_list sizes = sizes_for(c, lc, &size_given);
    ladder_format_size(&sizes.size[0], report.size, sizeof report.size);
    save_report("timing");
    ladder_run_options options = run_options(c, c->seed);
    options.variant = NULL;
    ladder_results results = {0};
    if (ladder_run_case(&tried, &sizes.size[0], &device, &options, &results, err, sizeof err) != LADDER_OK)
        ladder_die("%s: %s", lc->name, err);
    report.record = results.records[0];
    report.has_record = 1;
    save_report("done");
    ladder_results_free(&results);
    ladder_energy_close();
    ladder_user_unload();
    return 0;
}
