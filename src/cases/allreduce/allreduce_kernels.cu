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
#include <stdio.h>

#include "harness/check/check.h"

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

/* ---- one_shot_signal: the one-shot rung without the event barrier ----
 * one_shot waits for every GPU's staging copy with cross-GPU stream events,
 * a round trip through the driver between two kernels. Here the barrier is
 * inside one kernel: block b of every GPU handles chunk b of the buffer,
 * pushes it into its slot on every GPU (stores over NVLink are posted, the
 * SM does not wait for them), fences, raises its flag on every GPU, and
 * waits for the other GPUs' block b; the sum then reads only local memory.
 * It should move the small messages, where one_shot pays two kernel launches
 * and the event wait. Not yet measured on a multi-GPU machine. */

#define SIGNAL_THREADS 512
#define SIGNAL_POLLS (1 << 24) /* x ~100 ns of sleep: about two seconds */

__global__ void __launch_bounds__(SIGNAL_THREADS)
    one_shot_signal(float *data, long long count, int rank, int n, allreduce_outputs slots, long long stride,
                    allreduce_flags flags, unsigned epoch)
{
    long long begin, end;
    allreduce_chunk(count, (int)gridDim.x, (int)blockIdx.x, &begin, &end);
    /* begin is a multiple of 4 floats and the slots' stride too: whole float4s up to the last. */
    for (long long i = begin + 4 * (long long)threadIdx.x; i < end; i += 4 * (long long)blockDim.x) {
        if (i + 4 <= end) {
            float4 v = *(const float4 *)(data + i);
#pragma unroll
            for (int q = 0; q < ALLREDUCE_MAX_GPUS; ++q)
                if (q < n) *(float4 *)(slots.p[q] + rank * stride + i) = v;
        } else {
            for (long long j = i; j < end; ++j)
                for (int q = 0; q < n; ++q) slots.p[q][rank * stride + j] = data[j];
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        /* Every store of this block reaches the peers before its flag does. */
        __threadfence_system();
        for (int q = 0; q < n; ++q)
            ((volatile unsigned *)flags.p[q])[rank * ALLREDUCE_SIGNAL_MAX_BLOCKS + blockIdx.x] = epoch;
        for (int q = 0; q < n; ++q) {
            volatile unsigned *flag = flags.p[rank] + q * ALLREDUCE_SIGNAL_MAX_BLOCKS + blockIdx.x;
            int polls = 0;
            while (*flag != epoch && ++polls < SIGNAL_POLLS) __nanosleep(100);
            if (polls == SIGNAL_POLLS)
                printf("one_shot_signal: GPU %d of the run, block %d: no flag from GPU %d, giving up\n", rank,
                       blockIdx.x, q);
        }
        __threadfence_system();
    }
    __syncthreads();
    const float *mine = slots.p[rank];
    for (long long i = begin + 4 * (long long)threadIdx.x; i < end; i += 4 * (long long)blockDim.x) {
        if (i + 4 <= end) {
            /* Past L1: the peers wrote these lines, this SM's L1 never saw them. */
            float4 s = __ldcg((const float4 *)(mine + i));
#pragma unroll
            for (int q = 1; q < ALLREDUCE_MAX_GPUS; ++q)
                if (q < n) {
                    float4 v = __ldcg((const float4 *)(mine + q * stride + i));
                    s.x += v.x;
                    s.y += v.y;
                    s.z += v.z;
                    s.w += v.w;
                }
            *(float4 *)(data + i) = s;
        } else {
            for (long long j = i; j < end; ++j) {
                float s = __ldcg(mine + j);
                for (int q = 1; q < n; ++q) s += __ldcg(mine + q * stride + j);
                data[j] = s;
            }
        }
    }
}

extern "C" void allreduce_one_shot_signal(float *data, long long count, int rank, int n, allreduce_outputs slots,
                                          long long stride, allreduce_flags flags, unsigned epoch, int blocks,
                                          cudaStream_t stream)
{
    if (count <= 0) return;
    /* The same grid on every GPU, since every GPU passes the same count and
     * blocks: block b of each handles chunk b. */
    long long wanted = (count + 4 * SIGNAL_THREADS - 1) / (4 * SIGNAL_THREADS);
    int grid = wanted < blocks ? (int)wanted : blocks;
    one_shot_signal<<<grid, SIGNAL_THREADS, 0, stream>>>(data, count, rank, n, slots, stride, flags, epoch);
    CUDA_CHECK_LAUNCH();
}
