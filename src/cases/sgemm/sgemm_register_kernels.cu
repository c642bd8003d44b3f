/* SGEMM's register rungs: each thread computes a block of C from registers
 * (register_1d, register_2d), then the tiles come in as float4s, transposed
 * for 16-byte shared loads (vectorized), laid out without bank conflicts
 * (conflict_free) and split among warps (warp_tiling). Their loads pass
 * through registers; sgemm_async_kernels.cu takes them out of the way. */
#include "sgemm_tiles.cuh"

/* ---- Register blocking ---------------------------------------------------- */

/* Rungs: each thread computes a TM x TN block of C (TN = 1: a column of TM,
 * the 1D rung; TM = TN = 8: the 2D rung). Per k, a thread reads TM values of
 * A and TN of B from shared memory into registers and does TM * TN
 * multiply-adds: shared-memory loads per multiply-add fall from 2 (tiled) to
 * (TM + TN) / (TM * TN). A block covers BM x BN of C and walks k in steps
 * of BK; global loads are scalar and zero-filled at the edges.
 * The minimum of 1 block per SM in the launch bounds frees ptxas's register
 * choice: left to its default for 512 threads it fits the 1D kernel into 40
 * registers and spills. */
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), 1)
    register_tile_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m,
                         int n, int k)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    static_assert((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0, "whole load passes");
    __shared__ float a_tile[BM][BK], b_tile[BK][BN];
    int t = threadIdx.x;
    int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    int thread_row = t / (BN / TN) * TM, thread_col = t % (BN / TN) * TN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
        for (int pass = 0; pass < BM * BK / THREADS; ++pass) {
            int idx = pass * THREADS + t, row = idx / BK, kk = idx % BK;
            int gr = block_row + row, gk = k0 + kk;
            a_tile[row][kk] = gr < m && gk < k ? a[(size_t)gr * k + gk] : 0.0f;
        }
#pragma unroll
        for (int pass = 0; pass < BK * BN / THREADS; ++pass) {
            int idx = pass * THREADS + t, kk = idx / BN, col = idx % BN;
            int gk = k0 + kk, gc = block_col + col;
            b_tile[kk][col] = gk < k && gc < n ? b[(size_t)gk * n + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < BK; ++i) {
            float a_frag[TM], b_frag[TN];
#pragma unroll
            for (int y = 0; y < TM; ++y) a_frag[y] = a_tile[thread_row + y][i];
#pragma unroll
            for (int x = 0; x < TN; ++x) b_frag[x] = b_tile[i][thread_col + x];
#pragma unroll
            for (int y = 0; y < TM; ++y)
#pragma unroll
                for (int x = 0; x < TN; ++x) acc[y][x] = fmaf(a_frag[y], b_frag[x], acc[y][x]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int y = 0; y < TM; ++y) {
        int gr = block_row + thread_row + y;
#pragma unroll
        for (int x = 0; x < TN; ++x) {
            int gc = block_col + thread_col + x;
            if (gr < m && gc < n) c[(size_t)gr * n + gc] = acc[y][x];
        }
    }
}

/* ---- Register-staged rungs: vectorized, conflict_free, warp_tiling ----------
 * A block loads its tiles with plain loads (through registers), waits, then
 * multiplies. VEC (k % 4 == 0, n % 4 == 0, 16-byte aligned bases: chosen per
 * launch) loads A and B in float4s, LDG.128, a quarter of the load
 * instructions; each A float4 (4 consecutive k of one row) is stored
 * transposed as 4 scalars. Otherwise every load is scalar.
 * A_PAD = 0: a warp's float4s of A cover 16 rows x 2 runs of 4 k; with rows
 * of a_tile 128 floats apart, element (k, row) and (k + 4, row) fall in the
 * same bank: every transposed store is a 2-way conflict. A_PAD = 4: bank =
 * 4 k + row (mod 32), all 32 lanes apart. */
template <int BM, int BN, int BK, int TM, int TN, int MAP, int A_PAD, bool VEC>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    staged_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int n,
                  int k)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int A_LD = BM + A_PAD;
    static_assert(BK == 8 && BM % 32 == 0 && BN % 4 == 0, "the conflict-free walks assume BK = 8");
    static_assert((BM * BK / 4) % THREADS == 0 && (BK * BN / 4) % THREADS == 0, "whole load passes");
    __shared__ __align__(16) float a_tile[BK * A_LD];
    __shared__ __align__(16) float b_tile[BK * BN];
    using map = thread_tile<MAP, BM, BN, TM, TN>;
    int t = threadIdx.x;
    int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    map tile(t);
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        if (VEC) {
#pragma unroll
            for (int pass = 0; pass < BM * BK / 4 / THREADS; ++pass) {
                int idx = pass * THREADS + t, row = idx / (BK / 4), kk = idx % (BK / 4) * 4;
                int gr = block_row + row, gk = k0 + kk;
                float4 v = gr < m && gk < k ? *reinterpret_cast<const float4 *>(a + (size_t)gr * k + gk)
                                            : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                a_tile[kk * A_LD + row] = v.x;
                a_tile[(kk + 1) * A_LD + row] = v.y;
                a_tile[(kk + 2) * A_LD + row] = v.z;
                a_tile[(kk + 3) * A_LD + row] = v.w;
            }
#pragma unroll
            for (int pass = 0; pass < BK * BN / 4 / THREADS; ++pass) {
                int idx = pass * THREADS + t, kk = idx / (BN / 4), col = idx % (BN / 4) * 4;
                int gk = k0 + kk, gc = block_col + col;
                *reinterpret_cast<float4 *>(b_tile + kk * BN + col) =
                    gk < k && gc < n ? *reinterpret_cast<const float4 *>(b + (size_t)gk * n + gc)
                                     : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }
        } else {
#pragma unroll
            for (int pass = 0; pass < BM * BK / THREADS; ++pass) {
                int row, kk;
                a_element<BM>(pass * THREADS + t, row, kk);
                int gr = block_row + row, gk = k0 + kk;
                a_tile[kk * A_LD + row] = gr < m && gk < k ? a[(size_t)gr * k + gk] : 0.0f;
            }
#pragma unroll
            for (int pass = 0; pass < BK * BN / THREADS; ++pass) {
                int idx = pass * THREADS + t, kk = idx / BN, col = idx % BN;
                int gk = k0 + kk, gc = block_col + col;
                b_tile[kk * BN + col] = gk < k && gc < n ? b[(size_t)gk * n + gc] : 0.0f;
            }
        }
        __syncthreads();
        multiply_tile<BK, A_LD, BN, TM, TN, map::ROW_STEP, map::COL_STEP>(a_tile, b_tile, tile.row0, tile.col0, acc);
        __syncthreads();
    }
    store_tile<TM, TN, map::ROW_STEP, map::COL_STEP, VEC>(c, m, n, block_row + tile.row0, block_col + tile.col0,
                                                         acc);
}

