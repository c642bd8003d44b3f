/* Kernels of the instr ladder (SPEC §12). The float functions share one
 * kernel (instr_functions.cuh); the integer and dot-product rungs are here.
 * The SASS quoted in the comments is what nvcc 13 emits for sm_90; see it with
 *   cuobjdump -sass -fun NAME build/CMakeFiles/ladder_core.dir/src/cases/instr/instr_kernels.cu.o
 * (NAME: a mangled kernel name from `cuobjdump -symbols` on the same file). */
#include <stdint.h>

#include "instr_functions.cuh"

namespace {

/* The fast hardware approximations: one or two instructions on the
 * multi-function unit (MUFU, 16 results per clock per SM against 128 FMAs),
 * documented only on a limited range. */
struct sin_intrinsic { static __device__ float eval(float x, float) { return __sinf(x); } };
struct cos_intrinsic { static __device__ float eval(float x, float) { return __cosf(x); } };
struct exp_intrinsic { static __device__ float eval(float x, float) { return __expf(x); } };
struct log_intrinsic { static __device__ float eval(float x, float) { return __logf(x); } };
struct pow_intrinsic { static __device__ float eval(float x, float y) { return __powf(x, y); } };
struct divide_intrinsic { static __device__ float eval(float x, float y) { return __fdividef(y, x); } };

/* The same affine map written twice. With the double literals x is converted
 * to double (F2F.F64.F32), multiplied and added in FP64 (DFMA) and converted
 * back (F2F.F32.F64): the conversions, 16 per clock per SM on Hopper, cost
 * more than the FP64 arithmetic itself. The float version is one FFMA. */
struct affine_double_literal { static __device__ float eval(float x, float) { return x * 1.1 + 0.3; } };
struct affine_float_literal { static __device__ float eval(float x, float) { return x * 1.1f + 0.3f; } };

/* Integer division and remainder of each point by INSTR_DIVISOR = 16. */
struct unsigned_runtime {
    /* The divisor is a kernel argument: the compiler must divide in general.
     * It hoists the reciprocal of the uniform divisor out of the loop and
     * spends per point IMAD.HI.U32 (quotient estimate), IMAD (remainder),
     * two ISETP.GE.U32 and predicated VIADDs (corrections): about 10
     * instructions against the constant's 4. */
    static __device__ void apply(int32_t x, int divisor, int32_t *q, int32_t *r)
    {
        *q = (int32_t)((uint32_t)x / (uint32_t)divisor);
        *r = (int32_t)((uint32_t)x % (uint32_t)divisor);
    }
};
struct unsigned_constant {
    /* A constant power of two: shift and mask. Per point (with the sum):
     * VIADD (the point), LOP3.LUT 0xf (x % 16), LEA.HI ..., 0x1c (adds
     * x >> 4 to the sum in one instruction), IMAD.IADD (adds x % 16). */
    static __device__ void apply(int32_t x, int, int32_t *q, int32_t *r)
    {
        *q = (int32_t)((uint32_t)x / INSTR_DIVISOR);
        *r = (int32_t)((uint32_t)x % INSTR_DIVISOR);
    }
};
struct unsigned_shift_mask {
    /* Written by hand: instruction for instruction unsigned_constant's SASS. */
    static __device__ void apply(int32_t x, int, int32_t *q, int32_t *r)
    {
        *q = (int32_t)((uint32_t)x >> INSTR_DIVISOR_LOG2);
        *r = (int32_t)((uint32_t)x & (INSTR_DIVISOR - 1));
    }
};
struct signed_runtime {
    /* As unsigned_runtime on |x|, plus the sign fix-ups (IABS, LOP3, and a
     * negation selected by the signs). */
    static __device__ void apply(int32_t x, int divisor, int32_t *q, int32_t *r)
    {
        *q = x / divisor;
        *r = x % divisor;
    }
};
struct signed_constant {
    /* C truncates toward zero, a shift rounds toward minus infinity: the
     * compiler biases negative x by divisor - 1 first. Per point: VIADD,
     * SHF.R.S32.HI 0x1f (the sign), LEA.HI ..., 0x4 (x + the sign's low 4
     * bits), LOP3.LUT 0xfffffff0 (q * 16), IADD3 (sum + x - q * 16, the
     * remainder), LEA.HI.SX32 ..., 0x1c (sum + q): 6 against 4. */
    static __device__ void apply(int32_t x, int, int32_t *q, int32_t *r)
    {
        *q = x / INSTR_DIVISOR;
        *r = x % INSTR_DIVISOR;
    }
};
struct signed_shift_mask {
    /* The tempting shortcut: x >> 4 and x & 15, unsigned_constant's 4
     * instructions with LEA.HI.SX32 (arithmetic shift). Floor and a non-negative
     * remainder: for negative x not a multiple of 16 the quotient is one
     * less and the remainder 16 more than C's x / 16 and x % 16. Checked
     * against its own CPU definition, not against division. */
    static __device__ void apply(int32_t x, int, int32_t *q, int32_t *r)
    {
        *q = x >> INSTR_DIVISOR_LOG2;
        *r = x & (INSTR_DIVISOR - 1);
    }
};
struct signed_shift_corrected {
    /* The shortcut made right by hand, as signed_constant's compiler does it:
     * bias negative x by divisor - 1 (the sign bits shifted down), shift,
     * and take the remainder from the quotient. Checked against / and %. */
    static __device__ void apply(int32_t x, int, int32_t *q, int32_t *r)
    {
        int32_t bias = (int32_t)((uint32_t)(x >> 31) >> (32 - INSTR_DIVISOR_LOG2));
        *q = (x + bias) >> INSTR_DIVISOR_LOG2;
        *r = x - *q * INSTR_DIVISOR;
    }
};

/* Each thread divides its integer's points x + k * INSTR_INT_STRIDE (wrapping:
 * every bit and the sign change from point to point, so the compiler cannot
 * divide x once and patch the low bits) and keeps quotient and remainder of x
 * itself; the wrapping sum of all quotients and remainders keeps every
 * division live. 4 bytes loaded and 12 stored per 256 divisions: the
 * instructions bound it. */
__device__ int32_t instr_int_point(int32_t x, int k)
{
    return (int32_t)((uint32_t)x + (uint32_t)k * INSTR_INT_STRIDE);
}

template <class Op>
__global__ void divide_points(const int32_t *ints, int32_t *out, long long n, int divisor)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    int32_t x = ints[i], q, r;
    Op::apply(x, divisor, &q, &r);
    out[i] = q;
    out[n + i] = r;
    uint32_t sum = (uint32_t)q + (uint32_t)r;
#pragma unroll 8
    for (int k = 1; k < INSTR_EVALS_PER_ELEMENT; ++k) {
        Op::apply(instr_int_point(x, k), divisor, &q, &r);
        sum += (uint32_t)q + (uint32_t)r;
    }
    out[2 * n + i] = (int32_t)sum;
}

