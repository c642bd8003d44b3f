/* The HGEMM ladder (SPEC §14): C = A * B on tensor cores, BF16 inputs, FP32
 * accumulation, C in FP32; A row-major m x k, B stored as n x k ("TN"), C
 * row-major (hgemm.h). From WMMA straight from global memory to a
 * warp-specialized, persistent wgmma kernel fed by the tensor copy engine;
 * then the shapes where C's tiles leave SMs idle: split K (few tiles, long
 * K), A and B swapped (M from 17 to 256), B's tiles narrowed to fill a
 * wave (M from 65 to 256) and a matrix-vector form (M or N
 * at most 16, decoding). The baseline is cuBLAS cublasGemmEx with the same
 * types in the same process; beside it a reference row, the same call with
 * C's rows padded to 16 bytes (cuBLAS's fast path where N is odd). Rungs 1-4 and gemv_mma need compute
 * capability 8.0, rungs 5-13 are built for sm_90a and run on 9.0 only. */
#include "hgemm.h"

#include <cublas_v2.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check/bf16.h"
#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "harness/device/device.h"
#include "harness/hardware/tensor_map.h"
#include "harness/user/load.h"
#include "ladder_try.h"

/* ---- Validation ----------------------------------------------------------------
 * The reference is the double-precision product of the BF16 inputs' exact
 * values, so the inputs' rounding to BF16 is no error: each product of two
 * BF16 values is exact in FP32, and what remains is the FP32 accumulation.
 * The tensor cores add with truncation (round toward zero, see sgemm's
 * 3xtf32 note), whose errors share a sign and add up as K u rather than
 * sqrt(K) u: the tolerance is K 2^-23 (at least sgemm's FP32 one), 4.9e-4
 * at K = 4096. A product missing one of its K terms is off by about
 * 1/sqrt(K), 1.6% at 4096, 30 times that. Above HGEMM_FULL_CHECK_MNK the
 * check covers sampled whole rows and columns, as sgemm's does (sgemm.c
 * says why that is enough), and scans every element for NaN and Inf. */

double hgemm_tolerance(long long k)
{
    double accumulation = (double)k * ldexp(1.0, -23);
    double fp32 = ladder_fp32_tolerance((double)k);
    return accumulation > fp32 ? accumulation : fp32;
}

static double dot(const float *x, const float *y, long long k)
{
    double sum = 0.0;
    for (long long p = 0; p < k; ++p) sum += (double)x[p] * y[p];
    return sum;
}

ladder_check hgemm_check_host(const float *a, const float *b_t, const float *c, long long m, long long n,
                              long long k, long long ld, const sgemm_sample *sample, double tolerance)
{
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
    long long rows = sample ? sample->row_count : m;
    /* Whole rows: every element when sample is NULL. */
#pragma omp parallel for schedule(dynamic) reduction(+ : diff_squared, ref_squared)
    for (long long r = 0; r < rows; ++r) {
        long long i = sample ? sample->rows[r] : r;
        for (long long j = 0; j < n; ++j) {
            double ref = dot(a + i * ld, b_t + j * ld, k), got = c[i * n + j];
            ref_squared += ref * ref;
            if (isfinite(got)) diff_squared += (got - ref) * (got - ref);
        }
    }
    if (sample) {
#pragma omp parallel for schedule(static) reduction(+ : diff_squared, ref_squared)
        for (long long i = 0; i < m; ++i)
            for (int q = 0; q < sample->col_count; ++q) {
                long long j = sample->cols[q];
                double ref = dot(a + i * ld, b_t + j * ld, k), got = c[i * n + j];
                ref_squared += ref * ref;
                if (isfinite(got)) diff_squared += (got - ref) * (got - ref);
            }
    }
#pragma omp parallel for schedule(static) reduction(+ : nonfinite)
    for (long long e = 0; e < m * n; ++e)
        if (!isfinite(c[e])) ++nonfinite;
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, tolerance);
}

/* ---- Tensor maps ------------------------------------------------------------------ */

