/* Dense matrix times vector (SPEC §6), FP32, A row-major M x N:
 *   gemv:   y = A x    (x has N elements, y has M)
 *   gemv_t: y = A^T x  (x has M elements, y has N)
 * Every launcher takes any M, N >= 1; no alignment of N is assumed. */
#ifndef LADDER_GEMV_H
#define LADDER_GEMV_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = A x from row-major A (m x n). */
typedef void gemv_launcher(const float *a, const float *x, float *y, int m, int n, int param, cudaStream_t stream);

gemv_launcher gemv_thread_per_row;
gemv_launcher gemv_warp_per_row;
gemv_launcher gemv_warp_rows_float4; /* param: rows per warp (1, 2 or 4) */
gemv_launcher gemv_block_per_row;

/* y = A x from the same A stored column-major (a_columns[j * m + i] = A[i][j]). */
gemv_launcher gemv_thread_per_row_column_major;

/* Every row (or column) of A and x is a multiple of this many floats from
 * the start of its 16-byte-aligned allocation exactly when N is: rows whose
 * start is not 16-byte aligned take a scalar head. */
#define GEMV_VECTOR_WIDTH 4

/* y = A^T x from row-major A (m x n). The two-pass rungs sum chunks of
 * `param` rows into partials[chunk * n + j], then add the chunks up;
 * `partials` holds gemv_t_partials_floats(m, n, param) floats. */
typedef void gemv_t_launcher(const float *a, const float *x, float *y, float *partials, int m, int n, int param,
                             cudaStream_t stream);

gemv_t_launcher gemv_t_thread_per_column;
gemv_t_launcher gemv_t_split_rows_two_pass;
gemv_t_launcher gemv_t_float4_tile_two_pass;
gemv_t_launcher gemv_t_one_pass;

/* The smallest chunk any chunked rung uses, which sizes the partials. */
#define GEMV_T_MIN_CHUNK_ROWS 64
/* gemv_t_one_pass's column tiles: a warp's float4 loads span 128 columns. */
#define GEMV_T_TILE_COLUMNS 128

static inline size_t gemv_t_partials_floats(long long m, long long n, int chunk_rows)
{
    return (size_t)((m + chunk_rows - 1) / chunk_rows) * (size_t)n;
}

/* The gemv_t workspace: the partials of the smallest chunks, then one
 * counter per 128-column tile (gemv_t_one_pass), zeroed when allocated. */
static inline size_t gemv_t_workspace_bytes(long long m, long long n)
{
    return gemv_t_partials_floats(m, n, GEMV_T_MIN_CHUNK_ROWS) * sizeof(float) +
           (size_t)((n + GEMV_T_TILE_COLUMNS - 1) / GEMV_T_TILE_COLUMNS) * sizeof(unsigned);
}

static inline unsigned *gemv_t_tile_counters(float *workspace, long long m, long long n)
{
    return (unsigned *)(workspace + gemv_t_partials_floats(m, n, GEMV_T_MIN_CHUNK_ROWS));
}

#ifndef __CUDACC__
#include <stdint.h>

#include "harness/case.h"

/* The double reference of y = A x (transposed: y = A^T x) and, per output
 * element, the scale sum_j |a_ij x_j| that bounds its rounding error. */
void gemv_reference(const float *a, const float *x, long long m, long long n, int transposed, double *ref,
                    double *scale);

/* The check: the largest componentwise error max_i |y_i - ref_i| / scale_i
 * against gemv_tolerance(length of each sum); every y_i must be finite. */
ladder_check gemv_check_host(const float *y, const double *ref, const double *scale, long long count,
                             long long length);
double gemv_tolerance(long long length);

/* The state both cases share: A, x, y, the reference, the cuBLAS handle, and
 * what only one of them needs (the column-major copy of A for gemv, the
 * chunk partials for gemv_t). */
typedef struct gemv_problem {
    int m, n, transposed;
    long long x_count, y_count; /* n and m for gemv, m and n for gemv_t */
    float *host_a, *host_x, *host_y;
    double *ref, *scale;
    float *device_a, *device_x, *device_y;
    float *device_a_columns; /* gemv: A column-major, or NULL where the transpose cannot make it */
    float *device_partials;  /* gemv_t: its workspace, gemv_t_workspace_bytes(m, n) */
    struct cublasContext *cublas;
} gemv_problem;

/* The size check of both ladders (case.h's size_error): MxN or N. */
int gemv_problem_size_error(const ladder_size *size, int transposed, char *err, size_t err_len);
void *gemv_problem_create(const ladder_size *size, int transposed, ladder_status *status, char *err, size_t err_len);
void gemv_problem_destroy(void *problem);
void gemv_problem_fill(void *problem, uint64_t seed);
ladder_output gemv_problem_output(void *problem, const ladder_variant *variant);
ladder_check gemv_problem_check(void *problem, const ladder_variant *variant);
ladder_work gemv_problem_work(void *problem);
/* best_fraction_of_copy and best_vs_cublas: the fastest validated rung's. */
void gemv_problem_summarize(void *problem, ladder_results *results, size_t first);
#endif

#ifdef __cplusplus
}
#endif

#endif
