/* SpMV (SPEC §6): y = A x, A sparse in CSR with FP32 values and 32-bit
 * indices, x and y dense FP32. Every launcher takes any shape, empty rows
 * and rows of any length. */
#ifndef LADDER_SPMV_H
#define LADDER_SPMV_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A CSR matrix in device memory. */
typedef struct spmv_matrix {
    int rows, cols, nnz;
    const int *row_ptr; /* rows + 1 */
    const int *col;     /* nnz, sorted within each row */
    const float *val;   /* nnz */
} spmv_matrix;

/* The adaptive rung's work list: one block per task, each task either a run
 * of whole short rows (at most SPMV_THREADS: at least a thread each) or one
 * chunk of a row too long for a block (chunks > 1). A block loads its
 * task's window: the entries from entry_begin rounded down to a whole line
 * (SPMV_LINE_ENTRIES indices or values, 128 bytes) up to entry_end, at most
 * SPMV_BLOCK_NNZ. Starting on a line, a warp's 32 consecutive 4-byte loads
 * touch one line of the L2, not two. */
#define SPMV_THREADS 256
#define SPMV_BLOCK_NNZ 2048
#define SPMV_LINE_ENTRIES 32
#define SPMV_WINDOW_START(entry) ((entry) / SPMV_LINE_ENTRIES * SPMV_LINE_ENTRIES)
typedef struct spmv_task {
    int row_begin, row_end;     /* rows [row_begin, row_end) */
    int chunk, chunks;          /* chunk `chunk` of `chunks` of a long row; 0 of 1 for a run of short rows */
    int entry_begin, entry_end; /* the task's entries [entry_begin, entry_end) */
} spmv_task;

/* Everything made once per matrix, outside the timed region. */
typedef struct spmv_plan {
    const spmv_task *tasks; /* device */
    int task_count;
    float *partials;    /* task_count: each long-row chunk's sum */
    unsigned *arrivals; /* task_count, zero between launches: chunks of a long row done so far */
    struct spmv_cusparse *cusparse;
} spmv_plan;

typedef void spmv_launcher(const spmv_matrix *a, const spmv_plan *plan, const float *x, float *y, int param,
                           cudaStream_t stream);

/* The rungs, in ladder order, then the baseline. */
spmv_launcher spmv_scalar;   /* a thread per row */
spmv_launcher spmv_vector;   /* a warp per row */
spmv_launcher spmv_adaptive; /* param 1: every load of a thread issued before any is used */
spmv_launcher spmv_cusparse_run;

/* The adaptive rung's tasks for a CSR row structure (host memory): writes
 * them to `tasks` when it is not NULL and returns how many there are. */
long long spmv_plan_tasks(const int *row_ptr, int rows, spmv_task *tasks);

/* cuSPARSE's descriptors for A, x and y, and its workspace, made and
 * preprocessed once; NULL with a reason in err when it cannot. */
struct spmv_cusparse *spmv_cusparse_create(const spmv_matrix *a, const float *x, float *y, char *err,
                                           size_t err_len);
void spmv_cusparse_destroy(struct spmv_cusparse *c);

#ifndef __CUDACC__
#include "harness/case.h"

/* A CSR matrix in host memory. */
typedef struct spmv_host_csr {
    int rows, cols, nnz;
    int *row_ptr, *col;
    float *val;
} spmv_host_csr;

/* Generated structures (fixed for a given form and size; values come with
 * each fill): "banded" has SPMV_BAND entries per row centred on the
 * diagonal; "powerlaw" draws row lengths from a Pareto (Lomax) law with mean
 * about 16, some rows empty, capped at SPMV_POWERLAW_LONGEST, columns
 * uniformly random. Returns 0, or -1 with a reason when the matrix would
 * not fit 32-bit indices or host memory. */
#define SPMV_BAND 27
#define SPMV_POWERLAW_LONGEST 16384
int spmv_generate(const char *form, long long rows, spmv_host_csr *out, char *err, size_t err_len);
void spmv_host_csr_free(spmv_host_csr *m);

/* ref = A x in double, and bound = |A| |x|, the scale of each row's
 * rounding error (see spmv.c). */
void spmv_reference(const spmv_host_csr *a, const float *x, double *ref, double *bound);

/* Each row's |y - ref| / bound, the largest reported; passed when it is
 * within ladder_fp32_tolerance(longest row) and every y is finite. */
ladder_check spmv_check_rows(const float *y, const double *ref, const double *bound, int rows, int longest_row);
#endif

#ifdef __cplusplus
}
#endif

#endif
