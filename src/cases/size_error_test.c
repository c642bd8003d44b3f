/* Every case checks its sizes without a GPU (case.h's size_error): a size it
 * cannot take is refused with a reason before the device is opened, and its
 * own default, quick, test and sanitizer sizes pass. */
#include <string.h>

#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "registry.h"

static void expect_sizes_pass(const ladder_case *c, const char *spec)
{
    ladder_size_list list;
    char err[512];
    EXPECTF(ladder_parse_size_list(spec, &list, err, sizeof err) == 0, "%s: '%s' does not parse", c->name, spec);
    for (int s = 0; s < list.count; ++s) {
        err[0] = '\0';
        EXPECTF(ladder_check_size(c, &list.size[s], err, sizeof err) == LADDER_OK, "%s refuses its own size %s: %s",
                c->name, spec, err);
    }
}

int main(void)
{
    for (int i = 0; i < ladder_case_count; ++i) {
        const ladder_case *c = ladder_cases[i];
        EXPECTF(c->size_error != NULL, "%s has no size_error hook", c->name);
        expect_sizes_pass(c, c->default_size);
        expect_sizes_pass(c, c->quick_size);
        for (int s = 0; c->test_sizes[s]; ++s) expect_sizes_pass(c, c->test_sizes[s]);
        for (int s = 0; c->sanitizer_sizes[s]; ++s) expect_sizes_pass(c, c->sanitizer_sizes[s]);

        /* Four dimensions: no case takes them. */
        ladder_size_list list;
        char err[512] = "";
        EXPECT(ladder_parse_size_list("3x3x3x3", &list, err, sizeof err) == 0);
        EXPECTF(ladder_check_size(c, &list.size[0], err, sizeof err) == LADDER_BAD_SIZE && err[0],
                "%s accepts 3x3x3x3", c->name);
    }

    /* A few limits, by the message a user sees. */
    const struct {
        const char *case_name, *size, *message;
    } refused[] = {
        {"transpose", "99999999x4", "at most"},
        {"sgemm", "4x4", "sgemm takes MxNxK"},
        {"transfer", "4095", "at least 4096"},
        {"coalescing", "1000", "a multiple of 24"},
        {"spmv", "1000", "banded:ROWS or powerlaw:ROWS"},
        {"spmv", "powerlaw:2^31", "rows do not fit 32-bit indices"},
        {"spmv", "banded:2^27", "more than 32-bit row pointers hold"},
        {"gemv_t", "2x3x4", "gemv_t takes MxN"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k) {
        const ladder_case *c = ladder_find_case(refused[k].case_name);
        ladder_size_list list;
        char err[512] = "";
        EXPECT(c && ladder_parse_size_list(refused[k].size, &list, err, sizeof err) == 0);
        EXPECTF(c && ladder_check_size(c, &list.size[0], err, sizeof err) == LADDER_BAD_SIZE &&
                    strstr(err, refused[k].message),
                "%s %s: '%s'", refused[k].case_name, refused[k].size, err);
    }
    return test_result("size_error_test");
}
