/* The occupancy calculator: the per-SM limits of each compute capability and
 * the arithmetic NVIDIA's occupancy calculator does with them.
 *
 * Sources of the table: the CUDA C++ Programming Guide, "Compute
 * Capabilities", technical specifications per compute capability (threads,
 * blocks, warps, registers and shared memory per SM and per block); the
 * CUDA Occupancy Calculator spreadsheet's GPU data (allocation units and
 * granularities, 1.x and 2.x included); and cuda_occupancy.h of CUDA 13.0
 * (blocks per SM of 10.x, 11.0 and 12.x, the carveout steps, the 1 KB that
 * the driver reserves in every block from 8.0 on, the register check that
 * rounds a block's warps up to the SM's sub-partitions). */
#include "occupancy_calc.h"

#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#define KB 1024

/* Warp-granular register allocation (2.0 on); `sub` is the number of SM
 * sub-partitions, each with its own quarter (or half) of the register file. */
#define ROW(maj, min, warps, blocks, regs_sm, regs_block, max_regs, unit, sub, smem_sm, smem_block, reserved, \
            smem_unit, ...)                                                                                   \
    {maj, min, 1024, warps, blocks, regs_sm, regs_block, max_regs, unit, 0, sub, smem_sm, smem_block, reserved,    \
     smem_unit, sizeof((int[]){0, __VA_ARGS__}) / sizeof(int) - 1, {__VA_ARGS__}}
/* 1.x: 512 threads per block, registers allocated per block, for warps
 * counted in pairs; shared memory in 512-byte units. */
#define ROW_1X(min, warps, regs_sm, unit)                                                         \
    {1, min, 512, warps, 8, regs_sm, regs_sm, 124, unit, 1, 2, 16 * KB, 16 * KB, 0, 512, 0, {0}}

