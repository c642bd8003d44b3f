/* The attention ladder (SPEC §16): O = softmax(Q K^T / sqrt(D)) V per batch
 * and head, BF16 in and out, FP32 accumulation and softmax statistics, full
 * and causal ("causal:BxHxSxD"). From the textbook's three kernels with the
 * S x S scores in global memory, through what an unfused framework does
 * (cuBLAS batched GEMMs and a softmax kernel), to one fused pass with an
 * online softmax on CUDA cores, on mma.sync, with a cp.async pipeline, and
 * on Hopper's TMA and wgmma with warp-specialized warpgroups. The baseline
 * is cuDNN's fused attention in the same process (attention_cudnn.c). */
#include "attention.h"

#include <cublas_v2.h>
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
#include "harness/user/load.h"
#include "ladder_try.h"

/* ---- Work and validation -------------------------------------------------------
 * The reference is the attention of the BF16 inputs' exact values in double.
 * What the rungs lose against it: O rounded to BF16 (at most 2^-9 of each
 * element, about 1.1e-3 relative RMS), and on the tensor-core rungs and
 * cuDNN the probabilities rounded to BF16 before P V (another ~1e-3 of O);
 * FP32 accumulation over S terms is far below both. The tolerance is 2^-8
 * of ||O||. Inputs are drawn so that the softmax is not flat (Q and K on
 * [-2, 2]: scores of standard deviation 1.3), and a missing or extra key
 * moves O by about its weight: at S = 17 a missing tail key is ~25% off, a
 * wrong causal diagonal ruins the first rows (always checked). */

double attention_tolerance(void)
{
    return ldexp(1.0, -8);
}

ladder_work attention_work_of(long long heads, long long seq, long long dim, int causal)
{
    double h = (double)heads, s = (double)seq, d = (double)dim;
    double flops = causal ? 2.0 * h * s * (s + 1.0) * d : 4.0 * h * s * s * d;
    return (ladder_work){4.0 * h * s * d * 2.0, flops};
}

void attention_reference_row(const uint16_t *q, const uint16_t *k, const uint16_t *v, long long seq, long long dim,
                             int causal, long long head, long long row, double *out)
{
    long long keys = causal ? row + 1 : seq;
    const uint16_t *qi = q + (head * seq + row) * dim;
    const uint16_t *kh = k + head * seq * dim, *vh = v + head * seq * dim;
    double scale = 1.0 / sqrt((double)dim);
    double *score = malloc((size_t)keys * sizeof(double));
    if (!score) ladder_die("out of host memory");
    double top = -INFINITY;
    for (long long j = 0; j < keys; ++j) {
        double sum = 0;
        for (long long d = 0; d < dim; ++d) sum += (double)ladder_from_bf16(qi[d]) * ladder_from_bf16(kh[j * dim + d]);
        score[j] = sum * scale;
        if (score[j] > top) top = score[j];
    }
    double total = 0;
    for (long long d = 0; d < dim; ++d) out[d] = 0;
    for (long long j = 0; j < keys; ++j) {
        double p = exp(score[j] - top);
        total += p;
        for (long long d = 0; d < dim; ++d) out[d] += p * ladder_from_bf16(vh[j * dim + d]);
    }
    for (long long d = 0; d < dim; ++d) out[d] /= total;
    free(score);
}

void attention_draw_sample(long long heads, long long seq, uint64_t seed, int count, attention_sample *sample)
{
    int room = (int)(sizeof sample->row / sizeof sample->row[0]);
    if (count > room) count = room;
    /* The causal edges: row 0 sees one key, row S - 1 all of them. */
    long long fixed[4][2] = {{0, 0}, {0, seq - 1}, {heads - 1, 0}, {heads - 1, seq - 1}};
    int n = 0;
    for (; n < 4 && n < count; ++n) {
        sample->head[n] = fixed[n][0];
        sample->row[n] = fixed[n][1];
    }
    for (; n < count; ++n) {
        sample->head[n] = (long long)ladder_random_below(seed, 2 * (uint64_t)n, (uint64_t)heads);
        sample->row[n] = (long long)ladder_random_below(seed, 2 * (uint64_t)n + 1, (uint64_t)seq);
    }
    sample->count = count;
}

