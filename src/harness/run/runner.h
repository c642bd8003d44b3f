/* Running a ladder: for each variant, check, time, check again, record. */
#ifndef LADDER_RUNNER_H
#define LADDER_RUNNER_H

#include <stdint.h>

#include "harness/case.h"
#include "harness/device/device.h"
#include "harness/record/results.h"

typedef struct ladder_run_options {
    uint64_t seed;       /* every check draws inputs from seed + a running count */
    int quick;
    int min_samples;     /* device samples; at least 10 */
    double time_cap_s;   /* per variant, after the minimum */
    const char *variant; /* NULL for all, else a name or an index; the baseline always runs */
} ladder_run_options;

/* Index of the variant named or numbered by `selector`, or -1. */
int ladder_find_variant(const ladder_case *c, const char *selector);

/* One checked run: fresh inputs from `seed`, output poisoned, one execution,
 * comparison with the CPU reference. The caller has checked unsupported(). */
ladder_check ladder_validate_variant(const ladder_case *c, void *state, const ladder_variant *v, uint64_t seed);

/* Whether the case takes `size` (its form, its dimensions): needs no GPU, so
 * the command line checks every size before the device is opened.
 * LADDER_OK, or LADDER_BAD_SIZE with the reason in err. */
ladder_status ladder_check_size(const ladder_case *c, const ladder_size *size, char *err, size_t err_len);

/* A record's fractions of the device's measured ceilings, from its GB/s and
 * GFLOP/s: for a record measured where the ceilings were not (the child of
 * `ladder try`), by the process that measured them. */
void ladder_set_fractions(ladder_record *rec, ladder_ceiling_kind kind, const ladder_device *device);

/* The device object's name of a ceiling (a record's "ceiling"). */
const char *ladder_ceiling_name(ladder_ceiling_kind kind);

/* Create the case's state for `size` and run the selected variants, appending
 * one record each to `results`; a stop signal (stop.h) ends the ladder at the
 * next variant boundary. On LADDER_BAD_SIZE or LADDER_NO_MEMORY
 * nothing is appended and err says why. */
ladder_status ladder_run_case(const ladder_case *c, const ladder_size *size, const ladder_device *device,
                              const ladder_run_options *options, ladder_results *results, char *err,
                              size_t err_len);

/* The child side of `--ncu` (ncu.h): for each selected device variant that
 * takes this size, fresh inputs, a warm-up launch, then one launch inside a
 * profiler range, after the marker kernel. No timing, no checks, no output. */
ladder_status ladder_profile_case(const ladder_case *c, const ladder_size *size, const ladder_run_options *options,
                                  char *err, size_t err_len);

#endif
