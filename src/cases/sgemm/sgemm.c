/* The SGEMM ladder (SPEC §5): C = A * B in FP32, row-major, any M x N x K.
 * From the textbook's CPU loop and its one-block kernel to a pipelined,
 * warp-tiled kernel meant to match cuBLAS; the baseline is cuBLAS SGEMM with
 * FP32 math (no TF32). */
#include "sgemm.h"

#include <cublas_v2.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "harness/hardware/tensor_map.h"
#include "harness/user/load.h"
#include "ladder_try.h"

/* ---- CPU rungs ------------------------------------------------------------ */

/* Rung: the textbook host loop, one dot product per element, accumulated in
 * double. B is walked down a column: a new cache line every step. */
void sgemm_cpu_serial(const float *a, const float *b, float *c, long long m, long long n, long long k)
{
    for (long long i = 0; i < m; ++i)
        for (long long j = 0; j < n; ++j) {
            double sum = 0.0;
            for (long long p = 0; p < k; ++p) sum += (double)a[i * k + p] * b[p * n + j];
            c[i * n + j] = (float)sum;
        }
}

/* Rung: cache blocking with OpenMP. Each thread owns blocks of C of
 * CPU_BLOCK_ROWS x CPU_BLOCK_COLS and sums them over panels of
 * CPU_BLOCK_DEPTH: the B panel (128 KB) stays in L2 while every row of the
 * block passes over it, and the inner loop runs along rows of B and C
 * (contiguous, vectorized). FP32 accumulation, like the GPU rungs. */
enum { CPU_BLOCK_ROWS = 64, CPU_BLOCK_COLS = 256, CPU_BLOCK_DEPTH = 128 };

static long long min_ll(long long x, long long y)
{
    return x < y ? x : y;
}

void sgemm_cpu_blocked(const float *a, const float *b, float *c, long long m, long long n, long long k)
{
    long long row_blocks = (m + CPU_BLOCK_ROWS - 1) / CPU_BLOCK_ROWS;
    long long col_blocks = (n + CPU_BLOCK_COLS - 1) / CPU_BLOCK_COLS;
#pragma omp parallel for schedule(dynamic)
    for (long long block = 0; block < row_blocks * col_blocks; ++block) {
        long long i0 = block / col_blocks * CPU_BLOCK_ROWS, j0 = block % col_blocks * CPU_BLOCK_COLS;
        long long i1 = min_ll(i0 + CPU_BLOCK_ROWS, m), j1 = min_ll(j0 + CPU_BLOCK_COLS, n);
        for (long long i = i0; i < i1; ++i)
            for (long long j = j0; j < j1; ++j) c[i * n + j] = 0.0f;
        for (long long p0 = 0; p0 < k; p0 += CPU_BLOCK_DEPTH) {
            long long p1 = min_ll(p0 + CPU_BLOCK_DEPTH, k);
            for (long long i = i0; i < i1; ++i) {
                float *restrict c_row = c + i * n;
                for (long long p = p0; p < p1; ++p) {
                    float a_ip = a[i * k + p];
                    const float *restrict b_row = b + p * n;
#pragma omp simd
                    for (long long j = j0; j < j1; ++j) c_row[j] += a_ip * b_row[j];
                }
            }
        }
    }
}

/* ---- Validation -------------------------------------------------------------
 * A double-precision reference of every element costs M*N*K multiply-adds:
 * 6.9e10 at 4096^3, tens of seconds on a CPU, for every check. So above
 * SGEMM_FULL_CHECK_MNK the reference covers whole rows and whole columns of C
 * drawn afresh from each check's seed (32 of each, the first and last always
 * among them: they run through the edge tiles), 2 x 32 x 4096 x 4096 = 1.1e9
 * multiply-adds at 4096^3, and every element of C is scanned for NaN and Inf.
 * That is enough for these kernels: every block runs the same code on its own
 * tile, so a wrong formula is wrong in every row and column; edge handling
 * shows in the first and last rows and columns; and a block that writes the
 * wrong tile, or none, leaves poison (NaN) behind somewhere, which the scan
 * finds wherever it is. */

double sgemm_tolerance(long long k)
{
    return ladder_fp32_tolerance((double)k);
}

