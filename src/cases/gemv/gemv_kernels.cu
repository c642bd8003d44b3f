/* GEMV kernels, in ladder order: y = A x (gemv), then y = A^T x (gemv_t),
 * A row-major m x n, FP32. Every kernel reads A once; what changes from rung
 * to rung is how a warp's loads map onto A (coalesced or not), how wide they
 * are, and how many bytes each thread keeps in flight. Row offsets are
 * 64-bit: m * n may exceed 2^31. */
#include "gemv.h"

#include <limits.h>
#include <stdint.h>

#include "harness/check/check.h"

enum {
    THREADS = 256,
    WARP = 32,
    WARPS_PER_BLOCK = THREADS / WARP,
    UNROLL = 4,                                /* float4 loads per row per thread in flight */
    TILE_COLUMNS = WARP * GEMV_VECTOR_WIDTH,   /* gemv_t: a warp's float4 loads span 128 columns */
};

static_assert(TILE_COLUMNS == GEMV_T_TILE_COLUMNS, "gemv.h sizes the tile counters by this tile");

static unsigned blocks_for(long long items, long long per_block)
{
    long long blocks = (items + per_block - 1) / per_block;
    if (blocks > INT_MAX) ladder_die("gemv: a grid of %lld blocks is more than CUDA launches", blocks);
    return (unsigned)blocks;
}

/* The 16-byte-load rungs read A and x as float4 at 16-byte-aligned offsets
 * from their base pointers, so the bases must be aligned (cudaMalloc's are). */
