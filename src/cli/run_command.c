/* `ladder run [CASE...]`: every size of every case named, on each GPU of the
 * run in turn, through the harness's runner; the results document is
 * rewritten after every case, so an interrupted run keeps what it finished. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/measure/ncu.h"
#include "harness/record/progress.h"
#include "harness/run/runner.h"
#include "harness/run/stop.h"

int profile_for_ncu(const cli *c, const ladder_case *const *selected, int count)
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

/* One case at one size: its ladder run. Returns 0, or -1 when a default
 * size does not fit this GPU (the case is skipped, said on stderr, and the
 * others run). */
int measure_case_at(const ladder_case *lc, const ladder_size *size, int size_given, const ladder_device *device,
                    const ladder_run_options *options, ladder_results *results)
{
    char err[512];
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
        return -1;
    }
    return 0;
}

void collect_counters(const cli *c, const ladder_case *lc, const ladder_size *size, const ladder_device *device,
                      const ladder_run_options *options, const char *ncu, ladder_results *results, size_t first)
{
    if (!c->ncu || ladder_stop_signal()) return;
    char err[512];
    int rc = ladder_ncu_collect(ncu, lc, size, device->ordinal, options, results, first, err, sizeof err);
    if (rc == LADDER_EXIT_HUNG) ladder_die_unrecoverable(LADDER_EXIT_HUNG, err);
    if (rc) ladder_die("%s", err);
}

int print_case(const ladder_results *results, size_t first, size_t first_summary)
{
    ladder_progress_clear();
    ladder_print_table(stdout, results, first);
    ladder_print_summaries(stdout, results, first_summary);
    ladder_print_counters(stdout, results, first);
    fflush(stdout);
    int invalid = 0;
    for (size_t i = first; i < results->count; ++i)
        invalid |= !results->records[i].skipped && !results->records[i].valid;
    return invalid;
}

/* One case at one size: measured and printed, then with --ncu profiled and
 * its counters printed. Returns 1 when a variant produced a wrong result. */
static int run_case_at(const cli *c, const ladder_case *lc, const ladder_size *size, int size_given,
                       const ladder_device *device, const ladder_run_options *options, const char *ncu,
                       ladder_results *results)
{
    size_t first = results->count, first_summary = results->summary_count;
    if (measure_case_at(lc, size, size_given, device, options, results) != 0) return 0;
    int invalid = print_case(results, first, first_summary);
    collect_counters(c, lc, size, device, options, ncu, results, first);
    ladder_print_counters(stdout, results, first);
    fflush(stdout);
    return invalid;
}

void check_sizes(const cli *c, const ladder_case *const *selected, int count)
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

/* Every selected case on one GPU, its document rewritten after each case.
 * Returns 1 when a variant produced a wrong result. */
static int run_on_gpu(const cli *c, int ordinal, int first_gpu, const ladder_case *const *selected, int count,
                      const char *ncu, ladder_run_info *info)
{
    ladder_device device;
    int tensor = 0;
    for (int k = 0; k < count; ++k) tensor |= selected[k]->ceiling == LADDER_CEILING_BF16_TENSOR;
    open_gpu(c, ordinal, &device, info, tensor);
    ladder_run_options options = run_options(c, info->seed);
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
    end_gpu_run(&doc, &results);
    return invalid;
}

int command_run(cli *c, ladder_run_info *info)
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
