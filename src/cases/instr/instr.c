/* The instr ladder (SPEC §12): what single instructions and compiler choices
 * cost. Four groups, each read against its first row:
 *   - float functions, each in three forms: the accurate library function,
 *     its intrinsic (__sinf ...), and the accurate source compiled with
 *     -use_fast_math; time and the largest error in ulp against double;
 *   - integer division and remainder by 16: a run-time divisor, a constant,
 *     shift and mask by hand; unsigned and signed (where shift and mask
 *     round the other way for negative operands);
 *   - an affine map accidentally promoted to double by its literals;
 *   - a 256-term dot product, rolled and unrolled.
 * Every rung does INSTR_EVALS_PER_ELEMENT operations per element, so the
 * GFLOP/s column reads as billions of operations per second (one function
 * evaluation, one division with its remainder, one affine evaluation or one
 * multiply-add each) and "speedup" compares operation rates with sinf's.
 * There is no vendor baseline: the library functions are the reference.
 *
 * The error column of a float rung is the largest error as a fraction of the
 * function's documented bound (CUDA Programming Guide, mathematical functions
 * appendix): 1 means the bound is reached, and the check fails above it. The
 * measured ulp table is in the summaries (<rung>_max_ulp), with the absolute
 * error (<rung>_max_abs_error) where the documented bound is absolute. */
#include "instr.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"

#define PI 3.14159265358979323846

/* ---- the pure CPU definitions (instr.h) ---- */

uint32_t instr_ulp_distance(float a, float b)
{
    if (isnan(a) || isnan(b)) return UINT32_MAX;
    /* Map the sign-magnitude bits onto a line of integers in float order. */
    uint32_t bits_a, bits_b;
    memcpy(&bits_a, &a, sizeof a);
    memcpy(&bits_b, &b, sizeof b);
    int64_t ordered_a = (bits_a & 0x80000000u) ? -(int64_t)(bits_a & 0x7FFFFFFFu) : (int64_t)bits_a;
    int64_t ordered_b = (bits_b & 0x80000000u) ? -(int64_t)(bits_b & 0x7FFFFFFFu) : (int64_t)bits_b;
    int64_t distance = ordered_a > ordered_b ? ordered_a - ordered_b : ordered_b - ordered_a;
    return distance > UINT32_MAX ? UINT32_MAX : (uint32_t)distance;
}

double instr_bound_fraction(uint32_t ulps, double absolute_error, instr_bound bound)
{
    if (ulps == 0) return 0.0;
    double fraction = INFINITY;
    if (bound.ulps >= 0) fraction = bound.ulps > 0 ? ulps / bound.ulps : INFINITY;
    if (bound.absolute > 0) fraction = fmin(fraction, absolute_error / bound.absolute);
    return fraction;
}

double instr_reference(instr_function f, float x, float y)
{
    switch (f) {
    case INSTR_SIN: return sin((double)x);
    case INSTR_COS: return cos((double)x);
    case INSTR_EXP: return exp((double)x);
    case INSTR_LOG: return log((double)x);
    case INSTR_POW: return pow((double)x, (double)y);
    case INSTR_DIVIDE: return (double)y / (double)x;
    case INSTR_AFFINE_DOUBLE:
    case INSTR_AFFINE_FLOAT: return (double)x * 1.1 + 0.3;
    default: return NAN;
    }
}

/* The documented absolute errors (CUDA Math API, intrinsics): 2^-21.41 for
 * __sinf on [-pi, pi] and __logf on [0.5, 2]; 2^-21.19 for __cosf on
 * [-pi, pi] (measured on an H200: up to 1.11 times 2^-21.41). */
#define INTRINSIC_ABSOLUTE_ERROR 3.588787907149952e-07
#define COSF_INTRINSIC_ABSOLUTE_ERROR 4.1799818101693836e-07

