/* The hang watchdog: no wait on the GPU is unbounded.
 *
 * The runner arms the watchdog around every stretch of a GPU variant that
 * waits for the device (the checked runs, the warm-up, every timed sample,
 * the --ncu child's launches) and disarms it after. A thread of its own
 * watches the deadline; when it passes, the variant has hung (a deadlock, an
 * mbarrier that never completes, a flag no one sets): the thread prints one
 * line naming the case, the variant, the size and the wait, marks the
 * variant's record `hung`, lets the run keep its document (the fatal hook of
 * check.h), and ends the process with LADDER_EXIT_HUNG. A GPU context with a
 * kernel that never returns cannot be recovered, so nothing else can run.
 *
 * The limit of one wait (ladder_watchdog_limit_s): the longest armed stretch
 * of the same variant so far times LADDER_WATCHDOG_FACTOR, at least
 * LADDER_WATCHDOG_FLOOR_S; before any stretch finished (the first launch,
 * which also pays for module loading and library setup),
 * LADDER_WATCHDOG_FIRST_S. `--hang-timeout S` (or LADDER_HANG_TIMEOUT=S for
 * gpu_validate and the GPU tests) replaces all of them with S; 0 turns the
 * watchdog off. */
#ifndef LADDER_WATCHDOG_H
#define LADDER_WATCHDOG_H

#include <stddef.h>

#define LADDER_WATCHDOG_FIRST_S 120.0
#define LADDER_WATCHDOG_FLOOR_S 20.0
#define LADDER_WATCHDOG_FACTOR 50.0
/* Under `ncu` every kernel is replayed once per counter pass, its memory
 * saved and restored between passes: the child's launches get this factor. */
#define LADDER_WATCHDOG_PROFILE_FACTOR 10.0
#define LADDER_HANG_TIMEOUT_ENV "LADDER_HANG_TIMEOUT"

/* What is being waited for: the variant the runner is on. */
typedef struct ladder_watch {
    const char *case_name, *variant, *size; /* size may be "" */
    int *hung;         /* set to 1 when the limit passes: the record's flag, or NULL */
    double longest_s;  /* the longest armed stretch of this variant that finished */
    double factor;     /* multiplies every limit (1, or the profile factor) */
} ladder_watch;

/* The limit of the next wait, from the policy above. `fixed_s` is the
 * override: negative for none, 0 for off (returns 0), else the limit. */
double ladder_watchdog_limit_s(double fixed_s, double longest_s, double factor);

/* Parse a --hang-timeout value: seconds from 0 (off) to a week. Returns 0, or
 * -1 with a one-line reason in err. */
int ladder_watchdog_parse(const char *text, double *seconds, char *err, size_t err_len);

/* Set the override (--hang-timeout). Without a call the environment's
 * LADDER_HANG_TIMEOUT is read once; a malformed value there is fatal. */
void ladder_watchdog_set_fixed(double seconds);

/* The current variant, or NULL between variants. While none is set, an
 * armed wait is named by ladder_watchdog_arm's `what` alone. */
void ladder_watchdog_watch(ladder_watch *watch);
ladder_watch *ladder_watchdog_current(void);

/* Around one wait: `what` names it ("checked run", "timed sample", ...).
 * disarm records how long the stretch took. */
void ladder_watchdog_arm(const char *what);
void ladder_watchdog_disarm(void);

#endif
