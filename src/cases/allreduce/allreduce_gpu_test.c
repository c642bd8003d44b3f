/* GPU test of the all-reduce case (two GPUs with peer access, else
 * skipped): every rung at odd element counts (chunks of uneven size, tails
 * past the last float4, chunks left empty), a rung that writes nothing
 * caught, and a whole small run through the harness with its summaries. */
#include <math.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "allreduce.h"

extern const ladder_case allreduce_case;

static void writes_nothing(void *state, long long count, cudaStream_t stream)
{
    (void)state, (void)count, (void)stream;
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
    int gpus[LADDER_MAX_GPUS];
    int n = open_gpus_or_skip(&device, 2, gpus);
    printf("%d GPUs\n", n);

    char err[512];
    ladder_size size;
    ladder_status status;
    EXPECT(ladder_parse_size("2^22", &size, err, sizeof err) == 0);
    void *state = allreduce_case.create(&size, &status, err, sizeof err);
    EXPECT(state != NULL);
    /* Each rung's launcher, at counts no power of two reaches. */
    const int counts[] = {1, 2, 3, 5, 13, 1023, 4099, 65537, 1000003};
    uint64_t seed = 1;
    for (int i = 0; i < allreduce_case.variant_count; ++i) {
        ladder_variant v = allreduce_case.variants[i];
        if (i && v.impl == allreduce_case.variants[i - 1].impl) continue; /* one per rung */
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
            v.param = counts[k] * (int)sizeof(float);
            const char *reason = allreduce_case.unsupported(state, &v);
            if (reason) {
                printf("%s: skipped: %s\n", v.name, reason);
                break;
            }
            ladder_check c = ladder_validate_variant(&allreduce_case, state, &v, seed++);
            EXPECTF(c.passed, "%s at %d floats: error %.2e (tolerance %.1e), %zu non-finite", v.name, counts[k],
                    c.rel_error, c.tolerance, c.nonfinite);
        }
    }
    const ladder_variant broken = {"writes_nothing", "", (ladder_impl)writes_nothing, 4 * 4099, 0};
    ladder_check c = ladder_validate_variant(&allreduce_case, state, &broken, 99);
    EXPECT(!c.passed);
    allreduce_case.destroy(state);

    /* A whole run to 1 MiB: every rung valid, the summaries real numbers. */
    ladder_results results = {0};
    ladder_run_options options = {.seed = 7, .min_samples = 10, .time_cap_s = 0.05};
    EXPECT(ladder_parse_size("2^20", &size, err, sizeof err) == 0);
    EXPECT(ladder_run_case(&allreduce_case, &size, &device, &options, &results, err, sizeof err) == LADDER_OK);
    for (size_t i = 0; i < results.count; ++i) {
        const ladder_record *rec = &results.records[i];
        EXPECTF(rec->skipped || (rec->valid && rec->gbps > 0), "%s: valid %d, %.1f GB/s", rec->variant, rec->valid,
                rec->gbps);
    }
    ladder_print_table(stdout, &results, 0);
    ladder_print_summaries(stdout, &results, 0);
    const char *positive[] = {"ring_busbw_gbps", "two_shot_busbw_gbps", "busbw_1MiB_best_gbps", "best_busbw_gbps"};
    for (size_t i = 0; i < sizeof positive / sizeof positive[0]; ++i) {
        const ladder_summary *s = find_summary(&results, positive[i]);
        EXPECTF(s && isfinite(s->value) && s->value > 0, "%s missing or not a positive number", positive[i]);
    }
#ifdef LADDER_HAVE_NCCL
    const ladder_summary *vs = find_summary(&results, "best_vs_nccl_64KiB");
    EXPECT(vs && isfinite(vs->value) && vs->value > 0);
#endif
    ladder_results_free(&results);
    return test_result("allreduce_gpu_test");
}
