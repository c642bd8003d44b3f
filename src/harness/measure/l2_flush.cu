#include "l2_flush.h"

#include <stdint.h>

#include "harness/check/check.h"

/* Loads bypass L1 (.cg): the point is to fill L2. The loaded values feed a
 * comparison with a key the compiler cannot see, so the loads are kept; the
 * buffer holds zeros and the key is not zero, so nothing is ever stored. */
__global__ void read_through_l2(const uint4 *__restrict__ buffer, size_t n16, unsigned key, unsigned *sink)
{
    unsigned folded = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += stride) {
        uint4 v = __ldcg(buffer + i);
        folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (folded == key) *sink = folded;
}

extern "C" void ladder_l2_flush_read(const void *buffer, size_t bytes, unsigned *sink, int blocks,
                                     cudaStream_t stream)
{
    read_through_l2<<<blocks, 256, 0, stream>>>((const uint4 *)buffer, bytes / 16, LADDER_L2_FLUSH_KEY, sink);
    CUDA_CHECK_LAUNCH();
}