static const ladder_sm_limits sm_limits_table[] = {
    ROW_1X(0, 24, 8192, 256),  /* G80: the textbook's 768 threads, 8 blocks, 8K registers */
    ROW_1X(1, 24, 8192, 256),
    ROW_1X(2, 32, 16384, 512),
    ROW_1X(3, 32, 16384, 512),
    /* Fermi: 48 KB shared (the default split), registers per warp in 64s */
    ROW(2, 0, 48, 8, 32768, 32768, 63, 64, 2, 48 * KB, 48 * KB, 0, 128),
    ROW(2, 1, 48, 8, 32768, 32768, 63, 64, 2, 48 * KB, 48 * KB, 0, 128),
    /* Kepler */
    ROW(3, 0, 64, 16, 65536, 65536, 63, 256, 4, 48 * KB, 48 * KB, 0, 256),
    ROW(3, 2, 64, 16, 65536, 32768, 255, 256, 4, 48 * KB, 48 * KB, 0, 256),
    ROW(3, 5, 64, 16, 65536, 65536, 255, 256, 4, 48 * KB, 48 * KB, 0, 256),
    ROW(3, 7, 64, 16, 131072, 65536, 255, 256, 4, 112 * KB, 48 * KB, 0, 256),
    /* Maxwell */
    ROW(5, 0, 64, 32, 65536, 65536, 255, 256, 4, 64 * KB, 48 * KB, 0, 256),
    ROW(5, 2, 64, 32, 65536, 65536, 255, 256, 4, 96 * KB, 48 * KB, 0, 256),
    ROW(5, 3, 64, 32, 65536, 32768, 255, 256, 4, 64 * KB, 48 * KB, 0, 256),
    /* Pascal: GP100 has two sub-partitions */
    ROW(6, 0, 64, 32, 65536, 65536, 255, 256, 2, 64 * KB, 48 * KB, 0, 256),
    ROW(6, 1, 64, 32, 65536, 65536, 255, 256, 4, 96 * KB, 48 * KB, 0, 256),
    ROW(6, 2, 64, 32, 65536, 32768, 255, 256, 4, 64 * KB, 48 * KB, 0, 256),
    /* Volta, Turing: shared memory carved out of the L1 */
    ROW(7, 0, 64, 32, 65536, 65536, 255, 256, 4, 96 * KB, 96 * KB, 0, 256, 0, 8, 16, 32, 64, 96),
    ROW(7, 2, 64, 32, 65536, 65536, 255, 256, 4, 96 * KB, 96 * KB, 0, 256, 0, 8, 16, 32, 64, 96),
    ROW(7, 5, 32, 16, 65536, 65536, 255, 256, 4, 64 * KB, 64 * KB, 0, 256, 32, 64),
    /* Ampere, Ada: 1 KB of every block reserved by the driver */
    ROW(8, 0, 64, 32, 65536, 65536, 255, 256, 4, 164 * KB, 163 * KB, KB, 128, 0, 8, 16, 32, 64, 100, 132, 164),
    ROW(8, 6, 48, 16, 65536, 65536, 255, 256, 4, 100 * KB, 99 * KB, KB, 128, 0, 8, 16, 32, 64, 100),
    ROW(8, 7, 48, 16, 65536, 65536, 255, 256, 4, 164 * KB, 163 * KB, KB, 128, 0, 8, 16, 32, 64, 100, 132, 164),
    ROW(8, 9, 48, 24, 65536, 65536, 255, 256, 4, 100 * KB, 99 * KB, KB, 128, 0, 8, 16, 32, 64, 100),
    /* Hopper, Blackwell */
    ROW(9, 0, 64, 32, 65536, 65536, 255, 256, 4, 228 * KB, 227 * KB, KB, 128, 0, 8, 16, 32, 64, 100, 132, 164, 196,
        228),
    ROW(10, 0, 64, 32, 65536, 65536, 255, 256, 4, 228 * KB, 227 * KB, KB, 128, 0, 8, 16, 32, 64, 100, 132, 164,
        196, 228),
    ROW(10, 3, 64, 32, 65536, 65536, 255, 256, 4, 228 * KB, 227 * KB, KB, 128, 0, 8, 16, 32, 64, 100, 132, 164,
        196, 228),
    ROW(11, 0, 48, 24, 65536, 65536, 255, 256, 4, 228 * KB, 227 * KB, KB, 128, 0, 8, 16, 32, 64, 100, 132, 164,
        196, 228),
    ROW(12, 0, 48, 24, 65536, 65536, 255, 256, 4, 100 * KB, 99 * KB, KB, 128, 0, 8, 16, 32, 64, 100),
    ROW(12, 1, 48, 24, 65536, 65536, 255, 256, 4, 100 * KB, 99 * KB, KB, 128, 0, 8, 16, 32, 64, 100),
};
static const int sm_limits_count = (int)(sizeof sm_limits_table / sizeof sm_limits_table[0]);

int ladder_sm_limits_for(int cc_major, int cc_minor, ladder_sm_limits *limits)
{
    for (int i = 0; i < sm_limits_count; ++i) {
        if (sm_limits_table[i].cc_major == cc_major && sm_limits_table[i].cc_minor == cc_minor) {
            *limits = sm_limits_table[i];
            return 0;
        }
    }
    return -1;
}

/* A capability newer than the table: the newest row below it, whose
 * allocation rules have held since 3.0, with the device's own limits. */
static const ladder_sm_limits *nearest_older_row(int cc_major, int cc_minor)
{
    const ladder_sm_limits *best = NULL;
    for (int i = 0; i < sm_limits_count; ++i) {
        const ladder_sm_limits *row = &sm_limits_table[i];
        if (row->cc_major < cc_major || (row->cc_major == cc_major && row->cc_minor < cc_minor)) best = row;
    }
    return best && best->cc_major >= 3 ? best : NULL;
}

