/* Occupancy (SPEC §13): a memory-bound copy run at forced occupancy levels,
 * block sizes and grid sizes; and the probe kernels that hold the calculator
 * (harness/occupancy_calc.h) to cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
#ifndef LADDER_OCCUPANCY_CASE_H
#define LADDER_OCCUPANCY_CASE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = in[i] for i < n: `grid` blocks of `block` threads walk the array
 * in a grid-stride loop, each thread one load in flight at a time, with
 * `dynamic_smem` bytes of shared memory that the kernel never touches: they
 * only keep other blocks off the SM. */
void occupancy_copy(const float *in, float *out, long long n, int block, int grid, int dynamic_smem,
                    cudaStream_t stream);

/* The copy kernel's registers per thread and static shared memory. */
void occupancy_copy_attributes(int *regs, int *static_smem);

/* Let the copy kernel take up to `bytes` of dynamic shared memory (past the
 * 48 KB default). */
void occupancy_copy_allow_smem(int bytes);

/* cudaOccupancyMaxActiveBlocksPerMultiprocessor for the copy kernel. */
int occupancy_copy_api_blocks(int block, int dynamic_smem);

/* One probe configuration checked on the device: a kernel, a launch shape,
 * what the compiler gave it and what the runtime says fits. */
typedef struct occupancy_probe {
    const char *name;
    int threads, dynamic_smem;
    int regs, static_smem;    /* cudaFuncGetAttributes */
    int api_blocks;           /* cudaOccupancyMaxActiveBlocksPerMultiprocessor; 0 on its error */
    const char *api_error;    /* NULL, or the runtime's error string */
    int mismatches;           /* output elements that differ from the host's, when launched */
    int launched;             /* launched (only configurations with at least one block) */
} occupancy_probe;

int occupancy_probe_count(void);

/* Query probe `index` and, where a block fits, launch it and check its
 * output on the host. The kernel first opts in to all the dynamic shared
 * memory a block may have: `smem_per_block_optin` less its static bytes. */
void occupancy_probe_run(int index, int smem_per_block_optin, occupancy_probe *probe);

#ifndef __CUDACC__
#include "harness/device/occupancy_calc.h"
/* Dynamic shared memory per block with which exactly `blocks` blocks of a
 * kernel (threads, regs, static_smem) fit an SM: the largest allocation
 * that `blocks` of them fit, less the driver's reserve and the static
 * bytes. -1 when no size forces that count (threads or block slots run out
 * first). */
int occupancy_forcing_smem(const ladder_sm_limits *limits, int threads, int regs, int static_smem, int blocks);
#endif

#ifdef __cplusplus
}
#endif

#endif
