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
#include "harness/case.h"
#include "harness/measure/sweep.h"

/* The pipeline's reference: with scale 1, each step adds `step`, a power of
 * two, to a float in [1, 2): exact until the value crosses 2, rounded once
 * there, so out = in + fmas * step within one ulp. */
ladder_check transfer_check_fma_chain(const float *in, const float *out, size_t n, int fmas, float step);
#endif

#ifdef __cplusplus
}
#endif

#endif
