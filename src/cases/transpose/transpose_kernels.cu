/* Transpose kernels, in ladder order. in is rows x cols, out is cols x rows.
 * Indices go through size_t: rows * cols may exceed 2^31. */
#include "transpose.h"

#include "harness/check/check.h"

#define TILE 32       /* the classic tile: 32 x 32 elements */
#define BLOCK_ROWS 8  /* ... moved by 32 x 8 threads, 4 rows each */


#define STRIP (TILE / BLOCK_ROWS) /* elements each thread moves */

/* Every thread of the classic kernels moves a strip of STRIP elements of
 * one column, BLOCK_ROWS rows apart. All its loads are issued before the
 * first use, as predicated loads, so each thread keeps STRIP requests in
 * flight; a guarded load-use-load-use loop would keep one. */
__device__ __forceinline__ void load_strip(float v[STRIP], const float *__restrict__ in, int rows, int cols,
                                           int r0, int c)
{
#pragma unroll
    for (int k = 0; k < STRIP; ++k) {
        int r = r0 + k * BLOCK_ROWS;
        v[k] = r < rows && c < cols ? in[(size_t)r * cols + c] : 0.0f;
    }
}

/* Rung 0, copy (TRANSPOSED = false): the same 32 x 32 tile walk and 32 x 8
 * block as the transposes, reading and writing rows, both coalesced: the
 * target for the rungs below.
 * Rung 2, naive transpose (TRANSPOSED = true): the same reads, but the
 * writes go down columns: each warp's store touches 32 different 32-byte
 * sectors, so DRAM writes whole sectors for 4 useful bytes each. */
template <bool TRANSPOSED>
__global__ void direct_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE + threadIdx.y;
    float v[STRIP];
    load_strip(v, in, rows, cols, r0, c);
#pragma unroll
    for (int k = 0; k < STRIP; ++k) {
        int r = r0 + k * BLOCK_ROWS;
        if (r < rows && c < cols) out[TRANSPOSED ? (size_t)c * rows + r : (size_t)r * cols + c] = v[k];
    }
}

/* Rung 1, copy through shared memory: adds the tile round trip and a barrier,
 * still no transposition: what staging alone costs. */
__global__ void copy_shared_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE + threadIdx.y;
    float v[STRIP];
    load_strip(v, in, rows, cols, r0, c);
#pragma unroll
    for (int k = 0; k < STRIP; ++k) tile[threadIdx.y + k * BLOCK_ROWS][threadIdx.x] = v[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < STRIP; ++k) {
        int r = r0 + k * BLOCK_ROWS;
        if (r < rows && c < cols) out[(size_t)r * cols + c] = tile[threadIdx.y + k * BLOCK_ROWS][threadIdx.x];
    }
}

/* How a tile kernel maps blockIdx to the tile it moves. Blocks are launched
 * roughly in blockIdx order, so the order decides which tiles are in flight
 * together. */
enum block_order {
    ROW_ORDER,      /* blockIdx.x walks along a row of input tiles */
    DIAGONAL_ORDER, /* along diagonals of the tile grid */
    COLUMN_ORDER,   /* blockIdx.x walks down a column of input tiles */
};

template <int ORDER>
__device__ __forceinline__ void tile_coordinates(int *tile_row, int *tile_col)
{
    if (ORDER == COLUMN_ORDER) {
        *tile_row = blockIdx.x, *tile_col = blockIdx.y;
    } else if (ORDER == DIAGONAL_ORDER) {
        int linear = blockIdx.x + gridDim.x * blockIdx.y;
        *tile_row = linear % gridDim.y;
        *tile_col = (linear / gridDim.y + *tile_row) % gridDim.x;
    } else {
        *tile_row = blockIdx.y, *tile_col = blockIdx.x;
    }
}

template <int ORDER>
static dim3 tile_grid(int rows, int cols, int tile)
{
    int tile_rows = (rows + tile - 1) / tile, tile_cols = (cols + tile - 1) / tile;
    return ORDER == COLUMN_ORDER ? dim3(tile_rows, tile_cols) : dim3(tile_cols, tile_rows);
}

