/* The analysis-driven optimization ladder (SPEC §8): one workload, from one
 * block doing everything to the mean stage at copy bandwidth and the product
 * in cuBLAS. The published V100S run (CPU 4.71 s serial, 0.363 s on 104
 * cores; GPU v1..v5 2.37 s, 0.083 s, 0.021 s, 0.0118 s, 0.0065 s) is the
 * classic reference, not a measurement of ours.
 *
 * Ceiling: bandwidth. The L*M*N input floats must all be read once, while the
 * 2*L*L*N flops of the product take a few percent of that time at FP32 peak:
 * the workload is memory-bound, so every rung's fraction of the bandwidth
 * ceiling is its speed of light, and its GFLOP/s shows the FP32 side.
 * There is no vendor baseline for the whole workload (a "read the input once"
 * kernel would not produce the output, so it could not be validated). */
#include "ado.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "harness/user/load.h"
#include "ladder_try.h"

void ado_reference_dataset(const float *dataset, const float *matrix, int L, int M, double *means_scratch,
                           double *out_column, long long stride)
{
    for (int j = 0; j < L; ++j) {
        const float *row = dataset + (size_t)j * M;
        double sum = 0;
        for (int i = 0; i < M; ++i) sum += row[i];
        means_scratch[j] = sum / M;
    }
    for (int i = 0; i < L; ++i) {
        const float *matrix_row = matrix + (size_t)i * L;
        double sum = 0;
        for (int j = 0; j < L; ++j) sum += (double)matrix_row[j] * means_scratch[j];
        out_column[i * stride] = sum;
    }
}

void ado_cpu(const float *input, const float *matrix, int L, int M, int N, float *out, int threads)
{
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        double *scratch = ladder_host_alloc(2 * (size_t)L * sizeof(double)); /* means, then one output column */
#pragma omp for schedule(static)
        for (int k = 0; k < N; ++k) {
            ado_reference_dataset(input + (size_t)k * L * M, matrix, L, M, scratch, scratch + L, 1);
            for (int i = 0; i < L; ++i) out[(size_t)i * N + k] = (float)scratch[L + i];
        }
        free(scratch);
    }
}

typedef void ado_cpu_fn(const float *input, const float *matrix, int L, int M, int N, float *out, int threads);

#define CPU_RUNG(name, story, threads) LADDER_VARIANT(name, story, ado_cpu, threads, LADDER_HOST)

static const ladder_variant ado_variants[] = {
    CPU_RUNG("cpu_serial", "the reference on one core: row means then the product, in double (V100S host: 4.71 s)",
             1),
    CPU_RUNG("cpu_omp", "the same, OpenMP over data sets on every core (V100S host, 104 cores: 0.363 s)", 0),
    LADDER_RUNG("v1_one_block",
         "one block, thread j sums row j of each data set in turn, then a shared sweep per output (V100S: 2.37 s)",
         ado_thread_per_row, 1),
    LADDER_RUNG("v2_block_per_set", "the same kernel, one block per data set: every SM busy (V100S: 0.083 s)",
         ado_thread_per_row, 0),
    LADDER_RUNG("v3_coalesced_means",
         "32x32 block per data set, lanes along a row: coalesced reads, warp-shuffle row sums (V100S: 0.021 s)",
         ado_warp_rows_sweep, 0),
    LADDER_RUNG("v4_shuffle_product",
         "v3 with the product reduced by shuffles in two stages: 1 block barrier per output instead of 11 "
         "(V100S: 0.0118 s)",
         ado_warp_rows_shuffle, 0),
    LADDER_RUNG("v5_means_then_sgemm",
         "v3's mean stage as its own kernel, then one cuBLAS SGEMM for every data set (V100S: 0.0065 s)",
         ado_means_sgemm, 0),
    LADDER_RUNG("streamed_means_sgemm",
         "a warp per row with 8 float4 loads in flight per lane, blocks not tied to data sets: the mean stage "
         "at copy bandwidth",
         ado_streamed_means_sgemm, 0),
    LADDER_RUNG("overlapped_chunks",
         "data sets in 8 slices, each slice's SGEMM on a second stream beside the next slice's means: "
         "hides the product",
         ado_overlapped_chunks, 8),
};

/* `ladder try ado FILE.cu`: the user's ladder_try_ado (include/ladder_try.h) as a rung. */
typedef void tried_ado_entry(const float *input, const float *matrix, float *out, int L, int M, int N, float *scratch,
                             size_t scratch_floats, cudaStream_t stream);