instr_bound instr_documented_bound(instr_function f, instr_form form, float x, float y)
{
    const instr_bound none = {-1, -1};
    int fast = form != INSTR_ACCURATE; /* -use_fast_math turns each call into its intrinsic */
    switch (f) {
    case INSTR_SIN: return fast ? (instr_bound){-1, INTRINSIC_ABSOLUTE_ERROR} : (instr_bound){2, -1};
    case INSTR_COS: return fast ? (instr_bound){-1, COSF_INTRINSIC_ABSOLUTE_ERROR} : (instr_bound){2, -1};
    case INSTR_EXP: return fast ? (instr_bound){2 + floor(fabs(1.173 * x)), -1} : (instr_bound){2, -1};
    case INSTR_LOG:
        if (!fast) return (instr_bound){1, -1};
        return x >= 0.5f && x <= 2.0f ? (instr_bound){-1, INTRINSIC_ABSOLUTE_ERROR} : (instr_bound){3, -1};
    case INSTR_POW: {
        if (!fast) return (instr_bound){4, -1};
        /* Undocumented as such: __powf is exp2f(y * __log2f(x)). Derived from
         * __log2f's bounds (absolute 2^-22 on [0.5, 2], 2 ulp elsewhere,
         * covered by 2^-22 + 2^-21 |log2 x|), the product's rounding and
         * ex2.approx's 2 ulp: the exponent's error times ln 2 is the relative
         * error, at most 2^24 ulp per unit of relative error, plus rounding. */
        double log2_x = fabs(log2((double)x)), exponent = fabs((double)y) * log2_x;
        double exponent_error = fabs((double)y) * (0x1p-22 + 0x1p-21 * log2_x) + 0x1p-24 * exponent;
        return (instr_bound){ceil(0x1p24 * (log(2.0) * exponent_error + 0x1p-22)) + 1, -1};
    }
    case INSTR_DIVIDE: return (instr_bound){fast ? 2 : 0, -1};
    /* Derived: rounding 1.1 and 0.3 to float costs under 1 ulp of a result in
     * [1.4, 2.5], the FFMA's rounding half of one; the double form rounds once. */
    case INSTR_AFFINE_DOUBLE: return (instr_bound){1, -1};
    case INSTR_AFFINE_FLOAT: return (instr_bound){2, -1};
    default: return none;
    }
}

void instr_int_reference(instr_int_op op, int32_t x, int32_t *quotient, int32_t *remainder)
{
    if (op == INSTR_UNSIGNED_DIVIDE) {
        *quotient = (int32_t)((uint32_t)x / INSTR_DIVISOR);
        *remainder = (int32_t)((uint32_t)x % INSTR_DIVISOR);
    } else if (op == INSTR_SIGNED_DIVIDE) {
        *quotient = x / INSTR_DIVISOR;
        *remainder = x % INSTR_DIVISOR;
    } else { /* INSTR_SIGNED_SHIFT_MASK: floor, written without >> of a negative value */
        *quotient = x >= 0 ? x / INSTR_DIVISOR : -(int32_t)((-(int64_t)x + INSTR_DIVISOR - 1) / INSTR_DIVISOR);
        *remainder = x - *quotient * INSTR_DIVISOR;
    }
}

/* ---- the ladder ---- */

/* variant.param: what a rung computes, packed as group, function or
 * operation, and form. */
enum { GROUP_FUNCTION = 1, GROUP_INTEGER = 2, GROUP_DOT = 3 };
#define FUNCTION_RUNG(function, form) (GROUP_FUNCTION << 16 | (function) << 8 | (form))
#define INTEGER_RUNG(op) (GROUP_INTEGER << 16 | (op) << 8)
#define DOT_RUNG (GROUP_DOT << 16)
static int rung_group(const ladder_variant *v) { return v->param >> 16; }
static int rung_what(const ladder_variant *v) { return (v->param >> 8) & 0xFF; }
static instr_form rung_form(const ladder_variant *v) { return (instr_form)(v->param & 0xFF); }

#define RUNG(name, launcher, param, story) LADDER_RUNG(name, story, launcher, param)
#define FUNCTION_FORMS(base, function, accurate, intrinsic, fast_math, accurate_story, intrinsic_story)        \
    RUNG(base, accurate, FUNCTION_RUNG(function, INSTR_ACCURATE), accurate_story),                            \
    RUNG(base "_intrinsic", intrinsic, FUNCTION_RUNG(function, INSTR_INTRINSIC), intrinsic_story),            \
    RUNG(base "_fast_math", fast_math, FUNCTION_RUNG(function, INSTR_FAST_MATH),                              \
         "the accurate call compiled with -use_fast_math: becomes the intrinsic; expected its time and error")