static void require_16_byte_alignment(const void *a, const void *x)
{
    if (((uintptr_t)a | (uintptr_t)x) % 16 != 0) ladder_die("gemv: A and x must be 16-byte aligned");
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = WARP / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__device__ __forceinline__ float dot4(float4 a, float4 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

__device__ __forceinline__ float4 load4(const float *p)
{
    return *reinterpret_cast<const float4 *>(p);
}

/* Four consecutive floats at any alignment: four scalar loads. */
__device__ __forceinline__ float4 load4_unaligned(const float *p)
{
    return make_float4(p[0], p[1], p[2], p[3]);
}

/* ---- gemv rung 1: one thread per row -----------------------------------------
 * Thread i walks row i. At each step the 32 lanes of a warp read 32 rows, n
 * floats apart: 32 sectors fetched for 128 useful bytes. The L1 keeps some of
 * each line for the next steps, which is all that saves this rung. */
__global__ void thread_per_row_kernel(const float *__restrict__ a, const float *__restrict__ x,
                                      float *__restrict__ y, int m, int n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    const float *row = a + i * n;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += row[j] * x[j];
    y[i] = sum;
}

extern "C" void gemv_thread_per_row(const float *a, const float *x, float *y, int m, int n, int param,
                                    cudaStream_t stream)
{
    (void)param;
    thread_per_row_kernel<<<blocks_for(m, THREADS), THREADS, 0, stream>>>(a, x, y, m, n);
    CUDA_CHECK_LAUNCH();
}

/* ---- gemv rung 2: one thread per row, A column-major ------------------------
 * The same loop, but element (i, j) is at a_columns[j * m + i]: at each step
 * the warp reads 32 consecutive floats, one 128-byte line. Fast, but only
 * because A was stored the other way: someone paid a transpose for it. */
__global__ void thread_per_row_column_major_kernel(const float *__restrict__ a_columns, const float *__restrict__ x,
                                                   float *__restrict__ y, int m, int n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += a_columns[(long long)j * m + i] * x[j];
    y[i] = sum;
}

extern "C" void gemv_thread_per_row_column_major(const float *a_columns, const float *x, float *y, int m, int n,
                                                 int param, cudaStream_t stream)
{
    (void)param;
    thread_per_row_column_major_kernel<<<blocks_for(m, THREADS), THREADS, 0, stream>>>(a_columns, x, y, m, n);
    CUDA_CHECK_LAUNCH();
}

/* ---- gemv rung 3: a warp per row ---------------------------------------------
 * Row-major A as it is: the 32 lanes take 32 consecutive columns of one row,
 * so every warp load is one line, and the row's 32 partial sums meet in five
 * shuffles. One 4-byte load per lane per step: many instructions per byte. */
__global__ void warp_per_row_kernel(const float *__restrict__ a, const float *__restrict__ x, float *__restrict__ y,
                                    int m, int n)
{
    long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    int lane = threadIdx.x % WARP;
    if (i >= m) return; /* the whole warp: i is the same for its 32 lanes */
    const float *row = a + i * n;
    float sum = 0.0f;
    for (int j = lane; j < n; j += WARP) sum += row[j] * x[j];
    sum = warp_sum(sum);
    if (lane == 0) y[i] = sum;
}

extern "C" void gemv_warp_per_row(const float *a, const float *x, float *y, int m, int n, int param,
                                  cudaStream_t stream)
{
    (void)param;
    warp_per_row_kernel<<<blocks_for(m, WARPS_PER_BLOCK), THREADS, 0, stream>>>(a, x, y, m, n);
    CUDA_CHECK_LAUNCH();
}

/* ---- 16-byte loads over rows of any length -----------------------------------
 * Row i starts i * n floats into A. When n % 4 == 0 (ALIGNED) every row
 * starts on 16 bytes and so does every float4 of it and of x. Otherwise row
 * i has a head of the first (4 - i*n % 4) % 4 elements before its aligned
 * part, at most 3 elements left past its last float4, and x is read as four
 * scalars (its float4s no longer line up with the row's; x sits in L1). */
__device__ __forceinline__ int aligned_head(long long i, int n)
{
    int head = (GEMV_VECTOR_WIDTH - (int)((i * n) % GEMV_VECTOR_WIDTH)) % GEMV_VECTOR_WIDTH;
    return head < n ? head : n;
}

/* sum[r] += row[r] . x for ROWS rows, the float4s of each row dealt to
 * `workers` threads (this one is `worker`; workers is a multiple of 32). The
 * main loop issues UNROLL float4 loads per row before any arithmetic, without
 * bounds checks; the rest goes one float4 at a time; workers 0-3 take the
 * heads and 4-7 the tails. With ALIGNED each x float4 is loaded once for all
 * ROWS rows. */
template <int ROWS, bool ALIGNED>
__device__ __forceinline__ void rows_dot(const float *const (&row)[ROWS], const int (&head)[ROWS],
                                         const float *__restrict__ x, int n, int worker, int workers,
                                         float (&sum)[ROWS])
{
    int vectors[ROWS];
    int common = INT_MAX, most = 0;
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        vectors[r] = (n - head[r]) / GEMV_VECTOR_WIDTH;
        common = min(common, vectors[r]);
        most = max(most, vectors[r]);
    }
    int v = worker;
    for (; v + (UNROLL - 1) * workers < common; v += UNROLL * workers) {
        float4 a_part[ROWS][UNROLL];
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) a_part[r][u] = load4(row[r] + head[r] + 4 * (v + u * workers));
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            int j = 4 * (v + u * workers);
            if (ALIGNED) {
                float4 x_part = load4(x + j);
#pragma unroll
                for (int r = 0; r < ROWS; ++r) sum[r] += dot4(a_part[r][u], x_part);
            } else {
#pragma unroll
                for (int r = 0; r < ROWS; ++r) sum[r] += dot4(a_part[r][u], load4_unaligned(x + head[r] + j));
            }
        }
    }
    for (; v < most; v += workers)
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
            if (v < vectors[r]) {
                const float *x_part = x + head[r] + 4 * v;
                sum[r] += dot4(load4(row[r] + head[r] + 4 * v), ALIGNED ? load4(x_part) : load4_unaligned(x_part));
            }
    if (!ALIGNED && worker < 2 * GEMV_VECTOR_WIDTH)
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            int in_head = worker < GEMV_VECTOR_WIDTH;
            int j = in_head ? worker : head[r] + GEMV_VECTOR_WIDTH * vectors[r] + worker - GEMV_VECTOR_WIDTH;
            if (in_head ? j < head[r] : j < n) sum[r] += row[r][j] * x[j];
        }
}

