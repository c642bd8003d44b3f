/* Where a tried kernel lands on its ladder (`ladder try`): one line that
 * places it between two rungs by time, with each one's fraction of the
 * GPU's measured limit, and one line naming the next rung to try with its
 * story; with --ncu, one line naming its limiter from its counters. Pure:
 * records in, text out. */
#ifndef LADDER_USER_PLACE_H
#define LADDER_USER_PLACE_H

#include <stddef.h>

#include "harness/case.h"
#include "harness/record/results.h"

/* Above this fraction of a measured ceiling a result is not believed: the
 * ceilings are measured, so a little above is noise, much above is a
 * miscount (work not done, a timing that missed the kernel). */
#define LADDER_PLACE_CEILING_SLACK 1.05

/* How close a record runs to the GPU's limit: the higher of its fraction of
 * the bandwidth ceiling and of the compute ceiling (the FMA rate, or the
 * BF16 tensor rate for a tensor case). *ceiling names that ceiling
 * ("bandwidth", "FP32", "BF16 tensor"). NaN where neither is known. */
double ladder_limiter_fraction(const ladder_record *rec, const char **ceiling);

/* The placement of `mine` (a tried kernel's record) among records[0, count),
 * one case at one size in ladder order (its baseline and references among
 * them), as two lines ending in newlines: where it lands, then the next
 * step (or why it is not placed: a wrong result here or at one of the
 * case's test sizes, a result above the ceiling, nothing to place it
 * against). `c` gives the rungs' stories. */
void ladder_place(const ladder_case *c, const ladder_record *records, size_t count, const ladder_record *mine,
                  char *out, size_t len);

/* With --ncu: one line, ending in a newline, naming what limits a profiled
 * record, in the spirit of Nsight Compute's rules ("limiter: DRAM at 92 %
 * of peak (memory-bound: ...)"): the first of these that holds, throughput
 * at a peak first, then waste in the memory pipeline, then occupancy,
 * with what to do about it. "" for a record without counters. The
 * thresholds are in place.c. */
void ladder_limiter_line(const ladder_record *rec, char *out, size_t len);

#endif
