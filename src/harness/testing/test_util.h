/* The CPU tests' checks, shared by every *_test.c: each failed expectation
 * is printed with its line and counted; test_result gives main's exit code.
 *   EXPECT(cond)             prints the expression when it fails
 *   EXPECTF(cond, fmt, ...)  prints a message when it fails
 *   expect(ok, what)         prints every check, passed or not */
#ifndef LADDER_TEST_UTIL_H
#define LADDER_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <time.h>

static int test_failures;

#define EXPECT(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);       \
            ++test_failures;                                                          \
        }                                                                             \
    } while (0)

#define EXPECTF(cond, ...)                                                            \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                     \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
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

static inline void expect(int ok, const char *what)
{
    printf("%-78s %s\n", what, ok ? "ok" : "FAIL");
    if (!ok) ++test_failures;
}

/* For the tests that watch something happen over time (the watchdog). */
static inline void test_sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static inline int test_result(const char *name)
{
    printf("%s: %s (%d failed expectations)\n", name, test_failures ? "FAIL" : "ok", test_failures);
    return test_failures ? 1 : 0;
}

#endif