/* ---- gemv rungs 4 and 5: a warp over ROWS rows, 16-byte loads ----------------
 * Over rung 3: float4 loads (a quarter of the load instructions) with UNROLL
 * of them issued back to back, 64 bytes in flight per lane per row. With
 * ROWS = 4 the warp walks 4 rows together: 256 bytes of A in flight per
 * lane, each x float4 loaded once for 4 rows, one shuffle tree per row. */
template <int ROWS, bool ALIGNED>
__global__ void __launch_bounds__(THREADS) warp_rows_float4_kernel(const float *__restrict__ a,
                                                                   const float *__restrict__ x,
                                                                   float *__restrict__ y, int m, int n)
{
    int lane = threadIdx.x % WARP;
    long long first = ((long long)blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / WARP) * ROWS;
    if (first >= m) return; /* the whole warp */
    const float *row[ROWS];
    int head[ROWS];
    float sum[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        /* The last warp's rows past m reread row m - 1 and are not written. */
        long long i = first + r < m ? first + r : m - 1;
        row[r] = a + i * n;
        head[r] = ALIGNED ? 0 : aligned_head(i, n);
        sum[r] = 0.0f;
    }
    rows_dot<ROWS, ALIGNED>(row, head, x, n, lane, WARP, sum);
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        float total = warp_sum(sum[r]);
        if (lane == r && first + r < m) y[first + r] = total;
    }
}

template <int ROWS>
static void launch_warp_rows(const float *a, const float *x, float *y, int m, int n, cudaStream_t stream)
{
    unsigned blocks = blocks_for(m, (long long)WARPS_PER_BLOCK * ROWS);
    if (n % GEMV_VECTOR_WIDTH == 0)
        warp_rows_float4_kernel<ROWS, true><<<blocks, THREADS, 0, stream>>>(a, x, y, m, n);
    else
        warp_rows_float4_kernel<ROWS, false><<<blocks, THREADS, 0, stream>>>(a, x, y, m, n);
    CUDA_CHECK_LAUNCH();
}

extern "C" void gemv_warp_rows_float4(const float *a, const float *x, float *y, int m, int n, int rows_per_warp,
                                      cudaStream_t stream)
{
    require_16_byte_alignment(a, x);
    switch (rows_per_warp) {
    case 1: launch_warp_rows<1>(a, x, y, m, n, stream); break;
    case 4: launch_warp_rows<4>(a, x, y, m, n, stream); break;
    default: ladder_die("gemv_warp_rows_float4: built for 1 or 4 rows per warp, not %d", rows_per_warp);
    }
}

/* ---- gemv rung 6: a block per row --------------------------------------------
 * For short, wide A (1024 x 32768: 1024 rows of 128 KB) a warp per row gives
 * too few warps to fill the GPU and too long a walk to each. Here 256
 * threads share a row with the same float4 loads; warp sums meet in shared
 * memory and warp 0 adds them. m blocks, whatever the row length. */
template <bool ALIGNED>
__global__ void __launch_bounds__(THREADS) block_per_row_kernel(const float *__restrict__ a,
                                                                const float *__restrict__ x,
                                                                float *__restrict__ y, int n)
{
    __shared__ float warp_sums[WARPS_PER_BLOCK];
    long long i = blockIdx.x;
    const float *row[1] = {a + i * n};
    int head[1] = {ALIGNED ? 0 : aligned_head(i, n)};
    float sum[1] = {0.0f};
    rows_dot<1, ALIGNED>(row, head, x, n, threadIdx.x, THREADS, sum);
    float warp_total = warp_sum(sum[0]);
    if (threadIdx.x % WARP == 0) warp_sums[threadIdx.x / WARP] = warp_total;
    __syncthreads();
    if (threadIdx.x < WARP) {
        float total = warp_sum(threadIdx.x < WARPS_PER_BLOCK ? warp_sums[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0) y[i] = total;
    }
}

extern "C" void gemv_block_per_row(const float *a, const float *x, float *y, int m, int n, int param,
                                   cudaStream_t stream)
{
    (void)param;
    require_16_byte_alignment(a, x);
    unsigned blocks = blocks_for(m, 1);
    if (n % GEMV_VECTOR_WIDTH == 0)
        block_per_row_kernel<true><<<blocks, THREADS, 0, stream>>>(a, x, y, n);
    else
        block_per_row_kernel<false><<<blocks, THREADS, 0, stream>>>(a, x, y, n);
    CUDA_CHECK_LAUNCH();
}

/* ---- gemv_t rung 1: one thread per column ------------------------------------
 * y_j = sum_i a_ij x_i. Thread j walks down column j: at each step the warp
 * reads 32 consecutive floats of one row, coalesced, and x_i is a broadcast.
 * But there are only n threads, and each walks all m rows: at n = 1024 that
 * is 32 warps for the whole GPU. */
__global__ void thread_per_column_kernel(const float *__restrict__ a, const float *__restrict__ x,
                                         float *__restrict__ y, int m, int n)
{
    long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < m; ++i) sum += a[(long long)i * n + j] * x[i];
    y[j] = sum;
}

