/* The transfer study (SPEC §11): what it costs to move bytes between host and
 * device, and how to hide it.
 *
 * 1. The size sweep, 4 KiB to 1 GiB by powers of two, host to device (h2d)
 *    and device to host (d2h), from pageable (malloc) and from pinned
 *    (cudaMallocHost) memory. The summary fits time = latency + bytes /
 *    bandwidth to each of the four routes: below latency x bandwidth (the
 *    half-peak size, ~80 KB in the textbook's 10 us era) latency dominates.
 * 2. Many small copies against one copy of the same bytes: every call pays
 *    the latency again.
 * 3. A chunked pipeline, pinned memory only: copy-in, a kernel, copy-out per
 *    chunk, the chunks dealt to 1..4 streams, each stream reusing one chunk of
 *    device memory (its stream order makes the reuse safe: double buffering
 *    at two streams). The overlap efficiency is the longest of the three
 *    stages, each timed alone over the whole array, over the pipeline's time.
 *    Pageable memory cannot overlap: the driver copies it through a pinned
 *    staging buffer of its own, with the host thread doing the staging, so
 *    cudaMemcpyAsync from or to pageable memory does not return until (h2d)
 *    the data is staged or (d2h) the copy is done; nothing queued behind it
 *    on the host can be issued meanwhile.
 *
 * Timing. Every variant is timed by the harness's events on its stream, with
 * the L2 flush (a device memset) queued just before the start event. A pinned
 * cudaMemcpyAsync is queued behind the start event and the events bracket it
 * exactly. A pageable copy is different: the host does part of the work (it
 * stages the bytes) and starts at once, while the GPU may still be running
 * the flush; that host work would fall before the start event's timestamp
 * and escape the timing. So the pageable launchers first wait for the stream
 * to drain: the timed region then starts when the host starts the copy, late
 * only by the wake-up of a spinning synchronize (well under a microsecond).
 * Events rather than a host clock for both kinds, so that pinned and pageable
 * points are measured alike and take the harness's warm-up and sample rules.
 *
 * Host destinations are poisoned by fill_inputs, not through output(): the
 * harness poisons with cudaMemset, which cannot write pageable memory. */
#include "transfer.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"

/* The pipeline kernel adds this per FMA (scale 1): a power of two, so the
 * result has a closed form (transfer_check_fma_chain). */
#define FMA_STEP (1.0f / 4096.0f)
#define POISON 0xFF

typedef struct transfer_state {
    size_t bytes;        /* the case size: the largest transfer */
    size_t padded_bytes; /* bytes rounded up to whole floats: the buffers hold random floats */
    long long floats;    /* the pipeline's elements: bytes / 4 */
    unsigned char *pageable_src, *pageable_dst; /* malloc */
    unsigned char *pinned_src, *pinned_dst;     /* cudaMallocHost */
    unsigned char *device_src;                  /* what d2h copies read: a copy of pinned_src */
    unsigned char *device_dst;                  /* what h2d copies write; the pipeline's chunk buffers */
    cudaStream_t streams[TRANSFER_MAX_STREAMS];
    cudaEvent_t fork, joins[TRANSFER_MAX_STREAMS];
} transfer_state;

typedef void transfer_launcher(transfer_state *s, const ladder_variant *v, cudaStream_t stream);

static size_t sweep_bytes(const ladder_variant *v) { return (size_t)1 << v->param; }

static size_t batch_bytes(const transfer_state *s)
{
    return s->bytes < TRANSFER_BATCH_MAX_BYTES ? s->bytes : TRANSFER_BATCH_MAX_BYTES;
}

/* Why: see "Timing" above. */
static void start_when_host_starts(cudaStream_t stream) { CUDA_CHECK(cudaStreamSynchronize(stream)); }

/* ---- 1. the sweep: one launcher per route, the size from the variant ---- */

static void h2d_pageable(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    start_when_host_starts(stream);
    CUDA_CHECK(cudaMemcpyAsync(s->device_dst, s->pageable_src, sweep_bytes(v), cudaMemcpyHostToDevice, stream));
}