int ladder_sm_limits_for_device(int ordinal, ladder_sm_limits *limits, char *err, size_t err_len)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(err, err_len, "no CUDA device found (%s)", e == cudaSuccess ? "device count is 0" : cudaGetErrorString(e));
        return -1;
    }
    if (ordinal < 0 || ordinal >= count) {
        snprintf(err, err_len, "no CUDA device %d (this machine has %d)", ordinal, count);
        return -1;
    }
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal) != cudaSuccess) {
        snprintf(err, err_len, "cannot read the compute capability of device %d", ordinal);
        return -1;
    }
    if (ladder_sm_limits_for(major, minor, limits) != 0) {
        const ladder_sm_limits *row = nearest_older_row(major, minor);
        if (!row) {
            snprintf(err, err_len, "compute capability %d.%d is not in the occupancy table", major, minor);
            return -1;
        }
        *limits = *row;
        limits->cc_major = major;
        limits->cc_minor = minor;
        limits->carveout_count = 0; /* its carveout steps are unknown */
    }
    struct {
        enum cudaDeviceAttr attr;
        int *field;
    } reported[] = {
        {cudaDevAttrMaxThreadsPerBlock, &limits->max_threads_per_block},
        {cudaDevAttrMaxBlocksPerMultiprocessor, &limits->max_blocks_per_sm},
        {cudaDevAttrMaxRegistersPerMultiprocessor, &limits->regs_per_sm},
        {cudaDevAttrMaxRegistersPerBlock, &limits->regs_per_block},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, &limits->smem_per_sm},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, &limits->smem_per_block},
        {cudaDevAttrReservedSharedMemoryPerBlock, &limits->smem_reserved_per_block},
    };
    for (size_t i = 0; i < sizeof reported / sizeof reported[0]; ++i) {
        int value;
        if (cudaDeviceGetAttribute(&value, reported[i].attr, ordinal) == cudaSuccess && value > 0)
            *reported[i].field = value;
    }
    int threads_per_sm;
    if (cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, ordinal) == cudaSuccess &&
        threads_per_sm > 0)
        limits->max_warps_per_sm = threads_per_sm / 32;
    return 0;
}

const char *ladder_limiter_name(ladder_limiter limiter)
{
    static const char *const names[] = {"threads", "blocks", "registers", "shared memory"};
    return names[limiter];
}

static long long round_up(long long x, long long unit)
{
    return (x + unit - 1) / unit * unit;
}

/* Blocks the register file holds; 0 with a reason when one block cannot fit. */
static int blocks_by_registers(const ladder_sm_limits *l, int warps, int regs, ladder_occupancy *r, char *why,
                               size_t why_len)
{
    if (regs > l->max_regs_per_thread) {
        snprintf(why, why_len, "%d registers per thread; compute capability %d.%d allows %d", regs,
                 l->cc_major, l->cc_minor, l->max_regs_per_thread);
        return 0;
    }
    if (regs == 0) return LADDER_UNLIMITED;
    if (l->regs_per_block_allocation) {
        /* 1.x: one allocation per block, for its warps rounded up to pairs. */
        long long per_block = round_up(round_up(warps, l->warp_alloc_granularity) * 32LL * regs, l->reg_alloc_unit);
        r->regs_per_block = (int)per_block;
        if (per_block > l->regs_per_block) {
            snprintf(why, why_len, "a block needs %lld registers; the SM has %d", per_block,
                     l->regs_per_block);
            return 0;
        }
        return (int)(l->regs_per_sm / per_block);
    }
    /* Each warp gets its registers in whole units, from one sub-partition's
     * share of the file; the launch check counts the block's warps rounded
     * up to the sub-partitions. */
    long long per_warp = round_up(32LL * regs, l->reg_alloc_unit);
    r->regs_per_block = (int)(per_warp * warps);
    long long checked = per_warp * round_up(warps, l->warp_alloc_granularity);
    if (checked > l->regs_per_block) {
        snprintf(why, why_len,
                 "a block of %d warps at %d registers per thread needs %lld registers; a block may have %d", warps,
                 regs, checked, l->regs_per_block);
        return 0;
    }
    long long warps_fit = l->regs_per_sm / l->warp_alloc_granularity / per_warp * l->warp_alloc_granularity;
    return (int)(warps_fit / warps);
}

