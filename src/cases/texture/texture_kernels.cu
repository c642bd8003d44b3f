/* Texture kernels. Since Maxwell the texture cache and L1 are one structure,
 * and since Volta one unified L1/shared/texture array per SM: a plain load,
 * an __ldg (LDG.E.CONSTANT, the read-only path) and a tex1Dfetch (a TEX
 * instruction through the texture pipeline) all end up reading the same
 * 32-byte sectors through the same cache. What differs is the instruction
 * and the addressing hardware in front of it. */
#include "texture.h"

#include "harness/check/check.h"

#define THREADS 256

static unsigned blocks_for(long long n)
{
    return (unsigned)((n + THREADS - 1) / THREADS);
}

/* Plain load. No __restrict__: the compiler cannot prove `in` read-only and
 * emits an ordinary LDG. A shift that is not a whole number of sectors makes
 * each warp's 128 bytes straddle 5 sectors; the overlap is the next warp's,
 * served by L1 or L2. */
__global__ void shift_plain_kernel(const float *in, float *out, long long count, int shift)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = in[i + shift];
}

/* __ldg: the same load through the read-only (non-coherent) path, the
 * Kepler-era way to reach the texture cache without a texture. */
__global__ void shift_ldg_kernel(const float *in, float *out, long long count, int shift)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = __ldg(in + i + shift);
}

/* tex1Dfetch on a texture object over the same linear memory (texture
 * references, the pre-CUDA-12 way, are gone): integer index, no filtering. */
__global__ void shift_fetch_kernel(cudaTextureObject_t tex, float *out, long long count, int shift)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = tex1Dfetch<float>(tex, (int)(i + shift));
}

extern "C" void texture_shift_plain(const texture_inputs *in, int shift, float *out, cudaStream_t stream)
{
    shift_plain_kernel<<<blocks_for(in->count), THREADS, 0, stream>>>(in->linear, out, in->count, shift);
}

extern "C" void texture_shift_ldg(const texture_inputs *in, int shift, float *out, cudaStream_t stream)
{
    shift_ldg_kernel<<<blocks_for(in->count), THREADS, 0, stream>>>(in->linear, out, in->count, shift);
}

extern "C" void texture_shift_fetch(const texture_inputs *in, int shift, float *out, cudaStream_t stream)
{
    shift_fetch_kernel<<<blocks_for(in->count), THREADS, 0, stream>>>(in->linear_texture, out, in->count, shift);
}

/* 2D sampling: one output pixel per thread, a warp along a row. The texture
 * unit turns (u, v) into texel addresses, applies the addressing mode, and
 * for linear filtering fetches the 2 x 2 neighbourhood and blends it: the
 * blend is done in the texture unit, not by the SM. A CUDA array stores the
 * texture block-linear (2D tiles), pitch-linear memory row by row; for this
 * row-order walk both should stream at close to copy speed. */
__global__ void sample_2d_kernel(cudaTextureObject_t tex, int normalized, float *out, int rows, int cols)
{
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    if (x >= cols || y >= rows) return;
    float u = texture_sample_position(x, cols), v = texture_sample_position(y, rows);
    if (normalized) u /= (float)cols, v /= (float)rows;
    out[(size_t)y * cols + x] = tex2D<float>(tex, u, v);
}

extern "C" void texture_sample_2d(const texture_inputs *in, int config, float *out, cudaStream_t stream)
{
    dim3 grid((in->cols + 31) / 32, (in->rows + 7) / 8);
    sample_2d_kernel<<<grid, dim3(32, 8), 0, stream>>>(in->sampled[config], in->normalized[config], out, in->rows,
                                                       in->cols);
}