/* The tf32 rung rounds each input to TF32, a relative change of at most
 * u = 2^-11 each, so each product moves by at most 2u relative. Over a sum
 * of products of both signs the errors add up as the products do (both grow
 * as sqrt(K)), so the relative error of C is about u sqrt(2/3) = 4e-4 at any
 * K for inputs uniform on [-1, 1], and 2u bounds it however the signs fall
 * (per element, before cancellation); FP32 accumulation adds the usual
 * tolerance. A product missing one term in K is off by about 1/sqrt(K): 2%
 * at K = 4096, still caught up to K of about 10^5. */
double sgemm_tf32_tolerance(long long k)
{
    return 2 * SGEMM_TF32_UNIT_ROUNDOFF + sgemm_tolerance(k);
}

static int draw_lines(long long count, uint64_t seed, long long *lines)
{
    if (count <= SGEMM_SAMPLE_LINES) {
        for (int i = 0; i < count; ++i) lines[i] = i;
        return (int)count;
    }
    int drawn = 0;
    lines[drawn++] = 0;
    lines[drawn++] = count - 1;
    for (uint64_t index = 0; drawn < SGEMM_SAMPLE_LINES; ++index) {
        long long line = 1 + (long long)ladder_random_below(seed, index, (uint64_t)count - 2);
        int seen = 0;
        for (int q = 0; q < drawn; ++q) seen |= lines[q] == line;
        if (!seen) lines[drawn++] = line;
    }
    return drawn;
}

void sgemm_draw_sample(long long m, long long n, uint64_t seed, sgemm_sample *sample)
{
    sample->row_count = draw_lines(m, seed, sample->rows);
    sample->col_count = draw_lines(n, ladder_hash64(seed), sample->cols);
}

/* ref[j] = row i of A times B, in double. */
static void reference_row(const float *a, const float *b, long long n, long long k, long long i, double *ref)
{
    for (long long j = 0; j < n; ++j) ref[j] = 0.0;
    for (long long p = 0; p < k; ++p) {
        double a_ip = a[i * k + p];
        const float *b_row = b + p * n;
        for (long long j = 0; j < n; ++j) ref[j] += a_ip * b_row[j];
    }
}

ladder_check sgemm_check_host(const float *a, const float *b, const float *c, long long m, long long n, long long k,
                              const sgemm_sample *sample, double tolerance)
{
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
    long long rows = sample ? sample->row_count : m;
#pragma omp parallel reduction(+ : diff_squared, ref_squared)
    {
        double *ref = ladder_host_alloc((size_t)n * sizeof(double));
#pragma omp for schedule(dynamic)
        for (long long r = 0; r < rows; ++r) {
            long long i = sample ? sample->rows[r] : r;
            reference_row(a, b, n, k, i, ref);
            for (long long j = 0; j < n; ++j) {
                double got = c[i * n + j];
                ref_squared += ref[j] * ref[j];
                if (isfinite(got)) diff_squared += (got - ref[j]) * (got - ref[j]);
            }
        }
        free(ref);
    }
    if (sample) {
        /* The sampled columns of B, gathered: k x col_count, contiguous. */
        int cols = sample->col_count;
        double *b_cols = ladder_host_alloc((size_t)k * (size_t)cols * sizeof(double));
        for (long long p = 0; p < k; ++p)
            for (int q = 0; q < cols; ++q) b_cols[p * cols + q] = b[p * n + sample->cols[q]];
#pragma omp parallel for schedule(static) reduction(+ : diff_squared, ref_squared)
        for (long long i = 0; i < m; ++i) {
            double ref[SGEMM_SAMPLE_LINES] = {0};
            for (long long p = 0; p < k; ++p) {
                double a_ip = a[i * k + p];
                for (int q = 0; q < cols; ++q) ref[q] += a_ip * b_cols[p * cols + q];
            }
            for (int q = 0; q < cols; ++q) {
                double got = c[i * n + sample->cols[q]];
                ref_squared += ref[q] * ref[q];
                if (isfinite(got)) diff_squared += (got - ref[q]) * (got - ref[q]);
            }
        }
        free(b_cols);
    }
#pragma omp parallel for schedule(static) reduction(+ : nonfinite)
    for (long long e = 0; e < m * n; ++e)
        if (!isfinite(c[e])) ++nonfinite;
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, tolerance);
}