static const ladder_variant instr_variants[] = {
    FUNCTION_FORMS("sinf", INSTR_SIN, instr_sinf, instr_sinf_intrinsic, instr_sinf_fast_math,
                   "sinf on [-pi, pi]: range reduction and a polynomial in FFMAs, 2 ulp documented",
                   "__sinf: an FMUL and a MUFU.SIN (16/clock/SM); absolute error 2^-21.41 on [-pi, pi] only"),
    FUNCTION_FORMS("cosf", INSTR_COS, instr_cosf, instr_cosf_intrinsic, instr_cosf_fast_math,
                   "cosf on [-pi, pi]: as sinf, 2 ulp",
                   "__cosf: an FMUL and a MUFU.COS; absolute error 2^-21.19 on [-pi, pi] only"),
    FUNCTION_FORMS("expf", INSTR_EXP, instr_expf, instr_expf_intrinsic, instr_expf_fast_math,
                   "expf on [-80, 80]: a MUFU.EX2 with FFMA corrections, 2 ulp",
                   "__expf: FMUL by log2(e) and MUFU.EX2; 2 + floor(|1.173 x|) ulp: up to 95 at |x| = 80"),
    FUNCTION_FORMS("logf", INSTR_LOG, instr_logf, instr_logf_intrinsic, instr_logf_fast_math,
                   "logf on [2^-126, 1e30] (log-uniform): polynomial in FFMAs, 1 ulp",
                   "__logf: MUFU.LG2 and an FMUL; 2^-21.41 absolute on [0.5, 2], else 3 ulp"),
    FUNCTION_FORMS("powf", INSTR_POW, instr_powf, instr_powf_intrinsic, instr_powf_fast_math,
                   "powf, x in [1/16, 16] log-uniform, y in [-8, 8]: log and exp in extended precision, 4 ulp",
                   "__powf: exp2(y * log2(x)) on MUFU.LG2 and MUFU.EX2; the error grows with |y log2 x|"),
    FUNCTION_FORMS("divide", INSTR_DIVIDE, instr_divide, instr_divide_intrinsic, instr_divide_fast_math,
                   "y / x, x in [2^-20, 2^20] log-uniform: IEEE division (reciprocal, FFMA refinement, FCHK), 0 ulp",
                   "__fdividef(y, x): reciprocal (MUFU.RCP) and multiply, 2 ulp"),
    RUNG("affine_double_literal", instr_affine_double_literal, FUNCTION_RUNG(INSTR_AFFINE_DOUBLE, INSTR_ACCURATE),
         "float x * 1.1 + 0.3, x in [1, 2]: double literals promote it: F2F, DFMA, F2F per point"),
    RUNG("affine_float_literal", instr_affine_float_literal, FUNCTION_RUNG(INSTR_AFFINE_FLOAT, INSTR_ACCURATE),
         "x * 1.1f + 0.3f: one FFMA; expected the conversions' cost back"),
    RUNG("udiv_runtime", instr_udiv_runtime, INTEGER_RUNG(INSTR_UNSIGNED_DIVIDE),
         "unsigned x / d and x % d, d = 16 a kernel argument: a general division (IMAD.HI, fix-ups) per point"),
    RUNG("udiv_constant", instr_udiv_constant, INTEGER_RUNG(INSTR_UNSIGNED_DIVIDE),
         "unsigned x / 16 and x % 16: the compiler emits a shift and a mask"),
    RUNG("ushift_mask", instr_ushift_mask, INTEGER_RUNG(INSTR_UNSIGNED_DIVIDE),
         "unsigned x >> 4 and x & 15 by hand: the same SASS as udiv_constant, no gain"),
    RUNG("sdiv_runtime", instr_sdiv_runtime, INTEGER_RUNG(INSTR_SIGNED_DIVIDE),
         "signed x / d and x % d, d a kernel argument: general division of |x| plus sign fix-ups"),
    RUNG("sdiv_constant", instr_sdiv_constant, INTEGER_RUNG(INSTR_SIGNED_DIVIDE),
         "signed x / 16 and x % 16: a shift with a bias of 15 for negative x (SHF, LEA.HI): truncation"),
    RUNG("sshift_mask", instr_sshift_mask, INTEGER_RUNG(INSTR_SIGNED_SHIFT_MASK),
         "signed x >> 4 and x & 15: floor, not C's truncation: for negative x, -1 and +16 off x / 16 and x % 16"),
    RUNG("sshift_corrected", instr_sshift_corrected, INTEGER_RUNG(INSTR_SIGNED_DIVIDE),
         "the bias added by hand to make the shift truncate: equals x / 16 and x % 16, and sdiv_constant's cost"),
    RUNG("dot_rolled", instr_dot_rolled, DOT_RUNG,
         "256-term dot product, #pragma unroll 1: per term LDS, FFMA, FADD, counter, compare and branch"),
    RUNG("dot_unroll4", instr_dot_unroll4, DOT_RUNG, "#pragma unroll 4: the loop control once per 4 terms"),
    RUNG("dot_unrolled", instr_dot_unrolled, DOT_RUNG,
         "#pragma unroll (all 256): constant addresses, LDS.128, no loop control: FFMA + FADD per term"),
};
#define INSTR_VARIANT_COUNT ((int)(sizeof instr_variants / sizeof instr_variants[0]))

