/* What the child of `ladder try` hands its parent (cli/try_command.c).
 *
 * A tried kernel runs in a child process (the same binary, run again), so
 * that one that faults or hangs takes only its own CUDA context down. The
 * child keeps one report in a file of the private folder and rewrites it at
 * every step (and from its fatal hook), so that however it ends the parent
 * reads how far it got: the checks at the case's test sizes, the timed
 * record, or the fault and the size it was at. The same binary writes and
 * reads the file, so the structs go raw; a record's only pointer, its
 * ceiling's name, is made again by the reader. */
#ifndef LADDER_USER_HANDOFF_H
#define LADDER_USER_HANDOFF_H

#include <stddef.h>

#include "harness/record/results.h"

/* The child's environment: the shared object to load (set: the process is
 * a child), where to write its report, and whether to check the case's
 * test sizes before timing (the child of a run's first size does). */
#define LADDER_TRY_CHILD_ENV "LADDER_TRY_CHILD"
#define LADDER_TRY_REPORT_ENV "LADDER_TRY_REPORT"
#define LADDER_TRY_TEST_SIZES_ENV "LADDER_TRY_TEST_SIZES"

#define LADDER_TRY_MAX_CHECKS 16

/* One checked run at one of the case's test sizes. */
typedef struct ladder_try_check {
    char size[64];
    double rel_error, tolerance;
    long long nonfinite;
    int passed;
    char skipped[200]; /* the case's reason when the size cannot run the kernel, "" */
} ladder_try_check;

typedef struct ladder_try_report {
    char stage[64];     /* what the child was doing last: "loading", "checking", "timing", "done" */
    char size[64];      /* the size it was at */
    char fault[1024];   /* the fatal error's message, "" */
    int check_count;
    ladder_try_check checks[LADDER_TRY_MAX_CHECKS];
    int has_record;
    ladder_record record; /* the timed run at the child's size */
} ladder_try_report;

/* Rewrite the report (a temporary file renamed into place). 0, or -1. */
int ladder_try_report_write(const char *path, const ladder_try_report *report);

/* Read a report; 0, or -1 with the reason in err (missing, short, not one). */
int ladder_try_report_read(const char *path, ladder_try_report *report, char *err, size_t err_len);

#endif
