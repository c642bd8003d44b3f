/* The all-reduce ladder's one kernel: sum n buffers element by element and
 * write the sum to m buffers, any of them in a peer's memory. Each rung is
 * this kernel with other pointers:
 *   gather_broadcast: the peers' copies in GPU 0's scratch in, GPU 0's buffer out
 *   ring:             own chunk and the chunk just received in, own chunk out
 *   one_shot:         every GPU's staged copy in (n - 1 of them over NVLink),
 *                     own buffer out: one pass, for messages too small to
 *                     split, where the latency of extra steps dominates
 *   two_shot:         chunk r of every GPU in, chunk r of every GPU out: the
 *                     reduce-scatter by peer loads and the all-gather by peer
 *                     stores fused per element, each byte crossing a link
 *                     twice in all, as in a ring, but in one step
 * Loads from several GPUs are in flight together (n independent float4 loads
 * per thread), which is what hides the link's latency. Not yet measured on a
 * multi-GPU machine. */
#include "allreduce.h"

#include <stdint.h>

#include "../harness/check.h"

#define SUM_THREADS 512

__global__ void sum_vectors(allreduce_outputs out, int outputs, allreduce_inputs in, int inputs, long long vectors)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < vectors;
         i += (long long)gridDim.x * blockDim.x) {
        float4 v[ALLREDUCE_MAX_GPUS];
#pragma unroll
        for (int k = 0; k < ALLREDUCE_MAX_GPUS; ++k)
            if (k < inputs) v[k] = ((const float4 *)in.p[k])[i];
        float4 s = v[0];
#pragma unroll
        for (int k = 1; k < ALLREDUCE_MAX_GPUS; ++k)
            if (k < inputs) {
                s.x += v[k].x;
                s.y += v[k].y;
                s.z += v[k].z;
                s.w += v[k].w;
            }
#pragma unroll
        for (int k = 0; k < ALLREDUCE_MAX_GPUS; ++k)
            if (k < outputs) ((float4 *)out.p[k])[i] = s;
    }
}

/* The elements past the last whole float4, or all of them when a pointer is
 * not 16-byte aligned. */
__global__ void sum_scalars(allreduce_outputs out, int outputs, allreduce_inputs in, int inputs, long long first,
                            long long count)
{
    for (long long i = first + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x) {
        float s = in.p[0][i];
#pragma unroll
        for (int k = 1; k < ALLREDUCE_MAX_GPUS; ++k)
            if (k < inputs) s += in.p[k][i];
#pragma unroll
        for (int k = 0; k < ALLREDUCE_MAX_GPUS; ++k)
            if (k < outputs) out.p[k][i] = s;
    }
}

static unsigned grid_for(long long items, int blocks)
{
    long long needed = (items + SUM_THREADS - 1) / SUM_THREADS;
    return (unsigned)(needed < blocks ? needed : blocks);
}

extern "C" void allreduce_sum(allreduce_outputs out, int outputs, allreduce_inputs in, int inputs, long long count,
                              int blocks, cudaStream_t stream)
{
    if (count <= 0) return;
    int aligned = 1;
    for (int k = 0; k < inputs; ++k) aligned &= (uintptr_t)in.p[k] % 16 == 0;
    for (int k = 0; k < outputs; ++k) aligned &= (uintptr_t)out.p[k] % 16 == 0;
    long long vectors = aligned ? count / 4 : 0;
    if (vectors) {
        sum_vectors<<<grid_for(vectors, blocks), SUM_THREADS, 0, stream>>>(out, outputs, in, inputs, vectors);
        CUDA_CHECK_LAUNCH();
    }
    if (4 * vectors < count) {
        sum_scalars<<<grid_for(count - 4 * vectors, blocks), SUM_THREADS, 0, stream>>>(out, outputs, in, inputs,
                                                                                       4 * vectors, count);
        CUDA_CHECK_LAUNCH();
    }
}