ladder_check attention_check_host(const uint16_t *q, const uint16_t *k, const uint16_t *v, const uint16_t *o,
                                  long long heads, long long seq, long long dim, int causal,
                                  const attention_sample *sample, double tolerance)
{
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
    long long rows = sample ? sample->count : heads * seq;
#pragma omp parallel for schedule(dynamic) reduction(+ : diff_squared, ref_squared)
    for (long long r = 0; r < rows; ++r) {
        long long head = sample ? sample->head[r] : r / seq, row = sample ? sample->row[r] : r % seq;
        double out[128]; /* D <= 128 */
        attention_reference_row(q, k, v, seq, dim, causal, head, row, out);
        const uint16_t *got = o + (head * seq + row) * dim;
        for (long long d = 0; d < dim; ++d) {
            double g = ladder_from_bf16(got[d]);
            ref_squared += out[d] * out[d];
            if (isfinite(g)) diff_squared += (g - out[d]) * (g - out[d]);
        }
    }
    long long elements = heads * seq * dim;
#pragma omp parallel for schedule(static) reduction(+ : nonfinite)
    for (long long e = 0; e < elements; ++e)
        if (!isfinite(ladder_from_bf16(o[e]))) ++nonfinite;
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, tolerance);
}

/* ---- Rung 2: what an unfused framework does ---------------------------------------
 * cuBLAS is column-major. Scores (row-major S x S) = Q K^T: as hgemm's TN
 * product, K first. O (row-major S x D) = P V is, column-major, O^T = V^T
 * P^T with V^T and P^T as stored: (N, N), V first. Both batched over the
 * heads by strides. The GEMMs compute every score, the causal mask is the
 * softmax kernel's (as a framework's masked softmax). */
static void cublas_unfused(cublasHandle_t handle, const attention_problem *p, cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    long long s = p->seq, d = p->dim;
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasGemmStridedBatchedEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, p->seq, p->seq, p->dim, &p->scale, p->k,
                                            CUDA_R_16BF, p->dim, s * d, p->q, CUDA_R_16BF, p->dim, s * d, &zero,
                                            p->scores, CUDA_R_32F, p->seq, s * s, p->heads, CUBLAS_COMPUTE_32F,
                                            CUBLAS_GEMM_DEFAULT));
    attention_softmax_to_bf16(p, stream);
    CUBLAS_CHECK(cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, p->dim, p->seq, p->seq, &one, p->v,
                                            CUDA_R_16BF, p->dim, s * d, p->probs, CUDA_R_16BF, p->seq, s * s, &zero,
                                            p->o, CUDA_R_16BF, p->dim, s * d, p->heads, CUBLAS_COMPUTE_32F,
                                            CUBLAS_GEMM_DEFAULT));
}

/* ---- The ladder ----------------------------------------------------------------- */

/* param: what a rung needs. */
enum {
    NEEDS_SCORES = 1,  /* the S x S scores in global memory, any GPU */
    NEEDS_CUBLAS = 2,  /* the scores and probabilities, and cuBLAS */
    NEEDS_NOTHING = 3, /* a fused CUDA-core kernel, any GPU */
    NEEDS_SM80 = 80,   /* mma.sync BF16, ldmatrix, cp.async */
    NEEDS_SM90A = 90,  /* sm_90a code: runs on 9.0 only */
};

#ifdef LADDER_HAVE_SM90A
#define SM90A(launcher) launcher
#else
#define SM90A(launcher) NULL
#endif

typedef void attention_library_call(cublasHandle_t handle, const attention_problem *p, cudaStream_t stream);
typedef void attention_cudnn_call(attention_cudnn *plan, const attention_problem *p, cudaStream_t stream);

