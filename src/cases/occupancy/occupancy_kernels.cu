/* The occupancy case's one kernel, a copy, and the probe kernels that give
 * the calculator real register counts and shared-memory sizes to match. */
#include "occupancy.h"

#include <stdlib.h>

#include "harness/check/check.h"

/* Every rung runs this copy; only the launch changes. `#pragma unroll 1`
 * keeps one load per thread in flight, so the bytes in flight per SM grow
 * with the resident warps and nothing else: what the ladder measures. */
__global__ void copy_grid_stride(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    long long stride = (long long)gridDim.x * blockDim.x;
#pragma unroll 1
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

extern "C" void occupancy_copy(const float *in, float *out, long long n, int block, int grid, int dynamic_smem,
                               cudaStream_t stream)
{
    copy_grid_stride<<<grid, block, dynamic_smem, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

extern "C" void occupancy_copy_attributes(int *regs, int *static_smem)
{
    cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, copy_grid_stride));
    *regs = a.numRegs;
    *static_smem = (int)a.sharedSizeBytes;
}

extern "C" void occupancy_copy_allow_smem(int bytes)
{
    CUDA_CHECK(cudaFuncSetAttribute(copy_grid_stride, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

extern "C" int occupancy_copy_api_blocks(int block, int dynamic_smem)
{
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, copy_grid_stride, block, (size_t)dynamic_smem));
    return blocks;
}

/* ---- probes: kernels whose register counts and shared memory vary ---- */

/* LIVE values kept live across a few mixing rounds: the register count
 * grows with LIVE until a cap (launch bounds, __maxnreg__) makes the
 * compiler spill. Integer arithmetic, so the host computes the same. */
/* The host compiler has no unroll pragma; the device needs it, or v[]
 * would live in local memory instead of registers. */
#ifdef __CUDA_ARCH__
#define PROBE_UNROLL _Pragma("unroll")
#else
#define PROBE_UNROLL
#endif

template <int LIVE>
__host__ __device__ unsigned probe_mix(unsigned x)
{
    unsigned v[LIVE];
PROBE_UNROLL
    for (int k = 0; k < LIVE; ++k) v[k] = x * (2654435761u + 2u * k) ^ (x >> (k % 16));
PROBE_UNROLL
    for (int round = 0; round < 3; ++round) {
PROBE_UNROLL
        for (int k = 0; k < LIVE; ++k) v[k] = v[k] * 747796405u + v[(k + 1) % LIVE];
    }
    unsigned s = 0;
PROBE_UNROLL
    for (int k = 0; k < LIVE; ++k) s ^= v[k] + (unsigned)k;
    return s;
}

/* out[i] = mix(i), and where the kernel has STATIC_WORDS of static shared
 * memory, its first threads also fold in a neighbour's value through it. */
template <int LIVE, int STATIC_WORDS>
__device__ void probe_body(unsigned *out, int n)
{
    __shared__ unsigned staged[STATIC_WORDS > 0 ? STATIC_WORDS : 1];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = probe_mix<LIVE>((unsigned)i);
    if (STATIC_WORDS > 0) {
        int used = (int)blockDim.x < STATIC_WORDS ? (int)blockDim.x : STATIC_WORDS;
        if ((int)threadIdx.x < used) staged[threadIdx.x] = v;
        __syncthreads();
        if ((int)threadIdx.x < used) v ^= staged[(threadIdx.x + 1) % used];
    }
    if (i < n) out[i] = v;
}

template <int LIVE, int STATIC_WORDS>
__global__ void probe_plain(unsigned *out, int n)
{
    probe_body<LIVE, STATIC_WORDS>(out, n);
}

template <int LIVE, int MAX_THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS) probe_bounded(unsigned *out, int n)
{
    probe_body<LIVE, 0>(out, n);
}

template <int LIVE, int MAX_REGS>
__global__ void __maxnreg__(MAX_REGS) probe_capped(unsigned *out, int n)
{
    probe_body<LIVE, 0>(out, n);
}

typedef unsigned (*host_mix)(unsigned);

struct probe_config {
    const char *name;
    const void *kernel;
    host_mix mix;
    int static_words;
    int threads, dynamic_smem;
};

#define PLAIN(live, words) (const void *)probe_plain<live, words>, probe_mix<live>, words
#define BOUNDED(live, max_threads, min_blocks) (const void *)probe_bounded<live, max_threads, min_blocks>, probe_mix<live>, 0
#define CAPPED(live, max_regs) (const void *)probe_capped<live, max_regs>, probe_mix<live>, 0

