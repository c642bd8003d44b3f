/* The CPU tests that p2p and allreduce share: both cases span every GPU of a
 * run and skip each rung, with the reason, where there is only one. Include
 * after test_util.h, runner.h and gpus.h. */
#ifndef LADDER_MULTIGPU_TEST_H
#define LADDER_MULTIGPU_TEST_H

#include <stdio.h>
#include <string.h>

/* Fewer than two GPUs (none on CI, one on most machines): the whole ladder
 * runs through the harness without touching a GPU, every rung skipped with
 * the reason, and the summaries say how many GPUs there were. */
static void test_skips_below_two_gpus(const ladder_case *c)
{
    int gpus[LADDER_MAX_GPUS];
    int n = ladder_run_gpus(gpus, LADDER_MAX_GPUS);
    if (n >= 2) {
        printf("%d GPUs here: the skip path is for the GPU test's machine to see\n", n);
        return;
    }
    ladder_size size;
    char err[256];
    EXPECT(ladder_parse_size("2^20", &size, err, sizeof err) == 0);
    ladder_device device = {0};
    ladder_results results = {0};
    ladder_run_options options = {.seed = 1, .min_samples = 10, .time_cap_s = 0.01};
    EXPECT(ladder_run_case(c, &size, &device, &options, &results, err, sizeof err) == LADDER_OK);
    EXPECT(results.count == (size_t)c->variant_count);
    size_t clear = 0;
    for (size_t i = 0; i < results.count; ++i)
        clear += results.records[i].skipped && strstr(results.records[i].reason, "needs two GPUs") != NULL;
    EXPECTF(clear == results.count, "%zu of %zu rungs skipped for want of a second GPU", clear, results.count);
    EXPECT(results.summary_count >= 1 && strcmp(results.summaries[0].name, "gpus") == 0 &&
           results.summaries[0].value == n);
    ladder_results_free(&results);
}

#endif
