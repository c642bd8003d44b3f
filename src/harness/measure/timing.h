/* Timing: warm-up, an L2 flush before every sample, CUDA events around the
 * region, at least min_samples samples and more until the spread settles or the
 * time cap is hit, the SM clock read after every sample. */
#ifndef LADDER_TIMING_H
#define LADDER_TIMING_H

#include <cuda_runtime_api.h>

#include "stats.h"

/* One execution of the thing being timed, enqueued on `stream`. */
typedef void (*ladder_launch)(void *context, cudaStream_t stream);

/* Samples keep coming until the spread (interquartile range / median) falls
 * under the target or the cap is hit; a variant whose spread is still above
 * this at the end is flagged noisy: its median is not to be trusted. */
#define LADDER_NOISY_SPREAD 0.05

typedef struct ladder_timing_options {
    int min_samples;      /* raised to 10 for device timing */
    int max_samples;
    double target_spread; /* stop once the relative spread is below this ... */
    double time_cap_s;    /* ... or once this much wall time has gone into samples */
    int warmup_runs;
} ladder_timing_options;

typedef struct ladder_timing {
    ladder_stats ms;        /* per-sample milliseconds */
    int throttled_samples;  /* samples after which NVML reported a power/thermal slowdown */
    double sm_clock_mhz;    /* median SM clock read after each sample; NAN if unknown */
} ladder_timing;

/* Allocate the flush buffer (twice the L2) and the stream. */
void ladder_timing_init(size_t l2_bytes, int sm_count);
void ladder_timing_shutdown(void);
cudaStream_t ladder_stream(void);

ladder_timing ladder_time_device(ladder_launch launch, void *context, const ladder_timing_options *options);

/* For CPU variants: a monotonic host clock, no flush (the GPU's L2 is not
 * theirs), and as few samples as the options allow: a CPU run can take seconds. */
ladder_timing ladder_time_host(ladder_launch launch, void *context, const ladder_timing_options *options);

double ladder_now_seconds(void);

#endif