/* L2 fetches each request's own 128-byte line, not the pair of lines
 * around it (256B, what the other cases' maps ask): where rows are off the
 * 128-byte grid a box row already spans two lines, and the pair then
 * brings a third. H200, one call, two rounds, swap_ab at K = 3000 against
 * 256B: 20.7, 20.6 against 22.2, 22.3 us at 130 x 7000 (0.90 of cuBLAS
 * against 0.84); 23.6, 23.4 against 25.0, 25.3 at 193 x 7000; 16.1, 16.0
 * against 16.6, 16.7 at 77 x 5000 (Nsight Compute, unpromoted: L2 sectors
 * 1.42M against 1.66M, cuBLAS's own 1.42M); level at 4096^3, 6144^3,
 * 3000^3 and 64 x 4096 x 4096; no promotion at all level with 128B. B's
 * maps ask hgemm_b_promotion's, 256B where DRAM is slow (an H100). */
#define HGEMM_L2_PROMOTION CU_TENSOR_MAP_L2_PROMOTION_L2_128B

/* Dimension 0 runs along K (contiguous), dimension 1 along the rows; the
 * box is 64 x box_rows; elements past k or rows read as zero. */
static int encode_map(CUtensorMap *map, const uint16_t *matrix, int rows, int k, int ld, int box_rows,
                      CUtensorMapL2promotion promotion, char *err, size_t err_len)
{
    uint64_t dims[2] = {(uint64_t)k, (uint64_t)rows}, strides[1] = {(uint64_t)ld * sizeof(uint16_t)};
    uint32_t box[2] = {64, (uint32_t)box_rows};
    return ladder_tensor_map(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, matrix, dims, strides, box,
                             CU_TENSOR_MAP_SWIZZLE_128B, promotion, err, err_len);
}

int hgemm_encode_tensor_maps(hgemm_problem *p, CUtensorMapL2promotion b_promotion, char *err, size_t err_len)
{
    int narrow_box = hgemm_narrow_box(p->m, p->narrow_rows, p->narrow_width);
    if (encode_map(&p->a_rows64, p->a, p->m, p->k, p->ld, 64, HGEMM_L2_PROMOTION, err, err_len) ||
        encode_map(&p->a_rows128, p->a, p->m, p->k, p->ld, 128, HGEMM_L2_PROMOTION, err, err_len) ||
        encode_map(&p->a_rows192, p->a, p->m, p->k, p->ld, 192, HGEMM_L2_PROMOTION, err, err_len) ||
        encode_map(&p->b_rows32, p->b, p->n, p->k, p->ld, 32, b_promotion, err, err_len) ||
        encode_map(&p->b_rows_narrow, p->b, p->n, p->k, p->ld, narrow_box, b_promotion, err, err_len) ||
        encode_map(&p->b_rows48, p->b, p->n, p->k, p->ld, 48, b_promotion, err, err_len) ||
        encode_map(&p->b_rows56, p->b, p->n, p->k, p->ld, 56, b_promotion, err, err_len) ||
        encode_map(&p->b_rows64, p->b, p->n, p->k, p->ld, 64, b_promotion, err, err_len) ||
        encode_map(&p->b_rows96, p->b, p->n, p->k, p->ld, 96, b_promotion, err, err_len) ||
        encode_map(&p->b_rows112, p->b, p->n, p->k, p->ld, 112, b_promotion, err, err_len) ||
        encode_map(&p->b_rows128, p->b, p->n, p->k, p->ld, 128, b_promotion, err, err_len) ||
        encode_map(&p->b_rows192, p->b, p->n, p->k, p->ld, 192, b_promotion, err, err_len) ||
        encode_map(&p->b_rows256, p->b, p->n, p->k, p->ld, 256, b_promotion, err, err_len))
        return -1;
    p->c_map_encoded = p->n % 4 == 0;
    if (p->c_map_encoded) {
        uint64_t dims[2] = {(uint64_t)p->n, (uint64_t)p->m}, strides[1] = {(uint64_t)p->n * sizeof(float)};
        uint32_t box[2] = {32, 64};
        if (ladder_tensor_map(&p->c_cols32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, p->c, dims, strides, box,
                              CU_TENSOR_MAP_SWIZZLE_128B, HGEMM_L2_PROMOTION, err, err_len))
            return -1;
    }
    return 0;
}