/* ---- Baseline ------------------------------------------------------------- */

/* cuBLAS is column-major: row-major C (m x n) is column-major C^T (n x m),
 * and C^T = B^T A^T, where row-major B and A already are, read column-major,
 * B^T (n x k, ld n) and A^T (k x m, ld k). So: swap the operands. */
static void cublas_sgemm(cublasHandle_t handle, const float *a, const float *b, float *c, int m, int n, int k,
                         cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
}

/* The same call at the tf32 rung's precision, the reference it is compared
 * with: cuBLAS rounds the inputs to TF32 and multiplies on tensor cores
 * (CUBLAS_COMPUTE_32F_FAST_TF32), FP32 accumulation and output. */
static void cublas_sgemm_tf32(cublasHandle_t handle, const float *a, const float *b, float *c, int m, int n, int k,
                              cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, n, a, CUDA_R_32F, k,
                              &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
}

/* ---- The ladder ------------------------------------------------------------ */

typedef void sgemm_host_rung(const float *a, const float *b, float *c, long long m, long long n, long long k);
typedef void sgemm_library_call(cublasHandle_t handle, const float *a, const float *b, float *c, int m, int n, int k,
                                cudaStream_t stream);

/* param NEEDS_SM90A: a Hopper rung (sgemm_wgmma_launcher), built with
 * LADDER_HAVE_SM90A and run on compute capability 9.0 only. */
enum { NEEDS_SM90A = 90 };

#ifdef LADDER_HAVE_SM90A
#define SM90A(launcher) launcher
#else
#define SM90A(launcher) NULL
#endif

#define CPU(name, story, fn) {name, story, (ladder_impl)(fn), 0, LADDER_HOST}
#define RUNG(name, story, fn) {name, story, (ladder_impl)(fn), 0, 0}

