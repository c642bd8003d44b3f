/* The transposed GEMV ladder (SPEC §6): y = A^T x, FP32, A row-major M x N,
 * so y_j sums down column j. Reading down columns of a row-major matrix is
 * coalesced when consecutive threads take consecutive columns; the ladder is
 * about giving enough threads work (the rows split into chunks, summed in a
 * second pass without atomics) and then wide loads. Baseline: cublasSgemv
 * CUBLAS_OP_N. Its own case, beside gemv (whose state, reference and check
 * it shares, gemv.c), because its baseline and output differ. */
#include <cublas_v2.h>

#include "harness/check/check.h"
#include "gemv.h"
#include "harness/user/load.h"
#include "ladder_try.h"

/* Row-major A (m x n), read column-major, is A^T (n x m, leading dimension
 * n): y = A^T x is CUBLAS_OP_N on that n x m matrix. */
static void cublas_gemv_t(cublasHandle_t handle, const float *a, const float *x, float *y, int m, int n,
                          cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasSgemv(handle, CUBLAS_OP_N, n, m, &one, a, n, x, 1, &zero, y, 1));
}

typedef void gemv_t_library_call(cublasHandle_t handle, const float *a, const float *x, float *y, int m, int n,
                                 cudaStream_t stream);

static const ladder_variant gemv_t_variants[] = {
    LADDER_RUNG("thread_per_column",
                "thread j walks down column j: coalesced across the warp, x a broadcast, but only N threads",
                gemv_t_thread_per_column, 0),
    LADDER_RUNG("split_rows_two_pass",
                "rows cut into chunks of 64, a block per (chunk, 256 columns), partials summed by a second "
                "pass: M/64 times the threads, no atomics",
                gemv_t_split_rows_two_pass, 64),
    LADDER_RUNG("float4_tile_two_pass",
                "a lane owns 4 columns (one 16-byte load), 8 warps over a 128-row chunk meet in shared memory: "
                "a quarter of the loads, half the partials",
                gemv_t_float4_tile_two_pass, 128),
    LADDER_RUNG("one_pass",
                "chunks sized so the grid is one wave of resident blocks, 8 rows in flight, and each column "
                "tile's last block adds its partials: no second launch, no tail wave",
                gemv_t_one_pass, 0),
    LADDER_VARIANT("cublas", "cublasSgemv, FP32 (CUBLAS_DEFAULT_MATH): CUBLAS_OP_N on row-major A seen as "
                             "column-major N x M",
                   cublas_gemv_t, 0, LADDER_BASELINE),
};

/* `ladder try gemv_t FILE.cu`: the user's ladder_try_gemv_t (include/ladder_try.h) as a rung. */
typedef void tried_gemv_t_entry(const float *a, const float *x, float *y, int m, int n, float *scratch,
                                size_t scratch_floats, cudaStream_t stream);

/* The user gets the two-pass rungs' partials as scratch. */
static void tried_gemv_t(const float *a, const float *x, float *y, float *partials, int m, int n, int param,
                         cudaStream_t stream)
{
    (void)param;
    _Static_assert(LADDER_SAME_TYPE(ladder_try_gemv_t, tried_gemv_t_entry), "ladder_try.h disagrees with this adapter");
    ((tried_gemv_t_entry *)ladder_user_entry())(a, x, y, m, n, partials,
                                                gemv_t_partials_floats(m, n, GEMV_T_MIN_CHUNK_ROWS), stream);
    ladder_user_check_launch();
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    return gemv_problem_size_error(size, 1, err, err_len);
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    return gemv_problem_create(size, 1, status, err, err_len);
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    gemv_problem *p = opaque;
    if (v->flags & LADDER_BASELINE)
        ((gemv_t_library_call *)v->impl)(p->cublas, p->device_a, p->device_x, p->device_y, p->m, p->n, stream);
    else
        ((gemv_t_launcher *)v->impl)(p->device_a, p->device_x, p->device_y, p->device_partials, p->m, p->n, v->param,
                                     stream);
}

const ladder_case gemv_t_case = {
    .name = "gemv_t",
    .title = "transposed matrix times vector, FP32, y = A^T x: down the columns of row-major A",
    .size_help = "MxN (rows x columns of row-major A) or N (square); any sizes >= 1",
    .default_size = "8192x8192,32768x1024,1024x32768",
    .quick_size = "2048x2048",
    /* 130x1028: aligned, a ragged last chunk; 65539x3: many chunks, narrow. */
    .test_sizes = {"1x1", "37x1001", "1000x3", "513x4097", "130x1028", "65539x3", "33x8196", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "gemv/gemv_t_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_gemv_t, 0),
    .variants = gemv_t_variants,
    .variant_count = (int)(sizeof gemv_t_variants / sizeof gemv_t_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = gemv_problem_destroy,
    .fill_inputs = gemv_problem_fill,
    .run = run,
    .output = gemv_problem_output,
    .check = gemv_problem_check,
    .work = gemv_problem_work,
    .summarize = gemv_problem_summarize,
};
