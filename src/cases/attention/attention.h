/* Attention (SPEC §16): O = softmax(Q K^T / sqrt(D)) V per batch and head,
 * forward only. Q, K, V and O are BF16 in [B, H, S, D] (row-major, D
 * contiguous); products accumulate and softmax statistics are kept in FP32.
 * The causal form lets query i see keys 0..i. Every launcher takes any
 * S >= 1 and D of 64 or 128 (ATTENTION_D_SUPPORTED). */
#ifndef LADDER_ATTENTION_H
#define LADDER_ATTENTION_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct attention_problem {
    const uint16_t *q, *k, *v; /* BF16 bit patterns, device memory, [B H][S][D] */
    uint16_t *o;
    int heads;  /* B x H: the kernels see one axis of independent heads */
    int seq;    /* S */
    int dim;    /* D */
    int causal; /* 1: query i sees keys 0..i */
    float scale; /* 1 / sqrt(D) */
    /* The unfused rungs' S x S matrices (NULL where they did not fit): the
     * FP32 scores, and for rung 2 the BF16 probabilities. */
    float *scores;
    uint16_t *probs;
    /* Rung 6's tensor maps (attention_encode_tensor_maps): Q, K, V as 3D
     * [heads][S][D] tensors, boxes of 64 elements of D (128 bytes,
     * 128-byte swizzle) by 64 or 128 rows; rows past S read as zeros. */
    CUtensorMap q_map, k_map, v_map;
    /* K and V again in boxes of 176 rows: rung 11's key tile at D = 128. */
    CUtensorMap k_map_176, v_map_176;
    /* Rung 10's work queue: the next work to hand out and the blocks
     * finished, zero between launches (its kernel resets them). */
    unsigned int *work_queue;
} attention_problem;

typedef void attention_launcher(const attention_problem *problem, cudaStream_t stream);

/* Rungs 1-5 (attention_kernels.cu): rungs 1 and 3 on any GPU, 4 and 5 on
 * compute capability 8.0+. Rung 2's cuBLAS calls live in attention.c; its
 * softmax kernel here. */
attention_launcher attention_textbook;
void attention_softmax_to_bf16(const attention_problem *problem, cudaStream_t stream);
attention_launcher attention_fused_fp32;
attention_launcher attention_mma;
attention_launcher attention_mma_async;

/* The Hopper rungs (attention_sm90a_kernels.cu), with LADDER_HAVE_SM90A. */
attention_launcher attention_wgmma_ws;
attention_launcher attention_wgmma_overlap;
attention_launcher attention_wgmma_pingpong;
attention_launcher attention_wgmma_persistent;
attention_launcher attention_wgmma_queue;
attention_launcher attention_wgmma_tile_per_form;
int attention_encode_tensor_maps(attention_problem *problem, char *err, size_t err_len);

/* Dynamic shared memory a rung asks for at this D (0: none or static). */
size_t attention_sm80_shared_bytes(attention_launcher *rung, int dim);
size_t attention_sm90a_shared_bytes(attention_launcher *rung, int dim);

/* The baseline (attention_cudnn.c): cuDNN's fused attention, planned once
 * for the problem's buffers (batch x heads_per_batch = its heads). NULL,
 * with the reason in err, where the build has no cuDNN or cuDNN has no plan
 * for the problem; run is then never called. */
typedef struct attention_cudnn attention_cudnn;
attention_cudnn *attention_cudnn_create(const attention_problem *problem, long long batch, long long heads_per_batch,
                                        char *err, size_t err_len);
void attention_cudnn_run(attention_cudnn *plan, const attention_problem *problem, cudaStream_t stream);
void attention_cudnn_destroy(attention_cudnn *plan);

#define ATTENTION_D_SUPPORTED(d) ((d) == 64 || (d) == 128)

#ifndef __CUDACC__
#include "harness/case.h"

/* The rows a check compares: (head, row) pairs. */
typedef struct attention_sample {
    int count;
    long long head[512], row[512];
} attention_sample;

/* Above this many multiply-adds of Q K^T (heads S^2 D) a check compares a
 * sample of rows. */
#define ATTENTION_FULL_CHECK_WORK (1LL << 31)

/* count rows: the first and last rows of the first and the last head, the
 * rest drawn from seed. */
void attention_draw_sample(long long heads, long long seq, uint64_t seed, int count, attention_sample *sample);

/* Compare O (BF16) with the double-precision attention of the BF16 inputs
 * q, k, v ([heads][seq][dim]): every row when sample is NULL, else the
 * sampled rows; every element of O scanned for NaN and Inf. */
ladder_check attention_check_host(const uint16_t *q, const uint16_t *k, const uint16_t *v, const uint16_t *o,
                                  long long heads, long long seq, long long dim, int causal,
                                  const attention_sample *sample, double tolerance);

/* One row of the reference: out[dim] for query `row` of head `head`. */
void attention_reference_row(const uint16_t *q, const uint16_t *k, const uint16_t *v, long long seq, long long dim,
                             int causal, long long head, long long row, double *out);

/* What a check accepts: BF16 output and BF16 probabilities. */
double attention_tolerance(void);

/* The problem's work: 4 heads S^2 D flops (full) or 2 heads S (S + 1) D
 * (causal), Q, K, V read and O written once. */
ladder_work attention_work_of(long long heads, long long seq, long long dim, int causal);

#endif

#ifdef __cplusplus
}
#endif

#endif
