/* HGEMM rungs 1-4 (sm_80+): WMMA, then mma.sync with ldmatrix from swizzled
 * shared memory, then a cp.async pipeline. C (m x n, FP32) = A (m x k) *
 * B^T (B stored n x k), BF16 in, FP32 accumulation; rows of A and B are ld
 * apart (hgemm.h). Loads outside A or B read as zero, stores outside C are
 * skipped: every rung takes any m, n, k. Built for every architecture of
 * the build; the case runs these on compute capability 8.0 and later. */
#include <mma.h>

#include "harness/check/check.h"
#include "harness/hardware/shared_memory.cuh"
#include "hgemm_tiles.cuh"

using namespace nvcuda;
typedef __nv_bfloat16 bf16;

/* ---- Rungs 1-2: WMMA ------------------------------------------------------- */

/* WMMA's BF16 fragments exist from sm_80 on: before that the WMMA kernels
 * compile empty, and the case skips them there. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define HGEMM_BF16_WMMA 1
#endif

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> wmma_a;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> wmma_b;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> wmma_acc;

/* A 16 x 16 accumulator into C through a 16 x 16 staging square of this
 * warp: store_matrix_sync wants a 32-byte aligned pointer and a stride that
 * is a multiple of 4 floats, which C's rows (n odd) are not, and it cannot
 * stop at C's edge. */
__device__ __forceinline__ void store_wmma_tile(float *__restrict__ c, int m, int n, int row0, int col0,
                                                const wmma_acc &acc, float *staging, int lane)
{
    wmma::store_matrix_sync(staging, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        int row = row0 + e / 16, col = col0 + e % 16;
        if (row < m && col < n) c[(size_t)row * n + col] = staging[e];
    }
    __syncwarp();
}

/* rows x 16 elements of a K-contiguous matrix at (row0, k0) into a 16 x 16
 * staging square (stride 16), zeros outside the matrix. */
__device__ __forceinline__ void stage_edge_square(bf16 *square, const bf16 *__restrict__ g, int rows, int k, int ld,
                                                  int row0, int k0, int lane)
{
    for (int e = lane; e < 256; e += 32) {
        int row = row0 + e / 16, kk = k0 + e % 16;
        square[e] = row < rows && kk < k ? g[(size_t)row * ld + kk] : __float2bfloat16(0.0f);
    }
    __syncwarp();
}

/* Rung 1: one warp per 16 x 16 tile of C, fragments loaded straight from
 * global memory, 4 warps a block. Each element of A is read by every warp
 * along its row of C and each of B by every warp down its column: n / 16
 * and m / 16 reads from L2 (or DRAM) per element, so the rung is bound by
 * L1/L2 traffic, not by the tensor cores. The squares that cross an edge of
 * A or B (the last k-step, the last tile row or column) go through a
 * zero-filled staging square instead.
 * Measured (H100 SXM, ratio to cuBLAS BF16 at 4096^3 / 8192^3): 0.039 /
 * 0.038, 29 TFLOP/s, 3% of the tensor ceiling. */
__global__ void __launch_bounds__(128) wmma_global_kernel(const bf16 *__restrict__ a, const bf16 *__restrict__ b,
                                                          float *__restrict__ c, int m, int n, int k, int ld)
{
#ifdef HGEMM_BF16_WMMA
    __shared__ __align__(32) bf16 edge[4][2][256];
    __shared__ __align__(32) float staging[4][256];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row0 = (blockIdx.y * 2 + warp / 2) * 16, col0 = (blockIdx.x * 2 + warp % 2) * 16;
    if (row0 >= m || col0 >= n) return;
    wmma_acc acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma_a fa;
    wmma_b fb;
    bool rows_inside = row0 + 16 <= m && col0 + 16 <= n;
    for (int k0 = 0; k0 < k; k0 += 16) {
        if (rows_inside && k0 + 16 <= k) {
            wmma::load_matrix_sync(fa, a + (size_t)row0 * ld + k0, ld);
            wmma::load_matrix_sync(fb, b + (size_t)col0 * ld + k0, ld);
        } else {
            stage_edge_square(edge[warp][0], a, m, k, ld, row0, k0, lane);
            stage_edge_square(edge[warp][1], b, n, k, ld, col0, k0, lane);
            wmma::load_matrix_sync(fa, edge[warp][0], 16);
            wmma::load_matrix_sync(fb, edge[warp][1], 16);
            __syncwarp();
        }
        wmma::mma_sync(acc, fa, fb, acc);
    }
    store_wmma_tile(c, m, n, row0, col0, acc, staging[warp], lane);
#endif
}

