/* Instruction-level choices (SPEC §12): fast intrinsics against the accurate
 * math functions, integer division by a power of two against shifts, a float
 * expression promoted to double by a literal, a dot product rolled and
 * unrolled.
 *
 * Every rung does the same count of "operations" per element: it loads one
 * input element (and for two-argument functions a second one) and evaluates
 * its operation at INSTR_EVALS_PER_ELEMENT points derived from it in
 * registers, so the instruction, not memory, bounds the time. One operation
 * is one function evaluation, one division (with its remainder), one affine
 * evaluation, or one multiply-add of the dot product. */
#ifndef LADDER_INSTR_H
#define LADDER_INSTR_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INSTR_EVALS_PER_ELEMENT 256
/* Point k of element x is x + k * INSTR_STEP (exact product: a power of two),
 * so the CPU reproduces every point bit for bit. */
#define INSTR_STEP (1.0f / 4096.0f)
#define INSTR_DIVISOR_LOG2 4
#define INSTR_DIVISOR (1 << INSTR_DIVISOR_LOG2)
/* Integer point k of element x is x + k * INSTR_INT_STRIDE, wrapping (an odd
 * constant: the golden ratio in 32 bits). */
#define INSTR_INT_STRIDE 0x9E3779B9u

typedef struct instr_buffers {
    const float *x, *y;     /* n floats each; y is the second argument (powf's exponent, the divisor) */
    const int32_t *ints;    /* n integers over the whole int32 range, both signs */
    const float *weights;   /* INSTR_EVALS_PER_ELEMENT dot-product weights */
    float *out;             /* float rungs: [0, n) f(x_i); [n, 2n) the sum of f over element i's points */
    int32_t *int_out;       /* the same memory for the integer rungs: [0, n) quotients, [n, 2n)
                               remainders, [2n, 3n) the wrapping sum of quotient + remainder over
                               element i's points */
    long long n;
    int divisor;            /* INSTR_DIVISOR, passed at run time: the compiler cannot see it */
} instr_buffers;

typedef void instr_launcher(const instr_buffers *b, cudaStream_t stream);

/* Float functions, one launcher per (function, form); the fast_math forms
 * are the accurate source compiled with -use_fast_math. */
instr_launcher instr_sinf, instr_sinf_intrinsic, instr_sinf_fast_math;
instr_launcher instr_cosf, instr_cosf_intrinsic, instr_cosf_fast_math;
instr_launcher instr_expf, instr_expf_intrinsic, instr_expf_fast_math;
instr_launcher instr_logf, instr_logf_intrinsic, instr_logf_fast_math;
instr_launcher instr_powf, instr_powf_intrinsic, instr_powf_fast_math;
instr_launcher instr_divide, instr_divide_intrinsic, instr_divide_fast_math;
instr_launcher instr_affine_double_literal, instr_affine_float_literal;

/* Integer division and remainder by INSTR_DIVISOR of element i's integer points. */
instr_launcher instr_udiv_runtime, instr_udiv_constant, instr_ushift_mask;
instr_launcher instr_sdiv_runtime, instr_sdiv_constant, instr_sshift_mask, instr_sshift_corrected;

/* out[n + i] = sum over k of weights[k] * v_k, v_0 = x[i], v_{k+1} = v_k + INSTR_STEP. */
instr_launcher instr_dot_rolled, instr_dot_unroll4, instr_dot_unrolled;

#ifdef __cplusplus
}
#endif

#ifndef __CUDACC__
/* The CPU side, pure functions tested by instr_test.c. */

/* Distance between two floats in units in the last place: how many floats
 * lie from one to the other, counted on the ordered integer representation
 * (so +0 and -0 are 0 apart and the count crosses zero and binades).
 * UINT32_MAX when either is NaN. */
uint32_t instr_ulp_distance(float a, float b);

/* A documented error bound at one input: the result passes when it is within
 * `ulps` of the correctly rounded result or within `absolute` of the exact
 * one; a negative field does not apply. */
typedef struct instr_bound {
    double ulps;
    double absolute;
} instr_bound;

/* How much of the bound an error uses: <= 1 passes. 0 for an exact result;
 * infinite when the bound allows nothing and the result is not exact. */
double instr_bound_fraction(uint32_t ulps, double absolute_error, instr_bound bound);

/* The functions of the float rungs: the double reference, the input range and
 * the documented bound of each form. */
typedef enum instr_function {
    INSTR_SIN, INSTR_COS, INSTR_EXP, INSTR_LOG, INSTR_POW, INSTR_DIVIDE,
    INSTR_AFFINE_DOUBLE, INSTR_AFFINE_FLOAT, INSTR_FUNCTION_COUNT
} instr_function;

typedef enum instr_form { INSTR_ACCURATE, INSTR_INTRINSIC, INSTR_FAST_MATH } instr_form;

double instr_reference(instr_function f, float x, float y);
instr_bound instr_documented_bound(instr_function f, instr_form form, float x, float y);

/* The integer operations and their CPU definitions. */
typedef enum instr_int_op {
    INSTR_UNSIGNED_DIVIDE,   /* (uint32)x / d, (uint32)x % d */
    INSTR_SIGNED_DIVIDE,     /* x / d, x % d: C truncates toward zero */
    INSTR_SIGNED_SHIFT_MASK, /* x >> log2 d, x & (d - 1): floor, differs for negative x */
} instr_int_op;

void instr_int_reference(instr_int_op op, int32_t x, int32_t *quotient, int32_t *remainder);
#endif

#endif