static const ladder_variant sgemm_variants[] = {
    CPU("cpu_serial", "CPU, one thread: the textbook triple loop, double accumulator (up to 512^3)", sgemm_cpu_serial),
    CPU("cpu_blocked_omp", "CPU, OpenMP: 64x256 blocks of C over 128-deep panels of B held in cache, vectorized rows",
        sgemm_cpu_blocked),
    RUNG("single_block", "GPU, the textbook's first kernel: one block of MxN threads; a block holds 1024, so M, N <= 32",
         sgemm_single_block),
    RUNG("naive", "one thread per element, many blocks; lanes along rows: 32 sectors per warp load of A and store of C",
         sgemm_naive),
    RUNG("naive_coalesced", "lanes along columns: A a broadcast, B and C one 128-byte line per warp access",
         sgemm_naive_coalesced),
    RUNG("tiled16", "16x16 shared-memory tiles, edges zero-filled: each global element read by 1 thread, not 16",
         sgemm_tiled16),
    RUNG("tiled16_prefetch", "next tiles loaded into registers during this tile's product: load latency behind 16 FMAs",
         sgemm_tiled16_prefetch),
    RUNG("tiled16_unrolled", "the inner product fully unrolled: no loop counter or index arithmetic between FMAs",
         sgemm_tiled16_unrolled),
    RUNG("register_1d", "8 rows of one column per thread, 64x64 block tile: 9 shared loads per 8 FMAs, not 16",
         sgemm_register_1d),
    RUNG("register_2d", "8x8 outputs per thread, 128x128 block tile: 16 shared loads per 64 FMAs", sgemm_register_2d),
    RUNG("vectorized", "16-byte global loads; A tile stored transposed so A and B fragments are 16-byte shared loads",
         sgemm_vectorized),
    RUNG("conflict_free", "A tile rows padded, thread sub-tiles spread over the block tile: no shared bank conflicts",
         sgemm_conflict_free),
    RUNG("warp_tiling", "each warp owns 32x64 of C, lanes a 4x8 grid: fewer shared bytes per FMA, broadcast fragments",
         sgemm_warp_tiling),
    RUNG("async_2stage", "cp.async double buffer: the next tile copies while this one multiplies; one barrier per tile",
         sgemm_async_2stage),
    RUNG("async_4stage", "a 4-stage cp.async ring: three tiles in flight, global latency hidden across stalls",
         sgemm_async_4stage),
    RUNG("swizzled", "blocks walk C in groups of 8 tile rows: blocks running together share A and B panels in L2",
         sgemm_swizzled),
    RUNG("tile_128x128_k16", "k-tiles of 16 (3 stages): half the barriers and copy bookkeeping per FMA",
         sgemm_tile_128x128_k16),
    RUNG("tile_128x256", "128x256 block tile, 16x8 outputs per thread: 6 shared loads per 128 FMAs, not 4 per 64",
         sgemm_tile_128x256),
    RUNG("tile_128x128_4warps", "4 warps of 64x64, 16x8 outputs per thread, k-tiles of 16: two blocks per SM",
         sgemm_tile_128x128_4warps),
    RUNG("tile_128x128_k32", "k-tiles of 32, 2-stage ring (65 KB, opted in): barriers and copy set-up per FMA halved",
         sgemm_tile_128x128_k32),
    RUNG("tile_by_size", "k32 tiles of 128x128 where they fill 3/4 of a wave of resident blocks, else 64x64: small sizes",
         sgemm_tile_by_size),
    {"tf32", "TF32 (reduced precision): tensor cores, mma.sync m16n8k8, inputs rounded to 10-bit mantissas",
     (ladder_impl)sgemm_tf32, 0, 0, "TF32 (reduced precision)"},
    RUNG("3xtf32", "tensor cores at FP32 accuracy: x = hi + lo in TF32, hi*hi + hi*lo + lo*hi, FP32 sums",
         sgemm_3xtf32),
    {"tf32_wgmma", "TF32 on Hopper's wgmma: C^T = B^T A^T, B^T from registers, A K-major by TMA; persistent, "
                   "warp-specialized",
     (ladder_impl)SM90A(sgemm_tf32_wgmma), NEEDS_SM90A, 0, "TF32 (reduced precision)"},
    {"tf32_wgmma_multicast", "the 256-row tiles in clusters of two blocks side by side, each bringing half of their "
                             "shared A tile into both by TMA multicast: a third fewer bytes from L2",
     (ladder_impl)SM90A(sgemm_tf32_wgmma_multicast), NEEDS_SM90A, 0, "TF32 (reduced precision)"},
    {"3xtf32_wgmma", "3xTF32 on the same machinery: A split once by a pass, B in registers; k-tile sums added in FP32",
     (ladder_impl)SM90A(sgemm_3xtf32_wgmma), NEEDS_SM90A, 0},
    {"cublas_tf32", "TF32 (reduced precision) reference for the tf32 rung: cuBLAS, CUBLAS_COMPUTE_32F_FAST_TF32",
     (ladder_impl)cublas_sgemm_tf32, 0, LADDER_BASELINE, "TF32 (reduced precision)"},
    {"cublas", "cuBLAS SGEMM, CUBLAS_DEFAULT_MATH: FP32 FMAs, TF32 off; row-major as C^T = B^T A^T",
     (ladder_impl)cublas_sgemm, 0, LADDER_BASELINE},
};

/* `ladder try sgemm FILE.cu`: the user's ladder_try_sgemm (include/ladder_try.h) as a rung. */
static void tried_sgemm(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    _Static_assert(LADDER_SAME_TYPE(ladder_try_sgemm, sgemm_launcher), "ladder_try.h disagrees with sgemm.h");
    ((sgemm_launcher *)ladder_user_entry())(a, b, c, m, n, k, stream);
    ladder_user_check_launch();
}

/* Above these, the CPU rungs would take seconds per run. */
#define CPU_SERIAL_MAX_MNK (1LL << 27)  /* 512^3 */
#define CPU_BLOCKED_MAX_MNK (1LL << 33) /* 2048^3 */

typedef struct sgemm_state {
    int m, n, k;
    float *host_a, *host_b, *host_c;
    float *device_a, *device_b, *device_c;
    cublasHandle_t cublas;
    int full_check;
    sgemm_sample sample;
    int shared_optin;  /* cudaDevAttrMaxSharedMemoryPerBlockOptin of the device */
    int compute_major, compute_minor; /* the device's compute capability */
    sgemm_wgmma_problem wgmma;        /* the Hopper rungs' maps and scratch */
    const char *wgmma_missing;        /* why they cannot run here, or NULL */
    char wgmma_reason[200];           /* where that is a tensor map's error */
    char reason[160];  /* why a rung is unsupported, when that depends on the device */
} sgemm_state;