/* ---- Baseline --------------------------------------------------------------------- */

/* cuBLAS is column-major: row-major C (m x n) is column-major C^T (n x m),
 * and C^T = B A^T, where B stored n x k row-major is, read column-major,
 * B^T (k x n, ld): op T gives B; A stored m x k row-major is A^T (k x m).
 * So: (T, N), B first. C's rows are ldc apart. */
static void cublas_bf16_ldc(cublasHandle_t handle, const hgemm_problem *p, float *c, int ldc, cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, p->n, p->m, p->k, &one, p->b, CUDA_R_16BF, p->ld, p->a,
                              CUDA_R_16BF, p->ld, &zero, c, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
}

/* ---- The ladder --------------------------------------------------------------------- */

typedef struct hgemm_state hgemm_state;
typedef void hgemm_library_call(hgemm_state *s, cudaStream_t stream);
static void cublas_bf16(hgemm_state *s, cudaStream_t stream);
static void cublas_bf16_c_aligned(hgemm_state *s, cudaStream_t stream);

/* param: the compute capability a rung needs, as 10 major + minor; 90
 * means sm_90a code, which runs on 9.0 only. */
enum { NEEDS_SM80 = 80, NEEDS_SM90A = 90 };

#ifdef LADDER_HAVE_SM90A
#define SM90A(launcher) launcher
#else
#define SM90A(launcher) NULL
#endif

static const ladder_variant hgemm_variants[] = {
    LADDER_RUNG("wmma_global", "WMMA 16x16x16, a warp per 16x16 tile of C, fragments from global: each input re-read "
                               "n/16 or m/16 times", hgemm_wmma_global, NEEDS_SM80),
    LADDER_RUNG("wmma_shared", "128x128 block tiles staged once in padded shared memory for 8 warps of 64x32: 8x "
                               "fewer global reads", hgemm_wmma_shared, NEEDS_SM80),
    LADDER_RUNG("mma_ldmatrix", "mma.sync m16n8k16 inline PTX, ldmatrix.x4 from 128-byte-swizzled 64-deep tiles: no "
                                "bank conflicts, no padding", hgemm_mma_ldmatrix, NEEDS_SM80),
    LADDER_RUNG("mma_async_pipeline", "3-stage cp.async ring: the next tiles copy, through no registers, while this "
                                      "one multiplies", hgemm_mma_async_pipeline, NEEDS_SM80),
    LADDER_RUNG("tma_mma", "the ring filled by TMA (one thread, 2 bulk copies a tile, 128-byte swizzle) on mbarriers, "
                           "4 stages", SM90A(hgemm_tma_mma), NEEDS_SM90A),
    LADDER_RUNG("wgmma", "one warpgroup issues wgmma m64n128k16 from shared-memory descriptors: no ldmatrix, no "
                         "fragment registers", SM90A(hgemm_wgmma), NEEDS_SM90A),
    LADDER_RUNG("warp_specialized", "a TMA producer warpgroup (setmaxnreg 40), 2 consumer warpgroups (232), full and "
                                    "empty mbarriers, 6 stages", SM90A(hgemm_warp_specialized), NEEDS_SM90A),
    LADDER_RUNG("ws_128x256", "128x256 tiles, wgmma m64n256k16: a third fewer shared-memory bytes per FLOP, 4 stages",
                SM90A(hgemm_ws_128x256), NEEDS_SM90A),
    LADDER_RUNG("persistent", "a block per SM walks the tiles in groups of 8 tile rows (L2); stores overlap the next "
                              "tile's loads", SM90A(hgemm_persistent), NEEDS_SM90A),
    LADDER_RUNG("persistent_multicast", "clusters of two blocks stacked in M share their B tile: each brings half "
                                        "of it into both by TMA multicast (a third fewer L2 bytes a block); C "
                                        "through shared memory and TMA stores under the next tile; 128x192 tiles "
                                        "where they fill the waves better, 256x192 in pairs sharing A at long K",
                SM90A(hgemm_persistent_multicast), NEEDS_SM90A),
    LADDER_RUNG("split_k", "few tiles, long K: work items are tiles x slices of K, FP32 partials added in a fixed "
                           "order by a second kernel", SM90A(hgemm_split_k), NEEDS_SM90A),
    LADDER_RUNG("swap_ab", "M 17-256: C^T = B A^T, A's few rows as wgmma's N (64 to 256 wide), B's rows spread over "
                           "the SMs (64 a block, in a deeper ring, where 128 would leave half of them idle; 192 "
                           "where 128 would pass a wave); K split where the tiles keep too little of B in flight; "
                           "where rows are off the 128-byte grid, clusters of two, four or eight that share A's "
                           "tile, and two tiles across A's rows in place of K's slices; elsewhere those two "
                           "tiles side by side, sharing B's reads in L2; 64-row tiles as wide as their rows "
                           "of A, 128-row ones two across as wide as half of them; past a wave, the last "
                           "wave's tiles in slices of K",
                SM90A(hgemm_swap_ab), NEEDS_SM90A),
    LADDER_RUNG("narrow_tiles", "M 65-256: unswapped, B's tiles 80 to 320 wide, the narrowest whose tiles fit one "
                                "wave (past one, the fewest columns an SM makes in all its rounds), to fill it where "
                                "swap_ab's cannot; past 128 rows A's two tile rows in one cluster sharing B's tile, "
                                "for M up to 192 one tile row of 192 where an SM then makes less of C; up to 128, "
                                "one tile row, its tiles in pairs sharing A's",
                SM90A(hgemm_narrow_tiles), NEEDS_SM90A),
    LADDER_RUNG("gemv_mma", "M or N <= 16 (decode): stream the large operand once with 16-byte loads, warps split K, "
                            "mma.sync", hgemm_gemv_mma, NEEDS_SM80),
    LADDER_VARIANT("cublas_c_aligned", "reference, not the baseline: the same cuBLAS call with C's rows padded to 16 "
                                       "bytes (its fast path at odd N)", cublas_bf16_c_aligned, 0, LADDER_BASELINE),
    LADDER_VARIANT("cublas", "cuBLAS cublasGemmEx, BF16 in, FP32 compute and out, TN: C^T = B A^T column-major",
                   cublas_bf16, 0, LADDER_BASELINE),
};

