/* The occupancy calculator (SPEC §13): from a compute capability's per-SM
 * limits and a kernel's threads per block, registers per thread and shared
 * memory per block, how many blocks and warps an SM keeps resident and which
 * resource stops it from keeping more.
 *
 * Plain C, no CUDA, except ladder_sm_limits_for_device. The rules follow
 * NVIDIA's occupancy calculator; they are spelled out in occupancy_calc.c. */
#ifndef LADDER_OCCUPANCY_CALC_H
#define LADDER_OCCUPANCY_CALC_H

#include <stddef.h>

#define LADDER_MAX_CARVEOUTS 10

/* One compute capability's limits, in the units the hardware allocates. */
typedef struct ladder_sm_limits {
    int cc_major, cc_minor;
    int max_threads_per_block;
    int max_warps_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;              /* 32-bit registers */
    int regs_per_block;           /* the most one block may hold */
    int max_regs_per_thread;
    int reg_alloc_unit;           /* registers are handed out in multiples of this */
    int regs_per_block_allocation;/* 1: per block (1.x); 0: per warp (2.0 and later) */
    int warp_alloc_granularity;   /* warps are counted in multiples of this for registers */
    int smem_per_sm;              /* bytes, at the largest shared-memory carveout */
    int smem_per_block;           /* bytes one block may use (with the opt-in where there is one) */
    int smem_reserved_per_block;  /* bytes the driver keeps in every block (8.0 and later) */
    int smem_alloc_unit;          /* bytes */
    int carveout_count;           /* the shared/L1 splits one may configure (7.0 and later), */
    int carveout_kb[LADDER_MAX_CARVEOUTS]; /* ascending, KB; none before 7.0 */
} ladder_sm_limits;

/* What stops an SM from holding one more block; ties go to the first. */
typedef enum ladder_limiter {
    LADDER_LIMIT_THREADS,       /* warp slots (resident threads) */
    LADDER_LIMIT_BLOCKS,        /* resident blocks */
    LADDER_LIMIT_REGISTERS,
    LADDER_LIMIT_SHARED_MEMORY,
} ladder_limiter;

#define LADDER_UNLIMITED 1000000 /* a resource the kernel does not use limits nothing */

typedef struct ladder_occupancy {
    int blocks_per_sm;        /* 0: the block cannot launch at all; `reason` says why */
    int warps_per_block;
    int warps_per_sm;
    int max_warps_per_sm;
    double occupancy;         /* warps_per_sm / max_warps_per_sm, 0 to 1 */
    ladder_limiter limiter;
    int blocks_by_limit[4];   /* blocks each resource allows, by ladder_limiter */
    int regs_per_block;       /* registers allocated to one block */
    long long smem_per_block; /* shared bytes allocated to one block, reserve included */
    int carveout_kb;          /* smallest carveout holding every resident block's shared
                                 memory (what the driver picks); -1 where not configurable */
    char reason[160];         /* when blocks_per_sm is 0 */
} ladder_occupancy;

/* The limits of compute capability major.minor (1.0 to 12.1). Returns 0, or
 * -1 when the capability is unknown. */
int ladder_sm_limits_for(int cc_major, int cc_minor, ladder_sm_limits *limits);

/* The limits of CUDA device `ordinal`: its capability's table row with the
 * device's own attributes where it reports them (threads, blocks, registers,
 * shared memory per SM and per block, the reserve). Returns 0, or -1 with a
 * one-line reason (no device, unknown capability) in err. */
int ladder_sm_limits_for_device(int ordinal, ladder_sm_limits *limits, char *err, size_t err_len);

/* Resident blocks for blocks of `threads` threads using `regs` registers per
 * thread (0: none counted) and `smem_bytes` of shared memory (static plus
 * dynamic, without the driver's reserve). A configuration the hardware cannot
 * launch (too many threads, registers or bytes for one block) gives 0 blocks,
 * the resource at fault as the limiter, and a reason. Returns 0, or -1 with a
 * one-line reason in err for numbers that mean nothing: threads < 1, regs < 0,
 * smem_bytes < 0. */
int ladder_occupancy_compute(const ladder_sm_limits *limits, int threads, int regs, long long smem_bytes,
                             ladder_occupancy *result, char *err, size_t err_len);

/* "threads", "blocks", "registers", "shared memory". */
const char *ladder_limiter_name(ladder_limiter limiter);

#endif
