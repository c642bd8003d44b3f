/* SGEMM's textbook rungs, the first GPU rungs of the ladder: one block of
 * one thread per element of C (single_block), a grid of them with
 * uncoalesced and coalesced accesses (naive, naive_coalesced), then 16 x 16
 * shared-memory tiles (tiled16), with the next tiles prefetched into
 * registers (tiled16_prefetch) and the inner product unrolled
 * (tiled16_unrolled). */
#include "sgemm_tiles.cuh"

/* ---- The textbook rungs: one thread per element of C ---------------------- */

/* Rung: the textbook's first kernel. One block of n x m threads, thread
 * (x, y) computes C[y][x]. A block holds at most 1024 threads, so this stops
 * at 32 x 32 outputs; the case reports it unsupported beyond. */
__global__ void single_block_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                                    int n, int k)
{
    int row = threadIdx.y, col = threadIdx.x;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

/* Rungs: one thread per element over a grid of 32 x 8-thread blocks.
 * COALESCED = false: threadIdx.x walks rows, so a warp reads 32 rows of A at
 * the same k (32 sectors for 128 useful bytes) and writes 32 rows of C.
 * COALESCED = true: threadIdx.x walks columns, so a warp reads one A element
 * (a broadcast) and 32 consecutive B elements (one 128-byte line) per k. */
#define NAIVE_LANES 32
#define NAIVE_ROWS 8

template <bool COALESCED>
__global__ void __launch_bounds__(NAIVE_LANES *NAIVE_ROWS)
    thread_per_element_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m,
                              int n, int k)
{
    int along_warp = blockIdx.x * NAIVE_LANES + threadIdx.x;
    int across_warps = blockIdx.y * NAIVE_ROWS + threadIdx.y;
    int row = COALESCED ? across_warps : along_warp;
    int col = COALESCED ? along_warp : across_warps;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

/* Rungs: the textbook tiled kernel. A TILE x TILE block stages a TILE x TILE
 * tile of A and of B in shared memory, so each global element is read by one
 * thread instead of TILE; partial tiles are zero-filled.
 * PREFETCH: the next tiles are loaded into registers before the product over
 * the current ones, so their latency hides behind TILE multiply-adds.
 * UNROLL: the inner product is fully unrolled. The compiler would unroll a
 * 16-trip loop by itself, so the rolled rungs ask for `unroll 1` to keep the
 * textbook's loop (a counter, a compare, a branch and address arithmetic per
 * multiply-add) and let this rung show what unrolling removes. */
template <int TILE, bool PREFETCH, bool UNROLL>
__global__ void __launch_bounds__(TILE *TILE)
    tiled_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int n, int k)
{
    __shared__ float a_tile[TILE][TILE], b_tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    auto load_a = [&](int tile) {
        int i = tile * TILE + tx;
        return row < m && i < k ? a[(size_t)row * k + i] : 0.0f;
    };
    auto load_b = [&](int tile) {
        int i = tile * TILE + ty;
        return i < k && col < n ? b[(size_t)i * n + col] : 0.0f;
    };
    int tiles = ceil_div(k, TILE);
    float next_a = PREFETCH ? load_a(0) : 0.0f, next_b = PREFETCH ? load_b(0) : 0.0f;
    float sum = 0.0f;
    for (int tile = 0; tile < tiles; ++tile) {
        a_tile[ty][tx] = PREFETCH ? next_a : load_a(tile);
        b_tile[ty][tx] = PREFETCH ? next_b : load_b(tile);
        __syncthreads();
        if (PREFETCH && tile + 1 < tiles) {
            next_a = load_a(tile + 1);
            next_b = load_b(tile + 1);
        }
#pragma unroll(UNROLL ? TILE : 1)
        for (int i = 0; i < TILE; ++i) sum += a_tile[ty][i] * b_tile[i][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

/* ---- Launchers ---------------------------------------------------------------- */

extern "C" void sgemm_single_block(const float *a, const float *b, float *c, int m, int n, int k,
                                   cudaStream_t stream)
{
    single_block_kernel<<<1, dim3(n, m), 0, stream>>>(a, b, c, n, k);
}

extern "C" void sgemm_naive(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    dim3 grid(ceil_div(m, NAIVE_LANES), ceil_div(n, NAIVE_ROWS));
    thread_per_element_kernel<false><<<grid, dim3(NAIVE_LANES, NAIVE_ROWS), 0, stream>>>(a, b, c, m, n, k);
}

extern "C" void sgemm_naive_coalesced(const float *a, const float *b, float *c, int m, int n, int k,
                                      cudaStream_t stream)
{
    dim3 grid(ceil_div(n, NAIVE_LANES), ceil_div(m, NAIVE_ROWS));
    thread_per_element_kernel<true><<<grid, dim3(NAIVE_LANES, NAIVE_ROWS), 0, stream>>>(a, b, c, m, n, k);
}

template <bool PREFETCH, bool UNROLL>
static void launch_tiled16(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    dim3 grid(ceil_div(n, 16), ceil_div(m, 16));
    tiled_kernel<16, PREFETCH, UNROLL><<<grid, dim3(16, 16), 0, stream>>>(a, b, c, m, n, k);
}

extern "C" void sgemm_tiled16(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    launch_tiled16<false, false>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_tiled16_prefetch(const float *a, const float *b, float *c, int m, int n, int k,
                                       cudaStream_t stream)
{
    launch_tiled16<true, false>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_tiled16_unrolled(const float *a, const float *b, float *c, int m, int n, int k,
                                       cudaStream_t stream)
{
    launch_tiled16<true, true>(a, b, c, m, n, k, stream);
}
