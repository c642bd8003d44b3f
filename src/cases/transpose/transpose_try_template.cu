/* A starting point for `ladder try transpose FILE.cu`: the ladder's first
 * transposing rung (rung 2, naive), written plainly. It compiles and
 * passes; it is slow on purpose.
 *
 *   ladder try transpose --template > mine.cu
 *   ladder try transpose mine.cu --quick
 *
 * The contract is in include/ladder_try.h: out (cols x rows) = in (rows x
 * cols) transposed, row-major floats, any size, exact.
 *
 * Each thread reads one element along a row (a warp reads 128 consecutive
 * bytes: coalesced) and writes it down a column (a warp's 32 stores land in
 * 32 different rows: 32 sectors for 128 useful bytes). The rung to beat
 * next is rung 3, tiled: stage a 32x32 tile in shared memory so that the
 * writes go along rows too; then rung 4, tiled_padded, removes the tile's
 * bank conflicts (`ladder list transpose` tells every step). */
#include "ladder_try.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    /* A grid holds 65535 blocks along y: taller matrices loop. */
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += gridDim.y * blockDim.y)
        if (c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void ladder_try_transpose(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(32, 8);
    int row_blocks = (rows + block.y - 1) / block.y;
    dim3 grid((cols + block.x - 1) / block.x, row_blocks < 65535 ? row_blocks : 65535);
    transpose_naive<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
