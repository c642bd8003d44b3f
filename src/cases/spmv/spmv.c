/* The SpMV ladder (SPEC §6): y = A x for a sparse A in CSR (FP32 values,
 * 32-bit indices). A thread per row, a warp per row, then equal work per
 * block whatever the row lengths (runs of short rows through shared memory,
 * long rows in chunks), then each thread's loads issued before use.
 * Baseline: cuSPARSE SpMV.
 *
 * Matrices: "banded:ROWS" (27 entries a row around the diagonal: regular,
 * x reads local), "powerlaw:ROWS" (skewed row lengths: empty rows, rows of
 * thousands of entries, random columns), and "file:" for a Matrix Market
 * file (`ladder run spmv --matrix FILE`). The matrix is read once, so the
 * ceiling is bandwidth. */
#include "spmv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "io/matrix_market.h"
#include "harness/user/load.h"
#include "ladder_try.h"

/* Row pointers are 32-bit, and the adaptive rung's chunk arithmetic adds a
 * chunk to an entry index. */
#define SPMV_MAX_NNZ (0x7fffffffLL - SPMV_BLOCK_NNZ)
/* Seeds of the generated structures: a size names one matrix. */
#define SPMV_STRUCTURE_SEED 0x5eed5a11ULL

static const ladder_variant spmv_variants[] = {
    LADDER_RUNG("scalar", "a thread per row: uncoalesced (neighbour threads read rows apart), a warp waits for its longest row",
                spmv_scalar, 0),
    LADDER_RUNG("vector", "a warp per row: coalesced reads of each row and a shuffle sum; short rows idle lanes, long rows one warp",
                spmv_vector, 0),
    LADDER_RUNG("adaptive", "equal entries per block: short-row runs staged in shared memory, long rows split in chunks (balance)",
                spmv_adaptive, 0),
    LADDER_RUNG("adaptive_loads_first", "the same, all 8 of a thread's entries loaded before any gather (the plain loop batches 4), the matrix evict-first",
                spmv_adaptive, 1),
    LADDER_VARIANT("cusparse", "cuSPARSE SpMV (generic API, CSR_ALG1), workspace and preprocessing outside the timed region",
                   spmv_cusparse_run, 0, LADDER_BASELINE),
};

/* `ladder try spmv FILE.cu`: the user's ladder_try_spmv (include/ladder_try.h) as a rung. */
typedef void tried_spmv_entry(int rows, int cols, int nnz, const int *row_ptr, const int *col, const float *val,
                              const float *x, float *y, cudaStream_t stream);

static void tried_spmv(const spmv_matrix *a, const spmv_plan *plan, const float *x, float *y, int param,
                       cudaStream_t stream)
{
    (void)plan, (void)param;
    _Static_assert(LADDER_SAME_TYPE(ladder_try_spmv, tried_spmv_entry), "ladder_try.h disagrees with this adapter");
    ((tried_spmv_entry *)ladder_user_entry())(a->rows, a->cols, a->nnz, a->row_ptr, a->col, a->val, x, y, stream);
    ladder_user_check_launch();
}

/* ---- matrices ---- */

