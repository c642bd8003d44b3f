/* Kernels that measure the device's ceilings (ceiling_kernels.cu). */
#ifndef LADDER_CEILING_KERNELS_H
#define LADDER_CEILING_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LADDER_COPY_KERNEL_THREADS 256

/* dst[i] = src[i] over n floats (n a multiple of 4, both 16-byte aligned),
 * each thread moving `vectors_per_thread` float4s per grid-stride step. */
void ladder_copy_kernel(const float *src, float *dst, size_t n, int vectors_per_thread,
                        int blocks, cudaStream_t stream);

/* Independent FMA chains per thread, `iterations` rounds each; writes one
 * float per thread to `sink` so the compiler keeps the work. Returns the
 * flops it performs. */
double ladder_fma_kernel(float *sink, int blocks, int threads, int iterations, cudaStream_t stream);

/* The FMA kernel as a timed launch (timing.h's ladder_launch): its context,
 * and the launch, which leaves the flops of one run in `flops`. */
typedef struct ladder_fma_launch {
    float *sink;
    int blocks, threads, iterations;
    double flops;
} ladder_fma_launch;

void ladder_launch_fma(void *fma_launch, cudaStream_t stream);

#define LADDER_TENSOR_KERNEL_THREADS 256

/* BF16 tensor-core instructions only, FP32 accumulators, `iterations`
 * rounds per block of LADDER_TENSOR_KERNEL_THREADS; wgmma on compute
 * capability 9.0 where the build has sm_90a code, else mma.sync (8.0+).
 * Writes one float per thread to sink. Returns the flops it performs. */
double ladder_bf16_tensor_kernel(float *sink, int blocks, int iterations, cudaStream_t stream);

/* The wgmma version (tensor_ceiling_sm90a.cu; built with sm_90a code only). */
double ladder_bf16_wgmma_kernel(float *sink, int blocks, int iterations, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
