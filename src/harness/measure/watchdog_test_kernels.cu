/* Kernels of watchdog_gpu_test alone, never built into ladder (CMake keeps
 * *_test_kernels.cu out of the library): one that finishes, one that never
 * does. */
#include <cuda_runtime.h>

__global__ void double_each(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

/* Waits for a flag that nothing sets: what a producer warp that exited early,
 * or an mbarrier whose byte count never arrives, looks like from outside. */
__global__ void spin_forever(const volatile int *never_set)
{
    while (*never_set == 0) {
    }
}

extern "C" void watchdog_test_double(const float *in, float *out, int n, cudaStream_t stream)
{
    double_each<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
}

extern "C" void watchdog_test_spin(const int *never_set, cudaStream_t stream)
{
    spin_forever<<<1, 32, 0, stream>>>(never_set);
}
