/* SGEMM's pipelined rungs, the fastest CUDA-core ones: the warp tiles of
 * warp_tiling fed by a cp.async ring of shared tiles (async_2stage,
 * async_4stage), the blocks in swizzled order (swizzled), larger tiles and
 * deeper k-tiles (tile_128x128_k16 to tile_128x128_k32, with why it stops
 * short of cuBLAS), and the tile chosen by size (tile_by_size). Also
 * sgemm_shared_bytes, for every rung whose ring exceeds 48 KB. */
#include "sgemm_tiles.cuh"

#include "harness/check/check.h"
#include "harness/hardware/shared_memory.cuh"

/* ---- The pipelined rungs ------------------------------------------------------
 * The warp-tiled block of the warp_tiling rung, fed by an asynchronous
 * STAGES-deep ring of shared tiles: while the block multiplies tile t, the
 * copies of tiles t + 1 .. t + STAGES - 1 are in flight, and no register
 * holds data on its way to shared memory. One barrier per tile (the
 * register-staged rungs need two).
 * A is copied 4 bytes at a time (transposing on the way: a cp.async cannot
 * scatter a 16-byte run across 4 rows), which also lets k be anything; B 16
 * bytes at a time when VEC (n % 4 == 0 and B, C 16-byte aligned), else 4.
 * GROUP_M > 1 visits the C tiles in groups of GROUP_M tile rows
 * (sgemm_swizzled_tile): the blocks resident at one time then read fewer
 * distinct panels of A and B, which stay in L2. */
template <int BM, int BN, int BK, int TM, int TN, int STAGES>
struct pipeline_shape {
    static constexpr int THREADS = BM / (4 * TM) * (BN / (8 * TN)) * 32;
    static constexpr int A_LD = BM + 4;
    static constexpr int STAGE_FLOATS = BK * (A_LD + BN);
    static constexpr size_t SHARED_BYTES = (size_t)STAGES * STAGE_FLOATS * sizeof(float);
    /* Registers: the accumulators plus about 64 for fragments and addresses. */
    static constexpr int MIN_BLOCKS = 65536 / (THREADS * (TM * TN + 64)) > 0 ? 65536 / (THREADS * (TM * TN + 64)) : 1;
    /* 227 KB: the most a Hopper block may opt in to. A ring above 48 KB must
     * say so in sgemm_shared_bytes, so that a GPU granting less skips it. */
    static_assert(SHARED_BYTES <= 227 * 1024, "the ring must fit Hopper's 227 KB of shared memory a block");
    static_assert(STAGES >= 2, "a ring");
};

/* One thread's share of the copies into a stage, and where the next tile's
 * start. A: the a_element walk, elements (a_row + i * THREADS/8, a_k + 8 j)
 * of the tile. B: runs of WIDTH floats at (b_k + i * B_ROWS, b_col). The
 * pointers may point past the matrices: an invalid copy reads nothing. */
template <int BM, int BN, int BK, int THREADS, int A_LD, bool VEC>
struct stage_copier {
    static constexpr int WIDTH = VEC ? 4 : 1;
    static constexpr int A_ROWS = THREADS / 8, B_ROWS = THREADS / (BN / WIDTH);
    static_assert(BK % 8 == 0 && BM % A_ROWS == 0, "A walk: 8 k by THREADS/8 rows a pass");
    static_assert(THREADS % (BN / WIDTH) == 0 && BK % B_ROWS == 0, "B walk: whole rows a pass");

    const float *a_src, *b_src;
    int a_k, a_rows_left, a_dst;
    int b_k, b_cols_left, b_dst;

    __device__ stage_copier(const float *a, const float *b, int m, int n, int k, int block_row, int block_col)
    {
        unsigned t = threadIdx.x;
        int a_row = t / 8, b_col = t % (BN / WIDTH) * WIDTH;
        a_k = t % 8;
        b_k = t / (BN / WIDTH);
        a_src = a + (size_t)(block_row + a_row) * k + a_k;
        b_src = b + (size_t)b_k * n + block_col + b_col;
        a_rows_left = m - block_row - a_row;
        b_cols_left = n - block_col - b_col;
        a_dst = a_k * A_LD + a_row;
        b_dst = b_k * BN + b_col;
    }