void spmv_host_csr_free(spmv_host_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static int banded_length(long long row, long long n)
{
    long long half = SPMV_BAND / 2;
    long long first = row - half < 0 ? 0 : row - half, last = row + half > n - 1 ? n - 1 : row + half;
    return (int)(last - first + 1);
}

/* Lomax (Pareto II) with shape 1.5 and scale 8: mean 16, P(0) = 16%,
 * P(> 1024) = 7e-4: heavy enough that a large matrix has rows far longer
 * than a block, while most rows have a few entries. */
static int powerlaw_length(long long row, long long n)
{
    double u = (double)((ladder_hash64(SPMV_STRUCTURE_SEED ^ (uint64_t)row) >> 11) + 1) * 0x1p-53; /* (0, 1] */
    double length = floor(8.0 * (pow(u, -1.0 / 1.5) - 1.0));
    if (length > SPMV_POWERLAW_LONGEST) length = SPMV_POWERLAW_LONGEST;
    if (length > n) length = (double)n;
    return (int)length;
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* L uniformly random columns of n, sorted, then nudged to be distinct:
 * clamping c[k] to n - L + k and raising it to c[k-1] + 1 keeps every
 * column in [0, n) and the row exactly L long. */
static void powerlaw_columns(long long row, int *col, int length, long long n)
{
    for (int k = 0; k < length; ++k)
        col[k] = (int)ladder_random_below(SPMV_STRUCTURE_SEED + 1 + (uint64_t)row, (uint64_t)k, (uint64_t)n);
    qsort(col, (size_t)length, sizeof *col, compare_int);
    for (int k = 0; k < length; ++k) {
        long long highest = n - length + k;
        if (col[k] > highest) col[k] = (int)highest;
        if (k > 0 && col[k] <= col[k - 1]) col[k] = col[k - 1] + 1;
    }
}

/* Whether a generated matrix fits 32-bit indices: row lengths only, no
 * memory, so sizes are checked before the device is opened. */
static int generated_size_error(const char *form, long long rows, char *err, size_t err_len)
{
    if (rows > 0x7ffffffeLL) {
        snprintf(err, err_len, "%lld rows do not fit 32-bit indices", rows);
        return 1;
    }
    int banded = strcmp(form, "banded") == 0;
    long long nnz = 0;
#pragma omp parallel for reduction(+ : nnz) schedule(static)
    for (long long r = 0; r < rows; ++r) nnz += banded ? banded_length(r, rows) : powerlaw_length(r, rows);
    if (nnz > SPMV_MAX_NNZ) {
        snprintf(err, err_len, "%s:%lld has %lld entries, more than 32-bit row pointers hold", form, rows, nnz);
        return 1;
    }
    return 0;
}

int spmv_generate(const char *form, long long rows, spmv_host_csr *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (generated_size_error(form, rows, err, err_len)) return -1;
    int banded = strcmp(form, "banded") == 0;
    out->rows = out->cols = (int)rows;
    out->row_ptr = malloc(((size_t)rows + 1) * sizeof *out->row_ptr);
    if (!out->row_ptr) {
        snprintf(err, err_len, "no host memory for %lld row pointers", rows + 1);
        return -1;
    }
    long long nnz = 0;
    for (long long r = 0; r < rows; ++r) {
        out->row_ptr[r] = (int)nnz;
        nnz += banded ? banded_length(r, rows) : powerlaw_length(r, rows);
    }
    out->row_ptr[rows] = (int)nnz;
    out->nnz = (int)nnz;
    out->col = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *out->col);
    out->val = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *out->val);
    if (!out->col || !out->val) {
        snprintf(err, err_len, "no host memory for %lld entries (%.2f GB)", nnz, 8e-9 * (double)nnz);
        spmv_host_csr_free(out);
        return -1;
    }
#pragma omp parallel for schedule(dynamic, 4096)
    for (long long r = 0; r < rows; ++r) {
        int *col = out->col + out->row_ptr[r];
        int length = out->row_ptr[r + 1] - out->row_ptr[r];
        if (banded) {
            long long first = r - SPMV_BAND / 2 < 0 ? 0 : r - SPMV_BAND / 2;
            for (int k = 0; k < length; ++k) col[k] = (int)(first + k);
        } else {
            powerlaw_columns(r, col, length, rows);
        }
    }
    return 0;
}

/* ---- reference and check ---- */

void spmv_reference(const spmv_host_csr *a, const float *x, double *ref, double *bound)
{
#pragma omp parallel for schedule(dynamic, 1024)
    for (long long r = 0; r < a->rows; ++r) {
        double sum = 0, magnitude = 0;
        for (int k = a->row_ptr[r]; k < a->row_ptr[r + 1]; ++k) {
            double product = (double)a->val[k] * x[a->col[k]];
            sum += product;
            magnitude += fabs(product);
        }
        ref[r] = sum;
        bound[r] = magnitude;
    }
}

/* A float sum of n products, in any order, is off from the exact sum by at
 * most about n u sum |a_ij x_j| (u = 2^-24), and typically sqrt(n) u of it:
 * the error of a row scales with sum |a_ij x_j|, not with |y_i|, which can
 * be tiny after cancellation. So each row's error is measured against that
 * bound and held to ladder_fp32_tolerance (8 u sqrt(n)) of the longest row.
 * A lost or doubled entry of a row of length L moves it by about 1/L of the
 * bound: caught for rows up to thousands long. Empty rows must be exactly
 * 0; an unwritten row is NaN (the poison) and fails. */
