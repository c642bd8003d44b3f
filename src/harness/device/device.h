/* The GPU under test: its properties, theoretical peaks, and the measured
 * ceilings that every "fraction of ceiling" in the results refers to. */
#ifndef LADDER_DEVICE_H
#define LADDER_DEVICE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

typedef struct ladder_ceilings {
    double memcpy_gbps;      /* cudaMemcpy device to device, bytes read + written */
    double copy_kernel_gbps; /* the best of our copy kernels, same counting */
    double fma_gflops;       /* FMA throughput kernel, 2 flops per FMA */
    double sgemm_gflops;     /* cuBLAS SGEMM, FP32 math (no TF32) */
    long long sgemm_n;       /* the square size it was measured at */
    /* The tensor ceilings (ladder_device_measure_tensor_ceilings), 0 when
     * not measured: */
    double tensor_bf16_gflops; /* a kernel of BF16 tensor instructions only (wgmma on 9.0, else mma.sync) */
    double cublas_bf16_gflops; /* cuBLAS, BF16 in, FP32 compute and out */
    long long cublas_bf16_n;   /* the square size it was measured at */
} ladder_ceilings;

typedef struct ladder_device {
    int ordinal;
    char name[256];
    char pci_bus_id[32];
    int cc_major, cc_minor;
    int sm_count;
    int fp32_lanes_per_sm;
    double sm_clock_mhz;     /* peak, as the device reports it */
    double mem_clock_mhz;
    int bus_width_bits;
    size_t l2_bytes;
    size_t smem_per_sm;
    size_t smem_per_block_optin;
    int regs_per_sm;
    int max_threads_per_sm;
    size_t global_mem_bytes;
    int driver_version, runtime_version;
    double peak_dram_gbps;   /* memory clock x bus width x 2 (double data rate) */
    double peak_fp32_gflops; /* SMs x FP32 lanes x 2 x SM clock */
    /* SMs x dense tensor FLOP per clock per SM x SM clock; 0 where the GPU
     * has no BF16 tensor cores (or is unknown). TF32 runs at half of BF16. */
    double peak_bf16_tensor_gflops, peak_tf32_tensor_gflops;
    int clocks_readable;     /* NVML answered */
    ladder_ceilings ceilings;
    int ceilings_measured;
    /* Set when the run opens the energy counter (energy.h, energy_checked):
     * the enforced board power limit, the idle power measured before the
     * first case and the counter's update period, NAN where unknown;
     * energy_note says why the run has no energy figures ("" when it has). */
    int energy_checked;
    double power_limit_w, idle_power_w, energy_period_ms;
    char energy_note[160];
} ladder_device;

/* FP32 lanes per SM for a compute capability; 0 when unknown. */
int ladder_fp32_lanes_per_sm(int cc_major, int cc_minor);

/* Dense BF16 tensor-core FLOP per clock per SM (FP32 accumulation); 0
 * before compute capability 8.0 (no BF16) or when unknown. */
int ladder_bf16_tensor_flops_per_clock(int cc_major, int cc_minor);

/* Device `ordinal`'s theoretical DRAM bandwidth in GB/s: memory clock x
 * bus width x 2 (double data rate). */
double ladder_peak_dram_gbps(int ordinal);

/* Select and describe a device. Returns 0, or -1 with a one-line reason (no
 * device, bad ordinal, CUDA error string) in err. */
int ladder_device_open(int ordinal, ladder_device *device, char *err, size_t err_len);
/* Why cudaGetDeviceCount found no GPU (e), in words that point at the fix:
 * no driver, a driver too old, CUDA_VISIBLE_DEVICES. */
const char *ladder_no_gpu_reason(cudaError_t e);

/* Measure the ceilings (quick: smaller buffers and matrices). */
void ladder_device_measure_ceilings(ladder_device *device, int quick);

/* Measure the tensor ceilings too (a second or so): for runs of a case
 * held to them, and for `ladder device`. Nothing before compute
 * capability 8.0. */
void ladder_device_measure_tensor_ceilings(ladder_device *device, int quick);
/* The order it measures them in, by their names in the ceilings object:
 * cuBLAS BF16 before the tensor kernel (device_test pins it), in each of
 * LADDER_TENSOR_ROUNDS rounds; each ceiling is the best of its rounds. */
#define LADDER_TENSOR_CEILINGS 2
#define LADDER_TENSOR_ROUNDS 3
extern const char *const ladder_tensor_ceiling_order[LADDER_TENSOR_CEILINGS];

/* The best measured bandwidth, GB/s: what bandwidth-bound cases are held to. */
double ladder_bandwidth_ceiling(const ladder_device *device);

/* FLOP per byte at which the measured FMA rate and bandwidth meet. */
double ladder_ridge_point(const ladder_device *device);

#endif
