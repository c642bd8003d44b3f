/* Sum of floats (SPEC §7): out[0] = in[0] + ... + in[n-1]. Every launcher
 * takes any n >= 1 and leaves the sum in the one float at `out`. */
#ifndef LADDER_REDUCE_H
#define LADDER_REDUCE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of every hand-written rung. */
#define REDUCE_THREADS 256

/* Device buffers the rungs need besides the input and the output, allocated
 * in create() so that no rung allocates inside the timed region. */
typedef struct reduce_workspace {
    float *partials;          /* per-block partial sums, every pass of a multi-pass rung */
    size_t partials_capacity; /* floats: reduce_partials_capacity(n) */
    unsigned *blocks_done;    /* single-pass rungs: blocks finished so far; 0 between runs */
    void *cub_temp;           /* CUB's temporary storage ... */
    size_t cub_temp_bytes;    /* ... of reduce_cub_temp_bytes(n) bytes */
} reduce_workspace;

typedef void reduce_launcher(const float *in, float *out, long long n, const reduce_workspace *w, int param,
                             cudaStream_t stream);

reduce_launcher reduce_interleaved_divergent;
reduce_launcher reduce_interleaved_bank_conflicts;
reduce_launcher reduce_sequential_addressing;
reduce_launcher reduce_first_add_during_load;
reduce_launcher reduce_unroll_last_warp;
reduce_launcher reduce_fully_unrolled;
reduce_launcher reduce_many_elements_per_thread;
reduce_launcher reduce_warp_shuffle_two_stage;
reduce_launcher reduce_vectorized_single_pass; /* param: float4 loads in flight per thread (1, 4 or 8) */
reduce_launcher reduce_wide_blocks;
reduce_launcher reduce_cub;

/* Floats of partial sums that the hungriest multi-pass rung writes for n
 * inputs: every pass's partials side by side, the smallest block share being
 * REDUCE_THREADS elements. Enough for the single-pass and two-pass rungs too. */
size_t reduce_partials_capacity(long long n);

/* The successive element counts a multi-pass rung reduces, each block taking
 * `per_block` elements: n, ceil(n / per_block), ... down to 1 (not stored).
 * Writes at most `max` counts into `counts` and returns how many passes run. */
int reduce_pass_counts(long long n, long long per_block, long long *counts, int max);

/* CUB's temporary storage for DeviceReduce::Sum over n floats. */
size_t reduce_cub_temp_bytes(long long n);

#ifndef __CUDACC__
/* The reference: the sum in double, OpenMP over the elements. */
double reduce_reference(const float *in, long long n);
/* Relative tolerance of an FP32 sum of n terms, whatever the summation order. */
double reduce_tolerance(long long n);
#endif

#ifdef __cplusplus
}
#endif

#endif
