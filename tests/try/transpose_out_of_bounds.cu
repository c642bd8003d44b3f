/* Planted: a correct transpose that also writes far past the end of out, an
 * illegal address on any size. */
#include "ladder_try.h"

__global__ void transpose_and_overrun(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    if (r == 0 && c == 0) out[(size_t)1 << 40] = 1.0f;
}

void ladder_try_transpose(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    transpose_and_overrun<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
