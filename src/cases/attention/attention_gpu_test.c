/* GPU test of the attention rungs: every rung that can run here, full and
 * causal, D of 64 and 128, at sequence lengths that end inside a tile (1,
 * 17, 100, 129, 255) and past one (4097), and with more query blocks than
 * SMs, two fresh draws each; then each rung run twice on the same inputs
 * must give the same bits (a race, or a read of shared memory not yet
 * written, shows as a difference), and its error must stay within 4x
 * cuDNN's on the same inputs where cuDNN runs.
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
    /* The last two have more query blocks (of 128) than an H100 has SMs:
     * the persistent rung's blocks take several. */
    const char *sizes[] = {"1x3x1x64",     "causal:2x1x17x128", "2x2x100x64",          "causal:1x2x129x64",
                           "1x1x255x128", "causal:1x2x255x128", "causal:1x1x4097x128", "1x1x4097x64",
                           "causal:2x70x200x64", "3x50x129x128"};
    int ran = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        void *state = create_case_or_die(&attention_case, sizes[i]);
        for (int r = 0; r < attention_case.variant_count; ++r) {
            const ladder_variant *v = &attention_case.variants[r];
            const char *reason = attention_case.unsupported(state, v);
            if (reason) {
                printf("%-20s %-16s skipped: %s\n", sizes[i], v->name, reason);
                continue;
            }
            for (uint64_t draw = 0; draw < 2; ++draw) {
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

    const char *repeat_sizes[] = {"causal:2x2x333x128", "2x2x333x64"};
    for (size_t i = 0; i < sizeof repeat_sizes / sizeof repeat_sizes[0]; ++i) {
        void *state = create_case_or_die(&attention_case, repeat_sizes[i]);
        int base = ladder_find_variant(&attention_case, "cudnn");
        int have_cudnn = attention_case.unsupported(state, &attention_case.variants[base]) == NULL;
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