static const ladder_variant attention_variants[] = {
    LADDER_RUNG("textbook", "3 kernels on FP32 CUDA cores: scores to global memory, a row softmax, P V: the S x S "
                            "matrix written and read 3 times", attention_textbook, NEEDS_SCORES),
    LADDER_RUNG("cublas_unfused", "the framework path: cuBLAS batched BF16 GEMMs on tensor cores around one softmax "
                                  "kernel; still S x S in memory", cublas_unfused, NEEDS_CUBLAS),
    LADDER_RUNG("fused_fp32", "one pass, online softmax (running max and sum), K and V tiles in shared memory, FP32 "
                              "CUDA cores: no S x S in memory", attention_fused_fp32, NEEDS_NOTHING),
    LADDER_RUNG("mma", "mma.sync m16n8k16 + ldmatrix for Q K^T and P V, P kept in registers, a warp owns 16 query "
                       "rows: tensor cores", attention_mma, NEEDS_SM80),
    LADDER_RUNG("mma_async", "cp.async double buffering of K and V: the next tiles load while this one multiplies",
                attention_mma_async, NEEDS_SM80),
    LADDER_RUNG("wgmma_ws", "TMA on mbarriers, wgmma for both products (P from registers), a producer warp and 2 "
                            "consumer warpgroups (setmaxnreg)", SM90A(attention_wgmma_ws), NEEDS_SM90A),
    LADDER_RUNG("wgmma_overlap", "tile t+1's Q K^T and tile t's P V in flight during t+1's softmax; causal: longest "
                                 "rows first", SM90A(attention_wgmma_overlap), NEEDS_SM90A),
    LADDER_RUNG("wgmma_pingpong", "the 2 consumer warpgroups take turns issuing products (named barriers): one's "
                                  "softmax under the other's wgmma", SM90A(attention_wgmma_pingpong), NEEDS_SM90A),
    LADDER_RUNG("wgmma_persistent", "a block per SM walks the query blocks: the next block's Q, K, V load while this "
                                    "one finishes and stores", SM90A(attention_wgmma_persistent), NEEDS_SM90A),
    LADDER_RUNG("wgmma_queue", "the persistent blocks take their next query block from a queue (an atomic "
                               "counter): each to the SM free first", SM90A(attention_wgmma_queue), NEEDS_SM90A),
    LADDER_RUNG("wgmma_tile_per_form", "the block's tile per head size and form: D = 64 full, 192 query rows "
                                       "and 3 consumer warpgroups; D = 128 full, key tiles of 176; causal, rung 10",
                SM90A(attention_wgmma_tile_per_form), NEEDS_SM90A),
    LADDER_VARIANT("cudnn", "cuDNN 9 fused scaled-dot-product attention (graph API), BF16, same layout and mask",
                   attention_cudnn_run, 0, LADDER_BASELINE),
};

/* `ladder try attention FILE.cu`: the user's ladder_try_attention (include/ladder_try.h) as a rung. */
typedef void tried_attention_entry(const ladder_bf16 *q, const ladder_bf16 *k, const ladder_bf16 *v, ladder_bf16 *o,
                                   int heads, int seq, int dim, int causal, float scale, cudaStream_t stream);

static void tried_attention(const attention_problem *p, cudaStream_t stream)
{
    _Static_assert(LADDER_SAME_TYPE(ladder_try_attention, tried_attention_entry),
                   "ladder_try.h disagrees with this adapter");
    ((tried_attention_entry *)ladder_user_entry())((const ladder_bf16 *)p->q, (const ladder_bf16 *)p->k,
                                                   (const ladder_bf16 *)p->v, (ladder_bf16 *)p->o, p->heads, p->seq,
                                                   p->dim, p->causal, p->scale, stream);
    ladder_user_check_launch();
}

/* Each tensor's element count must fit a 32-bit int in the kernels' index
 * arithmetic within a head (S D), and the grids hold 2^31 - 1 query tiles
 * and 65535 heads. */
#define ATTENTION_MAX_ELEMENTS (1LL << 31)
#define ATTENTION_MAX_HEADS 65535

