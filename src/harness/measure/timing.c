#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "harness/check/check.h"
#include "gpu_clock.h"
#include "l2_flush.h"
#include "watchdog.h"

static struct {
    void *flush_buffer;
    size_t flush_bytes;
    unsigned *flush_sink;
    int flush_blocks;
    cudaStream_t stream;
    cudaEvent_t start, stop;
} timer;

void ladder_timing_init(size_t l2_bytes, int sm_count)
{
    timer.flush_bytes = (2 * l2_bytes + 15) / 16 * 16;
    timer.flush_blocks = 8 * sm_count;
    CUDA_CHECK(cudaMalloc(&timer.flush_buffer, timer.flush_bytes));
    CUDA_CHECK(cudaMemset(timer.flush_buffer, 0, timer.flush_bytes));
    CUDA_CHECK(cudaMalloc((void **)&timer.flush_sink, sizeof *timer.flush_sink));
    /* A blocking stream: it waits for the synchronous uploads and memsets that cases issue. */
    CUDA_CHECK(cudaStreamCreate(&timer.stream));
    CUDA_CHECK(cudaEventCreate(&timer.start));
    CUDA_CHECK(cudaEventCreate(&timer.stop));
}

void ladder_timing_shutdown(void)
{
    if (!timer.stream) return;
    CUDA_CHECK(cudaEventDestroy(timer.start));
    CUDA_CHECK(cudaEventDestroy(timer.stop));
    CUDA_CHECK(cudaStreamDestroy(timer.stream));
    CUDA_CHECK(cudaFree(timer.flush_buffer));
    CUDA_CHECK(cudaFree(timer.flush_sink));
    timer.stream = NULL;
}

cudaStream_t ladder_stream(void) { return timer.stream; }

double ladder_now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Reading a buffer twice the size of the L2 evicts whatever the previous
 * run left there, so every sample starts from DRAM as a cold run would.
 * Reading, not writing (a memset, as nvbench does): a write flush leaves the
 * L2 full of dirty lines, and the timed work then pays for writing them
 * back. Measured on an H100: a 256 MB device-to-device copy ran at
 * 2956 GB/s after a memset flush, 3066 after this one; a kernel reading
 * 256 MB, 2684 against 2971. The cost is a fixed ~7-10 us, so it weighed
 * most on the shortest kernels. */
static void flush_l2(void)
{
    ladder_l2_flush_read(timer.flush_buffer, timer.flush_bytes, timer.flush_sink, timer.flush_blocks, timer.stream);
}

typedef double (*sample_fn)(ladder_launch launch, void *context);

static double device_sample(ladder_launch launch, void *context)
{
    ladder_watchdog_arm("timed sample");
    flush_l2();
    CUDA_CHECK(cudaEventRecord(timer.start, timer.stream));
    launch(context, timer.stream);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(timer.stop, timer.stream));
    CUDA_CHECK(cudaEventSynchronize(timer.stop));
    ladder_watchdog_disarm();
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, timer.start, timer.stop));
    return ms;
}

static double host_sample(ladder_launch launch, void *context)
{
    double start = ladder_now_seconds();
    launch(context, timer.stream);
    CUDA_CHECK(cudaStreamSynchronize(timer.stream));
    return 1e3 * (ladder_now_seconds() - start);
}

static ladder_timing collect(sample_fn sample, ladder_launch launch, void *context,
                             const ladder_timing_options *options)
{
    /* A CPU variant's run is not the GPU's to bound. */
    int on_gpu = sample == device_sample;
    if (on_gpu) ladder_watchdog_arm("warm-up launches");
    for (int i = 0; i < options->warmup_runs; ++i) launch(context, timer.stream);
    CUDA_CHECK(cudaStreamSynchronize(timer.stream));
    CUDA_CHECK_LAUNCH();
    if (on_gpu) ladder_watchdog_disarm();

    int min_samples = options->min_samples < 1 ? 1 : options->min_samples;
    int max_samples = options->max_samples < min_samples ? min_samples : options->max_samples;
    double *ms = malloc((size_t)max_samples * sizeof *ms);
    double *mhz = malloc((size_t)max_samples * sizeof *mhz);
    if (!ms || !mhz) ladder_die("out of host memory for timing samples");

    ladder_timing t = {{0}, 0, NAN};
    int n = 0, clocks_known = 0;
    double started = ladder_now_seconds();
    while (n < max_samples) {
        ms[n] = sample(launch, context);
        ladder_clock_sample clock = ladder_clock_read();
        if (!isnan(clock.sm_mhz)) mhz[clocks_known++] = clock.sm_mhz;
        t.throttled_samples += clock.throttled;
        ++n;
        if (n < min_samples) continue;
        t.ms = ladder_summarize(ms, (size_t)n);
        if (t.ms.rel_spread < options->target_spread) break;
        if (ladder_now_seconds() - started > options->time_cap_s) break;
    }
    t.ms = ladder_summarize(ms, (size_t)n);
    if (clocks_known) t.sm_clock_mhz = ladder_summarize(mhz, (size_t)clocks_known).median;
    free(ms);
    free(mhz);
    return t;
}

ladder_timing ladder_time_device(ladder_launch launch, void *context, const ladder_timing_options *options)
{
    ladder_timing_options at_least_ten = *options;
    if (at_least_ten.min_samples < 10) at_least_ten.min_samples = 10;
    return collect(device_sample, launch, context, &at_least_ten);
}

ladder_timing ladder_time_host(ladder_launch launch, void *context, const ladder_timing_options *options)
{
    return collect(host_sample, launch, context, options);
}