extern "C" void gemv_t_thread_per_column(const float *a, const float *x, float *y, float *partials, int m, int n,
                                         int param, cudaStream_t stream)
{
    (void)partials, (void)param;
    thread_per_column_kernel<<<blocks_for(n, THREADS), THREADS, 0, stream>>>(a, x, y, m, n);
    CUDA_CHECK_LAUNCH();
}

/* ---- gemv_t second pass: y_j = the sum of column j's chunk partials --------- */
__global__ void sum_chunks_kernel(const float *__restrict__ partials, float *__restrict__ y, int n, int chunks)
{
    long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    float sum = 0.0f;
    for (int c = 0; c < chunks; ++c) sum += partials[(long long)c * n + j];
    y[j] = sum;
}

static int chunk_count(int m, int chunk_rows)
{
    if (chunk_rows < GEMV_T_MIN_CHUNK_ROWS)
        ladder_die("gemv_t: chunks of %d rows need more partials than were allocated (at least %d rows)", chunk_rows,
                   GEMV_T_MIN_CHUNK_ROWS);
    return (m + chunk_rows - 1) / chunk_rows;
}

/* ---- gemv_t rung 2: rows split into chunks, two passes -----------------------
 * Over rung 1: the rows are cut into chunks of chunk_rows, and each (chunk,
 * 256-column tile) is a block: m / chunk_rows times the threads, each walking
 * chunk_rows rows (4 loads unrolled). Each writes its column's partial sum of
 * the chunk; a second pass adds the chunks. No atomics, so the result is
 * the same every run; the partials cost n * 4 bytes per chunk written and
 * read again (1/chunk_rows of A, twice). */
__global__ void split_rows_kernel(const float *__restrict__ a, const float *__restrict__ x,
                                  float *__restrict__ partials, int m, int n, int chunk_rows, int column_tiles)
{
    int tile = blockIdx.x % column_tiles;
    long long chunk = blockIdx.x / column_tiles;
    long long j = (long long)tile * THREADS + threadIdx.x;
    if (j >= n) return;
    long long first = chunk * chunk_rows, last = min(first + chunk_rows, (long long)m);
    float sum = 0.0f;
#pragma unroll 4
    for (long long i = first; i < last; ++i) sum += a[i * n + j] * x[i];
    partials[chunk * n + j] = sum;
}

extern "C" void gemv_t_split_rows_two_pass(const float *a, const float *x, float *y, float *partials, int m, int n,
                                           int chunk_rows, cudaStream_t stream)
{
    int chunks = chunk_count(m, chunk_rows);
    int column_tiles = (int)blocks_for(n, THREADS);
    split_rows_kernel<<<blocks_for((long long)column_tiles * chunks, 1), THREADS, 0, stream>>>(
        a, x, partials, m, n, chunk_rows, column_tiles);
    CUDA_CHECK_LAUNCH();
    sum_chunks_kernel<<<blocks_for(n, THREADS), THREADS, 0, stream>>>(partials, y, n, chunks);
    CUDA_CHECK_LAUNCH();
}