/* `ladder try hgemm FILE.cu`: the user's ladder_try_hgemm (include/ladder_try.h) as a rung. */
typedef void tried_hgemm_entry(const ladder_bf16 *a, const ladder_bf16 *b, float *c, int m, int n, int k, int ld,
                               cudaStream_t stream);

static void tried_hgemm(const hgemm_problem *p, cudaStream_t stream)
{
    _Static_assert(LADDER_SAME_TYPE(ladder_try_hgemm, tried_hgemm_entry), "ladder_try.h disagrees with this adapter");
    ((tried_hgemm_entry *)ladder_user_entry())((const ladder_bf16 *)p->a, (const ladder_bf16 *)p->b, p->c, p->m, p->n,
                                               p->k, p->ld, stream);
    ladder_user_check_launch();
}

/* The one-warp-per-tile grids put 2 tile rows of 16 in each of at most
 * 65535 blocks along y. */
#define HGEMM_MAX_MN (65535 * 32)
#define HGEMM_MAX_K (1 << 30)

struct hgemm_state {
    hgemm_problem problem;
    /* C with rows padded to 16 bytes (c_aligned_ld floats apart) for the
     * reference call, where n is not a multiple of 4; else NULL. */
    float *c_aligned;
    int c_aligned_ld;
    int sms;
    uint16_t *host_a, *host_b;  /* BF16, rows ld apart, padding zero */
    float *value_a, *value_b;   /* the same values as FP32, for the reference */
    float *host_c;
    cublasHandle_t cublas;
    int full_check;
    sgemm_sample sample;
    int shared_optin, cc_major, cc_minor;
    int maps_encoded;
    char maps_error[200];
    char reason[200];
};

static void cublas_bf16(hgemm_state *s, cudaStream_t stream)
{
    cublas_bf16_ldc(s->cublas, &s->problem, s->problem.c, s->problem.n, stream);
}