    /* Start the copies of the tile at k0 (tiles come in order) into a stage. */
    __device__ __forceinline__ void copy(float *stage, int n, int k, int k0)
    {
        float *a_tile = stage, *b_tile = stage + BK * A_LD;
#pragma unroll
        for (int j = 0; j < BK / 8; ++j) {
            bool k_inside = a_k + 8 * j + k0 < k;
#pragma unroll
            for (int i = 0; i < BM / A_ROWS; ++i)
                copy_async_4(a_tile + a_dst + 8 * j * A_LD + i * A_ROWS, a_src + (size_t)i * A_ROWS * k + 8 * j,
                             k_inside && i * A_ROWS < a_rows_left);
        }
#pragma unroll
        for (int i = 0; i < BK / B_ROWS; ++i) {
            bool valid = b_k + i * B_ROWS + k0 < k && b_cols_left > 0;
            const float *src = b_src + (size_t)i * B_ROWS * n;
            if (VEC) copy_async_16(b_tile + b_dst + i * B_ROWS * BN, src, valid);
            else copy_async_4(b_tile + b_dst + i * B_ROWS * BN, src, valid);
        }
        a_src += BK;
        b_src += (size_t)BK * n;
    }
};

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int GROUP_M, bool VEC>
__global__ void __launch_bounds__(pipeline_shape<BM, BN, BK, TM, TN, STAGES>::THREADS,
                                  pipeline_shape<BM, BN, BK, TM, TN, STAGES>::MIN_BLOCKS)
    pipelined_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int n,
                     int k)
{
    using shape = pipeline_shape<BM, BN, BK, TM, TN, STAGES>;
    using map = thread_tile<MAP_WARP_TILES, BM, BN, TM, TN>;
    extern __shared__ float4 shared_ring[];
    float *ring = reinterpret_cast<float *>(shared_ring);
    int tile_m, tile_n;
    sgemm_swizzled_tile(blockIdx.x, ceil_div(m, BM), ceil_div(n, BN), GROUP_M, &tile_m, &tile_n);
    int block_row = tile_m * BM, block_col = tile_n * BN;
    stage_copier<BM, BN, BK, shape::THREADS, shape::A_LD, VEC> copier(a, b, m, n, k, block_row, block_col);
    map tile(threadIdx.x);
    float acc[TM][TN] = {};

    int tiles = ceil_div(k, BK);
    /* Fill all but one stage; every step commits a group, empty or not, so
     * that "tile t has landed" is always "at most STAGES - 2 groups pending". */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles) copier.copy(ring + s * shape::STAGE_FLOATS, n, k, s * BK);
        copy_async_commit();
    }
    int stage = 0;
    for (int t = 0; t < tiles; ++t) {
        copy_async_wait<STAGES - 2>();
        /* Tile t is visible to every thread, and every thread is done with
         * tile t - 1, whose stage the copy below refills. */
        __syncthreads();
        int next = t + STAGES - 1;
        int next_stage = stage == 0 ? STAGES - 1 : stage - 1;
        if (next < tiles) copier.copy(ring + next_stage * shape::STAGE_FLOATS, n, k, next * BK);
        copy_async_commit();
        const float *a_tile = ring + stage * shape::STAGE_FLOATS;
        multiply_tile<BK, shape::A_LD, BN, TM, TN, map::ROW_STEP, map::COL_STEP>(a_tile, a_tile + BK * shape::A_LD,
                                                                                  tile.row0, tile.col0, acc);
        stage = stage == STAGES - 1 ? 0 : stage + 1;
    }
    store_tile<TM, TN, map::ROW_STEP, map::COL_STEP, VEC>(c, m, n, block_row + tile.row0, block_col + tile.col0,
                                                         acc);
}

/* ---- Launchers ---------------------------------------------------------------- */

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int GROUP_M, bool VEC>
static auto pipelined_kernel_opted_in()
{
    using shape = pipeline_shape<BM, BN, BK, TM, TN, STAGES>;
    allow_shared_bytes<pipelined_kernel<BM, BN, BK, TM, TN, STAGES, GROUP_M, VEC>>(shape::SHARED_BYTES);
    return pipelined_kernel<BM, BN, BK, TM, TN, STAGES, GROUP_M, VEC>;
}

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int GROUP_M, bool VEC>
static void launch_pipelined_kernel(const float *a, const float *b, float *c, int m, int n, int k,
                                    cudaStream_t stream)
{
    using shape = pipeline_shape<BM, BN, BK, TM, TN, STAGES>;
    auto kernel = pipelined_kernel_opted_in<BM, BN, BK, TM, TN, STAGES, GROUP_M, VEC>();
    int blocks = ceil_div(m, BM) * ceil_div(n, BN);
    kernel<<<blocks, shape::THREADS, shape::SHARED_BYTES, stream>>>(a, b, c, m, n, k);
}

