#include "progress.h"

#include <stdio.h>

#include "harness/measure/timing.h"

static struct {
    int enabled, shown;
    double started;
    int case_index, case_count;
    const char *case_name;
} progress;

void ladder_progress_enable(int enabled)
{
    progress.enabled = enabled;
    progress.started = ladder_now_seconds();
}

void ladder_progress_case(int index, int count, const char *name)
{
    progress.case_index = index;
    progress.case_count = count;
    progress.case_name = name;
}

void ladder_progress_variant(int index, int count, const char *name)
{
    if (!progress.enabled || !progress.case_name) return;
    double elapsed = ladder_now_seconds() - progress.started;
    fprintf(stderr, "\r\033[K[%d/%d] %s: variant %d/%d %s  %.0f s", progress.case_index + 1, progress.case_count,
            progress.case_name, index + 1, count, name, elapsed);
    fflush(stderr);
    progress.shown = 1;
}

void ladder_progress_clear(void)
{
    if (!progress.shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress.shown = 0;
}
