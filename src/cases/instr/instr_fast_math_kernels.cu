/* The accurate function rungs' source compiled with -use_fast_math (the one
 * per-file option in CMakeLists.txt): sinf becomes __sinf, cosf __cosf, expf
 * __expf, logf __logf, powf __powf and x / y __fdividef, with denormals
 * flushed to zero. Expected: each rung times and errs like its intrinsic
 * rung, which is the point: the flag trades the accuracy of every call in
 * the file, not of the one the author had in mind. */
#include "instr_functions.cuh"

INSTR_POINTS_LAUNCHER(instr_sinf_fast_math, sin_accurate)
INSTR_POINTS_LAUNCHER(instr_cosf_fast_math, cos_accurate)
INSTR_POINTS_LAUNCHER(instr_expf_fast_math, exp_accurate)
INSTR_POINTS_LAUNCHER(instr_logf_fast_math, log_accurate)
INSTR_POINTS_LAUNCHER(instr_powf_fast_math, pow_accurate)
INSTR_POINTS_LAUNCHER(instr_divide_fast_math, divide_accurate)
