/* GPU test: every variant of one case, validated at each of the case's test
 * sizes (odd and non-square among them) with two fresh input draws; under
 * compute-sanitizer (LADDER_UNDER_SANITIZER) at its sanitizer sizes where it
 * has them, with one (gpu_test.h's ladder_validation_sizes).
 * Exits 77 (skipped) when there is no GPU or no variant could run here, 1 if
 * any variant is wrong, 4 (LADDER_EXIT_HUNG) when one hangs (watchdog.h).
 * LADDER_SKIP_BASELINES=1 leaves the vendor's variants out (gpu_test.h). */
#include <stdio.h>
#include <stdlib.h>

#include "registry.h"
#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/measure/watchdog.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gpu_validate CASE\n");
        return LADDER_EXIT_USAGE;
    }
    const ladder_case *c = ladder_find_case(argv[1]);
    if (!c) {
        fprintf(stderr, "gpu_validate: unknown case '%s'\n", argv[1]);
        return LADDER_EXIT_USAGE;
    }
    ladder_device device;
    open_device_or_skip(&device);
    char err[512];
    int failures = 0, checked = 0;
    const char *const *sizes = ladder_validation_sizes(c);
    int draws = ladder_validation_draws();
    if (ladder_under_sanitizer())
        printf("%s under the sanitizer: its %s sizes, %d draw each\n", c->name,
               sizes == c->test_sizes ? "test" : "sanitizer", draws);
    for (int s = 0; sizes[s]; ++s) {
        ladder_size size;
        if (ladder_parse_size(sizes[s], &size, err, sizeof err) != 0) ladder_die("%s", err);
        ladder_status status;
        void *state = c->create(&size, &status, err, sizeof err);
        if (!state) ladder_die("%s %s: %s", c->name, sizes[s], err);
        for (int i = 0; i < c->variant_count; ++i) {
            const ladder_variant *v = &c->variants[i];
            const char *reason = c->unsupported ? c->unsupported(state, v) : NULL;
            if (!reason && (v->flags & LADDER_BASELINE) && ladder_skip_baselines())
                reason = "LADDER_SKIP_BASELINES is set";
            if (reason) {
                printf("%-10s %-12s %-26s skipped: %s\n", c->name, sizes[s], v->name, reason);
                continue;
            }
            /* A hang ends the process with LADDER_EXIT_HUNG and a line naming the variant and size. */
            ladder_watch watch = {c->name, v->name, sizes[s], NULL, 0, 1};
            ladder_watchdog_watch(&watch);
            for (uint64_t draw = 0; draw < (uint64_t)draws; ++draw) {
                ladder_check r = ladder_validate_variant(c, state, v, 1000 * (uint64_t)s + 10 * (uint64_t)i + draw);
                ++checked;
                if (!r.passed) ++failures;
                printf("%-10s %-12s %-26s error %.2e (tolerance %.1e, %zu non-finite) %s\n", c->name,
                       sizes[s], v->name, r.rel_error, r.tolerance, r.nonfinite, r.passed ? "ok" : "FAIL");
            }
            ladder_watchdog_watch(NULL);
        }
        c->destroy(state);
    }
    printf("%s: %d checks, %d failed\n", c->name, checked, failures);
    /* Every variant skipped (a multi-GPU case on one GPU): nothing was
     * tested, which ctest must show as skipped, not passed. */
    if (checked == 0) return LADDER_EXIT_SKIP_TEST;
    return failures ? 1 : 0;
}