static void cublas_bf16_c_aligned(hgemm_state *s, cudaStream_t stream)
{
    cublas_bf16_ldc(s->cublas, &s->problem, s->c_aligned, s->c_aligned_ld, stream);
}

static void destroy(void *opaque)
{
    hgemm_state *s = opaque;
    if (!s) return;
    if (s->cublas) cublasDestroy(s->cublas);
    cudaFree((void *)s->problem.a);
    cudaFree((void *)s->problem.b);
    cudaFree(s->problem.c);
    cudaFree(s->problem.partials);
    cudaFree(s->c_aligned);
    free(s->host_a);
    free(s->host_b);
    free(s->value_a);
    free(s->value_b);
    free(s->host_c);
    free(s);
}

static void dimensions(const ladder_size *size, long long *m, long long *n, long long *k)
{
    *m = size->dim[0];
    *n = size->count == 3 ? size->dim[1] : *m;
    *k = size->count == 3 ? size->dim[2] : *m;
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 && size->count != 3) {
        snprintf(err, err_len, "hgemm takes MxNxK or N (square)");
        return 1;
    }
    long long m, n, k;
    dimensions(size, &m, &n, &k);
    if (m > HGEMM_MAX_MN || n > HGEMM_MAX_MN || k > HGEMM_MAX_K) {
        snprintf(err, err_len, "M and N must be at most %d, K at most %d", HGEMM_MAX_MN, HGEMM_MAX_K);
        return 1;
    }
    return 0;
}

/* Room for `slices` FP32 partials of C's c_count floats; NULL where there
 * is no slicing, or no room. */
static float *partials_or_null(int slices, size_t c_count)
{
    float *partials = NULL;
    if (slices > 1 && ladder_try_cuda_malloc((void **)&partials, (size_t)slices * c_count * sizeof(float)))
        return NULL;
    return partials;
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size_error(size, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    long long m, n, k;
    dimensions(size, &m, &n, &k);
    hgemm_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    hgemm_problem *p = &s->problem;
    p->m = (int)m;
    p->n = (int)n;
    p->k = (int)k;
    p->ld = hgemm_ld(p->k);
    size_t a_count = (size_t)m * p->ld, b_count = (size_t)n * p->ld, c_count = (size_t)m * n;
    ladder_buffers b = {0};
    ladder_buffers_pair(&b, (void **)&s->host_a, (void **)&p->a, a_count * sizeof(uint16_t));
    ladder_buffers_pair(&b, (void **)&s->host_b, (void **)&p->b, b_count * sizeof(uint16_t));
    ladder_buffers_host(&b, (void **)&s->value_a, a_count * sizeof(float));
    ladder_buffers_host(&b, (void **)&s->value_b, b_count * sizeof(float));
    ladder_buffers_pair(&b, (void **)&s->host_c, (void **)&p->c, c_count * sizeof(float));
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    /* The rows' padding past K stays zero: the inputs fill K columns only. */
    memset(s->host_a, 0, a_count * sizeof(uint16_t));
    memset(s->host_b, 0, b_count * sizeof(uint16_t));
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->sms, cudaDevAttrMultiProcessorCount, device));
    p->split_k = hgemm_split_k_count(p->m, p->n, p->k, s->sms);
    p->swap_ab_rows = hgemm_swap_ab_rows(p->m, p->n, s->sms);
    p->swap_ab_tile_width = hgemm_swap_ab_tile_width(p->m, p->n, s->sms);
    double dram_gbps = ladder_peak_dram_gbps(device), stream_bytes = hgemm_stream_bytes(dram_gbps);
    p->swap_ab_splits = hgemm_swap_ab_width(p->m) ? hgemm_swap_ab_splits(p->m, p->n, p->k, s->sms, stream_bytes) : 1;
    p->swap_ab_cluster = p->swap_ab_pair = 1;
    p->swap_ab_whole = p->swap_ab_sum_in_cluster = 0;
    p->narrow_rows = hgemm_narrow_rows(p->m, p->n, s->sms);
    p->narrow_width = p->narrow_rows == 128 ? hgemm_narrow_width(p->m, p->n, s->sms)
                                            : hgemm_narrow_tall_width(p->m, p->n, s->sms);
    s->c_aligned_ld = (p->n + 3) / 4 * 4;
    /* The padded C and the partials (below, once swap_ab's slices are
     * known) are extras: without room for them the reference and the
     * split-K rungs skip, the ladder still runs. */
    if (s->c_aligned_ld != p->n &&
        ladder_try_cuda_malloc((void **)&s->c_aligned, (size_t)m * s->c_aligned_ld * sizeof(float)))
        s->c_aligned = NULL;
    CUDA_CHECK(cudaDeviceGetAttribute(&s->shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->cc_major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->cc_minor, cudaDevAttrComputeCapabilityMinor, device));
    int khz;
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
    double dram_bytes_per_clock = dram_gbps / (khz / 1e6);
    if (s->cc_major == 9 && s->cc_minor == 0)
        s->maps_encoded = hgemm_encode_tensor_maps(p, hgemm_b_promotion(dram_bytes_per_clock, s->sms), s->maps_error,
                                                   sizeof s->maps_error) == 0;
