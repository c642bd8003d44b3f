/* The float-function kernel and the functions it evaluates, shared by
 * instr_kernels.cu (default flags) and instr_fast_math_kernels.cu (compiled
 * with -use_fast_math). Everything here has internal linkage: the two
 * translation units must not share an instantiation, or the linker would keep
 * one of the two compilations for both. */
#ifndef LADDER_INSTR_FUNCTIONS_CUH
#define LADDER_INSTR_FUNCTIONS_CUH

#include "harness/check/check.h"
#include "instr.h"

namespace {

constexpr int instr_block_threads = 256;

/* The accurate library functions; under -use_fast_math the compiler replaces
 * each with its intrinsic (sinf -> __sinf, x / y -> __fdividef ...). */
struct sin_accurate { static __device__ float eval(float x, float) { return sinf(x); } };
struct cos_accurate { static __device__ float eval(float x, float) { return cosf(x); } };
struct exp_accurate { static __device__ float eval(float x, float) { return expf(x); } };
struct log_accurate { static __device__ float eval(float x, float) { return logf(x); } };
struct pow_accurate { static __device__ float eval(float x, float y) { return powf(x, y); } };
/* Division sweeps the divisor (y / x_k): with one divisor per thread the
 * compiler would hoist a fast division's reciprocal out of the loop. */
struct divide_accurate { static __device__ float eval(float x, float y) { return y / x; } };

/* Each thread loads one element (x, y) and evaluates F at the points
 * x + k * INSTR_STEP, k < INSTR_EVALS_PER_ELEMENT, in registers: 8 bytes
 * loaded and 8 stored per 256 evaluations, so the evaluations bound the time:
 * the cheapest rung, an FFMA and two FADDs per point (affine_float_literal),
 * needs about 5x longer for its arithmetic than DRAM for its bytes on an H100;
 * a MUFU.SIN per point (16 per clock per SM) about 13x.
 * out[i] holds F at the element itself, checked in ulp; out[n + i] the sum
 * over all points, which keeps every evaluation live. */
template <class F>
__global__ void evaluate_points(const float *x, const float *y, float *out, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    float xi = x[i], yi = y[i];
    float first = F::eval(xi, yi);
    float sum = first, offset = 0.0f;
    /* offset runs through k * INSTR_STEP exactly (multiples of 2^-12 below 1/16). */
#pragma unroll 8
    for (int k = 1; k < INSTR_EVALS_PER_ELEMENT; ++k) {
        offset += INSTR_STEP;
        sum += F::eval(xi + offset, yi);
    }
    out[i] = first;
    out[n + i] = sum;
}

template <class F>
void launch_points(const instr_buffers *b, cudaStream_t stream)
{
    long long blocks = (b->n + instr_block_threads - 1) / instr_block_threads;
    evaluate_points<F><<<(unsigned)blocks, instr_block_threads, 0, stream>>>(b->x, b->y, b->out, b->n);
    CUDA_CHECK_LAUNCH();
}

} // namespace

#define INSTR_POINTS_LAUNCHER(launcher, functor) \
    extern "C" void launcher(const instr_buffers *b, cudaStream_t stream) { launch_points<functor>(b, stream); }

#endif
