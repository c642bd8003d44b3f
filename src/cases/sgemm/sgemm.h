/* SGEMM (SPEC §5): C (m x n) = A (m x k) * B (k x n), all row-major FP32.
 * Every launcher takes any m, n, k >= 1 (the single-block rung needs
 * m, n <= 32 and is skipped elsewhere by the case). */
#ifndef LADDER_SGEMM_H
#define LADDER_SGEMM_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void sgemm_launcher(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream);

/* The GPU rungs, in ladder order. */
sgemm_launcher sgemm_single_block;
sgemm_launcher sgemm_naive;
sgemm_launcher sgemm_naive_coalesced;
sgemm_launcher sgemm_tiled16;
sgemm_launcher sgemm_tiled16_prefetch;
sgemm_launcher sgemm_tiled16_unrolled;
sgemm_launcher sgemm_register_1d;
sgemm_launcher sgemm_register_2d;
sgemm_launcher sgemm_vectorized;
sgemm_launcher sgemm_conflict_free;
sgemm_launcher sgemm_warp_tiling;
sgemm_launcher sgemm_async_2stage;
sgemm_launcher sgemm_async_4stage;
sgemm_launcher sgemm_swizzled;
sgemm_launcher sgemm_tile_128x128_k16;
sgemm_launcher sgemm_tile_128x256;
sgemm_launcher sgemm_tile_128x128_4warps;
sgemm_launcher sgemm_tile_128x128_k32;
sgemm_launcher sgemm_tile_by_size;
sgemm_launcher sgemm_tf32;
sgemm_launcher sgemm_3xtf32;

/* The Hopper rungs (sgemm_sm90a_kernels.cu): TF32 and 3xTF32 on wgmma, fed
 * by the tensor copy engine. Built when the CUDA architectures include 90
 * (LADDER_HAVE_SM90A), run on compute capability 9.0 only. Their problem
 * carries what the case prepares once per size (sgemm_wgmma_prepare): the
 * tensor maps, and scratch for what the launchers write before the
 * multiply, inside the rung's time. */
typedef struct sgemm_wgmma_problem {
    const float *a, *b;
    float *c;
    int m, n, k;
    int sms;
    /* Blocks of tf32_wgmma_multicast resident at once, in clusters of two
     * (sgemm_wgmma_cluster_blocks); 0 where no such cluster fits. */
    int cluster_blocks;
    /* Rows of the staged copies: K (A) and N (B) rounded up to a multiple of
     * 4, as TMA needs rows 16 bytes apart. */
    int lda, ldb;
    /* A and B in such rows, where K (N) is not a multiple of 4; else NULL
     * and the maps read A (B) in place. */
    float *a_padded, *b_padded;
    /* 3xtf32: A's TF32 high and low parts, m x lda each. */
    float *a_high, *a_low;
    /* A (or a_padded) in boxes of 32 floats x 128 and x 256 rows, 128-byte
     * swizzle; a_high and a_low in boxes of 32 x 128; B (or b_padded) in
     * boxes of 136 columns x 32 rows of K, unswizzled. */
    CUtensorMap a_rows128, a_rows256, a_high_rows128, a_low_rows128, b_rows32;
} sgemm_wgmma_problem;

typedef void sgemm_wgmma_launcher(const sgemm_wgmma_problem *problem, cudaStream_t stream);

sgemm_wgmma_launcher sgemm_tf32_wgmma;
sgemm_wgmma_launcher sgemm_tf32_wgmma_multicast;
sgemm_wgmma_launcher sgemm_3xtf32_wgmma;
int sgemm_wgmma_cluster_blocks(const sgemm_wgmma_problem *problem);
/* Dynamic shared memory a block of the rung asks for. */
size_t sgemm_wgmma_shared_bytes(sgemm_wgmma_launcher *rung);

/* Dynamic shared memory a rung asks for per block, where that is more than
 * the 48 KB every GPU grants without opting in; 0 for the others. A device
 * whose cudaDevAttrMaxSharedMemoryPerBlockOptin is smaller cannot run it. */
size_t sgemm_shared_bytes(sgemm_launcher *rung);

/* The one-block rung: one thread per element of C, one block. */
#define SGEMM_SINGLE_BLOCK_MAX 32
/* The one-thread-per-element grids put 8 rows (or columns) of C in each of
 * at most 65535 blocks along y. */
#define SGEMM_MAX_MN (65535 * 8)

/* Thread-block swizzle: block `id` of a blocks_m x blocks_n grid of C tiles
 * takes the tile (*tile_m, *tile_n), walking groups of group_m tile rows
 * column by column, so that blocks running at the same time share A row
 * panels and B column panels in L2. group_m = 1 is plain row-major order.
 * Every tile is visited exactly once (sgemm_test checks it). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline void sgemm_swizzled_tile(int id, int blocks_m, int blocks_n, int group_m, int *tile_m, int *tile_n)
{
    int group_size = group_m * blocks_n;
    int first_m = id / group_size * group_m;
    int rows = blocks_m - first_m < group_m ? blocks_m - first_m : group_m;
    int in_group = id % group_size;
    *tile_m = first_m + in_group % rows;
    *tile_n = in_group / rows;
}

/* x rounded to TF32 (10 mantissa bits), to nearest with ties away from
 * zero, as cvt.rna.tf32.f32 rounds: adding half of the lowest kept bit to
 * the magnitude bits carries into the kept bits (and the exponent) exactly
 * when the dropped 13 bits are at least half of it. The tensor rungs split
 * with this function, and the CPU test checks it. For finite x only (the
 * largest floats round to infinity, as in TF32; an infinity would become
 * NaN). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline float sgemm_tf32_round(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = (bits + 0x1000u) & 0xFFFFE000u;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* TF32's unit roundoff: 11 significant bits, rounded to nearest. */
#define SGEMM_TF32_UNIT_ROUNDOFF (1.0 / 2048.0)

#ifndef __CUDACC__
#include "harness/case.h"

/* The CPU rungs (C is host memory). */
void sgemm_cpu_serial(const float *a, const float *b, float *c, long long m, long long n, long long k);
void sgemm_cpu_blocked(const float *a, const float *b, float *c, long long m, long long n, long long k);

/* Which elements of C a check compares with the double reference: whole
 * rows and whole columns. Above SGEMM_FULL_CHECK_MNK multiply-adds the
 * reference covers only a sample (see sgemm.c for why that is enough). */
#define SGEMM_FULL_CHECK_MNK (1LL << 30)
#define SGEMM_SAMPLE_LINES 32

typedef struct sgemm_sample {
    long long rows[SGEMM_SAMPLE_LINES], cols[SGEMM_SAMPLE_LINES];
    int row_count, col_count;
} sgemm_sample;

/* Distinct rows and columns drawn from seed, the first and last of each
 * always among them; every row (column) when there are at most
 * SGEMM_SAMPLE_LINES. */
void sgemm_draw_sample(long long m, long long n, uint64_t seed, sgemm_sample *sample);

/* Compare C with a double-precision reference of A*B: every element when
 * sample is NULL, else the sampled rows and columns. Either way every
 * element of C is scanned for NaN and Inf. */
ladder_check sgemm_check_host(const float *a, const float *b, const float *c, long long m, long long n, long long k,
                              const sgemm_sample *sample, double tolerance);

/* What a check accepts: an FP32 product (every rung but tf32, 3xtf32
 * included), and the TF32 one (the tf32 rung: its inputs are rounded). */
double sgemm_tolerance(long long k);
double sgemm_tf32_tolerance(long long k);
#endif

#ifdef __cplusplus
}
#endif

#endif
