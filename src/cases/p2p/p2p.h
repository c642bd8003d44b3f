/* Peer-to-peer copies between the GPUs of one host (SPEC §15): the link
 * topology, then for an ordered pair of GPUs a ladder from copies staged
 * through the host to kernels that load from or store to the peer's memory,
 * swept 4 KiB to 1 GiB with the latency + bandwidth fit of `transfer`, and a
 * copy between every ordered pair of the run's GPUs. */
#ifndef LADDER_P2P_H
#define LADDER_P2P_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define P2P_SWEEP_MIN_LOG2 12
#define P2P_SWEEP_MAX_LOG2 30

/* dst[0, bytes) = src[0, bytes) by a kernel on the current device, one of the
 * two pointers in a peer's memory (peer access enabled). 16-byte vectors
 * where both pointers allow, bytes one by one for the rest; any byte count,
 * 0 included. `blocks` resident blocks stride over the buffer. */
void p2p_copy_kernel(void *dst, const void *src, size_t bytes, int blocks, cudaStream_t stream);

#ifndef __CUDACC__
/* Which rung and pair a variant is; exported for the tests. */
typedef enum p2p_route {
    P2P_STAGED,          /* a -> pinned host -> b */
    P2P_COPY_NO_ACCESS,  /* cudaMemcpyPeerAsync, peer access disabled */
    P2P_COPY,            /* cudaMemcpyPeerAsync, peer access enabled */
    P2P_LOAD,            /* kernel on b loads from a */
    P2P_STORE,           /* kernel on a stores to b */
    P2P_BOTH_WAYS,       /* a -> b and b -> a at once, copy engines */
    P2P_MATRIX,          /* one ordered pair of the matrix: peer copy at the case size */
} p2p_route;

/* Matrix variants name GPU i and j of the run (i, j < 8): param i * 8 + j. */
#define P2P_MATRIX_PARAM(i, j) ((i) * 8 + (j))
#define P2P_MATRIX_FROM(param) ((param) / 8)
#define P2P_MATRIX_TO(param) ((param) % 8)

#include "harness/case.h"
p2p_route p2p_route_of(const ladder_variant *v);

/* The ladder's summaries from its records [first, count), against the link
 * rate of GPU 0 to 1 of the run (GB/s each way, NaN when unknown; exported
 * for the tests): each route's fit and fraction of the link, the best one-way
 * route's fraction, the matrix's slowest and fastest pair. */
void p2p_summarize_ladder(ladder_results *results, size_t first, double link_gbps);
#endif

#ifdef __cplusplus
}
#endif

#endif