/* ---- gemv_t rung 3: float4 column tiles, warps over rows, two passes ---------
 * Over rung 2: each lane owns 4 adjacent columns and reads them as one
 * float4 (a warp reads 512 contiguous bytes of a row); the block's 8 warps
 * take interleaved rows of the chunk, 4 rows unrolled, and their 8 partial
 * float4s per lane meet in shared memory, so a block of 256 threads writes
 * 128 partials. Where n % 4 != 0 a row whose start is not 16-byte aligned,
 * and the last lane's columns past n, go scalar. */
__device__ __forceinline__ float4 load_columns(const float *p, long long remaining, bool row_aligned)
{
    if (row_aligned && remaining >= GEMV_VECTOR_WIDTH) return load4(p);
    return make_float4(p[0], remaining > 1 ? p[1] : 0.0f, remaining > 2 ? p[2] : 0.0f, remaining > 3 ? p[3] : 0.0f);
}

/* The block's 128 column sums over its chunk of rows: each lane's float4 of
 * columns, the 8 warps on interleaved rows, UNROLL_ROWS rows in flight, met
 * in shared memory. Returned to threads 0..127 (column tile*128 + threadIdx.x);
 * the others get 0. */
template <bool ALIGNED, int UNROLL_ROWS>
__device__ __forceinline__ float column_tile_sum(const float *__restrict__ a, const float *__restrict__ x, int m,
                                                 int n, int chunk_rows, int tile, long long chunk)
{
    __shared__ float4 warp_partials[WARPS_PER_BLOCK][WARP];
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    long long j0 = (long long)tile * TILE_COLUMNS + GEMV_VECTOR_WIDTH * lane;
    long long first = chunk * chunk_rows, last = min(first + chunk_rows, (long long)m);
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (j0 < n) {
#pragma unroll UNROLL_ROWS
        for (long long i = first + warp; i < last; i += WARPS_PER_BLOCK) {
            const float *p = a + i * n + j0;
            float4 v = ALIGNED ? load4(p) : load_columns(p, n - j0, (i * n) % GEMV_VECTOR_WIDTH == 0);
            float xi = x[i];
            sum.x += v.x * xi;
            sum.y += v.y * xi;
            sum.z += v.z * xi;
            sum.w += v.w * xi;
        }
    }
    warp_partials[warp][lane] = sum;
    __syncthreads();
    float total = 0.0f;
    if (threadIdx.x < TILE_COLUMNS) {
#pragma unroll
        for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += reinterpret_cast<const float *>(warp_partials[w])[threadIdx.x];
    }
    return total;
}

template <bool ALIGNED>
__global__ void __launch_bounds__(THREADS) float4_tile_kernel(const float *__restrict__ a,
                                                              const float *__restrict__ x,
                                                              float *__restrict__ partials, int m, int n,
                                                              int chunk_rows, int column_tiles)
{
    int tile = blockIdx.x % column_tiles;
    long long chunk = blockIdx.x / column_tiles;
    float total = column_tile_sum<ALIGNED, 4>(a, x, m, n, chunk_rows, tile, chunk);
    long long j = (long long)tile * TILE_COLUMNS + threadIdx.x;
    if (threadIdx.x < TILE_COLUMNS && j < n) partials[chunk * n + j] = total;
}

extern "C" void gemv_t_float4_tile_two_pass(const float *a, const float *x, float *y, float *partials, int m, int n,
                                            int chunk_rows, cudaStream_t stream)
{
    require_16_byte_alignment(a, x);
    int chunks = chunk_count(m, chunk_rows);
    int column_tiles = (int)blocks_for(n, TILE_COLUMNS);
    unsigned blocks = blocks_for((long long)column_tiles * chunks, 1);
    if (n % GEMV_VECTOR_WIDTH == 0)
        float4_tile_kernel<true><<<blocks, THREADS, 0, stream>>>(a, x, partials, m, n, chunk_rows, column_tiles);
    else
        float4_tile_kernel<false><<<blocks, THREADS, 0, stream>>>(a, x, partials, m, n, chunk_rows, column_tiles);
    CUDA_CHECK_LAUNCH();
    sum_chunks_kernel<<<blocks_for(n, THREADS), THREADS, 0, stream>>>(partials, y, n, chunks);
    CUDA_CHECK_LAUNCH();
}

