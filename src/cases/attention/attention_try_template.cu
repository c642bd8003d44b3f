/* A starting point for `ladder try attention FILE.cu`: attention written
 * plainly, one thread per query row on the CUDA cores, two passes over the
 * keys (the row's maximum score, then the softmax weights applied to V).
 * It compiles and passes; it is slow on purpose.
 *
 *   ladder try attention --template > mine.cu
 *   ladder try attention mine.cu --quick
 *
 * The contract is in include/ladder_try.h: O = softmax(Q K^T scale) V per
 * head, BF16 [heads][seq][dim] (dim 64 or 128), FP32 accumulation, causal:
 * query s sees keys 0..s.
 *
 * Every thread reads every key and value row of its head from global
 * memory, twice. The rung to beat next is rung 2, fused_fp32: one pass with
 * an online softmax (a running maximum and sum, the accumulator rescaled
 * when the maximum grows) and K and V tiles shared by a block in shared
 * memory; then rung 3, mma, moves both products to tensor cores
 * (`ladder list attention`). */
#include "ladder_try.h"

#define MAX_DIM 128

__global__ void attention_per_row(const __nv_bfloat16 *q, const __nv_bfloat16 *k, const __nv_bfloat16 *v,
                                  __nv_bfloat16 *o, int heads, int seq, int dim, int causal, float scale)
{
    long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; /* head * seq + s */
    if (row >= (long long)heads * seq) return;
    long long head = row / seq;
    int s = (int)(row % seq);
    const __nv_bfloat16 *query = q + row * dim;
    const __nv_bfloat16 *keys = k + head * seq * dim, *values = v + head * seq * dim;
    int last = causal ? s : seq - 1;

    float highest = -INFINITY;
    for (int key = 0; key <= last; ++key) {
        float score = 0.0f;
        for (int d = 0; d < dim; ++d)
            score += __bfloat162float(query[d]) * __bfloat162float(keys[(size_t)key * dim + d]);
        highest = fmaxf(highest, score * scale);
    }
    float acc[MAX_DIM] = {0.0f}, total = 0.0f;
    for (int key = 0; key <= last; ++key) {
        float score = 0.0f;
        for (int d = 0; d < dim; ++d)
            score += __bfloat162float(query[d]) * __bfloat162float(keys[(size_t)key * dim + d]);
        float weight = expf(score * scale - highest);
        total += weight;
        for (int d = 0; d < dim; ++d) acc[d] += weight * __bfloat162float(values[(size_t)key * dim + d]);
    }
    for (int d = 0; d < dim; ++d) o[row * dim + d] = __float2bfloat16(acc[d] / total);
}

void ladder_try_attention(const __nv_bfloat16 *q, const __nv_bfloat16 *k, const __nv_bfloat16 *v,
                          __nv_bfloat16 *o, int heads, int seq, int dim, int causal, float scale,
                          cudaStream_t stream)
{
    int threads = 128;
    long long rows = (long long)heads * seq;
    attention_per_row<<<(unsigned)((rows + threads - 1) / threads), threads, 0, stream>>>(q, k, v, o, heads, seq,
                                                                                        dim, causal, scale);
}
