/* Planted: computes a sum into scratch but never writes out[0]. */
#include "ladder_try.h"

__global__ void sum_somewhere_else(const float *in, long long n, float *scratch)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) scratch[0] = in[0] + in[n - 1];
}

void ladder_try_reduce(const float *in, float *out, long long n, float *scratch, size_t scratch_floats,
                       cudaStream_t stream)
{
    (void)out, (void)scratch_floats;
    sum_somewhere_else<<<1, 32, 0, stream>>>(in, n, scratch);
}