/* The copy of a rows x (CHUNKS x 8) slab of a K-contiguous matrix into
 * shared memory, 16 bytes at a time, split evenly over THREADS threads:
 * chunk t of the slab is row t / CHUNKS, chunk t % CHUNKS, so a warp reads
 * CHUNKS x 16 contiguous bytes of each of 32 / CHUNKS rows. OFFSET(row,
 * chunk) places it (padded or swizzled). Outside the matrix the chunk is
 * zero: a chunk crossing k copies only its first bytes. */
template <int ROWS, int CHUNKS, int THREADS>
struct slab_copy {
    static constexpr int PER_THREAD = ROWS * CHUNKS / THREADS;
    static_assert(ROWS * CHUNKS % THREADS == 0, "whole chunks a thread");

    /* Bytes of chunk (row, chunk) of the slab at (row0, k0) inside the matrix. */
    static __device__ __forceinline__ uint32_t valid_bytes(int row, int chunk, int rows, int k, int row0, int k0)
    {
        int first = k0 + chunk * 8;
        if (row0 + row >= rows || first >= k) return 0;
        return k - first >= 8 ? 16u : (uint32_t)(k - first) * 2u;
    }

    template <typename OFFSET>
    static __device__ __forceinline__ void synchronous(uint8_t *slab, const bf16 *__restrict__ g, int rows, int k,
                                                       int ld, int row0, int k0, OFFSET offset)
    {
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            int t = threadIdx.x + i * THREADS, row = t / CHUNKS, chunk = t % CHUNKS;
            uint32_t bytes = valid_bytes(row, chunk, rows, k, row0, k0);
            const bf16 *src = g + (size_t)(row0 + row) * ld + k0 + chunk * 8;
            uint4 v;
            if (bytes == 16) {
                v = *reinterpret_cast<const uint4 *>(src);
            } else {
                /* Element by element, unrolled so that the words stay in
                 * registers (a run-time index would put them on the stack). */
                const uint16_t *elements = reinterpret_cast<const uint16_t *>(src);
                uint32_t words[4] = {0, 0, 0, 0};
#pragma unroll
                for (int e = 0; e < 8; ++e)
                    if (2u * e < bytes) words[e / 2] |= (uint32_t)elements[e] << (16 * (e % 2));
                v = make_uint4(words[0], words[1], words[2], words[3]);
            }
            *reinterpret_cast<uint4 *>(slab + offset(row, chunk)) = v;
        }
    }

    /* The same with cp.async: no registers, no wait here; zero fill by the
     * instruction's source size. */
    static __device__ __forceinline__ void asynchronous(uint32_t slab, const bf16 *__restrict__ g, int rows, int k,
                                                        int ld, int row0, int k0)
    {
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            int t = threadIdx.x + i * THREADS, row = t / CHUNKS, chunk = t % CHUNKS;
            uint32_t bytes = valid_bytes(row, chunk, rows, k, row0, k0);
            /* A chunk with nothing to read still needs a valid address. */
            const bf16 *src = bytes ? g + (size_t)(row0 + row) * ld + k0 + chunk * 8 : g;
            cp_async_16(slab + swizzled_offset(row, chunk), src, bytes);
        }
    }
};

