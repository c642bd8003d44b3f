/* All-reduce over the GPUs of one host (SPEC §15): an in-place sum of a
 * float32 buffer, the same result on every GPU, from a round trip through the
 * host to one-shot and two-shot kernels over peer memory, against NCCL's
 * ncclAllReduce in the same process, reported as nccl-tests does: time,
 * algorithm bandwidth (bytes / time) and bus bandwidth (algbw x 2(n-1)/n). */
#ifndef LADDER_ALLREDUCE_H
#define LADDER_ALLREDUCE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ALLREDUCE_MAX_GPUS 8
/* Chunks start on multiples of this many floats (16 bytes), so that every
 * chunk's pointer allows the kernels' float4 accesses. */
#define ALLREDUCE_CHUNK_ALIGN 4

typedef struct allreduce_inputs {
    const float *p[ALLREDUCE_MAX_GPUS];
} allreduce_inputs;
typedef struct allreduce_outputs {
    float *p[ALLREDUCE_MAX_GPUS];
} allreduce_outputs;

/* On the current device: for i < count, s = in.p[0][i] + in.p[1][i] + ...
 * + in.p[inputs-1][i], added in that order in float, then out.p[k][i] = s
 * for every k < outputs. Any pointer may be a peer's (peer access enabled);
 * an output may be an input (each element is read before it is written, by
 * the same thread). count may be 0. */
void allreduce_sum(allreduce_outputs out, int outputs, allreduce_inputs in, int inputs, long long count, int blocks,
                   cudaStream_t stream);

/* The one-shot rung with flags: each GPU pushes its buffer into its slot on
 * every GPU (slots.p[q] + rank * stride), raises its flag for each block
 * there (flags.p[q][rank * ALLREDUCE_SIGNAL_MAX_BLOCKS + block] = epoch),
 * waits until every GPU's flag for the block is up on its own GPU, then sums
 * its slots in GPU order into data. Launched on every GPU with the same count,
 * the same `blocks` (the most blocks: at most ALLREDUCE_SIGNAL_MAX_BLOCKS and
 * the smallest SM count, so that every block is resident while it waits) and
 * a fresh epoch. A wait
 * that lasts about two seconds gives up and leaves the sum wrong, so that a
 * fault shows as a failed check, not a hang. */
#define ALLREDUCE_SIGNAL_MAX_BLOCKS 256
typedef struct allreduce_flags {
    unsigned *p[ALLREDUCE_MAX_GPUS];
} allreduce_flags;
void allreduce_one_shot_signal(float *data, long long count, int rank, int n, allreduce_outputs slots,
                               long long stride, allreduce_flags flags, unsigned epoch, int blocks,
                               cudaStream_t stream);

/* ---- index arithmetic, shared by the ring, two-shot and flag rungs (CPU-tested) ---- */

#ifdef __CUDACC__
#define ALLREDUCE_HOST_DEVICE __host__ __device__
#else
#define ALLREDUCE_HOST_DEVICE
#endif

/* Chunk c of n over count floats: [*begin, *end). The chunks cover
 * [0, count) in order, without overlap; each begins on a multiple of
 * ALLREDUCE_CHUNK_ALIGN; the last ones may be empty when count is small. */
static inline ALLREDUCE_HOST_DEVICE void allreduce_chunk(long long count, int n, int c, long long *begin,
                                                         long long *end)
{
    long long per = (count + n - 1) / n;
    per = (per + ALLREDUCE_CHUNK_ALIGN - 1) / ALLREDUCE_CHUNK_ALIGN * ALLREDUCE_CHUNK_ALIGN;
    long long b = (long long)c * per, e = b + per;
    *begin = b < count ? b : count;
    *end = e < count ? e : count;
}

/* The ring r -> r + 1 (mod n), 2 (n - 1) steps. Reduce-scatter step s
 * (0 .. n-2): rank r sends chunk allreduce_ring_reduce_chunk(r, s, n) to r + 1,
 * which adds it to its own copy of that chunk. After it, rank r holds the
 * complete sum of chunk allreduce_ring_owned_chunk(r, n). All-gather step s
 * (0 .. n-2): rank r sends chunk allreduce_ring_gather_chunk(r, s, n), which
 * r + 1 stores over its own. */
int allreduce_ring_reduce_chunk(int rank, int step, int n);
int allreduce_ring_owned_chunk(int rank, int n);
int allreduce_ring_gather_chunk(int rank, int step, int n);

/* nccl-tests' bus bandwidth of an all-reduce: algbw x 2 (n - 1) / n, the
 * rate each GPU's busiest link must carry in an optimal ring, so that the
 * figure compares with the link's rate whatever n is. */
double allreduce_bus_bandwidth(double algbw, int n);

/* Before any NCCL communicator: NCCL_NVLS_ENABLE=0 unless the user set it.
 * NVLink SHARP (multicast objects) on the shared multi-GPU machines can take
 * the host's GPUs out of service; ladder never uses it. */
void allreduce_keep_nvls_off(void);

#ifndef __CUDACC__
#include "harness/case.h"
#include "harness/device/gpus.h"

/* The ladder (allreduce.c): ALLREDUCE_RUNGS routes in order, NCCL's among
 * them, each swept over the same ALLREDUCE_SWEEP_POINTS messages, 2^3 ..
 * 2^30 bytes. */
#define ALLREDUCE_RUNGS 7
#define ALLREDUCE_SWEEP_POINTS 28
extern const ladder_case allreduce_case;
int allreduce_is_nccl(const ladder_variant *variant);

/* The case's summaries from its records [first, count) of a run over `gpus`
 * GPUs (allreduce_summary.c, exported for the tests): every rung's fitted
 * latency and bus bandwidth, the best rung's at each end, and per size the
 * best rung's and NCCL's bus bandwidth and their time ratio. */
void allreduce_summarize(ladder_results *results, size_t first, int gpus);

/* The baseline (allreduce_nccl.c): a communicator on each of gpus[0 .. n-1],
 * made once; the current device is gpus[0] again on return. NULL, with the
 * reason in err, where the build has no NCCL or NCCL fails to start; run is
 * then never called. Run sums data[k] (count floats on GPU k) in place on
 * every GPU, on the streams forked from `stream` and joined back to it. */
typedef struct allreduce_nccl allreduce_nccl;
allreduce_nccl *allreduce_nccl_create(const int *gpus, int n, char *err, size_t err_len);
void allreduce_nccl_run(allreduce_nccl *comms, float *const *data, long long count, ladder_gpu_streams *streams,
                        cudaStream_t stream);
void allreduce_nccl_destroy(allreduce_nccl *comms);
#endif

#ifdef __cplusplus
}
#endif

#endif
