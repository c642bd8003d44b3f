#include "device.h"

#include <cublas_v2.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check/bf16.h"
#include "ceiling_kernels.h"
#include "harness/check/check.h"
#include "harness/measure/gpu_clock.h"
#include "harness/check/rng.h"
#include "harness/measure/timing.h"

int ladder_fp32_lanes_per_sm(int cc_major, int cc_minor)
{
    switch (cc_major) {
    case 7: return 64;                     /* Volta, Turing */
    case 8: return cc_minor == 0 ? 64 : 128; /* A100: 64; GA10x, Ada: 128 */
    case 9: return 128;                    /* Hopper */
    case 10:
    case 11:
    case 12: return 128;                   /* Blackwell */
    default: return 0;
    }
}

/* Dense BF16 with FP32 accumulation, from the vendors' peak rates over
 * SMs x boost clock: A100 312 TFLOP/s = 108 x 1.41 GHz x 2048; H100 SXM
 * 989 = 132 x 1.83 x 4096; GA10x and Ada 1024 (the professional parts; the
 * GeForce ones halve FP32 accumulation); Blackwell B200 8192, RTX 50 1024. */
int ladder_bf16_tensor_flops_per_clock(int cc_major, int cc_minor)
{
    switch (cc_major) {
    case 8: return cc_minor == 0 ? 2048 : 1024;
    case 9: return 4096;
    case 10: return 8192;
    case 12: return 1024;
    default: return 0;
    }
}

/* The runtime says "CUDA driver version is insufficient for CUDA runtime
 * version" both where the driver is too old and where there is none at all;
 * the second sends people to upgrade a driver they do not have, so look for
 * the driver's library before choosing the words. */
const char *ladder_no_gpu_reason(cudaError_t e)
{
    static char reason[256];
    if (e == cudaSuccess) return "the driver reports 0 devices";
    if (e == cudaErrorInsufficientDriver) {
        void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!driver) return "no NVIDIA driver was found: libcuda.so.1 cannot be loaded";
        dlclose(driver);
        return "the NVIDIA driver is older than this build's CUDA runtime needs: upgrade the driver";
    }
    if (e == cudaErrorNoDevice) {
        const char *visible = getenv("CUDA_VISIBLE_DEVICES");
        if (visible) {
            snprintf(reason, sizeof reason, "no GPU is visible: CUDA_VISIBLE_DEVICES is '%.64s'", visible);
            return reason;
        }
        return "the driver found no NVIDIA GPU";
    }
    snprintf(reason, sizeof reason, "%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
    return reason;
}

double ladder_peak_dram_gbps(int ordinal)
{
    int khz, bits;
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal));
    CUDA_CHECK(cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));
    return khz * 1e3 * (bits / 8.0) * 2.0 / 1e9;
}

int ladder_device_open(int ordinal, ladder_device *d, char *err, size_t err_len)
{
    memset(d, 0, sizeof *d);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(err, err_len, "no CUDA device found (%s)", ladder_no_gpu_reason(e));
        return -1;
    }
    if (ordinal < 0 || ordinal >= count) {
        snprintf(err, err_len, "no CUDA device %d (this machine has %d)", ordinal, count);
        return -1;
    }
    CUDA_CHECK(cudaSetDevice(ordinal));
    struct cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
    d->ordinal = ordinal;
    snprintf(d->name, sizeof d->name, "%s", p.name);
    CUDA_CHECK(cudaDeviceGetPCIBusId(d->pci_bus_id, sizeof d->pci_bus_id, ordinal));
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sm_count = p.multiProcessorCount;
    d->fp32_lanes_per_sm = ladder_fp32_lanes_per_sm(p.major, p.minor);
    int khz;
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, ordinal));
    d->sm_clock_mhz = khz / 1e3;
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal));
    d->mem_clock_mhz = khz / 1e3;
    d->bus_width_bits = p.memoryBusWidth;
    d->l2_bytes = (size_t)p.l2CacheSize;
    d->smem_per_sm = p.sharedMemPerMultiprocessor;
    d->smem_per_block_optin = p.sharedMemPerBlockOptin;
    d->regs_per_sm = p.regsPerMultiprocessor;
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->global_mem_bytes = p.totalGlobalMem;
    CUDA_CHECK(cudaDriverGetVersion(&d->driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(&d->runtime_version));
    d->peak_dram_gbps = ladder_peak_dram_gbps(ordinal);
    d->peak_fp32_gflops = d->sm_count * (double)d->fp32_lanes_per_sm * 2.0 * d->sm_clock_mhz * 1e6 / 1e9;
    d->peak_bf16_tensor_gflops =
        d->sm_count * (double)ladder_bf16_tensor_flops_per_clock(p.major, p.minor) * d->sm_clock_mhz * 1e6 / 1e9;
    d->peak_tf32_tensor_gflops = d->peak_bf16_tensor_gflops / 2;
    d->clocks_readable = ladder_clock_open(d->pci_bus_id) == 0;
    ladder_timing_init(d->l2_bytes, d->sm_count);
    return 0;
}