/* Where each function's inputs are drawn: the element's points run up to
 * (INSTR_EVALS_PER_ELEMENT - 1) * INSTR_STEP above it, so elements are drawn
 * that much below the top, and every evaluation stays in the stated range. */
typedef struct input_range {
    double lo, hi;
    int log_uniform;
    const char *text;
} input_range;

static const input_range function_ranges[INSTR_FUNCTION_COUNT] = {
    [INSTR_SIN] = {-PI, PI, 0, "[-pi, pi]"},
    [INSTR_COS] = {-PI, PI, 0, "[-pi, pi]"},
    [INSTR_EXP] = {-80, 80, 0, "[-80, 80]"},
    [INSTR_LOG] = {0x1p-126, 1e30, 1, "[2^-126, 1e30]"},
    [INSTR_POW] = {1.0 / 16, 16, 1, "x in [1/16, 16], y in [-8, 8]"},
    [INSTR_DIVIDE] = {0x1p-20, 0x1p20, 1, "divisor in [2^-20, 2^20], dividend in [-8, 8]"},
    [INSTR_AFFINE_DOUBLE] = {1, 2, 0, "[1, 2]"},
    [INSTR_AFFINE_FLOAT] = {1, 2, 0, "[1, 2]"},
};
/* The second argument: powf's exponent and the dividend. */
static const double second_lo = -8, second_hi = 8;
static const double points_span = (INSTR_EVALS_PER_ELEMENT - 1) * (double)INSTR_STEP;

/* Sums of points checked per draw: a sample, spread over the elements. */
#define SUMS_CHECKED 4096

typedef struct instr_state {
    long long n;
    float *host_x[INSTR_FUNCTION_COUNT], *host_y, *host_weights;
    int32_t *host_ints;
    void *host_out; /* 3n words: floats or integers as the rung writes them */
    float *device_x[INSTR_FUNCTION_COUNT], *device_y, *device_weights;
    int32_t *device_ints;
    void *device_out;
    /* Over every check of each rung, for the summaries; NaN until checked. */
    double max_ulp[INSTR_VARIANT_COUNT], max_absolute_error[INSTR_VARIANT_COUNT];
} instr_state;

static void destroy(void *opaque)
{
    instr_state *s = opaque;
    if (!s) return;
    for (int f = 0; f < INSTR_FUNCTION_COUNT; ++f) {
        cudaFree(s->device_x[f]);
        free(s->host_x[f]);
    }
    cudaFree(s->device_y);
    cudaFree(s->device_weights);
    cudaFree(s->device_ints);
    cudaFree(s->device_out);
    free(s->host_y);
    free(s->host_weights);
    free(s->host_ints);
    free(s->host_out);
    free(s);
}

#define INSTR_MAX_ELEMENTS (1LL << 26)

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 || size->dim[0] > INSTR_MAX_ELEMENTS) {
        snprintf(err, err_len, "instr takes N elements, 1 to 2^26");
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
    instr_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->n = size->dim[0];
    size_t bytes = (size_t)s->n * sizeof(float);
    ladder_buffers b = {0};
    for (int f = 0; f < INSTR_FUNCTION_COUNT; ++f)
        ladder_buffers_pair(&b, (void **)&s->host_x[f], (void **)&s->device_x[f], bytes);
    ladder_buffers_pair(&b, (void **)&s->host_y, (void **)&s->device_y, bytes);
    ladder_buffers_pair(&b, (void **)&s->host_ints, (void **)&s->device_ints, bytes);
    ladder_buffers_pair(&b, (void **)&s->host_weights, (void **)&s->device_weights,
                        INSTR_EVALS_PER_ELEMENT * sizeof(float));
    ladder_buffers_pair(&b, (void **)&s->host_out, &s->device_out, 3 * bytes);
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    for (int i = 0; i < INSTR_VARIANT_COUNT; ++i) s->max_ulp[i] = s->max_absolute_error[i] = NAN;
    return s;
}