/* ---- gemv_t rung 4: one pass, one wave ---------------------------------------
 * Over rung 3: the chunks are sized so that the grid is one wave of resident
 * blocks (no tail of a second, half-empty wave), each block keeps 8 rows in
 * flight instead of 4, and the second launch is gone: each block writes its
 * partials, counts itself done on its column tile, and the tile's last block
 * adds the tile's partials in chunk order, so y is the same whichever block
 * finishes last. The tile counters live after the partials and are reset
 * by that last block for the next launch. Measured on an H100 (medians,
 * against cublasSgemv in the same run): 8192^2 91.7 us, 1.021 of cuBLAS
 * (rung 3: 0.974); 32768x1024 51.7 us, 0.960 (rung 3: 0.858); 1024x32768
 * 48.4 us, 1.005 (rung 3: 0.952). At 32768x1024 the grid has only 8 column
 * tiles, so each block walks 249 rows: 0.85 of the copy ceiling, where
 * cuBLAS reaches 0.89. */
template <bool ALIGNED>
__global__ void __launch_bounds__(THREADS) one_pass_kernel(const float *__restrict__ a, const float *__restrict__ x,
                                                           float *__restrict__ y, float *partials,
                                                           unsigned *tile_done, int m, int n, int chunk_rows,
                                                           int column_tiles, int chunks)
{
    __shared__ bool last_block;
    int tile = blockIdx.x % column_tiles;
    long long chunk = blockIdx.x / column_tiles;
    float total = column_tile_sum<ALIGNED, 8>(a, x, m, n, chunk_rows, tile, chunk);
    long long j = (long long)tile * TILE_COLUMNS + threadIdx.x;
    bool mine = threadIdx.x < TILE_COLUMNS && j < n;
    if (mine) partials[chunk * n + j] = total;
    /* The partials are visible device-wide before the count says so. */
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) last_block = atomicAdd(&tile_done[tile], 1u) == (unsigned)chunks - 1;
    __syncthreads();
    if (!last_block) return;
    if (mine) {
        float sum = 0.0f;
        for (int c = 0; c < chunks; ++c) sum += __ldcg(&partials[(long long)c * n + j]);
        y[j] = sum;
    }
    if (threadIdx.x == 0) tile_done[tile] = 0;
}

extern "C" void gemv_t_one_pass(const float *a, const float *x, float *y, float *workspace, int m, int n, int param,
                                cudaStream_t stream)
{
    (void)param;
    require_16_byte_alignment(a, x);
    static int resident_blocks, resident_on = -1; /* of the GPU asked last */
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    if (device != resident_on) {
        int sms, per_sm;
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, one_pass_kernel<true>, THREADS, 0));
        resident_blocks = sms * per_sm;
        resident_on = device;
    }
    int column_tiles = (int)blocks_for(n, TILE_COLUMNS);
    int wanted_chunks = resident_blocks / column_tiles > 1 ? resident_blocks / column_tiles : 1;
    int chunk_rows = (m + wanted_chunks - 1) / wanted_chunks;
    if (chunk_rows < GEMV_T_MIN_CHUNK_ROWS) chunk_rows = GEMV_T_MIN_CHUNK_ROWS;
    int chunks = chunk_count(m, chunk_rows);
    unsigned *tile_done = gemv_t_tile_counters(workspace, m, n);
    unsigned blocks = blocks_for((long long)column_tiles * chunks, 1);
    if (n % GEMV_VECTOR_WIDTH == 0)
        one_pass_kernel<true><<<blocks, THREADS, 0, stream>>>(a, x, y, workspace, tile_done, m, n, chunk_rows,
                                                             column_tiles, chunks);
    else
        one_pass_kernel<false><<<blocks, THREADS, 0, stream>>>(a, x, y, workspace, tile_done, m, n, chunk_rows,
                                                              column_tiles, chunks);
    CUDA_CHECK_LAUNCH();
}
