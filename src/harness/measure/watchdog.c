#include "watchdog.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "harness/check/check.h"

double ladder_watchdog_limit_s(double fixed_s, double longest_s, double factor)
{
    if (fixed_s == 0) return 0;
    if (factor < 1) factor = 1;
    if (fixed_s > 0) return fixed_s * factor;
    if (!(longest_s > 0)) return LADDER_WATCHDOG_FIRST_S * factor;
    return fmax(LADDER_WATCHDOG_FLOOR_S, LADDER_WATCHDOG_FACTOR * longest_s) * factor;
}

int ladder_watchdog_parse(const char *text, double *seconds, char *err, size_t err_len)
{
    char *end;
    double s = strtod(text, &end);
    if (!*text || *end || !(s >= 0) || s > 7 * 24 * 3600.0) {
        snprintf(err, err_len, "--hang-timeout needs seconds from 0 (off) to 604800, not '%s'", text);
        return -1;
    }
    *seconds = s;
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One watcher thread, started at the first arm. `armed_at` and `limit_s` of
 * the wait in progress; `generation` tells a new wait from the one the
 * thread went to sleep on. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int started, armed;
    unsigned long generation;
    double armed_at, limit_s;
    const char *what;
    ladder_watch *watch;
    int fixed_known;
    double fixed_s;
} dog = {.lock = PTHREAD_MUTEX_INITIALIZER};

void ladder_watchdog_set_fixed(double seconds)
{
    pthread_mutex_lock(&dog.lock);
    dog.fixed_s = seconds;
    dog.fixed_known = 1;
    pthread_mutex_unlock(&dog.lock);
}

/* The override, from the environment when the command line gave none. */
static double fixed_limit_locked(void)
{
    if (!dog.fixed_known) {
        dog.fixed_s = -1;
        dog.fixed_known = 1;
        const char *env = getenv(LADDER_HANG_TIMEOUT_ENV);
        char err[160];
        if (env && ladder_watchdog_parse(env, &dog.fixed_s, err, sizeof err) != 0) {
            pthread_mutex_unlock(&dog.lock);
            ladder_die("%s=%s: %s", LADDER_HANG_TIMEOUT_ENV, env, err);
        }
    }
    return dog.fixed_s;
}

void ladder_watchdog_watch(ladder_watch *watch)
{
    pthread_mutex_lock(&dog.lock);
    dog.watch = watch;
    pthread_mutex_unlock(&dog.lock);
}

ladder_watch *ladder_watchdog_current(void)
{
    pthread_mutex_lock(&dog.lock);
    ladder_watch *w = dog.watch;
    pthread_mutex_unlock(&dog.lock);
    return w;
}

/* Called by the watcher with the lock held, the deadline passed: the run ends. */
static void trip(void)
{
    char message[768];
    const ladder_watch *w = dog.watch;
    if (w)
        snprintf(message, sizeof message,
                 "%s: variant %s%s%s did not finish in %.3g s (%s): a hang or a deadlock. A hung GPU context "
                 "cannot be recovered, so the run ends here (exit code %d)",
                 w->case_name, w->variant, w->size && w->size[0] ? " at " : "", w->size ? w->size : "", dog.limit_s,
                 dog.what, LADDER_EXIT_HUNG);
    else
        snprintf(message, sizeof message,
                 "the GPU did not finish in %.3g s (%s): a hang or a deadlock. A hung GPU context cannot be "
                 "recovered, so the run ends here (exit code %d)",
                 dog.limit_s, dog.what, LADDER_EXIT_HUNG);
    if (w && w->hung) *w->hung = 1;
    pthread_mutex_unlock(&dog.lock);
    ladder_die_unrecoverable(LADDER_EXIT_HUNG, message);
}

static struct timespec deadline_of(double armed_at, double limit_s)
{
    /* armed_at is CLOCK_MONOTONIC, which the condition variable waits on. */
    double at = armed_at + limit_s;
    struct timespec t = {(time_t)at, (long)((at - floor(at)) * 1e9)};
    return t;
}

static void *watcher(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&dog.lock);
    for (;;) {
        while (!dog.armed) pthread_cond_wait(&dog.changed, &dog.lock);
        unsigned long generation = dog.generation;
        struct timespec deadline = deadline_of(dog.armed_at, dog.limit_s);
        int rc = 0;
        while (dog.armed && dog.generation == generation && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&dog.changed, &dog.lock, &deadline);
        if (dog.armed && dog.generation == generation) trip();
    }
    return NULL;
}

static void start_locked(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&dog.changed, &attr);
    pthread_condattr_destroy(&attr);
    pthread_t thread;
    if (pthread_create(&thread, NULL, watcher, NULL) != 0) {
        pthread_mutex_unlock(&dog.lock);
        ladder_die("cannot start the hang watchdog's thread");
    }
    pthread_detach(thread);
    dog.started = 1;
}

void ladder_watchdog_arm(const char *what)
{
    pthread_mutex_lock(&dog.lock);
    const ladder_watch *w = dog.watch;
    double limit = ladder_watchdog_limit_s(fixed_limit_locked(), w ? w->longest_s : 0, w ? w->factor : 1);
    if (limit > 0) {
        if (!dog.started) start_locked();
        dog.armed = 1;
        dog.generation++;
        dog.armed_at = now_s();
        dog.limit_s = limit;
        dog.what = what;
        pthread_cond_signal(&dog.changed);
    }
    pthread_mutex_unlock(&dog.lock);
}

void ladder_watchdog_disarm(void)
{
    pthread_mutex_lock(&dog.lock);
    if (dog.armed) {
        double took = now_s() - dog.armed_at;
        if (dog.watch && took > dog.watch->longest_s) dog.watch->longest_s = took;
        dog.armed = 0;
        pthread_cond_signal(&dog.changed);
    }
    pthread_mutex_unlock(&dog.lock);
}