static void destroy(void *opaque)
{
    sgemm_state *s = opaque;
    if (!s) return;
    if (s->cublas) cublasDestroy(s->cublas);
    cudaFree(s->device_a);
    cudaFree(s->device_b);
    cudaFree(s->device_c);
    cudaFree(s->wgmma.a_padded);
    cudaFree(s->wgmma.b_padded);
    cudaFree(s->wgmma.a_high);
    cudaFree(s->wgmma.a_low);
    free(s->host_a);
    free(s->host_b);
    free(s->host_c);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 && size->count != 3) {
        snprintf(err, err_len, "sgemm takes MxNxK or N (square)");
        return 1;
    }
    long long m = size->dim[0];
    long long n = size->count == 3 ? size->dim[1] : m, k = size->count == 3 ? size->dim[2] : m;
    if (m > SGEMM_MAX_MN || n > SGEMM_MAX_MN || k > INT_MAX) {
        snprintf(err, err_len, "M and N must be at most %d, K at most %d", SGEMM_MAX_MN, INT_MAX);
        return 1;
    }
    return 0;
}

/* A map of rows x cols floats, rows ld apart, in boxes of box_cols x
 * box_rows; the 128-byte swizzle (box_cols = 32) for the wgmma operands. */
static int encode_map(CUtensorMap *map, const float *matrix, int rows, int cols, int ld, int box_cols, int box_rows,
                      CUtensorMapSwizzle swizzle, char *err, size_t err_len)
{
    uint64_t dims[2] = {(uint64_t)cols, (uint64_t)rows}, strides[1] = {(uint64_t)ld * sizeof(float)};
    uint32_t box[2] = {(uint32_t)box_cols, (uint32_t)box_rows};
    return ladder_tensor_map(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, matrix, dims, strides, box, swizzle,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, err, err_len);
}

/* The Hopper rungs' scratch and tensor maps; NULL when ready, else why they
 * cannot run (the rest of the ladder runs either way). */
static const char *prepare_wgmma(sgemm_state *s)
{
#ifndef LADDER_HAVE_SM90A
    (void)s;
    return "built without sm_90a code: this build's CUDA architectures do not include 90";
#else
    if (s->compute_major != 9 || s->compute_minor != 0)
        return "TMA, wgmma and setmaxnreg code built for sm_90a, which runs on compute capability 9.0 only";
    sgemm_wgmma_problem *p = &s->wgmma;
    p->a = s->device_a;
    p->b = s->device_b;
    p->c = s->device_c;
    p->m = s->m;
    p->n = s->n;
    p->k = s->k;
    p->lda = (s->k + 3) / 4 * 4;
    p->ldb = (s->n + 3) / 4 * 4;
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&p->sms, cudaDevAttrMultiProcessorCount, device));
    size_t a_bytes = (size_t)s->m * p->lda * sizeof(float), b_bytes = (size_t)s->k * p->ldb * sizeof(float);
    if ((p->lda != s->k && ladder_try_cuda_malloc((void **)&p->a_padded, a_bytes)) ||
        (p->ldb != s->n && ladder_try_cuda_malloc((void **)&p->b_padded, b_bytes)) ||
        ladder_try_cuda_malloc((void **)&p->a_high, a_bytes) || ladder_try_cuda_malloc((void **)&p->a_low, a_bytes))
        return "no device memory for the staged copies of A and B";
    const float *a = p->a_padded ? p->a_padded : p->a, *b = p->b_padded ? p->b_padded : p->b;
    const CUtensorMapSwizzle swizzled = CU_TENSOR_MAP_SWIZZLE_128B;
    struct {
        CUtensorMap *map;
        const float *matrix;
        int rows, cols, ld, box_cols, box_rows;
        CUtensorMapSwizzle swizzle;
    } maps[] = {
        {&p->a_rows128, a, s->m, s->k, p->lda, 32, 128, swizzled},
        {&p->a_rows256, a, s->m, s->k, p->lda, 32, 256, swizzled},
        {&p->a_high_rows128, p->a_high, s->m, s->k, p->lda, 32, 128, swizzled},
        {&p->a_low_rows128, p->a_low, s->m, s->k, p->lda, 32, 128, swizzled},
        {&p->b_rows32, b, s->k, s->n, p->ldb, 136, 32, CU_TENSOR_MAP_SWIZZLE_NONE},
    };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; ++i)
        if (encode_map(maps[i].map, maps[i].matrix, maps[i].rows, maps[i].cols, maps[i].ld, maps[i].box_cols,
                       maps[i].box_rows, maps[i].swizzle, s->wgmma_reason, sizeof s->wgmma_reason))
            return s->wgmma_reason;
    p->cluster_blocks = sgemm_wgmma_cluster_blocks(p);
    return NULL;
