/* The BF16 tensor ceiling on Hopper: wgmma, the only instruction that
 * reaches the H100's full tensor rate (mma.sync tops out near 2/3 of it).
 * Built for sm_90a only (its own object library); the dispatcher in
 * ceiling_kernels.cu calls it on compute capability 9.0. */
#include "ceiling_kernels.h"
#include "harness/check/check.h"
#include "harness/hardware/tensor_ptx.cuh"

/* A: 64 rows, B: 256 rows, each one swizzled k-tile of 64 (128-byte rows). */
constexpr int CEILING_A_BYTES = 64 * 128, CEILING_B_BYTES = 256 * 128;

/* Two warpgroups per block, one block per SM: each issues m64n256k16 (the
 * largest wgmma, so the fewest issues per FLOP) over the same shared tiles,
 * four k-steps a round with one round in flight while the next issues. The
 * tiles hold pseudo-random BF16 values, never zeros. */
__global__ void __launch_bounds__(LADDER_TENSOR_KERNEL_THREADS, 1) wgmma_bf16_throughput(float *sink, int iterations)
{
    extern __shared__ __align__(1024) uint8_t raw_shared[];
    uint8_t *tiles = reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(raw_shared) + 1023) & ~(uintptr_t)1023);
    uint32_t *words = reinterpret_cast<uint32_t *>(tiles);
    for (int i = threadIdx.x; i < (CEILING_A_BYTES + CEILING_B_BYTES) / 4; i += blockDim.x)
        words[i] = 0x3F803F80u ^ (((uint32_t)i * 2654435761u >> 7) & 0x007F007Fu);
    __syncthreads();
    uint32_t a = smem_address(tiles), b = a + CEILING_A_BYTES;
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
    for (int round = 0; round < iterations; ++round) {
        wgmma_fence();
#pragma unroll
        for (int step = 0; step < 4; ++step)
            wgmma_m64n256k16_bf16(acc, wgmma_descriptor_sw128(a + 32 * step), wgmma_descriptor_sw128(b + 32 * step));
        wgmma_commit();
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    float sum = 0;
#pragma unroll
    for (int i = 0; i < 128; ++i) sum += acc[i];
    sink[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" double ladder_bf16_wgmma_kernel(float *sink, int blocks, int iterations, cudaStream_t stream)
{
    constexpr int shared = CEILING_A_BYTES + CEILING_B_BYTES + 1024;
    static bool opted_in = false;
    if (!opted_in) {
        CUDA_CHECK(cudaFuncSetAttribute(wgmma_bf16_throughput, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
        opted_in = true;
    }
    wgmma_bf16_throughput<<<blocks, LADDER_TENSOR_KERNEL_THREADS, shared, stream>>>(sink, iterations);
    CUDA_CHECK_LAUNCH();
    /* 4 wgmma of 2 x 64 x 256 x 16 flops per round per warpgroup. */
    return 4.0 * 2 * 64 * 256 * 16 * (double)iterations * blocks * (LADDER_TENSOR_KERNEL_THREADS / 128);
}
