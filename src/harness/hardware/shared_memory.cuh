/* Host side of the launchers (.cu files): a kernel whose blocks use more
 * than 48 KB of shared memory must be allowed its dynamic part first. */
#ifndef LADDER_SHARED_MEMORY_CUH
#define LADDER_SHARED_MEMORY_CUH

#include <cuda_runtime.h>

#include "harness/check/check.h"

/* Once per kernel instantiation, device and size: the attribute belongs to
 * the device's context (`--device all` runs several GPUs in turn) and is
 * raised to the largest size asked for so far. Set for any size, since the
 * 48 KB counts the kernel's static shared memory too. */
template <auto KERNEL>
static void allow_shared_bytes(size_t bytes)
{
    static size_t allowed[64];
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    if (device >= 64 || bytes > allowed[device]) {
        CUDA_CHECK(cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        if (device < 64) allowed[device] = bytes;
    }
}

#endif