/* Rungs 3-6, the shared-memory tile. A block reads a 32 x 32 tile by rows,
 * and writes it transposed, again by rows, reading the tile by columns.
 * PAD = 0: a column of the tile sits in one bank, a 32-way conflict on every
 * read. PAD = 1: rows 33 words apart put a column in 32 different banks.
 * DIAGONAL_ORDER was the cure for partition camping on G80/GT200 (blocks
 * in flight together all hitting one DRAM partition); address hashing has
 * made that moot since Fermi.
 * COLUMN_ORDER is what the padded tile lacks on Hopper: in row order the
 * blocks in flight read neighbouring tiles of a few input rows but write
 * their output to a few hundred bytes in each of thousands of output rows.
 * Walking down the input's columns instead, the blocks in flight fill whole
 * output rows one after another; measured on an H200, writes in order are
 * worth more than reads in order. */
template <int PAD, int ORDER>
__global__ void tile_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + PAD];
    int tile_row, tile_col;
    tile_coordinates<ORDER>(&tile_row, &tile_col);
    float v[STRIP];
    load_strip(v, in, rows, cols, tile_row * TILE + threadIdx.y, tile_col * TILE + threadIdx.x);
#pragma unroll
    for (int k = 0; k < STRIP; ++k) tile[threadIdx.y + k * BLOCK_ROWS][threadIdx.x] = v[k];
    __syncthreads();
    /* Out-tile coordinates: out row = in column, out column = in row. */
    int out_c = tile_row * TILE + threadIdx.x;
    int out_r0 = tile_col * TILE + threadIdx.y;
#pragma unroll
    for (int k = 0; k < STRIP; ++k) {
        int out_r = out_r0 + k * BLOCK_ROWS;
        if (out_c < rows && out_r < cols) out[(size_t)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y + k * BLOCK_ROWS];
    }
}

/* Rung 7, the wide tile, in column order. The 32 x 8 block keeps 4 KB of
 * loads in flight before its barrier, one 4-byte load per thread at a time.
 * This tile is 64 x 64 and each of its 512 threads moves float4s, and the
 * tile is walked so that 16-byte global accesses and 4-byte shared accesses
 * are both conflict-free: a warp covers 4 rows x 8 float4s, one full
 * 128-byte line per row, and with rows 65 words apart those 32 lanes land in
 * 32 banks whether the tile is read by rows or by columns. On an H200 a
 * sweep of tile shapes (32..128 square and rectangular, 128..1024 threads,
 * row, column and grouped block orders) put this shape first; evict-first
 * cache hints on top of it measured slower.
 * Rung 8, wide rows: the same tile, but a warp moves two whole 256-byte
 * rows (16 lanes a row) instead of four half rows, so each warp access is two
 * full lines and each DRAM page is visited by fewer warps; the price is a
 * 2-way bank conflict on the shared stores (lanes 8 apart are 32 words
 * apart). Measured at 8192^2 (ratio to cudaMemcpy, median of 40, L2 flushed,
 * two sweeps, H100): wide_tile 0.961, wide rows 0.968-0.969; with the output
 * stored evict-first (__stcs) 0.967; tiles of 128x64 0.962, 64x128 0.964,
 * 128x32 0.930-0.937, 32x128 0.951, 256x32 0.927. Also slower: resident
 * blocks moving tile after tile through two shared tiles, the next tile's
 * loads issued before this one is written out, 0.937 (wide_rows 0.971 in
 * the same run). */
#define WIDE 64
#define WIDE_THREADS 512
#define WIDE_VECTORS (WIDE * WIDE / 4 / WIDE_THREADS) /* float4s each thread moves */

/* Thread's i-th float4 of the tile when a warp covers 32 / LANES_PER_ROW
 * rows of LANES_PER_ROW float4s: 8 lanes a row (wide_tile) take a row's
 * halves in turn; 16 lanes a row (wide_rows) take a whole row. */
template <int LANES_PER_ROW>
__device__ __forceinline__ void wide_position(int i, int *r, int *c)
{
    constexpr int SEGMENTS = WIDE / 4 / LANES_PER_ROW, ROWS_PER_WARP = 32 / LANES_PER_ROW;
    constexpr int ROWS_PER_PASS = WIDE_THREADS / 32 * ROWS_PER_WARP;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int segment = i % SEGMENTS, pass = i / SEGMENTS;
    *r = pass * ROWS_PER_PASS + warp * ROWS_PER_WARP + lane / LANES_PER_ROW;
    *c = (segment * LANES_PER_ROW + lane % LANES_PER_ROW) * 4;
}

