/* GPU test of the transfer case: sizes it must refuse, an output it must
 * catch as unwritten (host destinations are poisoned by the case itself),
 * and a whole small run through the harness whose summary figures must be
 * real numbers (where no sanitizer distorts the timings). Exits 77 without
 * a GPU. */
#include <math.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "transfer.h"

extern const ladder_case transfer_case;

static void writes_nothing(void *state, const ladder_variant *v, cudaStream_t stream)
{
    (void)state, (void)v, (void)stream;
}

static ladder_status try_create(const char *spec)
{
    ladder_size size;
    ladder_status status = LADDER_OK;
    char err[256];
    EXPECT(ladder_parse_size(spec, &size, err, sizeof err) == 0);
    void *state = transfer_case.create(&size, &status, err, sizeof err);
    if (state) transfer_case.destroy(state);
    else printf("%s: %s\n", spec, err);
    return state ? LADDER_OK : status;
}

static const ladder_summary *find_summary(const ladder_results *r, const char *name)
{
    for (size_t i = 0; i < r->summary_count; ++i)
        if (strcmp(r->summaries[i].name, name) == 0) return &r->summaries[i];
    return NULL;
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    char err[512];
    EXPECT(try_create("4095") == LADDER_BAD_SIZE);
    EXPECT(try_create("4096x2") == LADDER_BAD_SIZE);
    EXPECT(try_create("2^40") == LADDER_NO_MEMORY);

    /* Not a known launcher, so checked as the pipeline: its pinned host output
     * must show the poison that fill_inputs wrote. */
    ladder_size size;
    ladder_status status;
    EXPECT(ladder_parse_size("8195", &size, err, sizeof err) == 0);
    void *state = transfer_case.create(&size, &status, err, sizeof err);
    EXPECT(state != NULL);
    const ladder_variant broken = {"writes_nothing", "", (ladder_impl)writes_nothing, 1, 0};
    ladder_check c = ladder_validate_variant(&transfer_case, state, &broken, 3);
    EXPECT(!c.passed);
    EXPECT(c.nonfinite == 8195 / sizeof(float));
    transfer_case.destroy(state);

    /* A whole run at 1 MiB: every variant valid, the figures real. */
    ladder_results results = {0};
    ladder_run_options options = {.seed = 11, .min_samples = 10, .time_cap_s = 0.2};
    EXPECT(ladder_parse_size("2^20", &size, err, sizeof err) == 0);
    EXPECT(ladder_run_case(&transfer_case, &size, &device, &options, &results, err, sizeof err) == LADDER_OK);
    for (size_t i = 0; i < results.count; ++i) {
        const ladder_record *rec = &results.records[i];
        EXPECTF(rec->skipped || (rec->valid && rec->gbps > 0), "%s: valid %d, %.1f GB/s", rec->variant, rec->valid,
                rec->gbps);
    }
    ladder_print_table(stdout, &results, 0);
    ladder_print_summaries(stdout, &results, 0);
    /* The fitted figures come from timings, which a sanitizer distorts: memcheck adds 2.5 ms to
     * each pageable copy up to 64 KiB and 50 us above (H200), and the fit's slope comes out
     * negative. Without one, they must be real. */
    const char *positive[] = {"h2d_pinned_latency_us", "h2d_pinned_bandwidth_gbps", "d2h_pinned_bandwidth_gbps",
                              "h2d_pageable_bandwidth_gbps", "small_copies_vs_one_copy",
                              "pipeline_overlap_efficiency"};
    for (size_t i = 0; i < sizeof positive / sizeof positive[0] && !ladder_under_sanitizer(); ++i) {
        const ladder_summary *s = find_summary(&results, positive[i]);
        EXPECTF(s && isfinite(s->value) && s->value > 0, "%s missing or not a positive number", positive[i]);
    }
    const ladder_summary *many = find_summary(&results, "small_copies_vs_one_copy");
    EXPECT(many && (ladder_under_sanitizer() || many->value > 1)); /* 256 calls cannot beat one */
    ladder_results_free(&results);
    return test_result("transfer_gpu_test");
}
