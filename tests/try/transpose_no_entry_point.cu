/* Planted: without extern "C", other parameters make a C++ overload; the
 * entry point itself is never defined. */
#include "ladder_try.h"

void ladder_try_transpose(const float *in, float *out, long long rows, long long cols, cudaStream_t stream)
{
    (void)in, (void)out, (void)rows, (void)cols, (void)stream;
}