static void d2h_pageable(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    start_when_host_starts(stream);
    CUDA_CHECK(cudaMemcpyAsync(s->pageable_dst, s->device_src, sweep_bytes(v), cudaMemcpyDeviceToHost, stream));
}

static void h2d_pinned(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemcpyAsync(s->device_dst, s->pinned_src, sweep_bytes(v), cudaMemcpyHostToDevice, stream));
}

static void d2h_pinned(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemcpyAsync(s->pinned_dst, s->device_src, sweep_bytes(v), cudaMemcpyDeviceToHost, stream));
}

/* ---- 2. many small copies against one ---- */

static void small_copies(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    (void)v;
    size_t total = batch_bytes(s);
    for (size_t offset = 0; offset < total; offset += TRANSFER_SMALL_COPY_BYTES) {
        size_t piece = total - offset < TRANSFER_SMALL_COPY_BYTES ? total - offset : TRANSFER_SMALL_COPY_BYTES;
        CUDA_CHECK(cudaMemcpyAsync(s->device_dst + offset, s->pinned_src + offset, piece, cudaMemcpyHostToDevice,
                                   stream));
    }
}

static void one_copy(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    (void)v;
    CUDA_CHECK(cudaMemcpyAsync(s->device_dst, s->pinned_src, batch_bytes(s), cudaMemcpyHostToDevice, stream));
}

/* ---- 3. the pipeline: its three stages alone, then chunked on 1..4 streams ---- */

static size_t pipeline_bytes(const transfer_state *s) { return (size_t)s->floats * sizeof(float); }

static void stage_copy_in(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    (void)v;
    CUDA_CHECK(cudaMemcpyAsync(s->device_dst, s->pinned_src, pipeline_bytes(s), cudaMemcpyHostToDevice, stream));
}

static void stage_kernel(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    (void)v;
    transfer_fma_chain((const float *)s->device_src, (float *)s->device_dst, s->floats, TRANSFER_FMAS_PER_ELEMENT,
                       1.0f, FMA_STEP, stream);
}

static void stage_copy_out(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    (void)v;
    CUDA_CHECK(cudaMemcpyAsync(s->pinned_dst, s->device_src, pipeline_bytes(s), cudaMemcpyDeviceToHost, stream));
}

/* Chunk c goes to stream c % streams and through that stream's one chunk of
 * device memory: in, kernel in place, out. The streams fork from the
 * harness's stream and join back into it, so its events time the whole.
 * The chunk buffers, 4 x ceil(floats / 64) floats, fit in device_dst since
 * floats >= 1024 (the case takes at least 4096 bytes). */
static void pipeline(transfer_state *s, const ladder_variant *v, cudaStream_t stream)
{
    int streams = v->param;
    long long chunk = (s->floats + TRANSFER_PIPELINE_CHUNKS - 1) / TRANSFER_PIPELINE_CHUNKS;
    const float *in = (const float *)s->pinned_src;
    float *out = (float *)s->pinned_dst;
    CUDA_CHECK(cudaEventRecord(s->fork, stream));
    for (int i = 0; i < streams; ++i) CUDA_CHECK(cudaStreamWaitEvent(s->streams[i], s->fork, 0));
    for (int c = 0; c < TRANSFER_PIPELINE_CHUNKS; ++c) {
        long long first = (long long)c * chunk;
        if (first >= s->floats) break;
        long long count = s->floats - first < chunk ? s->floats - first : chunk;
        size_t count_bytes = (size_t)count * sizeof(float);
        cudaStream_t lane = s->streams[c % streams];
        float *buffer = (float *)s->device_dst + (size_t)(c % streams) * (size_t)chunk;
        CUDA_CHECK(cudaMemcpyAsync(buffer, in + first, count_bytes, cudaMemcpyHostToDevice, lane));
        transfer_fma_chain(buffer, buffer, count, TRANSFER_FMAS_PER_ELEMENT, 1.0f, FMA_STEP, lane);
        CUDA_CHECK(cudaMemcpyAsync(out + first, buffer, count_bytes, cudaMemcpyDeviceToHost, lane));
    }
    for (int i = 0; i < streams; ++i) {
        CUDA_CHECK(cudaEventRecord(s->joins[i], s->streams[i]));
        CUDA_CHECK(cudaStreamWaitEvent(stream, s->joins[i], 0));
    }
}

