/* Hardware counters beside the timings: `ladder run --ncu`, from Nsight Compute.
 *
 * The timed run is never profiled: ncu serializes launches and replays each
 * kernel once per counter pass, which would change every time. Instead, once
 * a case is timed, the tool runs itself again under ncu as a child whose only
 * work is one launch of each selected variant (after an unprofiled warm-up),
 * between cudaProfilerStart and cudaProfilerStop so that ncu sees nothing
 * else: no input fills, no checks, no L2 flushes.
 *
 * ncu's CSV names kernels, not variants, and a variant may launch several
 * kernels (cuBLAS, CUB) or none (cudaMemcpy). So before each variant the
 * child launches an empty marker kernel with (variant index + 1) blocks, and
 * the parser gives the kernels after a marker to that variant.
 *
 * ncu runs with --clock-control none (it would otherwise lock the clocks to
 * base: the tool never changes the card's clocks) and its default cache
 * control, which flushes the caches before each pass, as the timing does. */
#ifndef LADDER_NCU_H
#define LADDER_NCU_H

#include <stddef.h>

#include "harness/case.h"
#include "harness/record/results.h"
#include "harness/run/runner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The child's environment variable: set, `ladder run` profiles instead of timing. */
#define LADDER_NCU_CHILD_ENV "LADDER_NCU_CHILD"

/* Where ncu is: $LADDER_NCU if set, else the first `ncu` on PATH. Returns 0
 * and writes the path, or -1 with a one-line reason in err. */
int ladder_ncu_find(char *path, size_t len, char *err, size_t err_len);

/* Profile one timed case: run ncu over this program, for the same case, size,
 * seed and variant selection, and attach counters to the case's records,
 * results->records[first..count). Returns 0, LADDER_EXIT_HUNG when a variant
 * hung in the profiled child (its watchdog said which), or -1; err says why. */
int ladder_ncu_collect(const char *ncu, const ladder_case *c, const ladder_size *size, int device_ordinal,
                       const ladder_run_options *options, ladder_results *results, size_t first, char *err,
                       size_t err_len);

/* Run ncu over `command` (this program's path, then its arguments; NULL
 * ends it), with LADDER_NCU_CHILD set and the variables of `env` (names
 * and values in turn, NULL-ended, or NULL) added to its environment, and read
 * the counters of variants [0, variant_count) into counters and seen, as
 * ladder_ncu_parse does. `what` names the profiled work in messages. What
 * ladder_ncu_collect runs; `ladder try` runs its child with it, the tried
 * kernel as variant 0. Returns 0, LADDER_EXIT_HUNG or -1, as it does. */
int ladder_ncu_profile(const char *ncu, char *const *command, char *const *env, const char *what, int variant_count,
                       ladder_counters *counters, int *seen, char *err, size_t err_len);

/* Read ncu's raw-page CSV (`--csv --page raw --print-units base`) into one
 * ladder_counters per variant index; seen[i] says whether variant i's marker
 * was found. Lines ncu prints for itself ("==PROF==" ...) are ignored.
 * Returns 0, or -1 with a reason in err. */
int ladder_ncu_parse(const char *csv, ladder_counters *counters, int *seen, int variant_count, char *err,
                     size_t err_len);

/* The metric list handed to ncu, comma-separated. */
const char *ladder_ncu_metrics(void);

/* The marker: an empty kernel of (variant_index + 1) one-thread blocks. */
void ladder_ncu_launch_marker(int variant_index, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
