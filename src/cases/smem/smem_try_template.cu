/* A starting point for `ladder try smem FILE.cu`: the ladder's rung 0,
 * reverse_direct, written plainly. It compiles and passes.
 *
 *   ladder try smem --template > mine.cu
 *   ladder try smem mine.cu --quick
 *
 * The contract is in include/ladder_try.h: out[n - 1 - i] = in[i], n floats,
 * any n, exact.
 *
 * Each thread moves one float; a warp's stores are a reversed run of 128
 * bytes, which the memory system coalesces anyway. The rung to compare
 * with next is rung 1, reverse_static: stage each block's slice in shared
 * memory and write it back in lane order (the fix the G80 needed). */
#include "ladder_try.h"

__global__ void reverse_direct(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
}

void ladder_try_smem(const float *in, float *out, long long n, cudaStream_t stream)
{
    int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    reverse_direct<<<(unsigned)blocks, threads, 0, stream>>>(in, out, n);
}
