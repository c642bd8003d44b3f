/* Reversing an array through shared memory (SPEC §3a): out[n - 1 - i] = in[i]
 * for n floats, with the staging array declared statically, dynamically
 * (extern __shared__, sized at launch), and carved into arrays of several
 * types from one dynamic allocation. Every launcher takes any n >= 1. */
#ifndef LADDER_SMEM_H
#define LADDER_SMEM_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void smem_reverse_launcher(const float *in, float *out, long long n, cudaStream_t stream);

smem_reverse_launcher smem_reverse_direct;
smem_reverse_launcher smem_reverse_static;
smem_reverse_launcher smem_reverse_dynamic;
smem_reverse_launcher smem_reverse_carved;

#ifndef __CUDACC__
#include "harness/case.h"
/* out must be in reversed: exact, any difference fails. */
ladder_check smem_reverse_check_host(const float *in, const float *out, long long n);
#endif

#ifdef __cplusplus
}
#endif

#endif