/* ---- the measurements behind the ceilings ---- */

typedef struct copy_context {
    const float *src;
    float *dst;
    size_t n;
    int vectors_per_thread, blocks;
} copy_context;

static void launch_memcpy(void *context, cudaStream_t stream)
{
    copy_context *c = context;
    CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

static void launch_copy_kernel(void *context, cudaStream_t stream)
{
    copy_context *c = context;
    ladder_copy_kernel(c->src, c->dst, c->n, c->vectors_per_thread, c->blocks, stream);
}

typedef struct sgemm_context {
    cublasHandle_t handle;
    const float *a, *b;
    float *c;
    int n;
} sgemm_context;

static void launch_sgemm(void *context, cudaStream_t stream)
{
    sgemm_context *s = context;
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(s->handle, stream));
    CUBLAS_CHECK(cublasSgemm(s->handle, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->n, s->n, &one, s->a, s->n,
                             s->b, s->n, &zero, s->c, s->n));
}

static const ladder_timing_options ceiling_timing = {
    .min_samples = 20, .max_samples = 200, .target_spread = 0.005, .time_cap_s = 1.0, .warmup_runs = 3};

static float *random_device_floats(size_t n, uint64_t seed)
{
    float *host = ladder_host_alloc(n * sizeof *host);
    ladder_fill_uniform(host, n, seed, 0.5f, 1.5f);
    float *device;
    CUDA_CHECK(cudaMalloc((void **)&device, n * sizeof *device));
    CUDA_CHECK(cudaMemcpy(device, host, n * sizeof *device, cudaMemcpyHostToDevice));
    free(host);
    return device;
}

static void measure_bandwidth(ladder_device *d, int quick)
{
    /* Many times the L2, so the copy streams from DRAM. */
    size_t n = (quick ? 64ull : 256ull) << 20;
    copy_context c = {.n = n};
    c.src = random_device_floats(n, 1);
    CUDA_CHECK(cudaMalloc((void **)&c.dst, n * sizeof(float)));
    double bytes = 2.0 * (double)n * sizeof(float);

    ladder_timing t = ladder_time_device(launch_memcpy, &c, &ceiling_timing);
    d->ceilings.memcpy_gbps = bytes / (t.ms.median * 1e-3) / 1e9;

    /* The best of a few shapes: how many 16-byte loads each thread keeps in
     * flight, and whether the grid covers the data (one pass, measured best
     * on an H200) or is sized to the SMs and strides over it. */
    static const int vectors[] = {1, 2, 4, 8};
    size_t float4s = n / 4;
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; ++v) {
        size_t per_block = (size_t)LADDER_COPY_KERNEL_THREADS * (size_t)vectors[v];
        int covering = (int)((float4s + per_block - 1) / per_block);
        int grids[] = {covering, d->sm_count * 4, d->sm_count * 32};
        for (int g = 0; g < 3; ++g) {
            c.vectors_per_thread = vectors[v];
            c.blocks = grids[g];
            t = ladder_time_device(launch_copy_kernel, &c, &ceiling_timing);
            double gbps = bytes / (t.ms.median * 1e-3) / 1e9;
            if (gbps > d->ceilings.copy_kernel_gbps) d->ceilings.copy_kernel_gbps = gbps;
        }
    }
    CUDA_CHECK(cudaFree((void *)c.src));
    CUDA_CHECK(cudaFree(c.dst));
}

