/* The pipeline's kernel: arithmetic with a dial. The copies are the subject of
 * this case; the kernel only has to take a chosen time per element so that the
 * pipeline has three comparable stages to overlap. scale and step arrive at
 * run time, so the compiler keeps every FMA of the dependent chain. */
#include "transfer.h"

#include "harness/check/check.h"

#define FMA_CHAIN_THREADS 256

__global__ void fma_chain(const float *in, float *out, long long n, int fmas, float scale, float step)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
#pragma unroll 8
    for (int k = 0; k < fmas; ++k) x = fmaf(x, scale, step);
    out[i] = x;
}

extern "C" void transfer_fma_chain(const float *in, float *out, long long n, int fmas, float scale, float step,
                                   cudaStream_t stream)
{
    if (n <= 0) return;
    long long blocks = (n + FMA_CHAIN_THREADS - 1) / FMA_CHAIN_THREADS;
    fma_chain<<<(unsigned)blocks, FMA_CHAIN_THREADS, 0, stream>>>(in, out, n, fmas, scale, step);
    CUDA_CHECK_LAUNCH();
}
