/* HGEMM (SPEC §14): C = A * B on tensor cores, BF16 inputs, FP32
 * accumulation, C in FP32, in every rung and in the cuBLAS baseline.
 * Layout "TN": A is m x k row-major; B is stored column-major, that is as
 * its transpose, n x k row-major; C is m x n row-major. Both operands are
 * then K-contiguous, the layout that mma.sync (row.col) and wgmma read
 * without transposing. Rows of A and B are `ld` elements apart: k rounded
 * up to a multiple of 8 (16 bytes, what the tensor copy engine requires of
 * a row stride), the padding zero; no rung reads it as data. Every launcher
 * takes any m, n, k >= 1. */
#ifndef LADDER_HGEMM_H
#define LADDER_HGEMM_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

/* How each rung shapes its tiles for a problem on a card: pure functions
 * of the sizes and the card's figures, tested on the CPU by hgemm_test.
 * The cost model and the square tiles' shapes (hgemm_costs.h), swap_ab's
 * rules (hgemm_swap_ab_tiles.h, then hgemm_swap_ab_shape.h) and
 * narrow_tiles' (hgemm_narrow_shape.h), each header on top of the one
 * before. */
#include "hgemm_narrow_shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Row strides are multiples of this many elements. */
#define HGEMM_LD_ALIGN 8

typedef struct hgemm_problem {
    const uint16_t *a, *b; /* BF16 bit patterns, device memory */
    float *c;
    int m, n, k, ld;
    /* The TMA rungs' tensor maps (hgemm_encode_tensor_maps): A in boxes of 64
     * (half of narrow_tiles' one tile row, for each block of a pair), 128
     * and 192 rows (narrow_tiles' tall tiles), B in boxes of 32 (half of
     * swap_ab's short tiles in pairs), 48, 56 and 64 (a quarter of
     * persistent_multicast's tiles in clusters of four; 64 also swap_ab's short
     * tiles), 96, 112 and 128 (a half, in clusters of two), 192 (swap_ab's tall
     * tiles) and 256 rows; each box 64 elements (128 bytes) of K, 128-byte
     * swizzle, zeros outside the matrix. For swap_ab, A in boxes of
     * hgemm_swap_ab_tile_cols rows, or in clusters of its hgemm_cluster_share,
     * encoded once its shape is chosen (unset past HGEMM_SWAP_AB_MAX_M, and
     * without sm_90a kernels). For narrow_tiles, B in boxes of
     * hgemm_narrow_box rows. */
    CUtensorMap a_rows64, a_rows128, a_rows192, b_rows32, b_rows_narrow, b_rows48, b_rows56, b_rows64, b_rows96,
        b_rows112, b_rows128, b_rows192, b_rows256, a_rows_swap;
    /* C (FP32) in boxes of 32 columns (128 bytes, 128-byte swizzle) by 64
     * rows, for the epilogue of TMA stores; encoded (c_map_encoded) where
     * C's rows are a multiple of 16 bytes long (n % 4 == 0). */
    CUtensorMap c_cols32;
    int c_map_encoded;
    /* The split-K rungs' FP32 partial products: split_k slices of m x n
     * for split_k (hgemm_split_k_count), swap_ab_splits for swap_ab
     * (hgemm_swap_ab_splits), room for the more of the two; NULL where
     * neither splits. */
    float *partials;
    int split_k, swap_ab_splits;
    /* swap_ab's shape (hgemm_swap_ab_shape_for): rows of B a tile, wgmma
     * width, blocks a cluster along B's rows that share A's tile (1, 2 or
     * 4), tile columns side by side that share B's (1 or 2), and the units
     * done whole before those cut into swap_ab_splits slices (0: all cut),
     * and whether the slices add up in their clusters (no partials) */
    int swap_ab_rows, swap_ab_tile_width, swap_ab_cluster, swap_ab_pair, swap_ab_whole, swap_ab_sum_in_cluster;
    /* narrow_tiles' tile rows (hgemm_narrow_rows) and width
     * (hgemm_narrow_width, or hgemm_narrow_tall_width for 192 rows) */
    int narrow_rows, narrow_width;
    /* Blocks of persistent_multicast resident at once, in clusters of two
     * and of four (hgemm_cluster_blocks; swap_ab's clusters of four take
     * the latter too); 0 where no such cluster fits. Its shape
     * (hgemm_multicast_shape_for; fours only with C's tensor map). */
    int cluster_blocks, cluster4_blocks;
    /* swap_ab's blocks resident at once in clusters of eight
     * (hgemm_swap_ab_pair_blocks) */
    int cluster8_blocks;
    hgemm_multicast_shape multicast;
} hgemm_problem;

