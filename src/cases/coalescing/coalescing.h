/* Coalescing (SPEC §2): how the addresses a warp presents turn into 32-byte
 * sectors and 128-byte lines. Every variant moves the same useful bytes: n
 * floats read once and written once (n/2 doubles, n/3 float3s), so the table's
 * GB/s and speedup compare access shapes, not problem sizes. */
#ifndef LADDER_COALESCING_H
#define LADDER_COALESCING_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define COALESCING_HOST_DEVICE __host__ __device__
#else
#define COALESCING_HOST_DEVICE
#endif

/* Input word `index` of the draw keyed by `key`: 1 plus 23 random bits, so
 * exact in a float, in [1, 2), never zero. The stride rungs read up to 32n
 * words (3.2 GB at the default size), too many to draw on the host and upload
 * for every check: the device fills them, the host recomputes the ones it
 * checks. The hash is ladder_hash64's splitmix64 finalizer (harness/rng.c),
 * written here once for both sides; coalescing_test checks they agree. */
static inline COALESCING_HOST_DEVICE float coalescing_input_word(uint64_t key, uint64_t index)
{
    uint64_t x = (key ^ index) + 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return 1.0f + (float)(x >> 41) * (1.0f / 8388608.0f);
}

/* Fill words[0, count) with coalescing_input_word(key, i). */
void coalescing_fill(float *words, uint64_t count, uint64_t key, cudaStream_t stream);

/* Every launcher takes the case size n (floats, a multiple of 24) and derives
 * its own element count; param is the sweep point (offset, stride, passes). */
typedef void coalescing_launcher(const float *in, float *out, long long n, int param, cudaStream_t stream);

/* (a) out[k + i] = in[k + i], i < count, k = param: reads and writes shifted. */
coalescing_launcher coalescing_copy_offset_f32;
coalescing_launcher coalescing_copy_offset_f64;
/* (b) out[i] = in[i * param]: strided reads, coalesced writes. */
coalescing_launcher coalescing_copy_stride_f32;
coalescing_launcher coalescing_copy_stride_f64;
/* (c) out[i] = in[i] + 1 over n / param floats, repeated param times in one
 * launch (param 1: the DRAM case; 8: the window stays in L2). */
coalescing_launcher coalescing_add_one_coalesced;
coalescing_launcher coalescing_add_one_idle_lanes;
coalescing_launcher coalescing_add_one_permuted;
coalescing_launcher coalescing_add_one_misaligned; /* in + 1 to out + 1 */
/* (d) add one to each component of m = n / 3 points. */
coalescing_launcher coalescing_aos_direct;  /* float3 array, 12-byte loads */
coalescing_launcher coalescing_aos_staged;  /* float3 array through shared memory */
coalescing_launcher coalescing_soa;         /* x[m], y[m], z[m] */
coalescing_launcher coalescing_aos_float4;  /* float4 array, w is padding */

/* The permutation of the permuted rung: lane k takes word PERMUTED_WORD(k)
 * of its warp's 32 (13 is odd, so this is a bijection on 0..31). */
#define COALESCING_PERMUTED_WORD(lane) (((lane) * 13) & 31)
/* Lanes that work in the idle-lanes rung: 24 of 32, 96 contiguous bytes. */
#define COALESCING_ACTIVE_LANES 24
/* Passes of the L2-resident rungs over n / 8 floats. */
#define COALESCING_L2_PASSES 8
/* Largest offset and stride of the sweeps: sizes the buffers. */
#define COALESCING_MAX_SHIFT 32

#ifndef __CUDACC__
#include "harness/case.h"
/* What a variant must write: for element e < elements and word c < words_used,
 * out[out_first + e * out_step + c] = input word (in_first + e * in_step + c)
 * plus `add`. The copies move bits, so the check is exact. */
typedef struct coalescing_word_map {
    long long elements;
    int words_used;
    long long out_first, out_step;
    long long in_first, in_step;
    float add;
} coalescing_word_map;

coalescing_word_map coalescing_expected_words(const ladder_variant *v, long long n);
#endif

#ifdef __cplusplus
}
#endif

#endif