template <int LANES_PER_ROW>
__global__ void __launch_bounds__(WIDE_THREADS) wide_tile_kernel(const float *__restrict__ in,
                                                                 float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[WIDE][WIDE + 1];
    int tile_row, tile_col;
    tile_coordinates<COLUMN_ORDER>(&tile_row, &tile_col);
    int row0 = tile_row * WIDE, col0 = tile_col * WIDE;
    /* Whole tile inside, and every row start 16-byte aligned on both sides:
     * the same for the whole block, so the branch never diverges, and it
     * sits outside the loads so that they all issue back to back. */
    bool vector_path = rows % 4 == 0 && cols % 4 == 0 && row0 + WIDE <= rows && col0 + WIDE <= cols;

    float4 v[WIDE_VECTORS];
    if (vector_path) {
#pragma unroll
        for (int i = 0; i < WIDE_VECTORS; ++i) {
            int r, c;
            wide_position<LANES_PER_ROW>(i, &r, &c);
            v[i] = *(const float4 *)(in + (size_t)(row0 + r) * cols + col0 + c);
        }
    } else {
#pragma unroll
        for (int i = 0; i < WIDE_VECTORS; ++i) {
            int r, c;
            wide_position<LANES_PER_ROW>(i, &r, &c);
            float e[4];
#pragma unroll
            for (int k = 0; k < 4; ++k)
                e[k] = row0 + r < rows && col0 + c + k < cols ? in[(size_t)(row0 + r) * cols + col0 + c + k] : 0.0f;
            v[i] = make_float4(e[0], e[1], e[2], e[3]);
        }
    }
#pragma unroll
    for (int i = 0; i < WIDE_VECTORS; ++i) {
        int r, c;
        wide_position<LANES_PER_ROW>(i, &r, &c);
        tile[r][c] = v[i].x, tile[r][c + 1] = v[i].y, tile[r][c + 2] = v[i].z, tile[r][c + 3] = v[i].w;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < WIDE_VECTORS; ++i) {
        /* r: output row within the tile (an input column); c: output column (an input row). */
        int r, c;
        wide_position<LANES_PER_ROW>(i, &r, &c);
        float *dst = out + (size_t)(col0 + r) * rows + row0 + c;
        if (vector_path) {
            *(float4 *)dst = make_float4(tile[c][r], tile[c + 1][r], tile[c + 2][r], tile[c + 3][r]);
        } else {
#pragma unroll
            for (int k = 0; k < 4; ++k)
                if (col0 + r < cols && row0 + c + k < rows) dst[k] = tile[c + k][r];
        }
    }
}

static const dim3 classic_block(TILE, BLOCK_ROWS);

extern "C" void transpose_copy(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    direct_kernel<false><<<tile_grid<ROW_ORDER>(rows, cols, TILE), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_copy_shared(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    copy_shared_kernel<<<tile_grid<ROW_ORDER>(rows, cols, TILE), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_naive(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    direct_kernel<true><<<tile_grid<ROW_ORDER>(rows, cols, TILE), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_tiled(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    tile_kernel<0, ROW_ORDER><<<tile_grid<ROW_ORDER>(rows, cols, TILE), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_tiled_padded(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    tile_kernel<1, ROW_ORDER><<<tile_grid<ROW_ORDER>(rows, cols, TILE), classic_block, 0, stream>>>(in, out, rows, cols);
}

extern "C" void transpose_diagonal(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    tile_kernel<1, DIAGONAL_ORDER><<<tile_grid<DIAGONAL_ORDER>(rows, cols, TILE), classic_block, 0, stream>>>(
        in, out, rows, cols);
}

extern "C" void transpose_column_order(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    tile_kernel<1, COLUMN_ORDER><<<tile_grid<COLUMN_ORDER>(rows, cols, TILE), classic_block, 0, stream>>>(
        in, out, rows, cols);
}

extern "C" void transpose_wide_tile(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    wide_tile_kernel<8><<<tile_grid<COLUMN_ORDER>(rows, cols, WIDE), WIDE_THREADS, 0, stream>>>(in, out, rows,
                                                                                                      cols);
}

extern "C" void transpose_wide_rows(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    wide_tile_kernel<16><<<tile_grid<COLUMN_ORDER>(rows, cols, WIDE), WIDE_THREADS, 0, stream>>>(in, out, rows,
                                                                                                      cols);
}
