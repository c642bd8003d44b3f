/* The p2p ladder's one kernel: a copy with one end in a peer's memory. Run
 * on the destination GPU it is the "load" rung (every load a round trip over
 * the link, so the bytes in flight per SM set the rate); run on the source
 * GPU, the "store" rung (stores are posted: the SM does not wait for them,
 * so fewer threads keep the link busy). Against cudaMemcpyPeer it removes
 * the copy engine and the driver's call overhead, and it can use every SM's
 * load/store path at once. Not yet measured on a multi-GPU machine. */
#include "p2p.h"

#include <stdint.h>

#include "harness/check/check.h"

#define P2P_COPY_THREADS 512
/* 16-byte vectors per thread per trip: four loads in flight before the
 * first store, to cover the link's latency (about a microsecond over NVLink). */
#define P2P_VECTORS_PER_THREAD 4

__global__ void peer_copy(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t vectors)
{
    size_t stride = (size_t)gridDim.x * blockDim.x * P2P_VECTORS_PER_THREAD;
    for (size_t base = (size_t)blockIdx.x * blockDim.x * P2P_VECTORS_PER_THREAD + threadIdx.x; base < vectors;
         base += stride) {
        uint4 v[P2P_VECTORS_PER_THREAD];
#pragma unroll
        for (int k = 0; k < P2P_VECTORS_PER_THREAD; ++k) {
            size_t i = base + (size_t)k * blockDim.x;
            if (i < vectors) v[k] = src[i];
        }
#pragma unroll
        for (int k = 0; k < P2P_VECTORS_PER_THREAD; ++k) {
            size_t i = base + (size_t)k * blockDim.x;
            if (i < vectors) dst[i] = v[k];
        }
    }
}

__global__ void peer_copy_bytes(unsigned char *dst, const unsigned char *src, size_t bytes)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < bytes; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

extern "C" void p2p_copy_kernel(void *dst, const void *src, size_t bytes, int blocks, cudaStream_t stream)
{
    if (bytes == 0) return;
    int aligned = ((uintptr_t)dst % 16 == 0) && ((uintptr_t)src % 16 == 0);
    size_t vectors = aligned ? bytes / 16 : 0;
    if (vectors) {
        size_t per_block = (size_t)P2P_COPY_THREADS * P2P_VECTORS_PER_THREAD;
        size_t needed = (vectors + per_block - 1) / per_block;
        unsigned grid = (unsigned)(needed < (size_t)blocks ? needed : (size_t)blocks);
        peer_copy<<<grid, P2P_COPY_THREADS, 0, stream>>>((uint4 *)dst, (const uint4 *)src, vectors);
        CUDA_CHECK_LAUNCH();
    }
    size_t tail = bytes - vectors * 16;
    if (tail) {
        size_t needed = (tail + P2P_COPY_THREADS - 1) / P2P_COPY_THREADS;
        unsigned grid = (unsigned)(needed < (size_t)blocks ? needed : (size_t)blocks);
        peer_copy_bytes<<<grid, P2P_COPY_THREADS, 0, stream>>>((unsigned char *)dst + vectors * 16,
                                                               (const unsigned char *)src + vectors * 16, tail);
        CUDA_CHECK_LAUNCH();
    }
}