static const probe_config probes[] = {
    {"light", PLAIN(4, 0), 32, 0},
    {"light", PLAIN(4, 0), 64, 0},
    {"light", PLAIN(4, 0), 96, 0},
    {"light", PLAIN(4, 0), 250, 0},
    {"light", PLAIN(4, 0), 1024, 0},
    {"light", PLAIN(4, 0), 128, 1000},
    {"light", PLAIN(4, 0), 256, 20000},
    {"light", PLAIN(4, 0), 128, 100000},
    {"heavy48", PLAIN(48, 0), 128, 0},
    {"heavy48", PLAIN(48, 0), 256, 0},
    {"heavy48", PLAIN(48, 0), 640, 0},
    {"heavy48", PLAIN(48, 0), 1024, 0},
    {"heavy48", PLAIN(48, 0), 256, 30000},
    {"heavy96", PLAIN(96, 0), 128, 0},
    {"heavy96", PLAIN(96, 0), 512, 0},
    {"heavy96", PLAIN(96, 0), 1024, 0},
    {"heavy96_bounds_256x4", BOUNDED(96, 256, 4), 256, 0},
    {"heavy96_bounds_256x4", BOUNDED(96, 256, 4), 160, 0},
    {"heavy48_bounds_1024x2", BOUNDED(48, 1024, 2), 1024, 0},
    {"heavy48_bounds_1024x2", BOUNDED(48, 1024, 2), 512, 0},
    {"heavy96_maxnreg_40", CAPPED(96, 40), 256, 0},
    {"heavy96_maxnreg_40", CAPPED(96, 40), 1024, 0},
    {"heavy48_maxnreg_168", CAPPED(48, 168), 384, 0},
    {"static_12KB", PLAIN(8, 3072), 128, 0},
    {"static_12KB", PLAIN(8, 3072), 512, 0},
    {"static_12KB", PLAIN(8, 3072), 96, 5000},
    {"static_40000B", PLAIN(24, 10000), 256, 0},
    {"static_40000B", PLAIN(24, 10000), 64, 8000},
    {"static_40000B", PLAIN(24, 10000), 256, 150000},
};

extern "C" int occupancy_probe_count(void)
{
    return (int)(sizeof probes / sizeof probes[0]);
}

/* What probe_body writes, computed on the host for a launch of `threads`
 * per block. */
static unsigned expected_value(const probe_config *p, int i)
{
    unsigned v = p->mix((unsigned)i);
    if (p->static_words == 0) return v;
    int t = i % p->threads, block_start = i - t;
    int used = p->threads < p->static_words ? p->threads : p->static_words;
    if (t >= used) return v;
    return v ^ p->mix((unsigned)(block_start + (t + 1) % used));
}

extern "C" void occupancy_probe_run(int index, int smem_per_block_optin, occupancy_probe *out)
{
    const probe_config *p = &probes[index];
    cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, p->kernel));
    CUDA_CHECK(cudaFuncSetAttribute(p->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    smem_per_block_optin - (int)a.sharedSizeBytes));
    out->name = p->name;
    out->threads = p->threads;
    out->dynamic_smem = p->dynamic_smem;
    out->regs = a.numRegs;
    out->static_smem = (int)a.sharedSizeBytes;
    out->api_error = NULL;
    out->api_blocks = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out->api_blocks, p->kernel, p->threads,
                                                                  (size_t)p->dynamic_smem);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        out->api_blocks = 0;
        out->api_error = cudaGetErrorString(e);
    }
    out->launched = 0;
    out->mismatches = 0;
    if (out->api_blocks == 0 || p->threads > a.maxThreadsPerBlock) return;

    /* Three blocks and a ragged tail: the bounds check is exercised too. */
    int n = 2 * p->threads + p->threads / 2 + 1;
    int grid = (n + p->threads - 1) / p->threads;
    unsigned *device_out, *host_out = (unsigned *)ladder_host_alloc((size_t)n * sizeof(unsigned));
    CUDA_CHECK(cudaMalloc((void **)&device_out, (size_t)n * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(device_out, 0xFF, (size_t)n * sizeof(unsigned)));
    void *args[] = {&device_out, &n};
    CUDA_CHECK(cudaLaunchKernel(p->kernel, dim3(grid), dim3(p->threads), args, (size_t)p->dynamic_smem, 0));
    CUDA_CHECK(cudaMemcpy(host_out, device_out, (size_t)n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) out->mismatches += host_out[i] != expected_value(p, i);
    out->launched = 1;
    CUDA_CHECK(cudaFree(device_out));
    free(host_out);
}