typedef struct attention_state {
    attention_problem problem;
    long long batch, heads_per_batch;
    uint16_t *host_q, *host_k, *host_v, *host_o;
    float *draw;
    cublasHandle_t cublas;
    attention_cudnn *cudnn;
    char cudnn_error[300];
    int full_check;
    attention_sample sample;
    int shared_optin, cc_major, cc_minor;
    int maps_encoded;
    char maps_error[200];
    char reason[200];
} attention_state;

static void destroy(void *opaque)
{
    attention_state *s = opaque;
    if (!s) return;
    if (s->cudnn) attention_cudnn_destroy(s->cudnn);
    if (s->cublas) cublasDestroy(s->cublas);
    cudaFree((void *)s->problem.q);
    cudaFree((void *)s->problem.k);
    cudaFree((void *)s->problem.v);
    cudaFree(s->problem.o);
    cudaFree(s->problem.scores);
    cudaFree(s->problem.probs);
    cudaFree(s->problem.work_queue);
    free(s->host_q);
    free(s->host_k);
    free(s->host_v);
    free(s->host_o);
    free(s->draw);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 4) {
        snprintf(err, err_len, "attention takes BxHxSxD (batch, heads, sequence, head size), causal:BxHxSxD for the "
                               "causal form");
        return 1;
    }
    long long b = size->dim[0], h = size->dim[1], seq = size->dim[2], d = size->dim[3];
    if (!ATTENTION_D_SUPPORTED(d)) {
        snprintf(err, err_len, "D = %lld: the attention rungs take a head size D of 64 or 128", d);
        return 1;
    }
    if (b * h > ATTENTION_MAX_HEADS) {
        snprintf(err, err_len, "B x H = %lld: at most %d heads", b * h, ATTENTION_MAX_HEADS);
        return 1;
    }
    if (b * h * seq * d >= ATTENTION_MAX_ELEMENTS) {
        snprintf(err, err_len, "B x H x S x D = %lld elements a tensor: at most 2^31 - 1", b * h * seq * d);
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
    attention_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    attention_problem *p = &s->problem;
    s->batch = size->dim[0];
    s->heads_per_batch = size->dim[1];
    p->heads = (int)(s->batch * s->heads_per_batch);
    p->seq = (int)size->dim[2];
    p->dim = (int)size->dim[3];
    p->causal = strcmp(size->form, "causal") == 0;
    p->scale = (float)(1.0 / sqrt((double)p->dim));
    size_t count = (size_t)p->heads * p->seq * p->dim, bytes = count * sizeof(uint16_t);
    ladder_buffers b = {0};
    ladder_buffers_pair(&b, (void **)&s->host_q, (void **)&p->q, bytes);
    ladder_buffers_pair(&b, (void **)&s->host_k, (void **)&p->k, bytes);
    ladder_buffers_pair(&b, (void **)&s->host_v, (void **)&p->v, bytes);
    ladder_buffers_pair(&b, (void **)&s->host_o, (void **)&p->o, bytes);
    ladder_buffers_host(&b, (void **)&s->draw, count * sizeof(float));
    ladder_buffers_device(&b, (void **)&p->work_queue, 2 * sizeof(unsigned int));
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    CUDA_CHECK(cudaMemset(p->work_queue, 0, 2 * sizeof(unsigned int)));
    /* The unfused rungs' S x S matrices: without room for them those two
     * rungs skip, the fused ones still run. */
    size_t square = (size_t)p->heads * p->seq * p->seq;
    if (ladder_try_cuda_malloc((void **)&p->scores, square * sizeof(float))) p->scores = NULL;
    if (p->scores && ladder_try_cuda_malloc((void **)&p->probs, square * sizeof(uint16_t))) p->probs = NULL;
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->cc_major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->cc_minor, cudaDevAttrComputeCapabilityMinor, device));
#ifdef LADDER_HAVE_SM90A
    if (s->cc_major == 9 && s->cc_minor == 0)
        s->maps_encoded = attention_encode_tensor_maps(p, s->maps_error, sizeof s->maps_error) == 0;
