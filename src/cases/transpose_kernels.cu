/* Transpose kernels, in ladder order. in is rows x cols, out is cols x rows.
 * Indices go through size_t: rows * cols may exceed 2^31. */
#include "transpose.h"

#include "../harness/check.h"

#define TILE 32       /* the classic tile: 32 x 32 elements */
#define BLOCK_ROWS 8  /* ... moved by 32 x 8 threads, 4 rows each */

static dim3 classic_grid(int rows, int cols)
{
    return dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
}

/* Rung 0, copy: the same 32 x 32 tile walk and 32 x 8 block as the transposes,
 * reading and writing rows, both coalesced. The target for the rungs below. */
__global__ void copy_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE + threadIdx.y;
    if (c >= cols) return;
    for (int k = 0; k < TILE; k += BLOCK_ROWS) {
        int r = r0 + k;
        if (r < rows) out[(size_t)r * cols + c] = in[(size_t)r * cols + c];
    }
}

/* Rung 1, copy through shared memory: adds the tile round trip and a barrier,
 * still no transposition: what staging alone costs. */
__global__ void copy_shared_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += BLOCK_ROWS)
        if (c < cols && r0 + k < rows) tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(r0 + k) * cols + c];
    __syncthreads();
    for (int k = 0; k < TILE; k += BLOCK_ROWS)
        if (c < cols && r0 + k < rows) out[(size_t)(r0 + k) * cols + c] = tile[threadIdx.y + k][threadIdx.x];
}

/* Rung 2, naive transpose: reads rows (coalesced), writes columns: each warp's
 * store touches 32 different 32-byte sectors, so DRAM writes whole sectors
 * for 4 useful bytes each. */
__global__ void naive_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE + threadIdx.y;
    if (c >= cols) return;
    for (int k = 0; k < TILE; k += BLOCK_ROWS) {
        int r = r0 + k;
        if (r < rows) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}

/* Rungs 3-5, the shared-memory tile. A block reads a 32 x 32 tile by rows,
 * and writes it transposed, again by rows, reading the tile by columns.
 * PAD = 0: a column of the tile sits in one bank, a 32-way conflict on every
 * read. PAD = 1: rows 33 words apart put a column in 32 different banks.
 * DIAGONAL: blocks are renumbered along diagonals so that consecutively
 * scheduled blocks write to different DRAM partitions (partition camping,
 * the G80/GT200 problem; address hashing has made it moot since Fermi). */
template <int PAD, bool DIAGONAL>
__global__ void tile_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + PAD];
    int block_x = blockIdx.x, block_y = blockIdx.y;
    if (DIAGONAL) {
        int linear = blockIdx.x + gridDim.x * blockIdx.y;
        block_y = linear % gridDim.y;
        block_x = (linear / gridDim.y + block_y) % gridDim.x;
    }
    int c = block_x * TILE + threadIdx.x;
    int r0 = block_y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += BLOCK_ROWS)
        if (c < cols && r0 + k < rows) tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(r0 + k) * cols + c];
    __syncthreads();
    /* Out-tile coordinates: out row = in column, out column = in row. */
    int out_c = block_y * TILE + threadIdx.x;
    int out_r0 = block_x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += BLOCK_ROWS)
        if (out_c < rows && out_r0 + k < cols)
            out[(size_t)(out_r0 + k) * rows + out_c] = tile[threadIdx.x][threadIdx.y + k];
}

/* Rungs 6-7, the wide tile. Measured on Hopper, the padded 32 x 32 tile stops
 * well short of copy bandwidth because each block keeps only 4 KB of loads in
 * flight before its barrier: a 32 x 8 block moves one float per load, and at
 * most 8 such blocks fit on an SM. This tile is 64 x 64, each thread moves
 * float4s (16 KB of loads in flight per 256-thread block), and the tile is
 * walked so that 16-byte global accesses and 4-byte shared accesses are both
 * conflict-free: a warp covers 4 rows x 8 float4s, one full 128-byte line per
 * row, and with rows 65 words apart those 32 lanes land in 32 banks whether
 * the tile is read by rows or by columns.
 * STREAMING marks loads and stores evict-first: each byte is touched once, so
 * keeping it in L2 only displaces lines that are still to be written back. */
#define WIDE 64
#define WIDE_THREADS 256

template <bool STREAMING>
__device__ __forceinline__ float4 load4(const float *p)
{
    return STREAMING ? __ldcs((const float4 *)p) : *(const float4 *)p;
}

template <bool STREAMING>
__device__ __forceinline__ void store4(float *p, float4 v)
{
    if (STREAMING) __stcs((float4 *)p, v);
    else *(float4 *)p = v;
}

template <bool STREAMING>
__global__ void __launch_bounds__(WIDE_THREADS) wide_tile_kernel(const float *__restrict__ in,
                                                                 float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[WIDE][WIDE + 1];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int quad = lane & 7;         /* which float4 of a 32-float half row */
    int row_in_warp = lane >> 3; /* which of the warp's 4 rows */
    int row0 = blockIdx.y * WIDE, col0 = blockIdx.x * WIDE;
    /* Whole tile inside, and every row start 16-byte aligned on both sides:
     * the same for the whole block, so the branch never diverges. */
    bool vector_path = rows % 4 == 0 && cols % 4 == 0 && row0 + WIDE <= rows && col0 + WIDE <= cols;

#pragma unroll
    for (int pass = 0; pass < 2; ++pass) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            int r = pass * 32 + warp * 4 + row_in_warp, c = half * 32 + quad * 4;
            const float *src = in + (size_t)(row0 + r) * cols + col0 + c;
            if (vector_path) {
                float4 v = load4<STREAMING>(src);
                tile[r][c] = v.x, tile[r][c + 1] = v.y, tile[r][c + 2] = v.z, tile[r][c + 3] = v.w;
            } else {
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    if (row0 + r < rows && col0 + c + k < cols) tile[r][c + k] = src[k];
            }
        }
    }
    __syncthreads();
#pragma unroll
    for (int pass = 0; pass < 2; ++pass) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            /* r: output row within the tile (an input column); c: output column (an input row). */
            int r = pass * 32 + warp * 4 + row_in_warp, c = half * 32 + quad * 4;
            float *dst = out + (size_t)(col0 + r) * rows + row0 + c;
            if (vector_path) {
                store4<STREAMING>(dst, make_float4(tile[c][r], tile[c + 1][r], tile[c + 2][r], tile[c + 3][r]));
            } else {
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    if (col0 + r < cols && row0 + c + k < rows) dst[k] = tile[c + k][r];
            }
        }
    }
}

static dim3 wide_grid(int rows, int cols)
{
    return dim3((cols + WIDE - 1) / WIDE, (rows + WIDE - 1) / WIDE);
}

static const dim3 classic_block(TILE, BLOCK_ROWS);

extern "C" void transpose_copy(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    copy_kernel<<<classic_grid(rows, cols), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_copy_shared(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    copy_shared_kernel<<<classic_grid(rows, cols), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_naive(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    naive_kernel<<<classic_grid(rows, cols), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_tiled(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    tile_kernel<0, false><<<classic_grid(rows, cols), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_tiled_padded(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    tile_kernel<1, false><<<classic_grid(rows, cols), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_diagonal(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    tile_kernel<1, true><<<classic_grid(rows, cols), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_wide_tile(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    wide_tile_kernel<false><<<wide_grid(rows, cols), WIDE_THREADS, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_wide_tile_streaming(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    wide_tile_kernel<true><<<wide_grid(rows, cols), WIDE_THREADS, 0, stream>>>(in, out, rows, cols);
}
