/* Shared-memory bank conflicts (SPEC §3b, 3c): every lane of a warp reads
 * shared memory at lane * stride words, for strides 1..33 with 4-, 8- and
 * 16-byte words, a broadcast, and a 32 x 32 tile read by rows, by columns,
 * and by columns with the tile padded to 33. Each thread sums what it reads
 * (wrapping 32-bit integer adds) and writes the sum, which the CPU model
 * predicts exactly from the table the block loaded. */
#ifndef LADDER_SMEM_BANKS_H
#define LADDER_SMEM_BANKS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_BANKS_THREADS 256
/* Shared reads per thread per repeat, unrolled. */
#define SMEM_BANKS_UNROLL 32
/* Elements of the table each block loads: lane * stride + u reaches
 * 31 * 33 + 31 for stride 33. */
#define SMEM_BANKS_TABLE_ELEMENTS (32 * 33)
/* 32-bit words in the global table: enough for 16-byte elements. */
#define SMEM_BANKS_TABLE_WORDS (SMEM_BANKS_TABLE_ELEMENTS * 4)

/* table: SMEM_BANKS_TABLE_WORDS words; sums: one per thread, blocks *
 * SMEM_BANKS_THREADS; param: the stride in elements (0: every lane reads the
 * same element), unused by the tile rungs. */
typedef void smem_banks_launcher(const uint32_t *table, uint32_t *sums, int blocks, int repeats, int param,
                                 cudaStream_t stream);

smem_banks_launcher smem_banks_sweep_4;  /* 4-byte elements */
smem_banks_launcher smem_banks_sweep_8;  /* 8-byte elements (uint2) */
smem_banks_launcher smem_banks_sweep_16; /* 16-byte elements (uint4) */
smem_banks_launcher smem_banks_tile_rows;
smem_banks_launcher smem_banks_tile_columns;
smem_banks_launcher smem_banks_tile_columns_padded;

#ifndef __CUDACC__
#include "harness/case.h"
/* The sum that thread `lane` of any warp of variant v must write. */
uint32_t smem_banks_expected_sum(const ladder_variant *v, const uint32_t *table, int lane, int repeats);
#endif

#ifdef __cplusplus
}
#endif

#endif
