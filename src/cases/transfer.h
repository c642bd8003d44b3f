/* Host-device transfers (SPEC §11): pageable against pinned memory in both
 * directions over sizes 4 KiB to 1 GiB, the latency + size / bandwidth model
 * fitted to them, many small copies against one, and a chunked pipeline that
 * overlaps copy-in, kernel and copy-out. */
#ifndef LADDER_TRANSFER_H
#define LADDER_TRANSFER_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The size sweep: transfers of 2^12 .. 2^30 bytes, each at most the case size. */
#define TRANSFER_SWEEP_MIN_LOG2 12
#define TRANSFER_SWEEP_MAX_LOG2 30

/* Many small copies against one: pieces of 4 KiB covering at most 16 MiB, so
 * that a sample stays in milliseconds (4096 calls at the default size). */
#define TRANSFER_SMALL_COPY_BYTES 4096
#define TRANSFER_BATCH_MAX_BYTES (1 << 24)

/* The pipeline: the array is cut into this many chunks, dealt round-robin to
 * the streams. With three stages the ramp-up and drain cost about two chunks,
 * so the best overlap is near chunks / (chunks + 2). */
#define TRANSFER_PIPELINE_CHUNKS 64
#define TRANSFER_MAX_STREAMS 4

/* The pipeline kernel's arithmetic per element, chosen so that on an H100 or
 * H200 (about 33 T FMA/s, PCIe 5 at about 50 GB/s, 12.5 G floats/s each way)
 * the kernel takes about as long as each copy: the case where overlap pays most. */
#define TRANSFER_FMAS_PER_ELEMENT 2048

/* out[i] = in[i] after `fmas` steps of x = fmaf(x, scale, step), one thread
 * per element; in and out may be the same array. n may be 0. */
void transfer_fma_chain(const float *in, float *out, long long n, int fmas, float scale, float step,
                        cudaStream_t stream);

#ifndef __CUDACC__
#include "../harness/case.h"

/* time = latency + bytes / bandwidth, fitted by weighted least squares on the
 * relative residuals: weights 1 / (time^2 (spread^2 + TRANSFER_FIT_SPREAD_FLOOR^2)).
 * The 1 / time^2 makes every size count alike, so the microsecond latency is
 * not swamped by the millisecond noise of the largest copies; the spread
 * (each point's interquartile range / median, as measured) makes a point
 * count by how well it was measured: on the lent H100 and H200 the pinned
 * host-to-device copies of 1-16 MiB scatter by 20-30 % from sample to sample
 * while the others hold within a few percent, and equal weights let those
 * few points set the slope (fitted bandwidth 0.86-0.90 of the best copy's,
 * against 0.99 with the spread). The floor keeps a point measured within a
 * fraction of a percent from outweighing the rest without bound. */
#define TRANSFER_FIT_SPREAD_FLOOR 0.01
typedef struct transfer_fit {
    double latency_s;        /* the intercept; may come out <= 0 on noisy data */
    double bandwidth_bps;    /* bytes per second: 1 / slope */
    double half_peak_bytes;  /* latency x bandwidth: where bytes / time is half the bandwidth; NaN if latency <= 0 */
    size_t points;
} transfer_fit;

/* Fit n points (bytes[i], seconds[i], rel_spread[i]; rel_spread NULL: every
 * point at the floor); every field NaN when the points cannot fix a line
 * (fewer than two distinct sizes, or a slope that is not positive). */
transfer_fit transfer_fit_latency_bandwidth(const double *bytes, const double *seconds, const double *rel_spread,
                                            size_t n);

/* A copy is right when every byte matches: rel_error is the fraction of bytes
 * that differ, tolerance 0. */
ladder_check transfer_compare_bytes(const void *got, const void *want, size_t bytes);

/* The pipeline's reference: with scale 1, each step adds `step`, a power of
 * two, to a float in [1, 2): exact until the value crosses 2, rounded once
 * there, so out = in + fmas * step within one ulp. */
ladder_check transfer_check_fma_chain(const float *in, const float *out, size_t n, int fmas, float step);
#endif

#ifdef __cplusplus
}
#endif

#endif