#ifdef LADDER_HAVE_SM90A
    if (s->maps_encoded) {
        p->cluster_blocks = hgemm_cluster_blocks(p, 2);
        p->cluster4_blocks = hgemm_cluster_blocks(p, 4);
        p->cluster8_blocks = hgemm_swap_ab_pair_blocks(p);
    }
    p->multicast = hgemm_multicast_shape_for(p->m, p->n, p->k, p->ld, p->cluster_blocks,
                                             p->c_map_encoded ? p->cluster4_blocks : 0,
                                             p->c_map_encoded ? p->cluster_blocks : 0);
    if (s->maps_encoded && hgemm_swap_ab_width(p->m)) {
        hgemm_swap_ab_shape shape = hgemm_swap_ab_shape_for(p->m, p->n, p->k, p->ld, s->sms, stream_bytes,
                                                            p->cluster_blocks, p->cluster4_blocks,
                                                            p->cluster8_blocks, dram_bytes_per_clock);
        p->swap_ab_rows = shape.rows;
        p->swap_ab_tile_width = shape.width;
        p->swap_ab_splits = shape.splits;
        p->swap_ab_cluster = shape.cluster;
        p->swap_ab_pair = shape.pair;
        p->swap_ab_whole = shape.whole;
        p->swap_ab_sum_in_cluster = shape.sum_in_cluster;
        /* A's map, for the tile the shape took: in clusters, a block
         * brings its share of the tile */
        int cols = hgemm_swap_ab_tile_cols(p->m, p->swap_ab_tile_width);
        s->maps_encoded = encode_map(&p->a_rows_swap, p->a, p->m, p->k, p->ld,
                                     hgemm_cluster_share(cols, p->swap_ab_cluster), HGEMM_L2_PROMOTION,
                                     s->maps_error, sizeof s->maps_error) == 0;
    }
#endif
    int swap_ab_partials = p->swap_ab_sum_in_cluster ? 1 : p->swap_ab_splits;
    p->partials = partials_or_null(p->split_k > swap_ab_partials ? p->split_k : swap_ab_partials, c_count);
    if (!p->partials && p->swap_ab_whole) {
        /* swap_ab's last wave goes whole again rather than not at all;
         * split_k may still find room for its own slices */
        p->swap_ab_splits = 1, p->swap_ab_whole = 0;
        p->partials = partials_or_null(p->split_k, c_count);
    }
    CUBLAS_CHECK(cublasCreate(&s->cublas));
    s->full_check = (double)m * n * k <= (double)HGEMM_FULL_CHECK_MNK;
    return s;
}

/* rows x k values uniform on [-1, 1], rounded to BF16, into rows ld apart
 * (bits and values); the padding stays zero. */
static void fill_matrix(uint16_t *bits, float *values, long long rows, long long k, long long ld, uint64_t seed)
{
    ladder_fill_uniform(values, (size_t)(rows * k), seed, -1.0f, 1.0f);
    /* Spread the rows from the back, so that none is overwritten unread. */
    for (long long i = rows - 1; i >= 0; --i) {
        for (long long p = k - 1; p >= 0; --p) {
            uint16_t h = ladder_to_bf16(values[i * k + p]);
            bits[i * ld + p] = h;
            values[i * ld + p] = ladder_from_bf16(h);
        }
        for (long long p = k; p < ld; ++p) values[i * ld + p] = 0.0f;
    }
}