/* Blocks the shared memory holds at the largest carveout (what the driver
 * assumes by default: cudaFuncAttributePreferredSharedMemoryCarveout unset). */
static int blocks_by_shared_memory(const ladder_sm_limits *l, long long smem, ladder_occupancy *r, char *why,
                                   size_t why_len)
{
    long long allocated = round_up(smem + l->smem_reserved_per_block, l->smem_alloc_unit);
    r->smem_per_block = allocated;
    if (smem > l->smem_per_block) {
        snprintf(why, why_len, "%lld bytes of shared memory per block; a block may have %d", smem,
                 l->smem_per_block);
        return 0;
    }
    return allocated == 0 ? LADDER_UNLIMITED : (int)(l->smem_per_sm / allocated);
}

/* The driver's choice of carveout: the smallest that holds every resident
 * block's shared memory. */
static int chosen_carveout_kb(const ladder_sm_limits *l, const ladder_occupancy *r)
{
    if (l->carveout_count == 0 || r->blocks_per_sm == 0) return -1;
    long long needed = (long long)r->blocks_per_sm * r->smem_per_block;
    for (int i = 0; i < l->carveout_count; ++i)
        if ((long long)l->carveout_kb[i] * KB >= needed) return l->carveout_kb[i];
    return l->carveout_kb[l->carveout_count - 1];
}

int ladder_occupancy_compute(const ladder_sm_limits *l, int threads, int regs, long long smem_bytes,
                             ladder_occupancy *r, char *err, size_t err_len)
{
    memset(r, 0, sizeof *r);
    if (threads < 1) {
        snprintf(err, err_len, "threads per block must be at least 1, not %d", threads);
        return -1;
    }
    if (regs < 0) {
        snprintf(err, err_len, "registers per thread must be 0 or more, not %d", regs);
        return -1;
    }
    if (smem_bytes < 0) {
        snprintf(err, err_len, "shared memory per block must be 0 or more bytes, not %lld", smem_bytes);
        return -1;
    }
    char why[4][sizeof r->reason] = {"", "", "", ""};
    r->warps_per_block = (threads + 31) / 32;
    r->max_warps_per_sm = l->max_warps_per_sm;
    if (threads > l->max_threads_per_block) {
        snprintf(why[LADDER_LIMIT_THREADS], sizeof why[0], "%d threads per block; compute capability %d.%d allows %d",
                 threads, l->cc_major, l->cc_minor, l->max_threads_per_block);
        r->blocks_by_limit[LADDER_LIMIT_THREADS] = 0;
    } else {
        r->blocks_by_limit[LADDER_LIMIT_THREADS] = l->max_warps_per_sm / r->warps_per_block;
    }
    r->blocks_by_limit[LADDER_LIMIT_BLOCKS] = l->max_blocks_per_sm;
    r->blocks_by_limit[LADDER_LIMIT_REGISTERS] =
        blocks_by_registers(l, r->warps_per_block, regs, r, why[LADDER_LIMIT_REGISTERS], sizeof why[0]);
    r->blocks_by_limit[LADDER_LIMIT_SHARED_MEMORY] =
        blocks_by_shared_memory(l, smem_bytes, r, why[LADDER_LIMIT_SHARED_MEMORY], sizeof why[0]);

    r->limiter = LADDER_LIMIT_THREADS;
    for (int k = LADDER_LIMIT_BLOCKS; k <= LADDER_LIMIT_SHARED_MEMORY; ++k)
        if (r->blocks_by_limit[k] < r->blocks_by_limit[r->limiter]) r->limiter = (ladder_limiter)k;
    r->blocks_per_sm = r->blocks_by_limit[r->limiter];
    if (r->blocks_per_sm == 0) memcpy(r->reason, why[r->limiter], sizeof r->reason);
    r->warps_per_sm = r->blocks_per_sm * r->warps_per_block;
    r->occupancy = (double)r->warps_per_sm / l->max_warps_per_sm;
    r->carveout_kb = chosen_carveout_kb(l, r);
    return 0;
}
