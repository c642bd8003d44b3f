/* Planted: the one block spins on a flag that nothing ever sets. */
#include "ladder_try.h"

__device__ int never_set;

__global__ void wait_forever(float *out)
{
    while (*(volatile int *)&never_set == 0) {
    }
    out[0] = 0.0f;
}

void ladder_try_reduce(const float *in, float *out, long long n, float *scratch, size_t scratch_floats,
                       cudaStream_t stream)
{
    (void)in, (void)n, (void)scratch, (void)scratch_floats;
    wait_forever<<<1, 1, 0, stream>>>(out);
}
