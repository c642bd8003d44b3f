#include "ceiling_kernels.h"

#include "harness/check/check.h"
#include "harness/hardware/tensor_ptx.cuh"

/* Grid-stride float4 copy. VECTORS independent 16-byte loads are issued
 * before the first store, so each thread keeps several requests in flight. */
template <int VECTORS>
__global__ void copy_float4(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (VECTORS - 1) * stride < n4; i += VECTORS * stride) {
        float4 v[VECTORS];
#pragma unroll
        for (int k = 0; k < VECTORS; ++k) v[k] = src[i + k * stride];
#pragma unroll
        for (int k = 0; k < VECTORS; ++k) dst[i + k * stride] = v[k];
    }
    for (; i < n4; i += stride) dst[i] = src[i];
}

extern "C" void ladder_copy_kernel(const float *src, float *dst, size_t n, int vectors_per_thread,
                                   int blocks, cudaStream_t stream)
{
    const float4 *s = (const float4 *)src;
    float4 *d = (float4 *)dst;
    size_t n4 = n / 4;
    switch (vectors_per_thread) {
    case 1: copy_float4<1><<<blocks, LADDER_COPY_KERNEL_THREADS, 0, stream>>>(s, d, n4); break;
    case 2: copy_float4<2><<<blocks, LADDER_COPY_KERNEL_THREADS, 0, stream>>>(s, d, n4); break;
    case 4: copy_float4<4><<<blocks, LADDER_COPY_KERNEL_THREADS, 0, stream>>>(s, d, n4); break;
    default: copy_float4<8><<<blocks, LADDER_COPY_KERNEL_THREADS, 0, stream>>>(s, d, n4); break;
    }
    CUDA_CHECK_LAUNCH();
}

#define FMA_CHAINS 8

/* Eight independent dependency chains hide the FMA latency (4 cycles on
 * recent GPUs) with one warp per scheduler slot to spare. */
__global__ void fma_throughput(float *sink, int iterations, float a, float b)
{
    float acc[FMA_CHAINS];
#pragma unroll
    for (int k = 0; k < FMA_CHAINS; ++k) acc[k] = (float)(threadIdx.x + k);
    /* Unrolled so the loop counter and branch cost a few percent, not a third. */
#pragma unroll 16
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int k = 0; k < FMA_CHAINS; ++k) acc[k] = fmaf(acc[k], a, b);
    }
    float sum = 0;
#pragma unroll
    for (int k = 0; k < FMA_CHAINS; ++k) sum += acc[k];
    sink[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" double ladder_fma_kernel(float *sink, int blocks, int threads, int iterations,
                                    cudaStream_t stream)
{
    /* a slightly below 1 and b small keep the values finite and non-trivial. */
    fma_throughput<<<blocks, threads, 0, stream>>>(sink, iterations, 0.999999f, 1e-6f);
    CUDA_CHECK_LAUNCH();
    return 2.0 * FMA_CHAINS * (double)iterations * blocks * threads;
}

extern "C" void ladder_launch_fma(void *fma_launch, cudaStream_t stream)
{
    ladder_fma_launch *f = (ladder_fma_launch *)fma_launch;
    f->flops = ladder_fma_kernel(f->sink, f->blocks, f->threads, f->iterations, stream);
}

/* ---- The BF16 tensor-core ceiling ---- */

#define MMA_CHAINS 8

/* mma.sync m16n8k16 on operands held in registers: eight independent
 * accumulators per warp keep the tensor pipe's latency covered, and nothing
 * else issues. Operands are the thread's own pseudo-random BF16 values,
 * never zeros (zeros run faster). */
__global__ void __launch_bounds__(LADDER_TENSOR_KERNEL_THREADS) mma_bf16_throughput(float *sink, int iterations)
{
    uint32_t a[4], b0, b1;
    uint32_t seed = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u;
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = 0x3F803F80u ^ ((seed >> (4 * i)) & 0x007F007Fu);
    b0 = a[0] ^ 0x00150015u;
    b1 = a[1] ^ 0x002A002Au;
    float acc[MMA_CHAINS][4] = {};
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int chain = 0; chain < MMA_CHAINS; ++chain) mma_bf16_m16n8k16(acc[chain], a, b0, b1);
    }
    float sum = 0;
#pragma unroll
    for (int chain = 0; chain < MMA_CHAINS; ++chain) sum += acc[chain][0] + acc[chain][1] + acc[chain][2] + acc[chain][3];
    sink[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" double ladder_bf16_tensor_kernel(float *sink, int blocks, int iterations, cudaStream_t stream)
{
#ifdef LADDER_HAVE_SM90A
    int device, major, minor;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    if (major == 9 && minor == 0) return ladder_bf16_wgmma_kernel(sink, blocks, iterations, stream);
#endif
    mma_bf16_throughput<<<blocks, LADDER_TENSOR_KERNEL_THREADS, 0, stream>>>(sink, iterations);
    CUDA_CHECK_LAUNCH();
    /* 2 x 16 x 8 x 16 flops an MMA, one MMA per warp per chain. */
    return 4096.0 * MMA_CHAINS * (double)iterations * blocks * (LADDER_TENSOR_KERNEL_THREADS / 32);
}
