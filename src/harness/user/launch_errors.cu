/* Compiled into every tried shared object beside the user's file (see
 * compile.c), never into ladder: the user's kernels launch through the
 * object's own copy of the CUDA runtime (nvcc links it statically), whose
 * launch errors (a block too large, too much shared memory) ladder's copy
 * never sees. This hands them over (load.c: ladder_user_check_launch). */
#include <cuda_runtime_api.h>

extern "C" __attribute__((visibility("default"))) int ladder_user_last_error(void)
{
    return (int)cudaGetLastError();
}