#define SWEEP(route, launcher, story) LADDER_SWEEP_4KIB_TO_1GIB(route, story, launcher, LADDER_SWEEP_LOG2)

static const ladder_variant transfer_variants[] = {
    SWEEP("h2d_pageable", h2d_pageable,
          "host to device from malloc memory: the driver stages it through a pinned buffer, the host copying"),
    SWEEP("d2h_pageable", d2h_pageable,
          "device to host into malloc memory: DMA into the driver's pinned buffer, then a host copy out"),
    SWEEP("h2d_pinned", h2d_pinned,
          "host to device from cudaMallocHost memory: one DMA straight from the user's pages, no host copy"),
    SWEEP("d2h_pinned", d2h_pinned, "device to host into cudaMallocHost memory: one DMA, no host copy"),
    LADDER_RUNG("small_copies_4KiB", "h2d pinned, up to 16 MiB as 4 KiB cudaMemcpyAsync calls: each pays the latency",
                small_copies, 0),
    LADDER_RUNG("one_copy", "the same bytes in one call: the latency paid once", one_copy, 0),
    LADDER_RUNG("stage_copy_in", "pipeline stage alone: h2d pinned of the whole array", stage_copy_in, 0),
    LADDER_RUNG("stage_kernel", "pipeline stage alone: 2048 dependent FMAs per float, sized to match a copy",
                stage_kernel, 0),
    LADDER_RUNG("stage_copy_out", "pipeline stage alone: d2h pinned of the whole array", stage_copy_out, 0),
    LADDER_RUNG("pipeline_serial", "64 chunks of in, kernel, out on one stream: the stages add up", pipeline, 1),
    LADDER_RUNG("pipeline_2_streams", "2 streams, 2 chunk buffers (double buffering): two of the three stages busy",
                pipeline, 2),
    LADDER_RUNG("pipeline_3_streams", "3 streams: copy-in, kernel and copy-out can all run at once", pipeline, 3),
    LADDER_RUNG("pipeline_4_streams", "4 streams: one chunk of slack for uneven stages", pipeline, 4),
};

enum { VARIANT_COUNT = (int)(sizeof transfer_variants / sizeof transfer_variants[0]) };

static int is_sweep(const ladder_variant *v)
{
    transfer_launcher *f = (transfer_launcher *)v->impl;
    return f == h2d_pageable || f == d2h_pageable || f == h2d_pinned || f == d2h_pinned;
}

/* What a variant writes, where, and what it must equal. */
typedef struct transfer_plan {
    const unsigned char *source; /* host bytes the output must equal (or, computed, be derived from) */
    unsigned char *destination;
    int on_device;               /* the destination is device memory: read back to check */
    size_t bytes;
    int computed;                /* the output is the FMA chain of the source, not a copy */
} transfer_plan;

static transfer_plan plan_of(const transfer_state *s, const ladder_variant *v)
{
    transfer_launcher *f = (transfer_launcher *)v->impl;
    if (f == h2d_pageable) return (transfer_plan){s->pageable_src, s->device_dst, 1, sweep_bytes(v), 0};
    if (f == h2d_pinned) return (transfer_plan){s->pinned_src, s->device_dst, 1, sweep_bytes(v), 0};
    /* device_src holds pinned_src's bytes */
    if (f == d2h_pageable) return (transfer_plan){s->pinned_src, s->pageable_dst, 0, sweep_bytes(v), 0};
    if (f == d2h_pinned) return (transfer_plan){s->pinned_src, s->pinned_dst, 0, sweep_bytes(v), 0};
    if (f == small_copies || f == one_copy) return (transfer_plan){s->pinned_src, s->device_dst, 1, batch_bytes(s), 0};
    if (f == stage_copy_in) return (transfer_plan){s->pinned_src, s->device_dst, 1, pipeline_bytes(s), 0};
    if (f == stage_kernel) return (transfer_plan){s->pinned_src, s->device_dst, 1, pipeline_bytes(s), 1};
    if (f == stage_copy_out) return (transfer_plan){s->pinned_src, s->pinned_dst, 0, pipeline_bytes(s), 0};
    return (transfer_plan){s->pinned_src, s->pinned_dst, 0, pipeline_bytes(s), 1}; /* pipeline */
}