/* Blocks of one configuration that the whole GPU holds at once. */
template <int BM, int BN, int BK, int TM, int TN, int STAGES, int GROUP_M>
static int pipelined_resident_blocks()
{
    using shape = pipeline_shape<BM, BN, BK, TM, TN, STAGES>;
    int device, sms, per_sm;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, pipelined_kernel_opted_in<BM, BN, BK, TM, TN, STAGES, GROUP_M, true>(), shape::THREADS,
        shape::SHARED_BYTES));
    return sms * (per_sm > 0 ? per_sm : 1);
}

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int GROUP_M>
static void launch_pipelined(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    if (n % 4 == 0 && aligned16(b) && aligned16(c))
        launch_pipelined_kernel<BM, BN, BK, TM, TN, STAGES, GROUP_M, true>(a, b, c, m, n, k, stream);
    else
        launch_pipelined_kernel<BM, BN, BK, TM, TN, STAGES, GROUP_M, false>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_async_2stage(const float *a, const float *b, float *c, int m, int n, int k,
                                   cudaStream_t stream)
{
    launch_pipelined<128, 128, 8, 8, 8, 2, 1>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_async_4stage(const float *a, const float *b, float *c, int m, int n, int k,
                                   cudaStream_t stream)
{
    launch_pipelined<128, 128, 8, 8, 8, 4, 1>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_swizzled(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    launch_pipelined<128, 128, 8, 8, 8, 4, 8>(a, b, c, m, n, k, stream);
}

/* The rungs whose ring is larger than the 48 KB a block gets without opting
 * in: their configurations are named once, for the launcher and for
 * sgemm_shared_bytes (the case skips them where the device grants less). */
#define TILE_128X128_K16 128, 128, 16, 8, 8, 3, 8
#define TILE_128X128_K32 128, 128, 32, 8, 8, 2, 8

extern "C" void sgemm_tile_128x128_k16(const float *a, const float *b, float *c, int m, int n, int k,
                                       cudaStream_t stream)
{
    launch_pipelined<TILE_128X128_K16>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_tile_128x256(const float *a, const float *b, float *c, int m, int n, int k,
                                   cudaStream_t stream)
{
    launch_pipelined<128, 256, 8, 16, 8, 4, 8>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_tile_128x128_4warps(const float *a, const float *b, float *c, int m, int n, int k,
                                          cudaStream_t stream)
{
    launch_pipelined<128, 128, 16, 16, 8, 3, 8>(a, b, c, m, n, k, stream);
}

/* k-tiles of 32 in a 2-stage ring: 2 x 32 x (132 + 128) floats = 65 KB a
 * block, two blocks an SM (128 registers). The hot loop is 2048 FFMAs in 2284
 * instructions (89.7%; k16: 1024 in 1166, 87.8%), one barrier and one copy
 * set-up per 2048 FFMAs. Measured on an H200: 0.94-0.95 of cuBLAS; a third
 * stage (100 KB a block, so 28 KB of L1 left for the cached 4-byte A copies)
 * fell to 0.88, k-tiles of 24 gave 0.91.
 * Toward cuBLAS at 4096^3 (ratio to cuBLAS, H100 / H200, same templates):
 * cuBLAS's own shape, 256x128 with k-tiles of 8 in 3 stages, 0.81; 256x128
 * k16 3 stages 0.87, k16 2 stages 0.87, k32 2 stages 0.88; 128x256 k16 3
 * stages 0.90, k32 2 stages 0.89; 128x128 k32 with 4 warps of 16x8 outputs
 * 0.87; 64x128 k32 0.91 / 0.92; GROUP_M of 4 or 16 instead of 8, 0.94 (no
 * change). Nsight Compute on the H100 shows why this rung stopped at 0.94
 * before the serpentine order of multiply_tile (0.96-0.97 since, issuing
 * on 85% of cycles, 0.30 dispatch, 0.21 barrier and 0.40 short-scoreboard
 * stalls per issue against cuBLAS's 90%, 0.10, 0.10 and 0.20):
 * it issues fewer FFMAs than cuBLAS's kernel, not more other work. Its FFMA
 * share of instructions is 90.3% (cuBLAS's 256x128x8 kernel: 88.5%), but
 * the schedulers issue on 83% of cycles against cuBLAS's 90%: 16 warps an
 * SM at 127 registers lose cycles to dispatch stalls (0.45 per issue, cuBLAS
 * 0.10) and barriers (0.27, cuBLAS 0.10), where cuBLAS keeps 8 warps at 254
 * registers busy from its register file. Giving the compiler the whole
 * register file (one block an SM, 8 warps, as cuBLAS) lost on the H100:
 * this shape 0.926 (0.935 at two blocks, same run), with 3 stages 0.908,
 * 4 stages 0.836; k16 3 stages 0.868; k8 4 stages 0.829. Copies without
 * bounds tests where the block's tiles lie wholly inside (a second copy
 * path chosen per block, about 25 fewer instructions a tile): 0.894
 * against 0.958 in the same H100 process. Also on the H100 at 4096^3:
 * each k's fragments loaded a k ahead into a second set of registers,
 * across tiles too (the wait and the barrier for the next tile before
 * this one's last k, then the freed stage refilled), 0.899 (3 stages
 * 0.884; k16 in 3 or 4 stages 0.900-0.905); the copies issued after k-step
 * j of the tile instead of before the first, 0.879-0.921 for j from 1 to
 * 31, and 0.939 for j = 0, the same order as this code; 512-thread blocks
 * of 8x8-output threads (one block an SM, 16 warps, as here), 256x128 k32
 * 0.875, 128x256 k32 0.931, 256x128 k16 in 2 or 3 stages 0.860-0.863.
 * The j = 0 figure says the limit: ptxas's schedule of this loop moves the
 * result by several per cent on source changes that change no
 * instruction's work, and CUDA C does not choose the registers and the
 * order the way cuBLAS's hand-placed kernel does. */
extern "C" void sgemm_tile_128x128_k32(const float *a, const float *b, float *c, int m, int n, int k,
                                       cudaStream_t stream)
{
    launch_pipelined<TILE_128X128_K32>(a, b, c, m, n, k, stream);
}

/* The big tile wins where its blocks fill the GPU; at 1000^3 a 128 x 128
 * tile makes 64 blocks for 132 SMs (0.56-0.62 of cuBLAS) while 64 x 64 tiles
 * make 256 blocks of 128 threads. Measured (ratio to cuBLAS, H200 / H100):
 *              128x128 k32     64x64 k32
 *   1000^3     0.56 / 0.62     0.91 / 1.02
 *   1500^3     0.72            0.97
 *   2048^3     0.95 / 0.97     0.80 / 0.82
 *   3000^3     0.94            1.01
 *   4095^3     0.95 / 0.94     0.81 / 0.81
 *   4096^3     0.94 / 0.94     0.82 / 0.82
 * So the 128 x 128 tile runs once its tiles make three quarters of a wave
 * (of the blocks the GPU holds at once), the 64 x 64 tile below that: the
 * choice depends on the device's SM count and occupancy, not on the sizes
 * above. 64 x 128 (0.65-0.92) and 128 x 64 (0.59-0.90) tiles never won. */
#define TILE_64X64_K32 64, 64, 32, 8, 4, 2, 8

extern "C" void sgemm_tile_by_size(const float *a, const float *b, float *c, int m, int n, int k,
                                   cudaStream_t stream)
{
    /* Asked once: host-side queries inside the timed region would leave the
     * GPU idle (the harness runs one device per process). */
    static int big_tile_wave = 0;
    if (!big_tile_wave) big_tile_wave = pipelined_resident_blocks<TILE_128X128_K32>();
    long long big_tiles = (long long)ceil_div(m, 128) * ceil_div(n, 128);
    if (4 * big_tiles >= 3LL * big_tile_wave)
        launch_pipelined<TILE_128X128_K32>(a, b, c, m, n, k, stream);
    else
        launch_pipelined<TILE_64X64_K32>(a, b, c, m, n, k, stream);
}

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int GROUP_M>
static constexpr size_t pipelined_shared_bytes()
{
    return pipeline_shape<BM, BN, BK, TM, TN, STAGES>::SHARED_BYTES;
}

extern "C" size_t sgemm_shared_bytes(sgemm_launcher *rung)
{
    if (rung == sgemm_tile_128x128_k16) return pipelined_shared_bytes<TILE_128X128_K16>();
    if (rung == sgemm_tile_128x128_k32 || rung == sgemm_tile_by_size) return pipelined_shared_bytes<TILE_128X128_K32>();
    return sgemm_tensor_shared_bytes(rung);
}