#endif
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size_error(size, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    long long m = size->dim[0];
    long long n = size->count == 3 ? size->dim[1] : m, k = size->count == 3 ? size->dim[2] : m;
    sgemm_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->m = (int)m;
    s->n = (int)n;
    s->k = (int)k;
    size_t a_bytes = (size_t)m * k * sizeof(float), b_bytes = (size_t)k * n * sizeof(float);
    size_t c_bytes = (size_t)m * n * sizeof(float);
    ladder_buffers b = {0};
    ladder_buffers_pair(&b, (void **)&s->host_a, (void **)&s->device_a, a_bytes);
    ladder_buffers_pair(&b, (void **)&s->host_b, (void **)&s->device_b, b_bytes);
    ladder_buffers_pair(&b, (void **)&s->host_c, (void **)&s->device_c, c_bytes);
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->compute_major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->compute_minor, cudaDevAttrComputeCapabilityMinor, device));
    s->wgmma_missing = prepare_wgmma(s);
    CUBLAS_CHECK(cublasCreate(&s->cublas));
    CUBLAS_CHECK(cublasSetMathMode(s->cublas, CUBLAS_DEFAULT_MATH));
    s->full_check = (double)m * n * k <= (double)SGEMM_FULL_CHECK_MNK;
    return s;
}

/* Signed inputs: products cancel, so a missing or doubled term moves the
 * relative error by about 1/sqrt(K), far above FP32 rounding. A, B and the
 * check's sample each draw from their own stream of the seed. */