static void fill_range(float *x, long long n, uint64_t seed, const input_range *r)
{
    double top = r->hi - points_span;
    if (!r->log_uniform) {
        ladder_fill_uniform(x, (size_t)n, seed, (float)r->lo, (float)top);
        return;
    }
    ladder_fill_uniform(x, (size_t)n, seed, (float)log2(r->lo), (float)log2(top));
    for (long long i = 0; i < n; ++i) x[i] = fminf(fmaxf(exp2f(x[i]), (float)r->lo), (float)top);
}

static void upload(void *device, const void *host, size_t bytes)
{
    CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    instr_state *s = opaque;
    uint64_t key = ladder_hash64(seed);
    size_t bytes = (size_t)s->n * sizeof(float);
    for (int f = 0; f < INSTR_FUNCTION_COUNT; ++f) {
        fill_range(s->host_x[f], s->n, key + (uint64_t)f, &function_ranges[f]);
        upload(s->device_x[f], s->host_x[f], bytes);
    }
    ladder_fill_uniform(s->host_y, (size_t)s->n, key + INSTR_FUNCTION_COUNT, (float)second_lo, (float)second_hi);
    upload(s->device_y, s->host_y, bytes);
    ladder_fill_uniform(s->host_weights, INSTR_EVALS_PER_ELEMENT, key + INSTR_FUNCTION_COUNT + 1, 0.5f, 1.0f);
    upload(s->device_weights, s->host_weights, INSTR_EVALS_PER_ELEMENT * sizeof(float));
    uint64_t int_key = ladder_hash64(key + INSTR_FUNCTION_COUNT + 2);
    for (long long i = 0; i < s->n; ++i) s->host_ints[i] = (int32_t)(uint32_t)ladder_hash64(int_key ^ (uint64_t)i);
    upload(s->device_ints, s->host_ints, bytes);
}

/* The dot-product rungs read the affine map's inputs, [1, 2): positive terms,
 * no cancellation, so a relative tolerance holds element by element. */