typedef void hgemm_launcher(const hgemm_problem *problem, cudaStream_t stream);

/* The rungs before the tensor copy engine (sm_80+; hgemm_kernels.cu). */
hgemm_launcher hgemm_wmma_global;
hgemm_launcher hgemm_wmma_shared;
hgemm_launcher hgemm_mma_ldmatrix;
hgemm_launcher hgemm_mma_async_pipeline;
/* Decode shapes: min(m, n) <= HGEMM_GEMV_MAX_ROWS. */
hgemm_launcher hgemm_gemv_mma;
#define HGEMM_GEMV_MAX_ROWS 16

/* The Hopper rungs (hgemm_sm90a_kernels.cu, rungs 5-10,
 * hgemm_skinny_sm90a_kernels.cu, rungs 11-12, and
 * hgemm_narrow_sm90a_kernels.cu, rung 13): built when the CUDA
 * architectures include 90 (LADDER_HAVE_SM90A), run on compute
 * capability 9.0 only. */
hgemm_launcher hgemm_tma_mma;
hgemm_launcher hgemm_wgmma;
hgemm_launcher hgemm_warp_specialized;
hgemm_launcher hgemm_ws_128x256;
hgemm_launcher hgemm_persistent;
hgemm_launcher hgemm_persistent_multicast;
hgemm_launcher hgemm_split_k;
hgemm_launcher hgemm_swap_ab; /* m <= HGEMM_SWAP_AB_MAX_M */
hgemm_launcher hgemm_narrow_tiles; /* 64 < m <= HGEMM_SWAP_AB_MAX_M */
int hgemm_cluster_blocks(const hgemm_problem *problem, int cluster);
int hgemm_swap_ab_pair_blocks(const hgemm_problem *problem);

/* Fill the problem's tensor maps through the driver's cuTensorMapEncodeTiled
 * (found with cudaGetDriverEntryPointByVersion: no -lcuda), narrow_rows and
 * narrow_width set first, B's with the L2 promotion given (hgemm_b_promotion).
 * Returns 0, or -1 with the reason in err. */
int hgemm_encode_tensor_maps(hgemm_problem *problem, CUtensorMapL2promotion b_promotion, char *err, size_t err_len);

/* Dynamic shared memory a rung of each object asks for per block (0 for
 * the WMMA rungs' static arrays, and for rungs of the other object); the
 * case skips a rung the device cannot grant. */
size_t hgemm_sm80_shared_bytes(hgemm_launcher *rung);
size_t hgemm_sm90a_shared_bytes(hgemm_launcher *rung); /* with LADDER_HAVE_SM90A only */

/* The row stride for k elements: k rounded up to HGEMM_LD_ALIGN. */
static inline int hgemm_ld(int k)
{
    return hgemm_round_up(k, HGEMM_LD_ALIGN);
}

#ifndef __CUDACC__
#include "harness/case.h"
#include "cases/sgemm/sgemm.h"

/* Above this many multiply-adds a check compares sampled rows and columns
 * (sgemm's sample: whole rows and columns, first and last among them). */
#define HGEMM_FULL_CHECK_MNK SGEMM_FULL_CHECK_MNK

/* Compare C with the double-precision product of A (m x k) and B given as
 * n x k (both the FP32 values of the BF16 inputs, rows ld apart): every
 * element when sample is NULL, else the sampled rows and columns; every
 * element scanned for NaN and Inf. */
ladder_check hgemm_check_host(const float *a, const float *b_t, const float *c, long long m, long long n,
                              long long k, long long ld, const sgemm_sample *sample, double tolerance);

/* What a check accepts for sums of k exact products in FP32. */
double hgemm_tolerance(long long k);
#endif

#ifdef __cplusplus
}
#endif

#endif