ladder_check spmv_check_rows(const float *y, const double *ref, const double *bound, int rows, int longest_row)
{
    double worst = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(max : worst) reduction(+ : nonfinite)
    for (long long r = 0; r < rows; ++r) {
        if (!isfinite(y[r])) {
            ++nonfinite;
            continue;
        }
        double error = fabs((double)y[r] - ref[r]);
        double relative = bound[r] > 0 ? error / bound[r] : (error > 0 ? INFINITY : 0);
        if (relative > worst) worst = relative;
    }
    ladder_check c;
    c.rel_error = worst;
    c.tolerance = ladder_fp32_tolerance(longest_row > 1 ? longest_row : 1);
    c.nonfinite = nonfinite;
    c.passed = nonfinite == 0 && worst <= c.tolerance;
    return c;
}

/* ---- the case ---- */

typedef struct spmv_state {
    spmv_host_csr host;
    int random_values; /* generated and pattern matrices: values drawn with each fill */
    int longest_row;
    float *host_x, *host_y;
    double *ref, *bound;
    int *device_row_ptr, *device_col;
    float *device_val, *device_x, *device_y;
    spmv_task *device_tasks;
    spmv_matrix matrix;
    spmv_plan plan;
} spmv_state;

static void destroy(void *opaque)
{
    spmv_state *s = opaque;
    if (!s) return;
    spmv_cusparse_destroy(s->plan.cusparse);
    cudaFree(s->device_row_ptr);
    cudaFree(s->device_col);
    cudaFree(s->device_val);
    cudaFree(s->device_x);
    cudaFree(s->device_y);
    cudaFree(s->device_tasks);
    cudaFree(s->plan.partials);
    cudaFree(s->plan.arrivals);
    spmv_host_csr_free(&s->host);
    free(s->host_x);
    free(s->host_y);
    free(s->ref);
    free(s->bound);
    free(s);
}

long long spmv_plan_tasks(const int *row_ptr, int rows, spmv_task *tasks)
{
    long long count = 0;
    for (int r = 0; r < rows;) {
        int window_start = SPMV_WINDOW_START(row_ptr[r]);
        if (row_ptr[r + 1] - window_start > SPMV_BLOCK_NNZ) {
            /* Chunks after the first start on a line: SPMV_BLOCK_NNZ is whole lines. */
            int chunks = (row_ptr[r + 1] - window_start + SPMV_BLOCK_NNZ - 1) / SPMV_BLOCK_NNZ;
            for (int c = 0; c < chunks; ++c, ++count) {
                int entry_begin = c == 0 ? row_ptr[r] : window_start + c * SPMV_BLOCK_NNZ;
                int entry_end = c == chunks - 1 ? row_ptr[r + 1] : window_start + (c + 1) * SPMV_BLOCK_NNZ;
                if (tasks) tasks[count] = (spmv_task){r, r + 1, c, chunks, entry_begin, entry_end};
            }
            ++r;
            continue;
        }
        int begin = r;
        while (r < rows && r - begin < SPMV_THREADS && row_ptr[r + 1] - window_start <= SPMV_BLOCK_NNZ) ++r;
        if (tasks) tasks[count] = (spmv_task){begin, r, 0, 1, row_ptr[begin], row_ptr[r]};
        ++count;
    }
    return count;
}

/* The form and, for a generated matrix, whether it fits 32-bit indices; the
 * file's own contents are checked when it is loaded (the command line loads
 * it once before the GPU is opened). */
static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (strcmp(size->form, "file") == 0) {
        if (size->input) return 0;
        snprintf(err, err_len, "the file form reads a Matrix Market file: ladder run spmv --matrix FILE");
        return 1;
    }
    if ((strcmp(size->form, "banded") != 0 && strcmp(size->form, "powerlaw") != 0) || size->count != 1) {
        snprintf(err, err_len, "spmv sizes name a matrix: banded:ROWS or powerlaw:ROWS (e.g. banded:2^22), or "
                               "use --matrix FILE");
        return 1;
    }
    return generated_size_error(size->form, size->dim[0], err, err_len);
}

