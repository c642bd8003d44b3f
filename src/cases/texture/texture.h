/* Texture loads (SPEC §10): a shifted copy out[i] = in[i + shift] through a
 * plain load, __ldg and tex1Dfetch on a texture object, and 2D sampling of a
 * CUDA array and of pitch-linear memory with every addressing mode, texel and
 * normalized coordinates, nearest and linear filtering, each checked against
 * a CPU model of the hardware's rule. The case's size is ROWSxCOLS: the copy
 * moves ROWS * COLS floats, the 2D texture is ROWS x COLS texels. */
#ifndef LADDER_TEXTURE_H
#define LADDER_TEXTURE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define TEXTURE_HOST_DEVICE __host__ __device__
#else
#define TEXTURE_HOST_DEVICE
#endif

#define TEXTURE_MAX_SHIFT 32

typedef enum texture_memory { TEXTURE_ARRAY, TEXTURE_PITCH } texture_memory;
typedef enum texture_address { TEXTURE_CLAMP, TEXTURE_BORDER, TEXTURE_WRAP, TEXTURE_MIRROR } texture_address;

/* How a 2D texture is read: the addressing mode (one for both axes), whether
 * coordinates are normalized to [0, 1), and nearest (point) or linear. */
typedef struct texture_sampler {
    texture_address address;
    int normalized;
    int linear;
} texture_sampler;

/* The 2D rungs: each memory kind with the 12 valid samplers (wrap and
 * mirror exist only with normalized coordinates). */
#define TEXTURE_SAMPLED_COUNT 24

/* Everything a launcher may need, made in create(): texture objects are
 * built outside the timed region. */
typedef struct texture_inputs {
    const float *linear; /* rows * cols + TEXTURE_MAX_SHIFT floats */
    long long count;     /* rows * cols */
    int rows, cols;
    cudaTextureObject_t linear_texture;                 /* 1D over `linear`, for tex1Dfetch */
    cudaTextureObject_t sampled[TEXTURE_SAMPLED_COUNT]; /* 2D, indexed by the rung's param */
    int normalized[TEXTURE_SAMPLED_COUNT];
} texture_inputs;

typedef void texture_launcher(const texture_inputs *in, int param, float *out, cudaStream_t stream);

/* out[i] = in[i + param] for i < count. */
texture_launcher texture_shift_plain;
texture_launcher texture_shift_ldg;
texture_launcher texture_shift_fetch;
/* out[y * cols + x] = tex2D(sampled[param], sample position of (x, y)). */
texture_launcher texture_sample_2d;

/* Where output pixel i of an axis of `extent` texels samples, in texel
 * units: 1.25 * (i - extent / 8) plus a phase in odd 1024ths, so the samples
 * run past both edges (each addressing mode has work to do) and, in texel
 * coordinates, x - 0.5 always sits a quarter of a 1/256 step from the
 * filter's weight ties and from every texel edge: no coordinate rounding
 * finer than 1/1024 can change the texel or the weight. Normalized rows
 * divide this by the extent; the hardware's 21-bit cut of u (texture.c) then
 * moves the position by up to extent * 2^-21 texel, which the model
 * reproduces bit for bit. Exact in a float while |position| < 8192, hence
 * TEXTURE_MAX_2D_EXTENT. */
static inline TEXTURE_HOST_DEVICE float texture_sample_position(int i, int extent)
{
    float phase = (float)(2 * ((i * 73) & 511) + 1) * (1.0f / 1024.0f);
    return (float)(i - extent / 8) * 1.25f + phase;
}

#define TEXTURE_MAX_2D_EXTENT 7168

#ifndef __CUDACC__
#include "harness/case.h"

/* The hardware's value for one fetch at (x, y) as passed to tex2D, exact in
 * double. The rule, measured on an H200, is stated with its evidence in
 * texture.c: normalized coordinates cut to 21 fractional bits and scaled;
 * addressing on texel indices; nearest takes texel floor(x); linear rounds
 * the fractions of x - 0.5 and y - 0.5, and their product, to the nearest
 * 1/256 (ties up) and blends the 2 x 2 texels with weights made from them. */
double texture_model_fetch(const float *texels, int width, int height, texture_sampler sampler, float x, float y);

/* The sampler and memory kind of 2D rung `param`. */
texture_sampler texture_sampler_of(int param);
texture_memory texture_memory_of(int param);

/* Compare a 2D rung's output with the model. Nearest: exact. Linear: the
 * weights are reproduced exactly, and the H200 returned the exact blend
 * rounded once to fp32 (within half an ulp at every sample checked). The
 * order in which a texture unit sums the four weighted texels is not
 * documented, though: evaluated in fp32 in any order (four rounded products,
 * three rounded sums, every partial value below 2), the result is within 3.5
 * units in the last place of values in [1, 2) of the exact blend, hence
 * TEXTURE_LINEAR_TOLERANCE, 4 such units, absolute. A weight one 1/256 step
 * off moves the result by |T1 - T0| / 256 (by the 2 x 2 cross difference
 * / 256 for the product weight): up to 4e-3 for texels in [1, 2), about
 * 3e-3 at the worst sample of a test size, far outside. The measure is the
 * largest absolute difference. */
#define TEXTURE_LINEAR_TOLERANCE (4.0 / 8388608.0)
ladder_check texture_check_sampled_host(const float *texels, const float *out, int rows, int cols, int param);
#endif

#ifdef __cplusplus
}
#endif

#endif