static const float *rung_x(const instr_state *s, const ladder_variant *v, int device)
{
    int f = rung_group(v) == GROUP_FUNCTION ? rung_what(v) : INSTR_AFFINE_FLOAT;
    return device ? s->device_x[f] : s->host_x[f];
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    instr_state *s = opaque;
    instr_buffers b = {
        .x = rung_x(s, v, 1),
        .y = s->device_y,
        .ints = s->device_ints,
        .weights = s->device_weights,
        .out = s->device_out,
        .int_out = s->device_out,
        .n = s->n,
        .divisor = INSTR_DIVISOR,
    };
    ((instr_launcher *)v->impl)(&b, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    instr_state *s = opaque;
    size_t bytes = (size_t)s->n * sizeof(float);
    switch (rung_group(v)) {
    /* 0x7F7F7F7F is no quotient of a 32-bit integer by 16 and no remainder. */
    case GROUP_INTEGER: return (ladder_output){s->device_out, 3 * bytes, 0x7F};
    case GROUP_DOT: return (ladder_output){(char *)s->device_out + bytes, bytes, 0xFF};
    default: return (ladder_output){s->device_out, 2 * bytes, 0xFF};
    }
}

/* The element indices whose point sums are checked: a spread sample and the last. */
static long long sum_stride(long long n) { return n > SUMS_CHECKED ? (n + SUMS_CHECKED - 1) / SUMS_CHECKED : 1; }

/* Spacing of floats at |v|: the size of one ulp there. */
static double ulp_size(double v)
{
    float f = fabsf((float)v);
    if (f < FLT_MIN) return 0x1p-149;
    return (double)nextafterf(f, INFINITY) - (double)f;
}

/* The rung's row in the table, or -1 for a variant from elsewhere (a test's). */
static int table_index(const ladder_variant *v)
{
    for (int i = 0; i < INSTR_VARIANT_COUNT; ++i)
        if (v == &instr_variants[i]) return i;
    return -1;
}

static ladder_check check_function(instr_state *s, const ladder_variant *v)
{
    instr_function f = (instr_function)rung_what(v);
    instr_form form = rung_form(v);
    const float *x = rung_x(s, v, 0), *y = s->host_y, *out = s->host_out;
    long long n = s->n;
    double worst_fraction = 0, worst_ulp = 0, worst_absolute = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(max : worst_fraction, worst_ulp, worst_absolute) reduction(+ : nonfinite)
    for (long long i = 0; i < n; ++i) {
        float got = out[i];
        nonfinite += !isfinite(out[n + i]); /* every sum is written, even where not sampled */
        if (!isfinite(got)) {
            ++nonfinite;
            continue;
        }
        double ref = instr_reference(f, x[i], y[i]);
        uint32_t ulps = instr_ulp_distance(got, (float)ref);
        double absolute = fabs(got - ref);
        worst_ulp = fmax(worst_ulp, ulps);
        worst_absolute = fmax(worst_absolute, absolute);
        worst_fraction =
            fmax(worst_fraction, instr_bound_fraction(ulps, absolute, instr_documented_bound(f, form, x[i], y[i])));
    }
    /* The point sums: each evaluation within its bound, and the float
     * accumulation within (points - 1) roundings of the sum of magnitudes. */
    long long stride = sum_stride(n);
#pragma omp parallel for reduction(max : worst_fraction)
    for (long long j = 0; j <= (n - 1) / stride + 1; ++j) {
        long long i = j <= (n - 1) / stride ? j * stride : n - 1;
        float got = out[n + i];
        if (!isfinite(got)) continue; /* counted above */
        double ref_sum = 0, allowed = 0, magnitude = 0;
        for (int k = 0; k < INSTR_EVALS_PER_ELEMENT; ++k) {
            float point = x[i] + (float)k * INSTR_STEP;
            double ref = instr_reference(f, point, y[i]);
            instr_bound bound = instr_documented_bound(f, form, point, y[i]);
            ref_sum += ref;
            magnitude += fabs(ref);
            allowed += fmax(bound.absolute, (fmax(bound.ulps, 0) + 0.5) * ulp_size(ref));
        }
        allowed += 1.01 * (INSTR_EVALS_PER_ELEMENT - 1) * 0x1p-24 * magnitude; /* gamma_{points-1} */
        worst_fraction = fmax(worst_fraction, fabs(got - ref_sum) / allowed);
    }
    int index = table_index(v);
    if (index >= 0) {
        s->max_ulp[index] = fmax(s->max_ulp[index], worst_ulp); /* fmax skips the initial NaN */
        s->max_absolute_error[index] = fmax(s->max_absolute_error[index], worst_absolute);
    }
    return (ladder_check){worst_fraction, 1.0, nonfinite, nonfinite == 0 && worst_fraction <= 1.0};
}

static int32_t int_point(int32_t x, int k) { return (int32_t)((uint32_t)x + (uint32_t)k * INSTR_INT_STRIDE); }

/* Exact: the error is the fraction of wrong quotients, remainders and sums. */
static ladder_check check_integer(instr_state *s, const ladder_variant *v)
{
    instr_int_op op = (instr_int_op)rung_what(v);
    const int32_t *out = s->host_out;
    long long n = s->n, stride = sum_stride(n);
    size_t wrong = 0, checked = 0;
#pragma omp parallel for reduction(+ : wrong, checked)
    for (long long i = 0; i < n; ++i) {
        int32_t q, r;
        instr_int_reference(op, s->host_ints[i], &q, &r);
        wrong += (out[i] != q) + (out[n + i] != r);
        checked += 2;
        if (i % stride != 0 && i != n - 1) continue;
        uint32_t sum = 0;
        for (int k = 0; k < INSTR_EVALS_PER_ELEMENT; ++k) {
            instr_int_reference(op, int_point(s->host_ints[i], k), &q, &r);
            sum += (uint32_t)q + (uint32_t)r;
        }
        wrong += out[2 * n + i] != (int32_t)sum;
        ++checked;
    }
    double fraction = (double)wrong / (double)checked;
    return (ladder_check){fraction, 0.0, 0, wrong == 0};
}

static ladder_check check_dot(instr_state *s, const ladder_variant *v)
{
    const float *x = rung_x(s, v, 0), *w = s->host_weights, *out = (const float *)s->host_out + s->n;
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)
    for (long long i = 0; i < s->n; ++i) {
        float point = x[i]; /* built by repeated float addition, as the kernel does */
        double ref = 0;
        for (int k = 0; k < INSTR_EVALS_PER_ELEMENT; ++k) {
            ref += (double)w[k] * point;
            point += INSTR_STEP;
        }
        ref_squared += ref * ref;
        if (!isfinite(out[i])) ++nonfinite;
        else diff_squared += (out[i] - ref) * (out[i] - ref);
    }
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite},
                               ladder_fp32_tolerance(INSTR_EVALS_PER_ELEMENT));
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    instr_state *s = opaque;
    ladder_output written = output(s, v);
    size_t offset = (size_t)((char *)written.ptr - (char *)s->device_out);
    CUDA_CHECK(cudaMemcpy((char *)s->host_out + offset, written.ptr, written.bytes, cudaMemcpyDeviceToHost));
    switch (rung_group(v)) {
    case GROUP_INTEGER: return check_integer(s, v);
    case GROUP_DOT: return check_dot(s, v);
    default: return check_function(s, v);
    }
}