/* ---- Launchers ---------------------------------------------------------------- */

template <int BM, int BN, int BK, int TM, int TN>
static void launch_register_tile(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    dim3 grid(ceil_div(n, BN), ceil_div(m, BM));
    register_tile_kernel<BM, BN, BK, TM, TN><<<grid, (BM / TM) * (BN / TN), 0, stream>>>(a, b, c, m, n, k);
}

extern "C" void sgemm_register_1d(const float *a, const float *b, float *c, int m, int n, int k,
                                  cudaStream_t stream)
{
    launch_register_tile<64, 64, 8, 8, 1>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_register_2d(const float *a, const float *b, float *c, int m, int n, int k,
                                  cudaStream_t stream)
{
    launch_register_tile<128, 128, 8, 8, 8>(a, b, c, m, n, k, stream);
}

template <int MAP, int A_PAD>
static void launch_staged(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    dim3 grid(ceil_div(n, BN), ceil_div(m, BM));
    int threads = (BM / TM) * (BN / TN);
    if (k % 4 == 0 && n % 4 == 0 && aligned16(a) && aligned16(b) && aligned16(c))
        staged_kernel<BM, BN, BK, TM, TN, MAP, A_PAD, true><<<grid, threads, 0, stream>>>(a, b, c, m, n, k);
    else
        staged_kernel<BM, BN, BK, TM, TN, MAP, A_PAD, false><<<grid, threads, 0, stream>>>(a, b, c, m, n, k);
}

extern "C" void sgemm_vectorized(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    launch_staged<MAP_CONTIGUOUS, 0>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_conflict_free(const float *a, const float *b, float *c, int m, int n, int k,
                                    cudaStream_t stream)
{
    launch_staged<MAP_QUADRANTS, 4>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_warp_tiling(const float *a, const float *b, float *c, int m, int n, int k,
                                  cudaStream_t stream)
{
    launch_staged<MAP_WARP_TILES, 4>(a, b, c, m, n, k, stream);
}