template <class Op>
void launch_divide(const instr_buffers *b, cudaStream_t stream)
{
    long long blocks = (b->n + instr_block_threads - 1) / instr_block_threads;
    divide_points<Op><<<(unsigned)blocks, instr_block_threads, 0, stream>>>(b->ints, b->int_out, b->n, b->divisor);
    CUDA_CHECK_LAUNCH();
}

/* A dot product of the block's shared weights with the thread's vector
 * v_k = x + k * INSTR_STEP (built by repeated addition, which the CPU repeats
 * exactly). UNROLL = 1, the rolled loop, spends per term a shared load with a
 * computed address, the FFMA, the FADD of v, the counter's IADD, the ISETP and
 * the branch; unrolled, the addresses are constants, four weights come in one
 * LDS.128 and the loop control is gone: about 2.25 instructions per term
 * instead of 6. */
template <int UNROLL>
__global__ void dot_points(const float *x, const float *weights, float *out, long long n)
{
    __shared__ float shared_weights[INSTR_EVALS_PER_ELEMENT];
    for (int k = threadIdx.x; k < INSTR_EVALS_PER_ELEMENT; k += blockDim.x) shared_weights[k] = weights[k];
    __syncthreads();
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], sum = 0.0f;
#pragma unroll UNROLL
    for (int k = 0; k < INSTR_EVALS_PER_ELEMENT; ++k) {
        sum += shared_weights[k] * v;
        v += INSTR_STEP;
    }
    out[n + i] = sum;
}

template <int UNROLL>
void launch_dot(const instr_buffers *b, cudaStream_t stream)
{
    long long blocks = (b->n + instr_block_threads - 1) / instr_block_threads;
    dot_points<UNROLL><<<(unsigned)blocks, instr_block_threads, 0, stream>>>(b->x, b->weights, b->out, b->n);
    CUDA_CHECK_LAUNCH();
}

} // namespace

INSTR_POINTS_LAUNCHER(instr_sinf, sin_accurate)
INSTR_POINTS_LAUNCHER(instr_sinf_intrinsic, sin_intrinsic)
INSTR_POINTS_LAUNCHER(instr_cosf, cos_accurate)
INSTR_POINTS_LAUNCHER(instr_cosf_intrinsic, cos_intrinsic)
INSTR_POINTS_LAUNCHER(instr_expf, exp_accurate)
INSTR_POINTS_LAUNCHER(instr_expf_intrinsic, exp_intrinsic)
INSTR_POINTS_LAUNCHER(instr_logf, log_accurate)
INSTR_POINTS_LAUNCHER(instr_logf_intrinsic, log_intrinsic)
INSTR_POINTS_LAUNCHER(instr_powf, pow_accurate)
INSTR_POINTS_LAUNCHER(instr_powf_intrinsic, pow_intrinsic)
INSTR_POINTS_LAUNCHER(instr_divide, divide_accurate)
INSTR_POINTS_LAUNCHER(instr_divide_intrinsic, divide_intrinsic)
INSTR_POINTS_LAUNCHER(instr_affine_double_literal, affine_double_literal)
INSTR_POINTS_LAUNCHER(instr_affine_float_literal, affine_float_literal)

#define INSTR_DIVIDE_LAUNCHER(launcher, op) \
    extern "C" void launcher(const instr_buffers *b, cudaStream_t stream) { launch_divide<op>(b, stream); }
INSTR_DIVIDE_LAUNCHER(instr_udiv_runtime, unsigned_runtime)
INSTR_DIVIDE_LAUNCHER(instr_udiv_constant, unsigned_constant)
INSTR_DIVIDE_LAUNCHER(instr_ushift_mask, unsigned_shift_mask)
INSTR_DIVIDE_LAUNCHER(instr_sdiv_runtime, signed_runtime)
INSTR_DIVIDE_LAUNCHER(instr_sdiv_constant, signed_constant)
INSTR_DIVIDE_LAUNCHER(instr_sshift_mask, signed_shift_mask)
INSTR_DIVIDE_LAUNCHER(instr_sshift_corrected, signed_shift_corrected)

extern "C" void instr_dot_rolled(const instr_buffers *b, cudaStream_t stream) { launch_dot<1>(b, stream); }
extern "C" void instr_dot_unroll4(const instr_buffers *b, cudaStream_t stream) { launch_dot<4>(b, stream); }
extern "C" void instr_dot_unrolled(const instr_buffers *b, cudaStream_t stream)
{
    launch_dot<INSTR_EVALS_PER_ELEMENT>(b, stream);
}
