/* Reverse kernels. Each block of THREADS threads takes THREADS consecutive
 * elements (the last block fewer) and writes them, reversed, to the mirror
 * window at the other end of the output. */
#include "smem.h"

#include "harness/check/check.h"

#define THREADS 256

static unsigned blocks_for(long long n)
{
    return (unsigned)((n + THREADS - 1) / THREADS);
}

/* Rung 0: no staging. Lane k of a warp writes the element 31 - k places
 * further along: the warp's 32 stores are a permutation of 32 consecutive
 * floats, the same 4 sectors as an in-order store. Since Fermi the hardware
 * coalesces any permutation within a warp, so this should already run at
 * copy speed; on G80 it did not, and staging through shared memory was the fix. */
__global__ void reverse_direct_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
}

/* Rungs 1 and 2: the block stages its elements in shared memory so that both
 * the global load and the global store are in lane order; the reversal
 * happens in shared memory (lane k reads word count - 1 - k: 32 distinct
 * banks, no conflict). The static and the dynamic rung differ only in how
 * `staging` is declared. */
__device__ __forceinline__ void reverse_through(float *staging, const float *__restrict__ in,
                                                float *__restrict__ out, long long n)
{
    long long first = (long long)blockIdx.x * blockDim.x;
    int count = (int)min((long long)blockDim.x, n - first);
    int t = threadIdx.x;
    if (t < count) staging[t] = in[first + t];
    __syncthreads();
    /* This block's elements land at [n - first - count, n - first). */
    if (t < count) out[n - first - count + t] = staging[count - 1 - t];
}

__global__ void reverse_static_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    __shared__ float staging[THREADS];
    reverse_through(staging, in, out, n);
}

__global__ void reverse_dynamic_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    extern __shared__ float dynamic_staging[];
    reverse_through(dynamic_staging, in, out, n);
}

/* Rung 3: one dynamic allocation carved into three arrays of different
 * types: the value widened to double, the element's index within the block
 * as int, and an in-range flag as char. Every extern __shared__ declaration
 * names the same bytes, so the carving is pointer arithmetic; laying the
 * arrays out from the largest alignment down keeps each one aligned without
 * padding. The writer takes slot THREADS - 1 - t and writes the element back
 * to where its source index says, in lane order again. */
__global__ void reverse_carved_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    extern __shared__ double carved[];
    double *widened = carved;
    int *source = (int *)(widened + blockDim.x);
    unsigned char *in_range = (unsigned char *)(source + blockDim.x);

    long long first = (long long)blockIdx.x * blockDim.x;
    int t = threadIdx.x;
    in_range[t] = first + t < n;
    if (in_range[t]) {
        widened[t] = in[first + t];
        source[t] = t;
    }
    __syncthreads();
    int slot = blockDim.x - 1 - t;
    if (in_range[slot]) out[n - 1 - (first + source[slot])] = (float)widened[slot];
}

extern "C" void smem_reverse_direct(const float *in, float *out, long long n, cudaStream_t stream)
{
    reverse_direct_kernel<<<blocks_for(n), THREADS, 0, stream>>>(in, out, n);
}

extern "C" void smem_reverse_static(const float *in, float *out, long long n, cudaStream_t stream)
{
    reverse_static_kernel<<<blocks_for(n), THREADS, 0, stream>>>(in, out, n);
}

extern "C" void smem_reverse_dynamic(const float *in, float *out, long long n, cudaStream_t stream)
{
    reverse_dynamic_kernel<<<blocks_for(n), THREADS, THREADS * sizeof(float), stream>>>(in, out, n);
}

extern "C" void smem_reverse_carved(const float *in, float *out, long long n, cudaStream_t stream)
{
    size_t bytes = THREADS * (sizeof(double) + sizeof(int) + sizeof(unsigned char));
    reverse_carved_kernel<<<blocks_for(n), THREADS, bytes, stream>>>(in, out, n);
}