static int load_matrix(const ladder_size *size, spmv_state *s, ladder_status *status, char *err, size_t err_len)
{
    *status = LADDER_BAD_SIZE;
    if (strcmp(size->form, "file") == 0) {
        matrix_market_csr m;
        if (matrix_market_load(size->input, &m, err, err_len) != 0) return -1;
        if (m.nnz > SPMV_MAX_NNZ) {
            snprintf(err, err_len, "%s: %d entries, more than this case's 32-bit indices take", size->input, m.nnz);
            matrix_market_free(&m);
            return -1;
        }
        s->host = (spmv_host_csr){m.rows, m.cols, m.nnz, m.row_ptr, m.col, m.val};
        s->random_values = m.field == MATRIX_MARKET_PATTERN;
        if (!s->host.col) { /* an empty matrix: keep one valid element so every buffer exists */
            s->host.col = calloc(1, sizeof *s->host.col);
            s->host.val = calloc(1, sizeof *s->host.val);
            if (!s->host.col || !s->host.val) ladder_die("out of host memory");
        }
        return 0;
    }
    s->random_values = 1;
    if (spmv_generate(size->form, size->dim[0], &s->host, err, err_len) != 0) {
        *status = LADDER_NO_MEMORY;
        return -1;
    }
    return 0;
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size_error(size, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    spmv_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    if (load_matrix(size, s, status, err, err_len) != 0) {
        destroy(s);
        return NULL;
    }
    spmv_host_csr *h = &s->host;
    for (int r = 0; r < h->rows; ++r) {
        int length = h->row_ptr[r + 1] - h->row_ptr[r];
        if (length > s->longest_row) s->longest_row = length;
    }
    size_t entries = (size_t)(h->nnz > 0 ? h->nnz : 1);
    long long task_count = spmv_plan_tasks(h->row_ptr, h->rows, NULL);
    spmv_task *tasks = malloc((size_t)task_count * sizeof *tasks);
    s->host_x = malloc((size_t)h->cols * sizeof *s->host_x);
    s->host_y = malloc((size_t)h->rows * sizeof *s->host_y);
    s->ref = malloc((size_t)h->rows * sizeof *s->ref);
    s->bound = malloc((size_t)h->rows * sizeof *s->bound);
    *status = LADDER_NO_MEMORY;
    if (!tasks || !s->host_x || !s->host_y || !s->ref || !s->bound) {
        snprintf(err, err_len, "no host memory for a %d x %d matrix's vectors", h->rows, h->cols);
        free(tasks);
        destroy(s);
        return NULL;
    }
    spmv_plan_tasks(h->row_ptr, h->rows, tasks);
    if (ladder_try_cuda_malloc((void **)&s->device_row_ptr, ((size_t)h->rows + 1) * sizeof(int)) ||
        ladder_try_cuda_malloc((void **)&s->device_col, entries * sizeof(int)) ||
        ladder_try_cuda_malloc((void **)&s->device_val, entries * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->device_x, (size_t)h->cols * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->device_y, (size_t)h->rows * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->device_tasks, (size_t)task_count * sizeof(spmv_task)) ||
        ladder_try_cuda_malloc((void **)&s->plan.partials, (size_t)task_count * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->plan.arrivals, (size_t)task_count * sizeof(unsigned))) {
        snprintf(err, err_len, "a %d x %d matrix of %d entries needs %.2f GB of device memory; not available", h->rows,
                 h->cols, h->nnz, (8.0 * (double)h->nnz + 8.0 * h->rows + 4.0 * h->cols) / 1e9);
        free(tasks);
        destroy(s);
        return NULL;
    }
    CUDA_CHECK(cudaMemcpy(s->device_row_ptr, h->row_ptr, ((size_t)h->rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(s->device_col, h->col, entries * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(s->device_val, h->val, entries * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(s->device_tasks, tasks, (size_t)task_count * sizeof(spmv_task), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(s->plan.arrivals, 0, (size_t)task_count * sizeof(unsigned)));
    free(tasks);
    s->matrix = (spmv_matrix){h->rows, h->cols, h->nnz, s->device_row_ptr, s->device_col, s->device_val};
    s->plan.tasks = s->device_tasks;
    s->plan.task_count = (int)task_count;
    s->plan.cusparse = spmv_cusparse_create(&s->matrix, s->device_x, s->device_y, err, err_len);
    if (!s->plan.cusparse) {
        destroy(s);
        return NULL;
    }
    *status = LADDER_OK;
    return s;
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    spmv_state *s = opaque;
    spmv_host_csr *h = &s->host;
    if (s->random_values && h->nnz > 0) {
        ladder_fill_uniform(h->val, (size_t)h->nnz, seed, 0.5f, 1.5f);
        CUDA_CHECK(cudaMemcpy(s->device_val, h->val, (size_t)h->nnz * sizeof(float), cudaMemcpyHostToDevice));
    }
    ladder_fill_uniform(s->host_x, (size_t)h->cols, seed ^ 0x9e3779b97f4a7c15ULL, -1.0f, 1.0f);
    CUDA_CHECK(cudaMemcpy(s->device_x, s->host_x, (size_t)h->cols * sizeof(float), cudaMemcpyHostToDevice));
    spmv_reference(h, s->host_x, s->ref, s->bound);
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    spmv_state *s = opaque;
    ((spmv_launcher *)v->impl)(&s->matrix, &s->plan, s->device_x, s->device_y, v->param, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    spmv_state *s = opaque;
    return (ladder_output){s->device_y, (size_t)s->host.rows * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    (void)v;
    spmv_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_y, s->device_y, (size_t)s->host.rows * sizeof(float), cudaMemcpyDeviceToHost));
    return spmv_check_rows(s->host_y, s->ref, s->bound, s->host.rows, s->longest_row);
}

/* Values and column indices once, row pointers once, x once, y written
 * once; a multiply and an add per entry. */
static ladder_work work(void *opaque)
{
    spmv_state *s = opaque;
    const spmv_host_csr *h = &s->host;
    double bytes = 8.0 * h->nnz + 4.0 * (h->rows + 1.0) + 4.0 * h->cols + 4.0 * h->rows;
    return (ladder_work){bytes, 2.0 * h->nnz};
}

/* The matrix's shape, which decides the ladder: how long rows are on
 * average and at most, and how many are empty. */
static void summarize(void *opaque, ladder_results *results, size_t first)
{
    (void)first;
    spmv_state *s = opaque;
    const spmv_host_csr *h = &s->host;
    int empty = 0;
    for (int r = 0; r < h->rows; ++r) empty += h->row_ptr[r + 1] == h->row_ptr[r];
    ladder_add_summary(results, "nonzeros", h->nnz, "", "stored entries (a symmetric file counts both triangles)");
    ladder_add_summary(results, "mean_row_length", (double)h->nnz / h->rows, "", "entries per row");
    ladder_add_summary(results, "longest_row", s->longest_row, "", "entries in the longest row (a block is 256 threads)");
    ladder_add_summary(results, "empty_rows", empty, "", "rows with no entry (y is 0 there)");
    ladder_add_summary(results, "matrix_mb", (8.0 * h->nnz + 4.0 * (h->rows + 1)) / 1e6, "MB",
                "values, column indices and row pointers (10^6 bytes); compare with the L2");
}

const ladder_case spmv_case = {
    .name = "spmv",
    .title = "sparse matrix times vector (CSR, FP32): a thread per row to past cuSPARSE",
    .size_help = "banded:ROWS or powerlaw:ROWS (square, generated); --matrix FILE for a Matrix Market file",
    .default_size = "banded:2^22,powerlaw:2^22",
    .quick_size = "banded:2^18,powerlaw:2^18",
    .size_forms = "banded powerlaw file",
    .test_sizes = {"banded:1", "banded:997", "powerlaw:1", "powerlaw:3001", "powerlaw:20011", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "spmv/spmv_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_spmv, 0),
    .variants = spmv_variants,
    .variant_count = (int)(sizeof spmv_variants / sizeof spmv_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every rung takes every matrix */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
    .summarize = summarize,
};
