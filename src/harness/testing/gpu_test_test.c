/* CPU test of what gpu_test.h decides from the environment, without opening
 * a GPU: under LADDER_UNDER_SANITIZER a GPU test validates a case at its
 * sanitizer sizes, where it has them, with one input draw; otherwise at its
 * test sizes with two. scripts/gpu-check.sh counts on this to get racecheck
 * through the attention case in minutes; a helper that stopped reading the
 * variable (or read "0" as set) would put the test sizes back under the tool,
 * or the sanitizer sizes into the ordinary tests. */
#include <stdlib.h>

#include "gpu_test.h"
#include "harness/testing/test_util.h"

static const ladder_case with_sanitizer_sizes = {
    .name = "with",
    .test_sizes = {"1000x777", "1x1", NULL},
    .sanitizer_sizes = {"33x17", NULL},
};

static const ladder_case without_sanitizer_sizes = {
    .name = "without",
    .test_sizes = {"1000x777", "1x1", NULL},
};

/* What the helpers say with LADDER_UNDER_SANITIZER set to value (NULL: unset). */
static void expect_under(const char *value, int sanitizing)
{
    if (value)
        setenv("LADDER_UNDER_SANITIZER", value, 1);
    else
        unsetenv("LADDER_UNDER_SANITIZER");
    const char *shown = value ? value : "(unset)";
    EXPECTF(ladder_under_sanitizer() == sanitizing, "LADDER_UNDER_SANITIZER=%s: under the sanitizer %d, want %d", shown,
            ladder_under_sanitizer(), sanitizing);
    const char *const *sizes = ladder_validation_sizes(&with_sanitizer_sizes);
    EXPECTF(sizes == (sanitizing ? with_sanitizer_sizes.sanitizer_sizes : with_sanitizer_sizes.test_sizes),
            "LADDER_UNDER_SANITIZER=%s: a case with sanitizer sizes is validated at %s first", shown, sizes[0]);
    EXPECTF(ladder_validation_sizes(&without_sanitizer_sizes) == without_sanitizer_sizes.test_sizes,
            "LADDER_UNDER_SANITIZER=%s: a case without sanitizer sizes keeps its test sizes", shown);
    EXPECTF(ladder_validation_draws() == (sanitizing ? 1 : 2), "LADDER_UNDER_SANITIZER=%s: %d draws", shown,
            ladder_validation_draws());
}

int main(void)
{
    expect_under(NULL, 0);
    expect_under("", 0);
    expect_under("0", 0);
    expect_under("1", 1);
    expect_under("yes", 1);
    /* Unset again: what the test sizes of a normal run get. */
    expect_under(NULL, 0);
    return test_result("gpu_test_test");
}