/* ---- checks ---- */

ladder_check transfer_check_fma_chain(const float *in, const float *out, size_t n, int fmas, float step)
{
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)
    for (long long i = 0; i < (long long)n; ++i) {
        double ref = (double)in[i] + (double)fmas * (double)step;
        ref_squared += ref * ref;
        if (!isfinite(out[i])) ++nonfinite;
        else diff_squared += (out[i] - ref) * (out[i] - ref);
    }
    /* One rounding of at most half an ulp of 2 on values of at least 1. */
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, FLT_EPSILON);
}

/* ---- the case hooks ---- */


static void destroy(void *opaque)
{
    transfer_state *s = opaque;
    if (!s) return;
    for (int i = 0; i < TRANSFER_MAX_STREAMS; ++i) {
        if (s->streams[i]) cudaStreamDestroy(s->streams[i]);
        if (s->joins[i]) cudaEventDestroy(s->joins[i]);
    }
    if (s->fork) cudaEventDestroy(s->fork);
    cudaFree(s->device_src);
    cudaFree(s->device_dst);
    cudaFreeHost(s->pinned_src);
    cudaFreeHost(s->pinned_dst);
    free(s->pageable_src);
    free(s->pageable_dst);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 || size->dim[0] < (1LL << TRANSFER_SWEEP_MIN_LOG2)) {
        snprintf(err, err_len, "transfer takes one size in bytes, at least 4096 (2^12): the largest transfer");
        return 1;
    }
    return 0;
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size_error(size, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    transfer_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->bytes = (size_t)size->dim[0];
    s->padded_bytes = (s->bytes + sizeof(float) - 1) / sizeof(float) * sizeof(float);
    s->floats = (long long)(s->bytes / sizeof(float));

    /* Pageable and pinned copies of each end, on the host, and both on the device. */
    ladder_buffers b = {0};
    ladder_buffers_host(&b, (void **)&s->pageable_src, s->padded_bytes);
    ladder_buffers_host(&b, (void **)&s->pageable_dst, s->padded_bytes);
    ladder_buffers_pinned(&b, (void **)&s->pinned_src, s->padded_bytes);
    ladder_buffers_pinned(&b, (void **)&s->pinned_dst, s->padded_bytes);
    ladder_buffers_device(&b, (void **)&s->device_src, s->padded_bytes);
    ladder_buffers_device(&b, (void **)&s->device_dst, s->padded_bytes);
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    for (int i = 0; i < TRANSFER_MAX_STREAMS; ++i) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&s->streams[i], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&s->joins[i], cudaEventDisableTiming));
    }
    CUDA_CHECK(cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming));
    return s;
}

