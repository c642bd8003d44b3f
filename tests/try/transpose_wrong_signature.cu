/* Planted: the entry point with C linkage and a parameter of another type. */
#include "ladder_try.h"

extern "C" void ladder_try_transpose(const float *in, float *out, long rows, int cols, cudaStream_t stream)
{
    (void)in, (void)out, (void)rows, (void)cols, (void)stream;
}
