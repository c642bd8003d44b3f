/* The GEMV ladder (SPEC §6): y = A x, FP32, A row-major M x N. The matrix is
 * read once and nothing is reused but x, so the ceiling is copy bandwidth:
 * the ladder is about reading A coalesced, in wide loads, with enough bytes
 * in flight, on every shape. From one thread walking each row (uncoalesced)
 * to 16-byte loads over several rows per warp and a block per row for short
 * and wide matrices. Baseline: cublasSgemv, FP32.
 *
 * This file also holds what gemv_t (y = A^T x, gemv_t.c) shares: the state,
 * the double reference and the check. gemv_t is its own case because its
 * baseline is another cuBLAS call (CUBLAS_OP_N) and its output another vector:
 * the ratio to baseline of each table must be against its own problem. */
#include "gemv.h"

#include <cublas_v2.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/run/buffers.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "cases/transpose/transpose.h"
#include "harness/user/load.h"
#include "ladder_try.h"

/* ---- Reference and check ---------------------------------------------------- */

enum { REFERENCE_COLUMN_BLOCK = 256 };

void gemv_reference(const float *a, const float *x, long long m, long long n, int transposed, double *ref,
                    double *scale)
{
    if (!transposed) {
#pragma omp parallel for schedule(static)
        for (long long i = 0; i < m; ++i) {
            double sum = 0, magnitude = 0;
            for (long long j = 0; j < n; ++j) {
                double term = (double)a[i * n + j] * x[j];
                sum += term;
                magnitude += fabs(term);
            }
            ref[i] = sum;
            scale[i] = magnitude;
        }
        return;
    }
    /* y_j = sum_i a_ij x_i: each thread owns a block of columns and walks the
     * rows, reading each row's block contiguously. */
    long long blocks = (n + REFERENCE_COLUMN_BLOCK - 1) / REFERENCE_COLUMN_BLOCK;
#pragma omp parallel for schedule(static)
    for (long long b = 0; b < blocks; ++b) {
        long long j0 = b * REFERENCE_COLUMN_BLOCK;
        long long j1 = j0 + REFERENCE_COLUMN_BLOCK < n ? j0 + REFERENCE_COLUMN_BLOCK : n;
        for (long long j = j0; j < j1; ++j) ref[j] = scale[j] = 0;
        for (long long i = 0; i < m; ++i)
            for (long long j = j0; j < j1; ++j) {
                double term = (double)a[i * n + j] * x[i];
                ref[j] += term;
                scale[j] += fabs(term);
            }
    }
}

/* Why componentwise, against sum_j |a_ij x_j|: the rounding error of an FP32
 * dot product of length n, in any order, is bounded by gamma_n sum_j |a_ij x_j|
 * (gamma_n ~ n u, u = 2^-24), and with independent roundings, as here, by
 * lambda sqrt(n) u sum_j |a_ij x_j| except with probability about
 * exp(-lambda^2 / 2) (Higham and Mary, 2019). gemv_tolerance(n) is that bound
 * with lambda = 8 (ladder_fp32_tolerance): a sequential sum sits about 20x
 * inside it, a tree sum further. The worst element is what is held to it, so
 * one wrong row among M cannot hide in a norm over all of y (the relative L2
 * error over y shrinks a single bad row by sqrt(M)). The inputs are signed,
 * so a lost or doubled term of typical size moves its row by about 1/n of the
 * scale: well outside the bound at the test sizes (n <= 4097: at least 8x). */
double gemv_tolerance(long long length)
{
    return ladder_fp32_tolerance((double)length);
}

ladder_check gemv_check_host(const float *y, const double *ref, const double *scale, long long count,
                             long long length)
{
    double worst = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(max : worst) reduction(+ : nonfinite)
    for (long long i = 0; i < count; ++i) {
        if (!isfinite(y[i])) {
            ++nonfinite;
            continue;
        }
        double error = fabs((double)y[i] - ref[i]);
        double relative = error == 0 ? 0 : scale[i] > 0 ? error / scale[i] : INFINITY;
        if (relative > worst) worst = relative;
    }
    ladder_check c;
    c.rel_error = worst;
    c.tolerance = gemv_tolerance(length);
    c.nonfinite = nonfinite;
    c.passed = nonfinite == 0 && worst <= c.tolerance;
    return c;
}