/* The user gets the two-stage rungs' means as scratch. */
static void tried_ado(const ado_problem *p, int param, cudaStream_t stream)
{
    (void)param;
    _Static_assert(LADDER_SAME_TYPE(ladder_try_ado, tried_ado_entry), "ladder_try.h disagrees with this adapter");
    ((tried_ado_entry *)ladder_user_entry())(p->input, p->matrix, p->out, p->L, p->M, p->N, p->means,
                                             (size_t)p->L * p->N, stream);
    ladder_user_check_launch();
}

typedef struct ado_state {
    int L, M, N;
    size_t input_count, matrix_count, out_count;
    float *host_input, *host_matrix, *host_out;
    double *reference; /* L x N, like out */
    float *device_input, *device_matrix, *device_means, *device_out;
    ado_problem problem;
} ado_state;

static void destroy(void *opaque)
{
    ado_state *s = opaque;
    if (!s) return;
    if (s->problem.blas) cublasDestroy(s->problem.blas);
    if (s->problem.side_stream) cudaStreamDestroy(s->problem.side_stream);
    if (s->problem.chunk_ready) cudaEventDestroy(s->problem.chunk_ready);
    if (s->problem.side_done) cudaEventDestroy(s->problem.side_done);
    cudaFree(s->device_input);
    cudaFree(s->device_matrix);
    cudaFree(s->device_means);
    cudaFree(s->device_out);
    cudaFreeHost(s->host_input);
    free(s->host_matrix);
    free(s->host_out);
    free(s->reference);
    free(s);
}

/* The input is pinned: fill_inputs uploads all of it for every check (twice
 * per rung), and pinned copies run several times faster than pageable ones. */
static int alloc_pinned(float **ptr, size_t bytes)
{
    if (cudaMallocHost((void **)ptr, bytes) == cudaSuccess) return 0;
    (void)cudaGetLastError();
    *ptr = NULL;
    return -1;
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 && size->count != 3) {
        snprintf(err, err_len, "ado takes LxMxN (rows, columns, data sets) or one number for all three");
        return 1;
    }
    long long L = size->dim[0], M = size->dim[size->count == 3 ? 1 : 0], N = size->dim[size->count == 3 ? 2 : 0];
    if (L > INT32_MAX || M > INT32_MAX || N > INT32_MAX) {
        snprintf(err, err_len, "each of L, M and N must be below 2^31");
        return 1;
    }
    return 0;
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size_error(size, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    long long L = size->dim[0], M = size->dim[size->count == 3 ? 1 : 0], N = size->dim[size->count == 3 ? 2 : 0];
    double input_gb = 4e-9 * (double)L * (double)M * (double)N;
    if (input_gb > 1e6) {
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "%lldx%lldx%lld needs %.3g GB of input; not available", L, M, N, input_gb);
        return NULL;
    }
    ado_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->L = (int)L, s->M = (int)M, s->N = (int)N;
    s->input_count = (size_t)L * (size_t)M * (size_t)N;
    s->matrix_count = (size_t)L * (size_t)L;
    s->out_count = (size_t)L * (size_t)N;
    /* Device first: a GPU too small is the usual failure, and it is cheaper
     * to find out before pinning gigabytes of host memory. */
    if (ladder_try_cuda_malloc((void **)&s->device_input, s->input_count * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->device_matrix, s->matrix_count * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->device_means, s->out_count * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->device_out, s->out_count * sizeof(float))) {
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "%lldx%lldx%lld needs %.2f GB of device memory; not available (try a smaller --size)",
                 L, M, N, 4e-9 * (double)(s->input_count + s->matrix_count + 2 * s->out_count));
        destroy(s);
        return NULL;
    }
    if (alloc_pinned(&s->host_input, s->input_count * sizeof(float)) ||
        !(s->host_matrix = malloc(s->matrix_count * sizeof(float))) ||
        !(s->host_out = malloc(s->out_count * sizeof(float))) ||
        !(s->reference = malloc(s->out_count * sizeof(double)))) {
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "%lldx%lldx%lld needs %.2f GB of pinned host memory for the input; not available", L,
                 M, N, 4e-9 * (double)s->input_count);
        destroy(s);
        return NULL;
    }
    ado_problem *p = &s->problem;
    *p = (ado_problem){s->device_input, s->device_matrix, s->device_means, s->device_out, s->L, s->M, s->N};
    CUBLAS_CHECK(cublasCreate(&p->blas));
    CUBLAS_CHECK(cublasSetMathMode(p->blas, CUBLAS_DEFAULT_MATH));
    /* The side stream runs the overlapped rung's SGEMMs at the highest
     * priority: their blocks take SMs as soon as mean-stage blocks retire,
     * instead of queueing behind the next slice's thousands of blocks. */
    int least, greatest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&p->side_stream, cudaStreamDefault, greatest));
    CUDA_CHECK(cudaEventCreateWithFlags(&p->chunk_ready, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&p->side_done, cudaEventDisableTiming));
    return s;
}

