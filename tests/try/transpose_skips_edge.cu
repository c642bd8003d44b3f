/* Planted: a tiled transpose that only moves whole 32x32 tiles, so the last
 * partial tile of a size that is not a multiple of 32 is never written. */
#include "ladder_try.h"

#define TILE 32

__global__ void transpose_whole_tiles(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    int out_c = blockIdx.y * TILE + threadIdx.x, out_r = blockIdx.x * TILE + threadIdx.y;
    out[(size_t)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

void ladder_try_transpose(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    dim3 grid(cols / TILE, rows / TILE); /* rounds down: the edge is lost */
    if (grid.x && grid.y) transpose_whole_tiles<<<grid, dim3(TILE, TILE), 0, stream>>>(in, out, rows, cols);
}