/* ---- State shared with gemv_t ---------------------------------------------- */

void gemv_problem_destroy(void *opaque)
{
    gemv_problem *p = opaque;
    if (!p) return;
    if (p->cublas) cublasDestroy(p->cublas);
    cudaFree(p->device_a);
    cudaFree(p->device_a_columns);
    cudaFree(p->device_x);
    cudaFree(p->device_y);
    cudaFree(p->device_partials);
    free(p->host_a);
    free(p->host_x);
    free(p->host_y);
    free(p->ref);
    free(p->scale);
    free(p);
}

int gemv_problem_size_error(const ladder_size *size, int transposed, char *err, size_t err_len)
{
    if (size->count != 1 && size->count != 2) {
        snprintf(err, err_len, "%s takes MxN (rows x columns of A) or N (square)", transposed ? "gemv_t" : "gemv");
        return 1;
    }
    long long m = size->dim[0], n = size->count == 2 ? size->dim[1] : m;
    if (m > INT_MAX || n > INT_MAX) {
        snprintf(err, err_len, "M and N must be at most %d (cuBLAS takes int dimensions)", INT_MAX);
        return 1;
    }
    return 0;
}

void *gemv_problem_create(const ladder_size *size, int transposed, ladder_status *status, char *err, size_t err_len)
{
    if (gemv_problem_size_error(size, transposed, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    long long m = size->dim[0], n = size->count == 2 ? size->dim[1] : m;
    gemv_problem *p = calloc(1, sizeof *p);
    if (!p) ladder_die("out of host memory");
    p->m = (int)m;
    p->n = (int)n;
    p->transposed = transposed;
    p->x_count = transposed ? m : n;
    p->y_count = transposed ? n : m;
    size_t a_bytes = (size_t)m * (size_t)n * sizeof(float);
    size_t x_bytes = (size_t)p->x_count * sizeof(float), y_bytes = (size_t)p->y_count * sizeof(float);
    /* The column-major rung reads a transpose made by the transpose case's
     * tiled kernel, whose grid covers up to TRANSPOSE_MAX_DIM rows and columns. */
    int columns = !transposed && m <= TRANSPOSE_MAX_DIM && n <= TRANSPOSE_MAX_DIM;
    size_t partial_bytes = transposed ? gemv_t_workspace_bytes(m, n) : 0;
    ladder_buffers b = {0};
    ladder_buffers_pair(&b, (void **)&p->host_a, (void **)&p->device_a, a_bytes);
    ladder_buffers_pair(&b, (void **)&p->host_x, (void **)&p->device_x, x_bytes);
    ladder_buffers_pair(&b, (void **)&p->host_y, (void **)&p->device_y, y_bytes);
    ladder_buffers_host(&b, (void **)&p->ref, (size_t)p->y_count * sizeof(double));
    ladder_buffers_host(&b, (void **)&p->scale, (size_t)p->y_count * sizeof(double));
    if (columns) ladder_buffers_device(&b, (void **)&p->device_a_columns, a_bytes);
    if (transposed) ladder_buffers_device(&b, (void **)&p->device_partials, partial_bytes);
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        gemv_problem_destroy(p);
        return NULL;
    }
    if (transposed) CUDA_CHECK(cudaMemset(p->device_partials, 0, partial_bytes)); /* the tile counters */
    CUBLAS_CHECK(cublasCreate(&p->cublas));
    CUBLAS_CHECK(cublasSetMathMode(p->cublas, CUBLAS_DEFAULT_MATH));
    return p;
}

/* Signed inputs in [-1, 1): the terms cancel, so a lost or doubled term shows
 * (see gemv_tolerance). A and x draw from their own streams of the seed. */
void gemv_problem_fill(void *opaque, uint64_t seed)
{
    gemv_problem *p = opaque;
    size_t a_count = (size_t)p->m * (size_t)p->n;
    ladder_fill_uniform(p->host_a, a_count, seed, -1.0f, 1.0f);
    ladder_fill_uniform(p->host_x, (size_t)p->x_count, ladder_hash64(seed), -1.0f, 1.0f);
    CUDA_CHECK(cudaMemcpy(p->device_a, p->host_a, a_count * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p->device_x, p->host_x, (size_t)p->x_count * sizeof(float), cudaMemcpyHostToDevice));
    if (p->device_a_columns) {
        transpose_tiled_padded(p->device_a, p->device_a_columns, p->m, p->n, 0);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    gemv_reference(p->host_a, p->host_x, p->m, p->n, p->transposed, p->ref, p->scale);
}

ladder_output gemv_problem_output(void *opaque, const ladder_variant *v)
{
    (void)v;
    gemv_problem *p = opaque;
    return (ladder_output){p->device_y, (size_t)p->y_count * sizeof(float), 0xFF};
}

ladder_check gemv_problem_check(void *opaque, const ladder_variant *v)
{
    (void)v;
    gemv_problem *p = opaque;
    CUDA_CHECK(cudaMemcpy(p->host_y, p->device_y, (size_t)p->y_count * sizeof(float), cudaMemcpyDeviceToHost));
    return gemv_check_host(p->host_y, p->ref, p->scale, p->y_count, p->x_count);
}

/* A read once, x read once, y written once: the rungs that read x again for
 * every row (or, in gemv_t, write and reread partials) pay that beyond this. */
ladder_work gemv_problem_work(void *opaque)
{
    gemv_problem *p = opaque;
    double m = p->m, n = p->n;
    return (ladder_work){4.0 * (m * n + n + m), 2.0 * m * n};
}

/* The two figures the case is judged by: the fastest valid rung's fraction
 * of the copy ceiling, and its speed against cuBLAS in the same run. NaN
 * where no rung (or no baseline) ran and validated. */
void gemv_problem_summarize(void *opaque, ladder_results *results, size_t first)
{
    (void)opaque;
    const ladder_record *best = NULL;
    for (size_t i = first; i < results->count; ++i) {
        const ladder_record *r = &results->records[i];
        if (r->baseline || r->host || r->skipped || !r->valid || !(r->median_ms > 0)) continue;
        if (!best || r->median_ms < best->median_ms) best = r;
    }
    ladder_summary *fraction = ladder_results_add_summary(results);
    snprintf(fraction->name, sizeof fraction->name, "best_fraction_of_copy");
    snprintf(fraction->unit, sizeof fraction->unit, "ratio");
    ladder_summary *versus = ladder_results_add_summary(results);
    snprintf(versus->name, sizeof versus->name, "best_vs_cublas");
    snprintf(versus->unit, sizeof versus->unit, "ratio");
    if (!best) {
        snprintf(fraction->note, sizeof fraction->note, "no rung ran and validated");
        snprintf(versus->note, sizeof versus->note, "no rung ran and validated");
        return;
    }
    fraction->value = best->fraction_of_bandwidth;
    snprintf(fraction->note, sizeof fraction->note, "%s: %.0f GB/s of A, x and y against the measured copy ceiling",
             best->variant, best->gbps);
    versus->value = best->ratio_to_baseline;
    snprintf(versus->note, sizeof versus->note, "%s: cublasSgemv's median time over its own (> 1 is faster)",
             best->variant);
}

/* ---- The gemv ladder --------------------------------------------------------- */

/* Row-major A (m x n), read column-major, is A^T (n x m, leading dimension
 * n); y = A x = (A^T)^T x is CUBLAS_OP_T on that n x m matrix. */
static void cublas_gemv(cublasHandle_t handle, const float *a, const float *x, float *y, int m, int n,
                        cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasSgemv(handle, CUBLAS_OP_T, n, m, &one, a, n, x, 1, &zero, y, 1));
}

typedef void gemv_library_call(cublasHandle_t handle, const float *a, const float *x, float *y, int m, int n,
                               cudaStream_t stream);

static const ladder_variant gemv_variants[] = {
    LADDER_RUNG("thread_per_row",
                "one thread walks each row: a warp's 32 loads land in 32 rows, 32 sectors for 128 useful bytes",
                gemv_thread_per_row, 0),
    LADDER_RUNG("thread_per_row_colmajor",
                "the same loop over A stored column-major: coalesced, at the price of a transpose of A (made "
                "untimed at fill) or a producer that writes that layout",
                gemv_thread_per_row_column_major, 0),
    LADDER_RUNG("warp_per_row", "row-major A as given, a warp per row over 32 consecutive columns, shuffle sum: "
                                "every load one 128-byte line",
                gemv_warp_per_row, 0),
    LADDER_RUNG("warp_row_float4",
                "16-byte loads, 4 unrolled (scalar head and tail where a row is not 16-byte aligned): a quarter "
                "of the load instructions, 64 bytes in flight per lane",
                gemv_warp_rows_float4, 1),
    LADDER_RUNG("warp_4rows_float4",
                "4 rows per warp: each x float4 serves 4 rows and 256 bytes of A are in flight per lane",
                gemv_warp_rows_float4, 4),
    LADDER_RUNG("block_per_row",
                "256 threads per row, float4, shuffles then shared memory across warps: a short, wide A still "
                "fills every SM",
                gemv_block_per_row, 0),
    LADDER_VARIANT("cublas", "cublasSgemv, FP32 (CUBLAS_DEFAULT_MATH): CUBLAS_OP_T on row-major A seen as "
                             "column-major N x M",
                   cublas_gemv, 0, LADDER_BASELINE),
};

/* `ladder try gemv FILE.cu`: the user's ladder_try_gemv (include/ladder_try.h) as a rung. */
typedef void tried_gemv_entry(const float *a, const float *x, float *y, int m, int n, cudaStream_t stream);

static void tried_gemv(const float *a, const float *x, float *y, int m, int n, int param, cudaStream_t stream)
{
    (void)param;
    _Static_assert(LADDER_SAME_TYPE(ladder_try_gemv, tried_gemv_entry), "ladder_try.h disagrees with this adapter");
    ((tried_gemv_entry *)ladder_user_entry())(a, x, y, m, n, stream);
    ladder_user_check_launch();
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    return gemv_problem_size_error(size, 0, err, err_len);
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    return gemv_problem_create(size, 0, status, err, err_len);
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    gemv_problem *p = opaque;
    if (v->impl == (ladder_impl)gemv_thread_per_row_column_major && !p->device_a_columns)
        return "the column-major copy comes from a tiled transpose of at most 65535 x 32 rows and columns";
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    gemv_problem *p = opaque;
    if (v->flags & LADDER_BASELINE)
        ((gemv_library_call *)v->impl)(p->cublas, p->device_a, p->device_x, p->device_y, p->m, p->n, stream);
    else if (v->impl == (ladder_impl)gemv_thread_per_row_column_major)
        gemv_thread_per_row_column_major(p->device_a_columns, p->device_x, p->device_y, p->m, p->n, v->param, stream);
    else
        ((gemv_launcher *)v->impl)(p->device_a, p->device_x, p->device_y, p->m, p->n, v->param, stream);
}

const ladder_case gemv_case = {
    .name = "gemv",
    .title = "matrix times vector, FP32, y = A x: one thread per row to 16-byte loads at copy bandwidth",
    .size_help = "MxN (rows x columns of row-major A) or N (square); any sizes >= 1",
    .default_size = "8192x8192,32768x1024,1024x32768",
    .quick_size = "2048x2048",
    /* 67x1028: aligned rows, a ragged group of 4; 33x8196: aligned, long
     * enough for block_per_row's unrolled loop; 2x65539: short and wide. */
    .test_sizes = {"1x1", "37x1001", "1000x3", "513x4097", "67x1028", "33x8196", "2x65539", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "gemv/gemv_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_gemv, 0),
    .variants = gemv_variants,
    .variant_count = (int)(sizeof gemv_variants / sizeof gemv_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = gemv_problem_destroy,
    .fill_inputs = gemv_problem_fill,
    .unsupported = unsupported,
    .run = run,
    .output = gemv_problem_output,
    .check = gemv_problem_check,
    .work = gemv_problem_work,
    .summarize = gemv_problem_summarize,
};