/* Fresh inputs, then the reference in double, both parallel (at the default
 * size that is 2^30 floats, every check). Positive values: no cancellation,
 * so a wrong or missing term shows in the relative error. */
static void fill_inputs(void *opaque, uint64_t seed)
{
    ado_state *s = opaque;
    ladder_fill_uniform(s->host_input, s->input_count, seed, 1.0f, 2.0f);
    ladder_fill_uniform(s->host_matrix, s->matrix_count, ladder_hash64(seed), 0.5f, 1.5f);
    CUDA_CHECK(cudaMemcpy(s->device_input, s->host_input, s->input_count * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(s->device_matrix, s->host_matrix, s->matrix_count * sizeof(float), cudaMemcpyHostToDevice));
#pragma omp parallel
    {
        double *means = ladder_host_alloc((size_t)s->L * sizeof(double));
#pragma omp for schedule(static)
        for (int k = 0; k < s->N; ++k)
            ado_reference_dataset(s->host_input + (size_t)k * s->L * s->M, s->host_matrix, s->L, s->M, means,
                                  s->reference + k, s->N);
        free(means);
    }
}

/* Serial CPU time is about a nanosecond per element and per product term;
 * above this the three timed runs and two checks take too long. */
#define ADO_CPU_SERIAL_MAX_TERMS (1LL << 31)

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    ado_state *s = opaque;
    double terms = (double)s->input_count + (double)s->matrix_count * s->N;
    if (v->flags & LADDER_HOST && v->param == 1 && terms > (double)ADO_CPU_SERIAL_MAX_TERMS)
        return "serial CPU takes seconds per run: needs L*M*N + L*L*N <= 2^31 (1024x1024x1024 is the largest cube)";
    if (v->impl == (ladder_impl)ado_thread_per_row && s->L > ADO_MAX_BLOCK_ROWS)
        return "needs L <= 1024: one thread per row in one block";
    if ((v->impl == (ladder_impl)ado_warp_rows_sweep || v->impl == (ladder_impl)ado_warp_rows_shuffle) &&
        s->L > ADO_MAX_SHARED_ROWS)
        return "needs L <= 11264: a data set's means in 48 KB of shared memory";
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    ado_state *s = opaque;
    if (v->flags & LADDER_HOST)
        ((ado_cpu_fn *)v->impl)(s->host_input, s->host_matrix, s->L, s->M, s->N, s->host_out, v->param);
    else
        ((ado_launcher *)v->impl)(&s->problem, v->param, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    ado_state *s = opaque;
    void *out = v->flags & LADDER_HOST ? (void *)s->host_out : (void *)s->device_out;
    return (ladder_output){out, s->out_count * sizeof(float), 0xFF};
}

/* Each output is a float mean of M terms carried through a float sum of L
 * products: the usual FP32 tolerance for M + L terms covers both. */
static ladder_check check(void *opaque, const ladder_variant *v)
{
    ado_state *s = opaque;
    if (!(v->flags & LADDER_HOST))
        CUDA_CHECK(cudaMemcpy(s->host_out, s->device_out, s->out_count * sizeof(float), cudaMemcpyDeviceToHost));
    return ladder_compare_f32_f64(s->host_out, s->reference, s->out_count,
                                  ladder_fp32_tolerance((double)s->M + (double)s->L));
}

/* Bytes: the input, the matrix and the output, once each; the means are an
 * intermediate. Flops: L*M*N for the row sums (the divisions by M, L*N of
 * them, are not counted) and 2*L*L*N for the products. */
static ladder_work work(void *opaque)
{
    ado_state *s = opaque;
    double bytes = 4.0 * ((double)s->input_count + (double)s->matrix_count + (double)s->out_count);
    double flops = (double)s->input_count + 2.0 * (double)s->matrix_count * s->N;
    return (ladder_work){bytes, flops};
}

const ladder_case ado_case = {
    .name = "ado",
    .title = "analysis-driven optimization: row means then a shared matrix product, per data set",
    .size_help = "LxMxN (rows, columns, data sets) or one number for all three; 1024 is 4 GiB of input",
    .default_size = "1024",
    .quick_size = "512x512x256",
    .test_sizes = {"37x29x5", "100x77x13", "64x64x3", "1030x6x3", "1x1x1", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "ado/ado_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_ado, 0),
    .variants = ado_variants,
    .variant_count = (int)(sizeof ado_variants / sizeof ado_variants[0]),
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