/* Per element: two floats read, two written (the integer and dot rungs move
 * less); INSTR_EVALS_PER_ELEMENT operations. */
static ladder_work work(void *opaque)
{
    instr_state *s = opaque;
    return (ladder_work){4.0 * sizeof(float) * (double)s->n, (double)INSTR_EVALS_PER_ELEMENT * (double)s->n};
}

static const char *bound_text(instr_function f, instr_form form)
{
    int fast = form != INSTR_ACCURATE;
    switch (f) {
    case INSTR_SIN:
    case INSTR_COS: return fast ? "2^-21.19 absolute" : "2 ulp";
    case INSTR_EXP: return fast ? "2 + floor(|1.173 x|) ulp" : "2 ulp";
    case INSTR_LOG: return fast ? "2^-21.41 absolute on [0.5, 2], else 3 ulp" : "1 ulp";
    case INSTR_POW: return fast ? "none; derived from exp2f(y * __log2f(x))" : "4 ulp";
    case INSTR_DIVIDE: return fast ? "2 ulp" : "0 ulp";
    case INSTR_AFFINE_DOUBLE: return "1 ulp (derived)";
    case INSTR_AFFINE_FLOAT: return "2 ulp (derived)";
    default: return "";
    }
}

static void add_summary(ladder_results *results, const char *variant, const char *suffix, double value,
                        const char *unit, const char *range, const char *bound)
{
    ladder_summary *summary = ladder_results_add_summary(results);
    snprintf(summary->name, sizeof summary->name, "%s_%s", variant, suffix);
    summary->value = value;
    snprintf(summary->unit, sizeof summary->unit, "%s", unit);
    snprintf(summary->note, sizeof summary->note, "vs double on %s; documented bound: %s", range, bound);
}

/* The ulp table: each float rung's largest error over every check, in ulp
 * of the correctly rounded result, and in absolute terms where the
 * documented bound is absolute. */
static void summarize(void *opaque, ladder_results *results, size_t first)
{
    instr_state *s = opaque;
    size_t count = results->count;
    for (size_t r = first; r < count; ++r) {
        int index = results->records[r].index;
        const ladder_variant *v = &instr_variants[index];
        if (rung_group(v) != GROUP_FUNCTION || isnan(s->max_ulp[index])) continue;
        instr_function f = (instr_function)rung_what(v);
        instr_form form = rung_form(v);
        const char *range = function_ranges[f].text, *bound = bound_text(f, form);
        add_summary(results, v->name, "max_ulp", s->max_ulp[index], "ulp", range, bound);
        if (form != INSTR_ACCURATE && (f == INSTR_SIN || f == INSTR_COS || f == INSTR_LOG))
            add_summary(results, v->name, "max_abs_error", s->max_absolute_error[index], "", range, bound);
    }
}

const ladder_case instr_case = {
    .name = "instr",
    .title = "instructions: intrinsics vs accurate math (time, ulp), division by 2^k, double literals, unrolling",
    .size_help = "N elements, each evaluated at 256 points: N x 256 operations per rung; 1 to 2^26",
    .default_size = "2^20",
    .quick_size = "2^18",
    .test_sizes = {"1", "257", "4099", "65537", NULL},
    .ceiling = LADDER_CEILING_FP32,
    .try_refusal = "instr is a sweep of instruction forms (intrinsics, literals, division), each a tiny kernel of its own",
    .variants = instr_variants,
    .variant_count = INSTR_VARIANT_COUNT,
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every rung takes every N */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
    .summarize = summarize,
};