static void measure_fma(ladder_device *d, int quick)
{
    ladder_fma_launch f = {.threads = 256, .iterations = quick ? 4096 : 16384};
    f.blocks = d->sm_count * (d->max_threads_per_sm / f.threads) * 4;
    CUDA_CHECK(cudaMalloc((void **)&f.sink, (size_t)f.blocks * f.threads * sizeof(float)));
    ladder_timing t = ladder_time_device(ladder_launch_fma, &f, &ceiling_timing);
    d->ceilings.fma_gflops = f.flops / (t.ms.median * 1e-3) / 1e9;
    CUDA_CHECK(cudaFree(f.sink));
}

static void measure_sgemm(ladder_device *d, int quick)
{
    sgemm_context s = {.n = quick ? 2048 : 4096};
    size_t elements = (size_t)s.n * s.n;
    s.a = random_device_floats(elements, 2);
    s.b = random_device_floats(elements, 3);
    CUDA_CHECK(cudaMalloc((void **)&s.c, elements * sizeof(float)));
    CUBLAS_CHECK(cublasCreate(&s.handle));
    /* Default math with FP32 compute: cuBLAS does not use TF32 unless asked. */
    CUBLAS_CHECK(cublasSetMathMode(s.handle, CUBLAS_DEFAULT_MATH));
    ladder_timing t = ladder_time_device(launch_sgemm, &s, &ceiling_timing);
    d->ceilings.sgemm_gflops = 2.0 * s.n * (double)s.n * s.n / (t.ms.median * 1e-3) / 1e9;
    d->ceilings.sgemm_n = s.n;
    CUBLAS_CHECK(cublasDestroy(s.handle));
    CUDA_CHECK(cudaFree((void *)s.a));
    CUDA_CHECK(cudaFree((void *)s.b));
    CUDA_CHECK(cudaFree(s.c));
}

typedef struct tensor_context {
    float *sink;
    int blocks, iterations;
    double flops;
} tensor_context;

static void launch_tensor(void *context, cudaStream_t stream)
{
    tensor_context *t = context;
    t->flops = ladder_bf16_tensor_kernel(t->sink, t->blocks, t->iterations, stream);
}

typedef struct bf16_gemm_context {
    cublasHandle_t handle;
    const uint16_t *a, *b;
    float *c;
    int n;
} bf16_gemm_context;

