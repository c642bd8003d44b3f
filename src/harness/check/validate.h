/* Comparing an output with its CPU reference: relative L2 error, any NaN or
 * Inf fails. Cases with their own loops use the accumulator directly. */
#ifndef LADDER_VALIDATE_H
#define LADDER_VALIDATE_H

#include <stddef.h>

#include "harness/case.h"

typedef struct ladder_error_sum {
    double diff_squared; /* sum of (out - ref)^2 over finite outputs */
    double ref_squared;  /* sum of ref^2 */
    size_t nonfinite;    /* outputs that are NaN or Inf */
} ladder_error_sum;

/* ||out - ref|| / ||ref|| (the absolute norm when ref is all zero), passed
 * when every output is finite and the error is within tolerance. */
ladder_check ladder_error_finish(ladder_error_sum sum, double tolerance);

ladder_check ladder_compare_f32(const float *out, const float *ref, size_t n, double tolerance);
ladder_check ladder_compare_f32_f64(const float *out, const double *ref, size_t n, double tolerance);

/* The usual tolerance for an FP32 result whose elements each sum `length`
 * terms: a few units of rounding per step of a sequential sum, bounded below
 * by float epsilon so that exact results are held to exactness-ish. */
double ladder_fp32_tolerance(double length);

#endif
