/* A starting point for `ladder try reduce FILE.cu`: the ladder's rung 0,
 * interleaved_divergent, written plainly. It compiles and passes; it is
 * slow on purpose.
 *
 *   ladder try reduce --template > mine.cu
 *   ladder try reduce mine.cu --quick
 *
 * The contract is in include/ladder_try.h: out[0] = the sum of n floats,
 * any n; scratch has room for every pass's partial sums.
 *
 * Each block of 256 threads sums 256 elements with a tree in shared memory
 * in which thread t works at step s when t % 2s == 0: the active threads
 * are spread over every warp (divergence) and % is slow. Passes repeat over
 * the partial sums until one block is left, which writes out[0]. The rung
 * to beat next is rung 1, interleaved_bank_conflicts: let thread t work on
 * index 2st so that whole warps fall idle together (`ladder list reduce`
 * tells every step, down to one pass with float4 loads). */
#include "ladder_try.h"

#define THREADS 256

__global__ void block_sums(const float *in, long long n, float *sums)
{
    __shared__ float partial[THREADS];
    unsigned t = threadIdx.x;
    long long i = (long long)blockIdx.x * THREADS + t;
    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < THREADS; s *= 2) {
        if (t % (2 * s) == 0) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = partial[0];
}

void ladder_try_reduce(const float *in, float *out, long long n, float *scratch, size_t scratch_floats,
                       cudaStream_t stream)
{
    (void)scratch_floats; /* enough for every pass below */
    const float *from = in;
    float *to = scratch;
    long long count = n;
    while (count > THREADS) {
        long long blocks = (count + THREADS - 1) / THREADS;
        block_sums<<<(unsigned)blocks, THREADS, 0, stream>>>(from, count, to);
        from = to;
        to += blocks;
        count = blocks;
    }
    block_sums<<<1, THREADS, 0, stream>>>(from, count, out);
}