#endif
    CUBLAS_CHECK(cublasCreate(&s->cublas));
    s->cudnn = attention_cudnn_create(p, s->batch, s->heads_per_batch, s->cudnn_error, sizeof s->cudnn_error);
    s->full_check = (double)p->heads * p->seq * p->seq * p->dim <= (double)ATTENTION_FULL_CHECK_WORK;
    return s;
}

/* n values uniform on [lo, hi], rounded to BF16. */
static void fill_bf16(uint16_t *bits, float *draw, size_t n, uint64_t seed, float lo, float hi)
{
    ladder_fill_uniform(draw, n, seed, lo, hi);
#pragma omp parallel for schedule(static)
    for (long long e = 0; e < (long long)n; ++e) bits[e] = ladder_to_bf16(draw[e]);
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    attention_state *s = opaque;
    attention_problem *p = &s->problem;
    size_t count = (size_t)p->heads * p->seq * p->dim, bytes = count * sizeof(uint16_t);
    fill_bf16(s->host_q, s->draw, count, seed, -2.0f, 2.0f);
    fill_bf16(s->host_k, s->draw, count, ladder_hash64(seed), -2.0f, 2.0f);
    fill_bf16(s->host_v, s->draw, count, ladder_hash64(ladder_hash64(seed)), -1.0f, 1.0f);
    CUDA_CHECK(cudaMemcpy((void *)p->q, s->host_q, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy((void *)p->k, s->host_k, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy((void *)p->v, s->host_v, bytes, cudaMemcpyHostToDevice));
    if (!s->full_check)
        attention_draw_sample(p->heads, p->seq, ladder_hash64(seed ^ 0x5A5A5A5A5A5A5A5Aull), 256, &s->sample);
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    attention_state *s = opaque;
    const attention_problem *p = &s->problem;
    if (v->flags & LADDER_BASELINE) return s->cudnn ? NULL : s->cudnn_error;
    if ((v->param == NEEDS_SCORES && !p->scores) || (v->param == NEEDS_CUBLAS && !p->probs)) {
        snprintf(s->reason, sizeof s->reason, "the S x S matrices (%.1f GB) do not fit in device memory",
                 (double)p->heads * p->seq * p->seq * (v->param == NEEDS_CUBLAS ? 6.0 : 4.0) / 1e9);
        return s->reason;
    }
    if (v->param == NEEDS_SM80 && s->cc_major < 8)
        return "mma.sync BF16, ldmatrix and cp.async need compute capability 8.0 or later";
    if (v->param == NEEDS_SM90A) {
        if (!v->impl) return "built without sm_90a code: this build's CUDA architectures do not include 90";
        if (s->cc_major != 9 || s->cc_minor != 0)
            return "TMA, wgmma and setmaxnreg code built for sm_90a, which runs on compute capability 9.0 only";
        if (!s->maps_encoded) return s->maps_error;
    }
    size_t need = 0;
    if (v->param == NEEDS_NOTHING || v->param == NEEDS_SM80)
        need = attention_sm80_shared_bytes((attention_launcher *)v->impl, p->dim);
#ifdef LADDER_HAVE_SM90A
    if (v->param == NEEDS_SM90A) need = attention_sm90a_shared_bytes((attention_launcher *)v->impl, p->dim);
#endif
    if (need > (size_t)s->shared_optin) {
        snprintf(s->reason, sizeof s->reason,
                 "needs %.1f KB of shared memory a block at D = %d; this GPU grants %.1f KB", need / 1024.0, p->dim,
                 s->shared_optin / 1024.0);
        return s->reason;
    }
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    attention_state *s = opaque;
    if (v->flags & LADDER_BASELINE)
        ((attention_cudnn_call *)v->impl)(s->cudnn, &s->problem, stream);
    else if (v->param == NEEDS_CUBLAS)
        ((attention_library_call *)v->impl)(s->cublas, &s->problem, stream);
    else
        ((attention_launcher *)v->impl)(&s->problem, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    attention_state *s = opaque;
    const attention_problem *p = &s->problem;
    /* 0xFFFF is a BF16 NaN: an element left unwritten fails. */
    return (ladder_output){p->o, (size_t)p->heads * p->seq * p->dim * sizeof(uint16_t), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    (void)v;
    attention_state *s = opaque;
    const attention_problem *p = &s->problem;
    CUDA_CHECK(cudaMemcpy(s->host_o, p->o, (size_t)p->heads * p->seq * p->dim * sizeof(uint16_t),
                          cudaMemcpyDeviceToHost));
    return attention_check_host(s->host_q, s->host_k, s->host_v, s->host_o, p->heads, p->seq, p->dim, p->causal,
                                s->full_check ? NULL : &s->sample, attention_tolerance());
}

static ladder_work work(void *opaque)
{
    attention_state *s = opaque;
    const attention_problem *p = &s->problem;
    return attention_work_of(p->heads, p->seq, p->dim, p->causal);
}

const ladder_case attention_case = {
    .name = "attention",
    .title = "softmax(Q K^T / sqrt(D)) V, BF16, full and causal: textbook to TMA + wgmma, against cuDNN",
    .size_help = "BxHxSxD (batch, heads, sequence, head size 64 or 128); causal:BxHxSxD for the causal form",
    .default_size = "4x32x4096x128,causal:4x32x4096x128,16x16x1024x64,causal:16x16x1024x64",
    .quick_size = "2x16x1024x128,causal:2x16x1024x128",
    .size_forms = "causal",
    /* 1x70x200x128: 140 query blocks, more than an H100's 132 SMs, so that
     * the persistent rung's blocks walk more than one. */
    .test_sizes = {"2x3x17x64", "causal:2x3x17x128", "1x2x1x64", "causal:1x1x1x128", "1x70x200x128",
                   "causal:2x1x257x64", "causal:1x1x4097x64", NULL},
    /* Under compute-sanitizer (gpu_validate, attention_gpu_test): racecheck instruments every
     * shared-memory access and mbarrier poll, and did not get through the test sizes in 160 s
     * on an H200 (causal:1x1x4097x64 alone makes 150 times the textbook rung's shared-memory
     * accesses of causal:1x1x333x64). The fewest sizes that reach every path of every rung.
     * S = 361 = 2 x 128 + 105 = 2 x 176 + 9 = 192 + 169: a partial last tile for every tile the
     * rungs use (the 128-row query and key tiles of rungs 6-10, rung 11's 176-key tiles and
     * 192-row blocks; the 64, 32 and 16 of rungs 1 and 3-5, 41, 9 and 9 in: warps and lanes past
     * S), and 3 key tiles of 128 and of 176, so that the 2-stage K/V rings of rungs 5-11 wrap (a
     * stage refilled) and the overlapped loops of rungs 7-11 run past their first tile. Causal
     * adds the masked diagonal tile, a block of one key tile (query block 0) and the
     * longest-first order. Full and causal at both D, which the kernels compile separately (64
     * and 128, all they take). One head: the kernels see B x H as one axis, which the last sizes
     * spread. 7x19x1x128 and 7x19x1x64: S = 1, the edge where one row is all there is; their 133
     * heads, one work each, are more works than an H100's or H200's 132 SMs, so that the
     * persistent rungs' blocks walk two (the Q tile refilled for the next work), at both D:
     * rung 11 takes a kernel of its own for each (176 keys at 128, three consumer warpgroups at
     * 64); B and H both above 1 for cuDNN's strides (memcheck runs the baseline).
     * attention_test pins these properties. */
    .sanitizer_sizes = {"1x1x361x64", "causal:1x1x361x64", "1x1x361x128", "causal:1x1x361x128", "7x19x1x128",
                        "7x19x1x64", NULL},
    .ceiling = LADDER_CEILING_BF16_TENSOR,
    .try_template = "attention/attention_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_attention, NEEDS_NOTHING),
    .variants = attention_variants,
    .variant_count = (int)(sizeof attention_variants / sizeof attention_variants[0]),
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