static void fill_inputs(void *opaque, uint64_t seed)
{
    sgemm_state *s = opaque;
    size_t a_count = (size_t)s->m * s->k, b_count = (size_t)s->k * s->n;
    ladder_fill_uniform(s->host_a, a_count, seed, -1.0f, 1.0f);
    ladder_fill_uniform(s->host_b, b_count, ladder_hash64(seed), -1.0f, 1.0f);
    CUDA_CHECK(cudaMemcpy(s->device_a, s->host_a, a_count * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(s->device_b, s->host_b, b_count * sizeof(float), cudaMemcpyHostToDevice));
    if (!s->full_check) sgemm_draw_sample(s->m, s->n, ladder_hash64(ladder_hash64(seed)), &s->sample);
}

static int is_tensor_rung(const ladder_variant *v)
{
    return v->impl == (ladder_impl)sgemm_tf32 || v->impl == (ladder_impl)sgemm_3xtf32;
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    sgemm_state *s = opaque;
    long long mnk = (long long)s->m * s->n * s->k;
    if (v->impl == (ladder_impl)sgemm_cpu_serial && mnk > CPU_SERIAL_MAX_MNK)
        return "the serial CPU loop would take seconds above 512^3 multiply-adds; try --size 512";
    if (v->impl == (ladder_impl)sgemm_cpu_blocked && mnk > CPU_BLOCKED_MAX_MNK)
        return "the blocked CPU loop would take seconds above 2048^3 multiply-adds; try --size 2048";
    if (v->impl == (ladder_impl)sgemm_single_block && (s->m > SGEMM_SINGLE_BLOCK_MAX || s->n > SGEMM_SINGLE_BLOCK_MAX))
        return "one thread per element in one block: a block holds at most 1024 threads (M, N <= 32)";
    if (is_tensor_rung(v) && s->compute_major < 8)
        return "TF32 tensor-core instructions (mma.sync .tf32) need compute capability 8.0 or later";
    if (v->param == NEEDS_SM90A && s->wgmma_missing) return s->wgmma_missing;
#ifdef LADDER_HAVE_SM90A
    if (v->impl == (ladder_impl)sgemm_tf32_wgmma_multicast && s->wgmma.cluster_blocks == 0)
        return "no cluster of two of its blocks fits on this device";
#endif
    if (!(v->flags & (LADDER_HOST | LADDER_BASELINE))) {
        size_t need = sgemm_shared_bytes((sgemm_launcher *)v->impl);
#ifdef LADDER_HAVE_SM90A
        if (v->param == NEEDS_SM90A) need = sgemm_wgmma_shared_bytes((sgemm_wgmma_launcher *)v->impl);
#endif
        if (need > (size_t)s->shared_optin) {
            snprintf(s->reason, sizeof s->reason, "needs %.1f KB of shared memory a block; this GPU grants %.1f KB",
                     need / 1024.0, s->shared_optin / 1024.0);
            return s->reason;
        }
    }
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    sgemm_state *s = opaque;
    if (v->flags & LADDER_HOST)
        ((sgemm_host_rung *)v->impl)(s->host_a, s->host_b, s->host_c, s->m, s->n, s->k);
    else if (v->flags & LADDER_BASELINE)
        ((sgemm_library_call *)v->impl)(s->cublas, s->device_a, s->device_b, s->device_c, s->m, s->n, s->k, stream);
    else if (v->param == NEEDS_SM90A)
        ((sgemm_wgmma_launcher *)v->impl)(&s->wgmma, stream);
    else
        ((sgemm_launcher *)v->impl)(s->device_a, s->device_b, s->device_c, s->m, s->n, s->k, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    sgemm_state *s = opaque;
    size_t bytes = (size_t)s->m * s->n * sizeof(float);
    return (ladder_output){(v->flags & LADDER_HOST) ? (void *)s->host_c : (void *)s->device_c, bytes, 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    sgemm_state *s = opaque;
    if (!(v->flags & LADDER_HOST))
        CUDA_CHECK(cudaMemcpy(s->host_c, s->device_c, (size_t)s->m * s->n * sizeof(float), cudaMemcpyDeviceToHost));
    double tolerance = v->precision ? sgemm_tf32_tolerance(s->k) : sgemm_tolerance(s->k);
    return sgemm_check_host(s->host_a, s->host_b, s->host_c, s->m, s->n, s->k, s->full_check ? NULL : &s->sample,
                            tolerance);
}

static ladder_work work(void *opaque)
{
    sgemm_state *s = opaque;
    double m = s->m, n = s->n, k = s->k;
    return (ladder_work){4.0 * (m * k + k * n + m * n), 2.0 * m * n * k};
}

const ladder_case sgemm_case = {
    .name = "sgemm",
    .title = "matrix multiply, FP32: the textbook loop to cuBLAS",
    .size_help = "MxNxK or N (square); any sizes >= 1",
    .default_size = "4096,4095,1000",
    .quick_size = "1024",
    .test_sizes = {"1031x97x67", "100x260x36", "255x257x129", "32x32x32", "1x1x1",
                   "2048x2048x40" /* tile_by_size takes its big tile */, "4095x1x127",
                   "4097x2100x7" /* the wgmma rungs' 256-row tiles; in clusters, an odd count of tile columns */,
                   NULL},
    /* Under compute-sanitizer (racecheck instruments every shared-memory
     * access): odd in every dimension, a single tile, 1x1x1, a lone column,
     * and the clusters of tf32_wgmma_multicast (their own barrier protocol).
     * 2048x2048x40 reaches only tile_by_size's big tile, a template instance
     * of a kernel other rungs run. */
    .sanitizer_sizes = {"1031x97x67", "255x257x129", "32x32x32", "1x1x1", "4095x1x127", "4097x2100x7", NULL},
    .ceiling = LADDER_CEILING_FP32,
    .try_template = "sgemm/sgemm_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_sgemm, 0),
    .variants = sgemm_variants,
    .variant_count = (int)(sizeof sgemm_variants / sizeof sgemm_variants[0]),
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
