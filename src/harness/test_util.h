/* A minimal check macro for the CPU tests: prints each failed expectation
 * with its line and counts it; main returns the count's verdict. */
#ifndef LADDER_TEST_UTIL_H
#define LADDER_TEST_UTIL_H

#include <math.h>
#include <stdio.h>

static int test_failures;

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);       \
            ++test_failures;                                                          \
        }                                                                             \
    } while (0)

#define EXPECT_NEAR(a, b, tol)                                                        \
    do {                                                                              \
        double a_ = (a), b_ = (b);                                                    \
        if (!(fabs(a_ - b_) <= (tol))) {                                              \
            fprintf(stderr, "%s:%d: expected %s = %.9g near %s = %.9g\n", __FILE__,   \
                    __LINE__, #a, a_, #b, b_);                                        \
            ++test_failures;                                                          \
        }                                                                             \
    } while (0)

static inline int test_result(const char *name)
{
    printf("%s: %s (%d failed expectations)\n", name, test_failures ? "FAIL" : "ok", test_failures);
    return test_failures ? 1 : 0;
}

#endif