static void poison_host(unsigned char *p, size_t bytes)
{
    const size_t block = (size_t)1 << 22;
#pragma omp parallel for schedule(static)
    for (long long offset = 0; offset < (long long)bytes; offset += (long long)block) {
        size_t n = bytes - (size_t)offset < block ? bytes - (size_t)offset : block;
        memset(p + offset, POISON, n);
    }
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    transfer_state *s = opaque;
    size_t words = s->padded_bytes / sizeof(float);
    ladder_fill_uniform((float *)s->pageable_src, words, seed, 1.0f, 2.0f);
    ladder_fill_uniform((float *)s->pinned_src, words, ladder_hash64(seed), 1.0f, 2.0f);
    CUDA_CHECK(cudaMemcpy(s->device_src, s->pinned_src, s->padded_bytes, cudaMemcpyHostToDevice));
    poison_host(s->pageable_dst, s->padded_bytes);
    poison_host(s->pinned_dst, s->padded_bytes);
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    transfer_state *s = opaque;
    if (is_sweep(v) && sweep_bytes(v) > s->bytes) return "larger than the case size (the largest transfer)";
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    ((transfer_launcher *)v->impl)(opaque, v, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    transfer_state *s = opaque;
    transfer_plan p = plan_of(s, v);
    /* Host destinations were poisoned by fill_inputs (see the top). */
    if (!p.on_device) return (ladder_output){s->device_dst, 0, POISON};
    return (ladder_output){p.destination, p.bytes, POISON};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    transfer_state *s = opaque;
    transfer_plan p = plan_of(s, v);
    const unsigned char *got = p.destination;
    if (p.on_device) {
        /* pageable_dst is free as scratch here: it is poisoned again before its next use. */
        CUDA_CHECK(cudaMemcpy(s->pageable_dst, p.destination, p.bytes, cudaMemcpyDeviceToHost));
        got = s->pageable_dst;
    }
    if (p.computed)
        return transfer_check_fma_chain((const float *)p.source, (const float *)got, p.bytes / sizeof(float),
                                        TRANSFER_FMAS_PER_ELEMENT, FMA_STEP);
    return ladder_compare_bytes(got, p.source, p.bytes);
}

/* A copy moves its bytes once; the pipeline moves the array in and out over
 * the bus; the kernel stage reads and writes it in device memory. */
static ladder_work variant_work(void *opaque, const ladder_variant *v)
{
    transfer_state *s = opaque;
    transfer_plan p = plan_of(s, v);
    if (!p.computed) return (ladder_work){(double)p.bytes, 0.0};
    return (ladder_work){2.0 * (double)p.bytes, 2.0 * TRANSFER_FMAS_PER_ELEMENT * (double)s->floats};
}

/* ---- the summary ---- */

static const ladder_variant *variant_of(const ladder_record *rec)
{
    return rec->index >= 0 && rec->index < VARIANT_COUNT ? &transfer_variants[rec->index] : NULL;
}

/* Median seconds of the record whose launcher is f, NaN if it did not run. */
static double seconds_of(const ladder_results *r, size_t first, transfer_launcher *f, int param)
{
    for (size_t i = first; i < r->count; ++i) {
        const ladder_variant *v = variant_of(&r->records[i]);
        if (v && (transfer_launcher *)v->impl == f && v->param == param && ladder_record_usable(&r->records[i]))
            return r->records[i].median_ms * 1e-3;
    }
    return NAN;
}

/* Fit one route; returns the best GB/s any single copy of it reached. */
static ladder_fit fit_route(const ladder_results *r, size_t first, transfer_launcher *f, double *best_gbps)
{
    double bytes[TRANSFER_SWEEP_MAX_LOG2 + 1], seconds[TRANSFER_SWEEP_MAX_LOG2 + 1];
    double spread[TRANSFER_SWEEP_MAX_LOG2 + 1];
    size_t n = 0;
    for (size_t i = first; i < r->count && n <= TRANSFER_SWEEP_MAX_LOG2; ++i) {
        const ladder_record *rec = &r->records[i];
        const ladder_variant *v = variant_of(rec);
        if (!v || (transfer_launcher *)v->impl != f || !ladder_record_usable(rec)) continue;
        bytes[n] = (double)sweep_bytes(v);
        seconds[n] = rec->median_ms * 1e-3;
        spread[n] = rec->rel_spread;
        if (rec->gbps > *best_gbps) *best_gbps = rec->gbps;
        ++n;
    }
    return ladder_fit_latency_bandwidth(bytes, seconds, spread, n);
}

static void summarize(void *opaque, ladder_results *r, size_t first)
{
    (void)opaque;
    static const struct {
        const char *route;
        transfer_launcher *launcher;
    } routes[] = {{"h2d_pageable", h2d_pageable}, {"d2h_pageable", d2h_pageable},
                  {"h2d_pinned", h2d_pinned},     {"d2h_pinned", d2h_pinned}};
    double best_gbps[2] = {0, 0}; /* h2d, d2h: the best single copy of either memory kind */
    ladder_fit fits[4];
    for (int i = 0; i < 4; ++i) fits[i] = fit_route(r, first, routes[i].launcher, &best_gbps[i % 2]);
    for (int i = 0; i < 4; ++i) {
        char name[48], note[160];
        snprintf(name, sizeof name, "%s_latency_us", routes[i].route);
        snprintf(note, sizeof note,
                 "intercept of time = latency + bytes / bandwidth, %zu sizes, "
                 "relative least squares weighted by spread",
                 fits[i].points);
        ladder_add_summary(r, name, fits[i].latency_s * 1e6, "us", note);
        snprintf(name, sizeof name, "%s_bandwidth_gbps", routes[i].route);
        ladder_add_summary(r, name, fits[i].bandwidth_bps / 1e9, "GB/s", "1 / slope of the same fit; 1 GB = 10^9 bytes");
        snprintf(name, sizeof name, "%s_half_peak_bytes", routes[i].route);
        ladder_add_summary(r, name, fits[i].half_peak_bytes, "bytes",
            "latency x bandwidth: below this size latency dominates (half the bandwidth is reached)");
    }
    for (int d = 0; d < 2; ++d) {
        char name[48];
        snprintf(name, sizeof name, "%s_pinned_vs_best_single_copy", d == 0 ? "h2d" : "d2h");
        ladder_add_summary(r, name, best_gbps[d] > 0 ? fits[2 + d].bandwidth_bps / 1e9 / best_gbps[d] : NAN, "ratio",
            "fitted pinned bandwidth / best GB/s of any single copy this direction (target >= 0.95)");
    }

    double many = seconds_of(r, first, small_copies, 0), one = seconds_of(r, first, one_copy, 0);
    ladder_add_summary(r, "small_copies_vs_one_copy", many / one, "ratio", "time of the 4 KiB copies / time of one copy, same bytes");

    double in = seconds_of(r, first, stage_copy_in, 0), kernel = seconds_of(r, first, stage_kernel, 0);
    double out = seconds_of(r, first, stage_copy_out, 0);
    double longest = fmax(in, fmax(kernel, out));
    if (isnan(in) || isnan(kernel) || isnan(out)) longest = NAN;
    ladder_add_summary(r, "pipeline_kernel_vs_copy", kernel / fmax(in, out), "ratio",
        "kernel stage / longer copy stage: near 1, the stages are comparable and overlap pays most");
    ladder_add_summary(r, "pipeline_serial_efficiency", longest / seconds_of(r, first, pipeline, 1), "ratio",
        "longest stage / one-stream time: about 1/3 when the three stages are equal");
    double best = NAN;
    for (int streams = 2; streams <= TRANSFER_MAX_STREAMS; ++streams) {
        char name[48];
        double efficiency = longest / seconds_of(r, first, pipeline, streams);
        snprintf(name, sizeof name, "pipeline_%d_streams_efficiency", streams);
        ladder_add_summary(r, name, efficiency, "ratio", "longest stage / pipelined time");
        if (!isnan(efficiency) && (isnan(best) || efficiency > best)) best = efficiency;
    }
    ladder_add_summary(r, "pipeline_overlap_efficiency", best, "ratio",
        "best of the multi-stream pipelines: max(copy-in, kernel, copy-out) / measured time (target >= 0.90)");
}

const ladder_case transfer_case = {
    .name = "transfer",
    .title = "host-device copies: pageable vs pinned, latency and bandwidth, batching, a copy-compute pipeline",
    .size_help = "BYTES, the largest transfer (>= 4096): the sweep runs 4 KiB up to it, the pipeline moves it",
    .default_size = "2^30",
    .quick_size = "2^24",
    .test_sizes = {"4099", "65536", "1000003", "2^22+6", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_refusal = "transfer measures host-device copies over a sweep of sizes and streams: there is no kernel to replace",
    .variants = transfer_variants,
    .variant_count = VARIANT_COUNT,
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = unsupported,
    .run = run,
    .output = output,
    .check = check,
    .work = NULL, /* every variant has its own: variant_work */
    .variant_work = variant_work,
    .summarize = summarize,
};