/* Rung 2: a block of 8 warps stages 128 x 32 tiles of A and B in shared
 * memory once and every warp reads its fragments there: each global element
 * is read once per block instead of once per warp (128 / 16 = 8 times fewer
 * global reads). Rows padded by 8 BF16 (80 bytes apart) so that a
 * fragment's 16 rows spread over the banks. Each warp owns 64 x 32 of C:
 * 4 x 2 accumulators, 4 + 2 fragment loads per 8 MMAs.
 * Measured (H100): 0.149 / 0.144 of cuBLAS (4096^3 / 8192^3), 3.8x rung 1.
 * Loses to the synchronous loads: the block waits for every tile to arrive
 * (one tile in flight), and WMMA's fragment loads are plain shared loads. */
struct wmma_block {
    static constexpr int BM = 128, BN = 128, BK = 32, LD = BK + 8, THREADS = 256;
    static constexpr int WM = 64, WN = 32;
};

__global__ void __launch_bounds__(wmma_block::THREADS)
    wmma_shared_kernel(const bf16 *__restrict__ a, const bf16 *__restrict__ b, float *__restrict__ c, int m, int n,
                       int k, int ld)
{
#ifdef HGEMM_BF16_WMMA
    typedef wmma_block W;
    __shared__ __align__(128) bf16 a_tile[W::BM * W::LD];
    __shared__ __align__(128) bf16 b_tile[W::BN * W::LD];
    __shared__ __align__(32) float staging[W::THREADS / 32][256];
    typedef slab_copy<W::BM, W::BK / 8, W::THREADS> copy;
    auto padded = [](int row, int chunk) { return (uint32_t)((row * W::LD + chunk * 8) * 2); };
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int block_row = blockIdx.y * W::BM, block_col = blockIdx.x * W::BN;
    int warp_row = warp / 4 * W::WM, warp_col = warp % 4 * W::WN;
    wmma_acc acc[W::WM / 16][W::WN / 16];
#pragma unroll
    for (int i = 0; i < W::WM / 16; ++i)
#pragma unroll
        for (int j = 0; j < W::WN / 16; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < k; k0 += W::BK) {
        copy::synchronous(reinterpret_cast<uint8_t *>(a_tile), a, m, k, ld, block_row, k0, padded);
        copy::synchronous(reinterpret_cast<uint8_t *>(b_tile), b, n, k, ld, block_col, k0, padded);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < W::BK; kk += 16) {
            wmma_a fa[W::WM / 16];
            wmma_b fb[W::WN / 16];
#pragma unroll
            for (int i = 0; i < W::WM / 16; ++i)
                wmma::load_matrix_sync(fa[i], a_tile + (warp_row + 16 * i) * W::LD + kk, W::LD);
#pragma unroll
            for (int j = 0; j < W::WN / 16; ++j)
                wmma::load_matrix_sync(fb[j], b_tile + (warp_col + 16 * j) * W::LD + kk, W::LD);
#pragma unroll
            for (int i = 0; i < W::WM / 16; ++i)
#pragma unroll
                for (int j = 0; j < W::WN / 16; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < W::WM / 16; ++i)
#pragma unroll
        for (int j = 0; j < W::WN / 16; ++j)
            store_wmma_tile(c, m, n, block_row + warp_row + 16 * i, block_col + warp_col + 16 * j, acc[i][j],
                            staging[warp], lane);
#endif
}

/* ---- Rungs 3-4: mma.sync from swizzled shared memory ------------------------ */

/* Rung 3: the WMMA fragments become explicit: mma.sync.m16n8k16 in inline
 * PTX, fed by ldmatrix.x4 (one instruction loads a whole 16 x 16 fragment
 * for the warp) from k-tiles 64 deep whose 128-byte rows are swizzled
 * rather than padded: no bank conflicts on the ldmatrix reads nor on the
 * 16-byte stores that fill the tile, and the layout TMA will write in rung
 * 5. The loads still pass through registers and the block waits for each
 * tile: the tensor cores idle while it arrives.
 * Measured (H100): 0.164 / 0.164 of cuBLAS (4096^3 / 8192^3): only 1.1x
 * rung 2, the load latency (one tile in flight) is the limiter of both. */
__global__ void __launch_bounds__(mma_block::THREADS)
    mma_ldmatrix_kernel(const bf16 *__restrict__ a, const bf16 *__restrict__ b, float *__restrict__ c, int m, int n,
                        int k, int ld)
{
    extern __shared__ __align__(1024) uint8_t shared[];
    typedef slab_copy<mma_block::BM, 8, mma_block::THREADS> copy;
    auto swizzled = [](int row, int chunk) { return swizzled_offset(row, chunk); };
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int block_row = blockIdx.y * mma_block::BM, block_col = blockIdx.x * mma_block::BN;
    int warp_row = warp / 4 * mma_block::WARP_M, warp_col = warp % 4 * mma_block::WARP_N;
    uint32_t a_tile = smem_address(shared), b_tile = a_tile + mma_block::A_BYTES;
    float acc[mma_block::MI][mma_block::NI][4] = {};
    for (int k0 = 0; k0 < k; k0 += HGEMM_TILE_K) {
        copy::synchronous(shared, a, m, k, ld, block_row, k0, swizzled);
        copy::synchronous(shared + mma_block::A_BYTES, b, n, k, ld, block_col, k0, swizzled);
        __syncthreads();
        mma_block_multiply(acc, a_tile, b_tile, warp_row, warp_col, lane);
        __syncthreads();
    }
    mma_block_store(c, m, n, block_row + warp_row, block_col + warp_col, acc, lane);
}

/* Rung 4: the tiles arrive by cp.async into a ring of STAGES k-tiles: while
 * the warps multiply tile t, tiles t + 1 .. t + STAGES - 1 are in flight,
 * with no registers spent on them and one barrier per tile. Should move
 * the tensor cores from waiting on each load toward the shared-memory and
 * issue limits of mma.sync. 3 stages: 96 KB, which compute capability 8.6
 * and 8.9 grant too.
 * Measured (H100): 0.425 / 0.384 of cuBLAS (4096^3 / 8192^3), 2.6x rung 3.
 * Left: mma.sync itself (on Hopper it reaches about 2/3 of the wgmma rate)
 * and the 8 ldmatrix + 16 mma issued per warp per 16-deep step. */
constexpr int ASYNC_STAGES = 3;

__global__ void __launch_bounds__(mma_block::THREADS)
    mma_async_pipeline_kernel(const bf16 *__restrict__ a, const bf16 *__restrict__ b, float *__restrict__ c, int m,
                              int n, int k, int ld)
{
    extern __shared__ __align__(1024) uint8_t shared[];
    typedef slab_copy<mma_block::BM, 8, mma_block::THREADS> copy;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int block_row = blockIdx.y * mma_block::BM, block_col = blockIdx.x * mma_block::BN;
    int warp_row = warp / 4 * mma_block::WARP_M, warp_col = warp % 4 * mma_block::WARP_N;
    uint32_t ring = smem_address(shared);
    int tiles = hgemm_ceil_div(k, HGEMM_TILE_K);
    auto load = [&](int tile) {
        uint32_t stage = ring + (uint32_t)(tile % ASYNC_STAGES) * mma_block::STAGE_BYTES;
        copy::asynchronous(stage, a, m, k, ld, block_row, tile * HGEMM_TILE_K);
        copy::asynchronous(stage + mma_block::A_BYTES, b, n, k, ld, block_col, tile * HGEMM_TILE_K);
    };
    /* One commit per tile, empty ones past the end, so that "all but the
     * newest STAGES - 2 groups done" always means "tile t is here". */
    for (int t = 0; t < ASYNC_STAGES - 1; ++t) {
        if (t < tiles) load(t);
        cp_async_commit();
    }
    float acc[mma_block::MI][mma_block::NI][4] = {};
    for (int t = 0; t < tiles; ++t) {
        cp_async_wait<ASYNC_STAGES - 2>();
        /* Tile t is visible to all, and every warp is done with tile t - 1,
         * whose stage the next load overwrites. */
        __syncthreads();
        if (t + ASYNC_STAGES - 1 < tiles) load(t + ASYNC_STAGES - 1);
        cp_async_commit();
        uint32_t stage = ring + (uint32_t)(t % ASYNC_STAGES) * mma_block::STAGE_BYTES;
        mma_block_multiply(acc, stage, stage + mma_block::A_BYTES, warp_row, warp_col, lane);
    }
    mma_block_store(c, m, n, block_row + warp_row, block_col + warp_col, acc, lane);
}

/* ---- Decode shapes: a matrix-vector product on mma.sync ---------------------- */

/* Where one side of C is at most 16 long (decoding: a few rows of
 * activations against a weight matrix), C's tile grid leaves most SMs idle
 * and the product is bound by reading the large operand once: 32 MB at
 * 1 x 4096 x 4096, against 0.5 GFLOP. This rung streams it. The small
 * operand S (at most 16 rows) is the m16 side of mma.sync m16n8k16, the
 * large one L supplies the n8 tiles; a block owns GEMV_ROWS rows of L and
 * its GEMV_WARPS warps split K, chunk by chunk of 32, so that a block reads
 * its rows whole with every warp busy; the warps' sums meet in shared
 * memory and are added in warp order (deterministic).
 * Each lane copies 16 contiguous bytes of each of its rows of L (8 BF16; 4
 * lanes cover a row's 64-byte chunk) and the matching 16 bytes of rows g
 * and g + 8 of S. mma.sync wants lane (g, t) to hold k = 2t, 2t + 1 and
 * 2t + 8, 2t + 9 of a 16-deep step; the sum over k does not care which
 * physical k a logical k is, as long as both operands agree, so the two
 * steps of a chunk take lane t's elements 8t..8t + 3 and 8t + 4..8t + 7:
 * no shuffles, and each lane reads back only what it copied itself.
 * The copies go through a GEMV_STAGES-deep cp.async ring in shared memory,
 * each lane's own slots: the bytes in flight are not bounded by registers.
 * Measured (H100, ratio to cuBLAS at 1 / 16 x 4096 x 4096 and 4096 x 1 x
 * 4096): with the chunks loaded into registers, two batches a warp in
 * flight, 1.004 / 0.946 / 1.002 (1.9 TB/s, 63% of the copy rate: K = 4096
 * is 8 chunks a warp, and each batch waited a whole DRAM round trip);
 * with the ring (the rung) 1.083 / 1.054 / 1.079 and, in a second run,
 * 1.072 / 1.036 / 1.072: 2.0-2.1 TB/s, 66-68% of the copy rate. A 32 MB
 * read is over in 16 us, of which the launch, the first round trip and
 * the last wave's tail are a fixed few: at 1 x 8192 x 8192 (128 MB) the
 * rung streams at 84.5% of the copy rate (0.96 of cuBLAS, 88%). At
 * 16 x 14336 x 4096, 448 blocks of one per SM run in 3.4 waves: 0.874. */
constexpr int GEMV_WARPS = 16, GEMV_THREADS = GEMV_WARPS * 32, GEMV_TILES = 4, GEMV_ROWS = 8 * GEMV_TILES;
constexpr int GEMV_CHUNK = 32, GEMV_STAGES = 4, GEMV_SLOTS = GEMV_TILES + 2; /* L's rows, then S's two */
constexpr size_t GEMV_SHARED = (size_t)GEMV_STAGES * GEMV_SLOTS * GEMV_THREADS * sizeof(uint4);
static_assert(GEMV_SHARED >= (size_t)GEMV_WARPS * GEMV_TILES * 4 * 32 * sizeof(float), "the sums reuse the ring");

__global__ void __launch_bounds__(GEMV_THREADS, 1)
    gemv_mma_kernel(const bf16 *__restrict__ small, const bf16 *__restrict__ large, float *__restrict__ c,
                    int small_rows, int large_rows, int k, int ld, size_t small_stride, size_t large_stride)
{
    extern __shared__ uint4 ring[]; /* [stage][slot][thread] */
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    int row0 = blockIdx.x * GEMV_ROWS;
    /* The rows this lane copies: L's row 8 j + g of the block, S's rows g
     * and g + 8; NULL where outside the matrix (zeros are copied). */
    const bf16 *rows[GEMV_SLOTS];
#pragma unroll
    for (int j = 0; j < GEMV_TILES; ++j)
        rows[j] = row0 + 8 * j + g < large_rows ? large + (size_t)(row0 + 8 * j + g) * ld : nullptr;
    rows[GEMV_TILES] = g < small_rows ? small + (size_t)g * ld : nullptr;
    rows[GEMV_TILES + 1] = g + 8 < small_rows ? small + (size_t)(g + 8) * ld : nullptr;
    auto slot = [&](int stage, int s) {
        return smem_address(&ring[(stage * GEMV_SLOTS + s) * GEMV_THREADS + threadIdx.x]);
    };
    /* This warp's chunks are warp, warp + GEMV_WARPS, ...; the i-th lands in
     * stage i % GEMV_STAGES. Bytes past k (the last chunk, or rows ld > k
     * long) are zero-filled by the copy's source size. */
    int chunks = (k + GEMV_CHUNK - 1) / GEMV_CHUNK;
    int mine = warp < chunks ? (chunks - warp + GEMV_WARPS - 1) / GEMV_WARPS : 0;
    auto copy = [&](int i) {
        int k0 = (warp + i * GEMV_WARPS) * GEMV_CHUNK + 8 * t;
        int bytes = k0 < k ? 2 * min(8, k - k0) : 0;
#pragma unroll
        for (int s = 0; s < GEMV_SLOTS; ++s)
            cp_async_16(slot(i % GEMV_STAGES, s), rows[s] && bytes ? rows[s] + k0 : large, rows[s] ? bytes : 0);
    };
    for (int i = 0; i < GEMV_STAGES - 1; ++i) {
        if (i < mine) copy(i);
        cp_async_commit();
    }
    float acc[GEMV_TILES][4] = {};
    for (int i = 0; i < mine; ++i) {
        cp_async_wait<GEMV_STAGES - 2>(); /* chunk i is here (this lane's own copies) */
        uint4 v[GEMV_SLOTS];
#pragma unroll
        for (int s = 0; s < GEMV_SLOTS; ++s)
            v[s] = ring[((i % GEMV_STAGES) * GEMV_SLOTS + s) * GEMV_THREADS + threadIdx.x];
        /* Into the stage read in the last iteration. */
        if (i + GEMV_STAGES - 1 < mine) copy(i + GEMV_STAGES - 1);
        cp_async_commit();
        const uint4 &lo = v[GEMV_TILES], &hi = v[GEMV_TILES + 1];
        const uint32_t a0[4] = {lo.x, hi.x, lo.y, hi.y}, a1[4] = {lo.z, hi.z, lo.w, hi.w};
#pragma unroll
        for (int j = 0; j < GEMV_TILES; ++j) {
            mma_bf16_m16n8k16(acc[j], a0, v[j].x, v[j].y);
            mma_bf16_m16n8k16(acc[j], a1, v[j].z, v[j].w);
        }
    }
    cp_async_wait<0>();
    __syncthreads(); /* every lane is done with the ring: the sums take it over */
    float *sums = reinterpret_cast<float *>(ring); /* [warp][fragment register][lane] */
#pragma unroll
    for (int j = 0; j < GEMV_TILES; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r) sums[(warp * GEMV_TILES * 4 + 4 * j + r) * 32 + lane] = acc[j][r];
    __syncthreads();
    /* Thread (fragment register e, lane) of the block adds one output over
     * the warps: e = 4 j + r is n8 tile j, register r, whose element is S
     * row g (+ 8 for r >= 2), L row 8 j + 2 t (+ 1 for odd r). */
    int e = threadIdx.x / 32;
    if (e < GEMV_TILES * 4) {
        float sum = 0.0f;
        for (int w = 0; w < GEMV_WARPS; ++w) sum += sums[(w * GEMV_TILES * 4 + e) * 32 + lane];
        int j = e / 4, r = e % 4;
        int s_row = g + 8 * (r / 2), l_row = row0 + 8 * j + 2 * t + r % 2;
        if (s_row < small_rows && l_row < large_rows) c[s_row * small_stride + l_row * large_stride] = sum;
    }
}

/* ---- Launchers ---------------------------------------------------------------- */

static const bf16 *bf16_of(const uint16_t *p)
{
    return reinterpret_cast<const bf16 *>(p);
}

static constexpr size_t MMA_LDMATRIX_SHARED = mma_block::STAGE_BYTES;
static constexpr size_t MMA_ASYNC_SHARED = (size_t)ASYNC_STAGES * mma_block::STAGE_BYTES;

extern "C" void hgemm_wmma_global(const hgemm_problem *p, cudaStream_t stream)
{
    dim3 grid(hgemm_ceil_div(p->n, 32), hgemm_ceil_div(p->m, 32));
    wmma_global_kernel<<<grid, 128, 0, stream>>>(bf16_of(p->a), bf16_of(p->b), p->c, p->m, p->n, p->k, p->ld);
    CUDA_CHECK_LAUNCH();
}

extern "C" void hgemm_wmma_shared(const hgemm_problem *p, cudaStream_t stream)
{
    dim3 grid(hgemm_ceil_div(p->n, wmma_block::BN), hgemm_ceil_div(p->m, wmma_block::BM));
    wmma_shared_kernel<<<grid, wmma_block::THREADS, 0, stream>>>(bf16_of(p->a), bf16_of(p->b), p->c, p->m, p->n,
                                                                 p->k, p->ld);
    CUDA_CHECK_LAUNCH();
}

extern "C" void hgemm_mma_ldmatrix(const hgemm_problem *p, cudaStream_t stream)
{
    dim3 grid(hgemm_ceil_div(p->n, mma_block::BN), hgemm_ceil_div(p->m, mma_block::BM));
    mma_ldmatrix_kernel<<<grid, mma_block::THREADS, MMA_LDMATRIX_SHARED, stream>>>(bf16_of(p->a), bf16_of(p->b),
                                                                                   p->c, p->m, p->n, p->k, p->ld);
    CUDA_CHECK_LAUNCH();
}

extern "C" void hgemm_mma_async_pipeline(const hgemm_problem *p, cudaStream_t stream)
{
    allow_shared_bytes<mma_async_pipeline_kernel>(MMA_ASYNC_SHARED);
    dim3 grid(hgemm_ceil_div(p->n, mma_block::BN), hgemm_ceil_div(p->m, mma_block::BM));
    mma_async_pipeline_kernel<<<grid, mma_block::THREADS, MMA_ASYNC_SHARED, stream>>>(
        bf16_of(p->a), bf16_of(p->b), p->c, p->m, p->n, p->k, p->ld);
    CUDA_CHECK_LAUNCH();
}

/* The small side is A (m <= 16: C[i][j] at i n + j) or, when only n is
 * small, B (C[j][i] at i + j n: the same product, transposed). */
extern "C" void hgemm_gemv_mma(const hgemm_problem *p, cudaStream_t stream)
{
    bool a_small = p->m <= HGEMM_GEMV_MAX_ROWS;
    const bf16 *small = bf16_of(a_small ? p->a : p->b), *large = bf16_of(a_small ? p->b : p->a);
    int small_rows = a_small ? p->m : p->n, large_rows = a_small ? p->n : p->m;
    size_t small_stride = a_small ? (size_t)p->n : 1, large_stride = a_small ? 1 : (size_t)p->n;
    allow_shared_bytes<gemv_mma_kernel>(GEMV_SHARED);
    gemv_mma_kernel<<<hgemm_ceil_div(large_rows, GEMV_ROWS), GEMV_THREADS, GEMV_SHARED, stream>>>(
        small, large, p->c, small_rows, large_rows, p->k, p->ld, small_stride, large_stride);
    CUDA_CHECK_LAUNCH();
}

extern "C" size_t hgemm_sm80_shared_bytes(hgemm_launcher *rung)
{
    if (rung == hgemm_mma_ldmatrix) return MMA_LDMATRIX_SHARED;
    if (rung == hgemm_mma_async_pipeline) return MMA_ASYNC_SHARED;
    if (rung == hgemm_gemv_mma) return GEMV_SHARED;
    return 0;
}
