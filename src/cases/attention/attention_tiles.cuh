/* What the attention kernels of both objects (attention_kernels.cu and the
 * sm_90a attention_sm90a_kernels.cu) share: the swizzled K/V tile layout and
 * the online-softmax steps on mma accumulators. */
#ifndef LADDER_ATTENTION_TILES_CUH
#define LADDER_ATTENTION_TILES_CUH

#include <cuda_bf16.h>
#include <stdint.h>

#include "attention.h"
#include "harness/hardware/tensor_ptx.cuh"

typedef __nv_bfloat16 bf16;

__host__ __device__ constexpr int attention_ceil_div(int x, int y)
{
    return (x + y - 1) / y;
}

/* log2(e): the kernels compute exp(x) as exp2(x log2 e), one MUFU.EX2, with
 * the factor folded into the softmax scale. */
constexpr float ATTENTION_LOG2E = 1.4426950408889634f;

/* A tile of ROWS rows of D BF16 is stored as D / 64 panels of ROWS x 128
 * bytes, each row of a panel swizzled by 16-byte chunks (chunk ^ row % 8):
 * the layout TMA writes for a box of 64 x ROWS with the 128-byte swizzle, in
 * which the 8 rows an ldmatrix phase reads at one logical chunk fall into 8
 * distinct bank groups. `chunk` counts 16-byte chunks along D (0 .. D/8-1);
 * the panel base must be 1024-byte aligned. */
template <int ROWS>
__device__ __forceinline__ uint32_t tile_offset(int row, int chunk)
{
    return (uint32_t)((chunk >> 3) * ROWS * 128 + row * 128 + (((chunk & 7) ^ (row & 7)) << 4));
}

/* Two FP32 values as the BF16 pair of an mma operand register: the lower
 * column in the low half. */
__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi)
{
    __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&pair);
}

/* 2^x as one MUFU.EX2, results below 2^-126 flushed to zero: exp2f
 * without -use_fast_math wraps the instruction in a denormal fix-up (a
 * compare and two multiplies), which the softmax, bound by the FP32 and
 * MUFU pipes beside the tensor cores, cannot afford and does not need (a
 * probability under 2^-126 of the row's largest adds nothing to O). */
__device__ __forceinline__ float fast_exp2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

/* The max and the sum of a row held by the 4 lanes of a quad (the mma
 * accumulator layout spreads a row over lanes 4g .. 4g + 3). */
__device__ __forceinline__ float quad_max(float x)
{
    x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
    return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}

__device__ __forceinline__ float quad_sum(float x)
{
    x += __shfl_xor_sync(0xffffffffu, x, 1);
    return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

/* One online-softmax step over a score tile in the mma accumulator layout:
 * s[4 j + e] is the raw score q . k of row g + 8 (e / 2) (half = e / 2),
 * key key0 + 8 j + 2 (lane % 4) + e % 2. Masks keys past seq and,
 * causally, past the row; updates the running max m[2] (of raw scores:
 * the max commutes with the positive scale) and this thread's partial sums
 * l[2] (the quad's lanes are summed once, at the end), turns s into the
 * probabilities exp2(s scale log2 e - m scale log2 e), one FFMA and one
 * MUFU.EX2 each (fast_exp2), and returns through alpha[2] the factor the accumulator of
 * each row must be multiplied by. Every row that reaches here has a finite
 * max from the first key tile (key 0 is never masked), so m is never -inf
 * after it and no exp2 sees -inf + inf. */
template <int N>
__device__ __forceinline__ void online_softmax(float (&s)[N], float (&m)[2], float (&l)[2], float (&alpha)[2],
                                               bool masked, int row0, int key0, int seq, bool causal,
                                               float scale_log2, int lane)
{
    if (masked) {
#pragma unroll
        for (int i = 0; i < N; ++i) {
            int row = row0 + lane / 4 + 8 * ((i % 4) / 2);
            int key = key0 + 8 * (i / 4) + 2 * (lane % 4) + (i % 2);
            if (key >= seq || (causal && key > row)) s[i] = -INFINITY;
        }
    }
#pragma unroll
    for (int half = 0; half < 2; ++half) {
        float top = m[half];
#pragma unroll
        for (int i = 0; i < N; ++i)
            if ((i % 4) / 2 == half) top = fmaxf(top, s[i]);
        top = quad_max(top);
        float shift = top * scale_log2;
        alpha[half] = fast_exp2(fmaf(m[half], scale_log2, -shift));
        m[half] = top;
        float sum = 0.0f;
#pragma unroll
        for (int i = 0; i < N; ++i)
            if ((i % 4) / 2 == half) {
                s[i] = fast_exp2(fmaf(s[i], scale_log2, -shift));
                sum += s[i];
            }
        l[half] = l[half] * alpha[half] + sum;
    }
}

/* The accumulator's rows scaled: o[4 j + e] belongs to row half e / 2. */
template <int N>
__device__ __forceinline__ void rescale_rows(float (&o)[N], const float (&alpha)[2])
{
#pragma unroll
    for (int i = 0; i < N; ++i) o[i] *= alpha[(i % 4) / 2];
}

/* The finished rows row0 + g and + 8 of O (accumulator layout, columns
 * 8 j + 2 (lane % 4) and + 1), divided by the quad's summed l, as BF16
 * pairs; rows past seq are not stored. */
template <int N>
__device__ __forceinline__ void store_rows(bf16 *__restrict__ o_head, const float (&o)[N], const float (&l)[2],
                                           int row0, int seq, int dim, int lane)
{
    float inverse[2] = {1.0f / quad_sum(l[0]), 1.0f / quad_sum(l[1])};
#pragma unroll
    for (int half = 0; half < 2; ++half) {
        int row = row0 + lane / 4 + 8 * half;
        if (row >= seq) continue;
#pragma unroll
        for (int j = 0; j < N / 4; ++j) {
            int col = 8 * j + 2 * (lane % 4);
            *reinterpret_cast<uint32_t *>(o_head + (size_t)row * dim + col) =
                pack_bf16(o[4 * j + 2 * half] * inverse[half], o[4 * j + 2 * half + 1] * inverse[half]);
        }
    }
}

#endif