/* Signed inputs: products cancel, so a missing or doubled term moves the
 * relative error by about 1/sqrt(K). A, B and the sample each draw from
 * their own stream of the seed. */
static void fill_inputs(void *opaque, uint64_t seed)
{
    hgemm_state *s = opaque;
    hgemm_problem *p = &s->problem;
    size_t a_count = (size_t)p->m * p->ld, b_count = (size_t)p->n * p->ld;
    fill_matrix(s->host_a, s->value_a, p->m, p->k, p->ld, seed);
    fill_matrix(s->host_b, s->value_b, p->n, p->k, p->ld, ladder_hash64(seed));
    CUDA_CHECK(cudaMemcpy((void *)p->a, s->host_a, a_count * sizeof(uint16_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy((void *)p->b, s->host_b, b_count * sizeof(uint16_t), cudaMemcpyHostToDevice));
    if (!s->full_check) sgemm_draw_sample(p->m, p->n, ladder_hash64(ladder_hash64(seed)), &s->sample);
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    hgemm_state *s = opaque;
    const hgemm_problem *p = &s->problem;
    if (v->impl == (ladder_impl)cublas_bf16_c_aligned && !s->c_aligned)
        return s->c_aligned_ld == p->n
                   ? "C's rows are 16-byte aligned already (N a multiple of 4): the baseline's call"
                   : "no device memory for the padded copy of C";
    if (v->flags & LADDER_BASELINE) return NULL;
    if (s->cc_major < 8) return "BF16 tensor-core instructions (WMMA, mma.sync .bf16) need compute capability 8.0 or later";
    if (v->param == NEEDS_SM90A) {
        if (!v->impl) return "built without sm_90a code: this build's CUDA architectures do not include 90";
        if (s->cc_major != 9 || s->cc_minor != 0)
            return "TMA, wgmma and setmaxnreg code built for sm_90a, which runs on compute capability 9.0 only";
        if (!s->maps_encoded) return s->maps_error;
    }
    if (v->impl == (ladder_impl)hgemm_gemv_mma && p->m > HGEMM_GEMV_MAX_ROWS && p->n > HGEMM_GEMV_MAX_ROWS)
        return "a matrix-vector form: M or N must be at most 16 (decode shapes)";
#ifdef LADDER_HAVE_SM90A
    if ((v->impl == (ladder_impl)hgemm_persistent_multicast || v->impl == (ladder_impl)hgemm_narrow_tiles) &&
        p->cluster_blocks == 0)
        return "no cluster of two of its blocks fits on this device";
    if (v->impl == (ladder_impl)hgemm_narrow_tiles && (p->m <= 64 || p->m > HGEMM_SWAP_AB_MAX_M))
        return "M from 65 to 256 only: one or two tile rows of 128";
    if (v->impl == (ladder_impl)hgemm_swap_ab) {
        if (!hgemm_swap_ab_width(p->m))
            return "M above 256: A's rows do not fit wgmma's N side (the square-tile rungs' shapes)";
        if (p->swap_ab_splits > 1 && !p->swap_ab_sum_in_cluster && !p->partials)
            return "no device memory for the FP32 partials";
        hgemm_swap_ab_shape shape = {p->swap_ab_rows,    p->swap_ab_tile_width, p->swap_ab_splits,
                                     p->swap_ab_cluster, p->swap_ab_pair,       p->swap_ab_whole,
                                     p->swap_ab_sum_in_cluster};
        if (!hgemm_swap_ab_launchable(shape)) {
            snprintf(s->reason, sizeof s->reason, "no kernel for its shape (%d rows, %d wide, clusters of %d x %d)",
                     shape.rows, shape.width, shape.cluster, shape.pair);
            return s->reason;
        }
    }
    if (v->impl == (ladder_impl)hgemm_split_k && (p->split_k == 1 || !p->partials)) {
        if (p->split_k > 1) return "no device memory for the FP32 partials";
        snprintf(s->reason, sizeof s->reason,
                 "%d tiles of 128x128 fill half the GPU's %d SMs or more, or K (%d) is too short to cut: nothing "
                 "to split", ((p->m + 127) / 128) * ((p->n + 127) / 128), s->sms, p->k);
        return s->reason;
    }
#endif
    hgemm_launcher *rung = (hgemm_launcher *)v->impl;
    size_t need = hgemm_sm80_shared_bytes(rung);
#ifdef LADDER_HAVE_SM90A
    if (v->param == NEEDS_SM90A) need = hgemm_sm90a_shared_bytes(rung);
#endif
    if (need > (size_t)s->shared_optin) {
        snprintf(s->reason, sizeof s->reason, "needs %.1f KB of shared memory a block; this GPU grants %.1f KB",
                 need / 1024.0, s->shared_optin / 1024.0);
        return s->reason;
    }
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    hgemm_state *s = opaque;
    if (v->flags & LADDER_BASELINE)
        ((hgemm_library_call *)v->impl)(s, stream);
    else
        ((hgemm_launcher *)v->impl)(&s->problem, stream);
}

static int writes_c_aligned(const ladder_variant *v)
{
    return v->impl == (ladder_impl)cublas_bf16_c_aligned;
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    hgemm_state *s = opaque;
    const hgemm_problem *p = &s->problem;
    if (writes_c_aligned(v))
        return (ladder_output){s->c_aligned, (size_t)p->m * s->c_aligned_ld * sizeof(float), 0xFF};
    return (ladder_output){p->c, (size_t)p->m * p->n * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    hgemm_state *s = opaque;
    const hgemm_problem *p = &s->problem;
    if (writes_c_aligned(v))
        CUDA_CHECK(cudaMemcpy2D(s->host_c, (size_t)p->n * sizeof(float), s->c_aligned,
                                (size_t)s->c_aligned_ld * sizeof(float), (size_t)p->n * sizeof(float), (size_t)p->m,
                                cudaMemcpyDeviceToHost));
    else
        CUDA_CHECK(cudaMemcpy(s->host_c, p->c, (size_t)p->m * p->n * sizeof(float), cudaMemcpyDeviceToHost));
    return hgemm_check_host(s->value_a, s->value_b, s->host_c, p->m, p->n, p->k, p->ld,
                            s->full_check ? NULL : &s->sample, hgemm_tolerance(p->k));
}

/* The least traffic: A and B read once (2 bytes an element), C written once
 * (4 bytes). */
static ladder_work work(void *opaque)
{
    hgemm_state *s = opaque;
    double m = s->problem.m, n = s->problem.n, k = s->problem.k;
    return (ladder_work){2.0 * (m * k + n * k) + 4.0 * m * n, 2.0 * m * n * k};
}

const ladder_case hgemm_case = {
    .name = "hgemm",
    .title = "matrix multiply on tensor cores, BF16 in, FP32 accumulate and out: WMMA to warp-specialized wgmma",
    .size_help = "MxNxK or N (square); any sizes >= 1",
    .default_size = "4096,8192,6144,4095x4097x4093,1x4096x4096,16x4096x4096,4096x1x4096,256x256x65536,"
                    "32x11008x4096,128x4096x14336",
    .quick_size = "2048",
    .test_sizes = {"256x256x256", "129x257x95", "1x256x256", "256x1x256", "200x136x1", "300x520x136",
                   "200x136x4000" /* split_k: 4 tiles, 63 k-tiles */,
                   "2305x2100x130" /* persistent_multicast in clusters of four (rows off the 128-byte grid), 192
                                      wide: 19 tile rows, the last cluster 3 past M, clusters taking several */,
                   "40x1000x700" /* swap_ab at width 64 in 2 slices */, NULL},
    .ceiling = LADDER_CEILING_BF16_TENSOR,
    .try_template = "hgemm/hgemm_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_hgemm, NEEDS_SM80),
    .variants = hgemm_variants,
    .variant_count = (int)(sizeof hgemm_variants / sizeof hgemm_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = unsupported,
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
