/* The hang watchdog without a GPU: the limit's arithmetic, the option's
 * parsing, and the mechanism itself on a wait that never ends (a sleeping
 * child process stands in for a stuck cudaStreamSynchronize): it exits with
 * LADDER_EXIT_HUNG within its limit, naming the variant, marking it hung and
 * calling the fatal hook that keeps the run's document; a wait disarmed in
 * time does nothing. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/check/check.h"
#include "harness/testing/test_util.h"
#include "timing.h"
#include "watchdog.h"

static void test_limits(void)
{
    /* No override: the first wait gets the first-launch bound ... */
    EXPECT_NEAR(ladder_watchdog_limit_s(-1, 0, 1), LADDER_WATCHDOG_FIRST_S, 0);
    /* ... later ones many times the longest so far, never under the floor. */
    EXPECT_NEAR(ladder_watchdog_limit_s(-1, 0.001, 1), LADDER_WATCHDOG_FLOOR_S, 0);
    EXPECT_NEAR(ladder_watchdog_limit_s(-1, 2.0, 1), 2.0 * LADDER_WATCHDOG_FACTOR, 1e-9);
    EXPECT(LADDER_WATCHDOG_FACTOR * 2.0 > LADDER_WATCHDOG_FLOOR_S); /* the case above is the factor's */
    /* The profiler's factor scales whichever applies. */
    EXPECT_NEAR(ladder_watchdog_limit_s(-1, 0, LADDER_WATCHDOG_PROFILE_FACTOR),
                LADDER_WATCHDOG_FIRST_S * LADDER_WATCHDOG_PROFILE_FACTOR, 1e-9);
    EXPECT_NEAR(ladder_watchdog_limit_s(-1, 2.0, 10), 2.0 * LADDER_WATCHDOG_FACTOR * 10, 1e-9);
    /* The override replaces the derived limit; 0 is off. */
    EXPECT_NEAR(ladder_watchdog_limit_s(7.5, 100.0, 1), 7.5, 0);
    EXPECT_NEAR(ladder_watchdog_limit_s(7.5, 0, 10), 75.0, 1e-9);
    EXPECT(ladder_watchdog_limit_s(0, 5.0, 1) == 0);
    EXPECT(ladder_watchdog_limit_s(0, 0, 10) == 0);
}

static void test_parse(void)
{
    double s = -1;
    char err[160] = "";
    EXPECT(ladder_watchdog_parse("30", &s, err, sizeof err) == 0 && s == 30);
    EXPECT(ladder_watchdog_parse("0", &s, err, sizeof err) == 0 && s == 0);
    EXPECT(ladder_watchdog_parse("2.5", &s, err, sizeof err) == 0 && s == 2.5);
    const char *bad[] = {"", "-1", "abc", "10s", "nan", "1e9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        err[0] = '\0';
        EXPECTF(ladder_watchdog_parse(bad[i], &s, err, sizeof err) != 0, "'%s' accepted", bad[i]);
        EXPECTF(strstr(err, "--hang-timeout") != NULL, "'%s': message '%s'", bad[i], err);
    }
}

static int hung_flag;

/* The run's document would be saved here; the record's flag is already set. */
static void hook_prints(const char *message)
{
    printf("hook saw (hung %d): %s\n", hung_flag, message);
}

typedef struct child_result {
    int status;
    double seconds;
    char output[2048]; /* stdout and stderr */
} child_result;

/* Run `body` in a child with its output captured. */
static child_result in_child(void (*body)(void))
{
    char path[] = "/tmp/watchdog_test_XXXXXX";
    int fd = mkstemp(path);
    child_result r = {0};
    double start = ladder_now_seconds();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        body();
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, &r.status, 0);
    r.seconds = ladder_now_seconds() - start;
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, r.output, sizeof r.output - 1);
    r.output[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return r;
}

/* A wait that never ends, under a 0.5 s limit. */
static void hangs(void)
{
    ladder_on_fatal(hook_prints);
    ladder_watchdog_set_fixed(0.5);
    static ladder_watch watch = {"transpose", "tiled", "8192x8192", &hung_flag, 0, 1};
    ladder_watchdog_watch(&watch);
    ladder_watchdog_arm("timed sample");
    sleep(30);
    printf("not stopped\n");
}

/* Waits that end in time, then a long quiet stretch while disarmed. */
static void finishes(void)
{
    ladder_watchdog_set_fixed(0.3);
    static ladder_watch watch = {"reduce", "shuffle", "2^20", &hung_flag, 0, 1};
    ladder_watchdog_watch(&watch);
    for (int i = 0; i < 3; ++i) {
        ladder_watchdog_arm("timed sample");
        test_sleep_ms(50);
        ladder_watchdog_disarm();
    }
    printf("longest %.3f\n", watch.longest_s);
    test_sleep_ms(800);
    printf("survived\n");
}

/* LADDER_HANG_TIMEOUT reaches a program with no command line (gpu_validate). */
static void hangs_under_environment_limit(void)
{
    setenv(LADDER_HANG_TIMEOUT_ENV, "0.4", 1);
    ladder_watchdog_arm("checked run");
    sleep(30);
}

static void environment_off(void)
{
    setenv(LADDER_HANG_TIMEOUT_ENV, "0", 1);
    ladder_watchdog_arm("checked run");
    test_sleep_ms(600);
    printf("survived\n");
}

int main(void)
{
    test_limits();
    test_parse();

    child_result r = in_child(hangs);
    EXPECTF(WIFEXITED(r.status) && WEXITSTATUS(r.status) == LADDER_EXIT_HUNG, "hang: status %d", r.status);
    EXPECTF(r.seconds >= 0.45 && r.seconds < 5, "hang: stopped after %.2f s with a 0.5 s limit", r.seconds);
    EXPECTF(strstr(r.output, "ladder: transpose: variant tiled at 8192x8192 did not finish in 0.5 s (timed sample): "
                             "a hang or a deadlock") != NULL,
            "hang: output '%s'", r.output);
    EXPECTF(strstr(r.output, "hook saw (hung 1): transpose: variant tiled") != NULL, "hook: '%s'", r.output);
    EXPECTF(strstr(r.output, "not stopped") == NULL, "the wait went on: '%s'", r.output);

    r = in_child(finishes);
    EXPECTF(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0, "disarmed waits: status %d, '%s'", r.status,
            r.output);
    EXPECTF(strstr(r.output, "survived") != NULL, "disarmed waits: '%s'", r.output);
    double longest = -1;
    const char *at = strstr(r.output, "longest ");
    if (at) longest = atof(at + 8);
    EXPECTF(longest >= 0.045 && longest < 0.3, "longest armed stretch %.3f s, expected about 0.05", longest);

    r = in_child(hangs_under_environment_limit);
    EXPECTF(WIFEXITED(r.status) && WEXITSTATUS(r.status) == LADDER_EXIT_HUNG, "environment limit: status %d",
            r.status);
    EXPECTF(strstr(r.output, "the GPU did not finish in 0.4 s (checked run)") != NULL, "unnamed wait: '%s'",
            r.output);

    r = in_child(environment_off);
    EXPECTF(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0 && strstr(r.output, "survived"),
            "LADDER_HANG_TIMEOUT=0 must turn the watchdog off: status %d, '%s'", r.status, r.output);
    return test_result("watchdog_test");
}