/* hgemm's baseline call: BF16 in, FP32 compute and out, the TN layout. */
static void launch_bf16_gemm(void *context, cudaStream_t stream)
{
    bf16_gemm_context *g = context;
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(g->handle, stream));
    CUBLAS_CHECK(cublasGemmEx(g->handle, CUBLAS_OP_T, CUBLAS_OP_N, g->n, g->n, g->n, &one, g->b, CUDA_R_16BF, g->n,
                              g->a, CUDA_R_16BF, g->n, &zero, g->c, CUDA_R_32F, g->n, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
}

/* n random BF16 values on [-1, 1] on the device: random, not zeros, which
 * run faster than real data on tensor cores. */
static uint16_t *random_device_bf16(size_t n, uint64_t seed)
{
    float *host = ladder_host_alloc(n * sizeof *host);
    uint16_t *bits = ladder_host_alloc(n * sizeof *bits);
    ladder_fill_uniform(host, n, seed, -1.0f, 1.0f);
    for (size_t i = 0; i < n; ++i) bits[i] = ladder_to_bf16(host[i]);
    uint16_t *device;
    CUDA_CHECK(cudaMalloc((void **)&device, n * sizeof *device));
    CUDA_CHECK(cudaMemcpy(device, bits, n * sizeof *device, cudaMemcpyHostToDevice));
    free(host);
    free(bits);
    return device;
}

static void time_tensor_kernel(ladder_device *d, tensor_context *t)
{
    ladder_timing timing = ladder_time_device(launch_tensor, t, &ceiling_timing);
    d->ceilings.tensor_bf16_gflops = fmax(d->ceilings.tensor_bf16_gflops, t->flops / (timing.ms.median * 1e-3) / 1e9);
}

static void time_cublas_bf16(ladder_device *d, bf16_gemm_context *g)
{
    ladder_timing timing = ladder_time_device(launch_bf16_gemm, g, &ceiling_timing);
    double gflops = 2.0 * g->n * (double)g->n * g->n / (timing.ms.median * 1e-3) / 1e9;
    d->ceilings.cublas_bf16_gflops = fmax(d->ceilings.cublas_bf16_gflops, gflops);
    d->ceilings.cublas_bf16_n = g->n;
}

/* Both draw the card's full power for about a second, and either one
 * measured after the other has come out throttled (H100: cuBLAS 689
 * TFLOP/s after the tensor kernel against 780 in runs where it was not;
 * with cuBLAS first, the tensor kernel 793 against 954, and once cuBLAS 688
 * on a card just started). So: cuBLAS first, and LADDER_TENSOR_ROUNDS
 * rounds of both, each ceiling the best of its rounds: the rate the card
 * sustains when it is not held back, which is what a ceiling is. */
const char *const ladder_tensor_ceiling_order[LADDER_TENSOR_CEILINGS] = {"cublas_bf16_gflops", "tensor_bf16_gflops"};

void ladder_device_measure_tensor_ceilings(ladder_device *d, int quick)
{
    if (d->peak_bf16_tensor_gflops <= 0) return;
    /* The tensor kernel: about a millisecond a launch on an H100. */
    tensor_context t = {.blocks = d->sm_count * 2, .iterations = quick ? 512 : 2048};
    CUDA_CHECK(cudaMalloc((void **)&t.sink, (size_t)t.blocks * LADDER_TENSOR_KERNEL_THREADS * sizeof(float)));
    bf16_gemm_context g = {.n = quick ? 4096 : 8192};
    size_t elements = (size_t)g.n * g.n;
    g.a = random_device_bf16(elements, 4);
    g.b = random_device_bf16(elements, 5);
    CUDA_CHECK(cudaMalloc((void **)&g.c, elements * sizeof(float)));
    CUBLAS_CHECK(cublasCreate(&g.handle));
    d->ceilings.tensor_bf16_gflops = d->ceilings.cublas_bf16_gflops = 0;
    for (int round = 0; round < LADDER_TENSOR_ROUNDS; ++round)
        for (int i = 0; i < LADDER_TENSOR_CEILINGS; ++i) {
            if (strcmp(ladder_tensor_ceiling_order[i], "cublas_bf16_gflops") == 0) time_cublas_bf16(d, &g);
            else time_tensor_kernel(d, &t);
        }
    CUBLAS_CHECK(cublasDestroy(g.handle));
    CUDA_CHECK(cudaFree((void *)g.a));
    CUDA_CHECK(cudaFree((void *)g.b));
    CUDA_CHECK(cudaFree(g.c));
    CUDA_CHECK(cudaFree(t.sink));
}

void ladder_device_measure_ceilings(ladder_device *d, int quick)
{
    measure_bandwidth(d, quick);
    measure_fma(d, quick);
    measure_sgemm(d, quick);
    d->ceilings_measured = 1;
}

double ladder_bandwidth_ceiling(const ladder_device *d)
{
    return fmax(d->ceilings.memcpy_gbps, d->ceilings.copy_kernel_gbps);
}

double ladder_ridge_point(const ladder_device *d)
{
    double bandwidth = ladder_bandwidth_ceiling(d);
    return bandwidth > 0 ? d->ceilings.fma_gflops / bandwidth : NAN;
}
