/* The analysis-driven optimization workload (SPEC §8). N data sets; data set
 * k is an L x M matrix with element (row j, column i) at
 * input[k*M*L + j*M + i]. For each k, v[j] = mean over i of row j, then
 * out[i*N + k] = sum over j of matrix[i*L + j] * v[j], with one shared
 * row-major L x L matrix. FP32 in and out. */
#ifndef LADDER_ADO_H
#define LADDER_ADO_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of the one-block-per-row-sweep rungs (v1, v2) are L:
 * at most this many. */
#define ADO_MAX_BLOCK_ROWS 1024

/* v3 and v4 keep one data set's means in shared memory, beside v3's
 * 1024-float sweep buffer, within the 48 KB a block gets without opting in. */
#define ADO_MAX_SHARED_ROWS 11264

/* Everything a rung touches on the device; handles and scratch are made in
 * create(), outside the timed region. */
typedef struct ado_problem {
    const float *input;  /* N x L x M */
    const float *matrix; /* L x L, row-major */
    float *means;        /* v of every data set, means[k*L + j]: the two-stage rungs' scratch */
    float *out;          /* L x N, out[i*N + k] */
    int L, M, N;
    cublasHandle_t blas;
    cudaStream_t side_stream;   /* the overlapped rung's second stream */
    cudaEvent_t chunk_ready;    /* means of a chunk written */
    cudaEvent_t side_done;      /* every product on the side stream done */
} ado_problem;

typedef void ado_launcher(const ado_problem *p, int param, cudaStream_t stream);

ado_launcher ado_thread_per_row;     /* v1 (param 1: one block), v2 (param 0: a block per data set) */
ado_launcher ado_warp_rows_sweep;    /* v3 */
ado_launcher ado_warp_rows_shuffle;  /* v4 */
ado_launcher ado_means_sgemm;        /* v5 */
ado_launcher ado_streamed_means_sgemm; /* beyond */
ado_launcher ado_overlapped_chunks;  /* beyond; param: chunks of data sets */

#ifndef __CUDACC__
/* The reference for one data set: v in double, then the product in double,
 * written to out_column[i * stride] for i < L. means_scratch has L doubles. */
void ado_reference_dataset(const float *dataset, const float *matrix, int L, int M, double *means_scratch,
                           double *out_column, long long stride);
/* The whole workload on the CPU in double, OpenMP over data sets (threads: 0
 * for all, 1 for serial); the result rounded to float into out (L x N). */
void ado_cpu(const float *input, const float *matrix, int L, int M, int N, float *out, int threads);
#endif

#ifdef __cplusplus
}
#endif

#endif
