/* GPU test of the attention rungs: every rung that can run here, full and
 * causal, D of 64 and 128, at sequence lengths that end inside a tile (1,
 * 17, 100, 129, 255) and past one (4097), and with more query blocks than
 * SMs, two fresh draws each; then each rung run twice on the same inputs
 * must give the same bits (a race, or a read of shared memory not yet
 * written, shows as a difference), and its error must stay within 4x
 * cuDNN's on the same inputs where cuDNN runs.
 * Under compute-sanitizer (LADDER_UNDER_SANITIZER, gpu_test.h) only the
 * case's sanitizer sizes, one launch of each rung at each (attention.c: they
 * reach every rung's paths at a small fraction of these sizes' accesses),
 * without the repeat and the comparison with cuDNN: the tools check
 * accesses, those check values, at two launches a rung.
 * LADDER_SKIP_BASELINES=1 leaves cuDNN out.
 * Exits 77 without a GPU or where no rung can run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "attention.h"

extern const ladder_case attention_case;

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    /* causal:2x70x200x64 and 3x50x129x128 have more query blocks (of 128)
     * than an H100 has SMs, 1x140x100x64 more of rung 11's 192 rows: the
     * persistent rungs' blocks take several. 1x2x700x128: four of rung
     * 11's 176-key tiles, the last partial. */
    static const char *const test_sizes[] = {
        "1x3x1x64",           "causal:2x1x17x128", "2x2x100x64",         "causal:1x2x129x64",
        "1x1x255x128",        "causal:1x2x255x128", "causal:1x1x4097x128", "1x1x4097x64",
        "causal:2x70x200x64", "3x50x129x128",       "1x140x100x64",        "1x2x700x128",
        NULL};
    int sanitizing = ladder_under_sanitizer();
    const char *const *sizes = sanitizing ? attention_case.sanitizer_sizes : test_sizes;
    int draws = ladder_validation_draws();
    if (sanitizing) printf("under the sanitizer: the case's sanitizer sizes, one launch of each rung\n");
    int ran = 0;
    for (size_t i = 0; sizes[i]; ++i) {
        void *state = create_case_or_die(&attention_case, sizes[i]);
        for (int r = 0; r < attention_case.variant_count; ++r) {
            const ladder_variant *v = &attention_case.variants[r];
            const char *reason = attention_case.unsupported(state, v);
            if (!reason && (v->flags & LADDER_BASELINE) && ladder_skip_baselines())
                reason = "LADDER_SKIP_BASELINES is set";
            if (reason) {
                printf("%-20s %-16s skipped: %s\n", sizes[i], v->name, reason);
                continue;
            }
            for (uint64_t draw = 0; draw < (uint64_t)draws; ++draw) {
                ladder_check c = ladder_validate_variant(&attention_case, state, v, 100 * i + 10 * r + draw);
                printf("%-20s %-16s error %.2e (tolerance %.1e, %zu non-finite) %s\n", sizes[i], v->name, c.rel_error,
                       c.tolerance, c.nonfinite, c.passed ? "ok" : "FAIL");
                EXPECT(c.passed);
                ++ran;
            }
        }
        attention_case.destroy(state);
    }
    if (!ran) {
        printf("skipped: no attention rung runs on this GPU\n");
        return LADDER_EXIT_SKIP_TEST;
    }
    if (sanitizing) {
        printf("repeat and cuDNN comparisons skipped under the sanitizer\n");
        return test_result("attention_gpu_test");
    }

    const char *repeat_sizes[] = {"causal:2x2x333x128", "2x2x333x64", "2x2x400x128"};
    for (size_t i = 0; i < sizeof repeat_sizes / sizeof repeat_sizes[0]; ++i) {
        void *state = create_case_or_die(&attention_case, repeat_sizes[i]);
        int base = ladder_find_variant(&attention_case, "cudnn");
        int have_cudnn =
            attention_case.unsupported(state, &attention_case.variants[base]) == NULL && !ladder_skip_baselines();
        double reference = 0;
        if (have_cudnn) {
            reference = ladder_validate_variant(&attention_case, state, &attention_case.variants[base], 7).rel_error;
            printf("cuDNN at %s: error %.2e\n", repeat_sizes[i], reference);
        }
        for (int r = 0; r < attention_case.variant_count; ++r) {
            const ladder_variant *v = &attention_case.variants[r];
            if (attention_case.unsupported(state, v) || r == base) continue;
            ladder_check first = ladder_validate_variant(&attention_case, state, v, 7);
            void *once = copy_output(&attention_case, state, v);
            ladder_check second = ladder_validate_variant(&attention_case, state, v, 7);
            void *twice = copy_output(&attention_case, state, v);
            int same = memcmp(once, twice, attention_case.output(state, v).bytes) == 0;
            printf("%-20s %-16s error %.2e, repeat %s\n", repeat_sizes[i], v->name, first.rel_error,
                   same ? "identical" : "DIFFERS");
            EXPECT(first.passed && second.passed && same);
            if (have_cudnn) EXPECTF(first.rel_error <= 4 * reference + 1e-4, "%s: %.2e against cuDNN's %.2e", v->name,
                                    first.rel_error, reference);
            free(once);
            free(twice);
        }
        attention_case.destroy(state);
    }
    return test_result("attention_gpu_test");
}
