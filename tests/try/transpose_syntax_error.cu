/* Planted: does not compile. */
#include "ladder_try.h"

void ladder_try_transpose(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    this_is_not_declared(in, out, rows, cols, stream)
}
