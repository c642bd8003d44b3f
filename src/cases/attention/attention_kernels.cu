/* Attention rungs 1-5 and rung 2's softmax: from three textbook kernels with
 * the scores in global memory to a fused mma.sync kernel with a cp.async
 * pipeline. Q, K, V, O are [heads][S][D] BF16 (attention.h); rows past S
 * read as zeros and are never stored, keys past S (and, causally, past the
 * query) get probability 0, so every rung takes any S >= 1. Built for
 * every architecture of the build; the case runs rungs 4-5 on 8.0+. */
#include "harness/check/check.h"
#include "harness/hardware/shared_memory.cuh"
#include "attention_tiles.cuh"

/* ---- Rung 1: the textbook ------------------------------------------------------ */

/* Rung 1, kernel 1 of 3: scores[h][i][j] = scale q_i . k_j in FP32, as a
 * 16 x 16 tiled matrix product (a block per tile, Q and K rows staged 16
 * deep in shared memory). The S x S matrix goes to global memory: 4 S^2
 * bytes written per head, read by the softmax, written back, and read
 * again by P V. Causal rows are computed whole; the softmax masks them.
 * Measured (H100 SXM, ratio to cuDNN 9.14 at 4x32x4096x128 full / causal,
 * 16x16x1024x64 full / causal): 0.009 / 0.005 / 0.013 / 0.010; 6.1 TFLOP/s
 * at 4x32x4096x128, 9% of the FP32 FMA rate (the causal form does the
 * same work in the same time: the mask saves nothing here). */
constexpr int TEXTBOOK_TILE = 16;

__global__ void __launch_bounds__(256)
    textbook_scores_kernel(const bf16 *__restrict__ q, const bf16 *__restrict__ k, float *__restrict__ scores,
                           int seq, int dim, float scale)
{
    __shared__ float q_tile[TEXTBOOK_TILE][TEXTBOOK_TILE + 1], k_tile[TEXTBOOK_TILE][TEXTBOOK_TILE + 1];
    int tx = threadIdx.x % TEXTBOOK_TILE, ty = threadIdx.x / TEXTBOOK_TILE;
    size_t head = (size_t)blockIdx.z * seq * dim;
    int i = blockIdx.y * TEXTBOOK_TILE + ty, j = blockIdx.x * TEXTBOOK_TILE + tx;
    int key_row = blockIdx.x * TEXTBOOK_TILE + ty;
    float sum = 0.0f;
    for (int d0 = 0; d0 < dim; d0 += TEXTBOOK_TILE) {
        q_tile[ty][tx] = i < seq ? __bfloat162float(q[head + (size_t)i * dim + d0 + tx]) : 0.0f;
        k_tile[ty][tx] = key_row < seq ? __bfloat162float(k[head + (size_t)key_row * dim + d0 + tx]) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int d = 0; d < TEXTBOOK_TILE; ++d) sum += q_tile[ty][d] * k_tile[tx][d];
        __syncthreads();
    }
    if (i < seq && j < seq) scores[((size_t)blockIdx.z * seq + i) * seq + j] = sum * scale;
}

/* A block's reduction of one value a thread (max or sum), every thread
 * getting the result. */
template <bool MAX>
__device__ __forceinline__ float block_reduce(float x, float *shared)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_xor_sync(0xffffffffu, x, offset);
        x = MAX ? fmaxf(x, other) : x + other;
    }
    int warp = threadIdx.x / 32, warps = blockDim.x / 32;
    __syncthreads(); /* the previous reduction's reads of shared are done */
    if (threadIdx.x % 32 == 0) shared[warp] = x;
    __syncthreads();
    x = shared[0];
    for (int w = 1; w < warps; ++w) x = MAX ? fmaxf(x, shared[w]) : x + shared[w];
    return x;
}

/* Rung 1, kernel 2 (and rung 2's softmax): a block per row of scores, three
 * passes over it (max, sum of exponentials, normalized probabilities); keys
 * past the query (causal) become 0. Rung 1 writes the probabilities over
 * the scores in FP32, rung 2 as BF16 for its second GEMM. */
template <typename OUT>
__global__ void __launch_bounds__(256) softmax_rows_kernel(const float *scores, OUT *probs, int seq, int causal)
{
    __shared__ float partial[32];
    size_t row_index = blockIdx.x;
    int i = (int)(row_index % seq);
    int valid = causal ? i + 1 : seq;
    const float *row = scores + row_index * seq;
    OUT *out = probs + row_index * seq;
    float top = -INFINITY;
    for (int j = threadIdx.x; j < valid; j += blockDim.x) top = fmaxf(top, row[j]);
    top = block_reduce<true>(top, partial);
    float sum = 0.0f;
    for (int j = threadIdx.x; j < valid; j += blockDim.x) sum += __expf(row[j] - top);
    float inverse = 1.0f / block_reduce<false>(sum, partial);
    for (int j = threadIdx.x; j < seq; j += blockDim.x) {
        float p = j < valid ? __expf(row[j] - top) * inverse : 0.0f;
        if constexpr (sizeof(OUT) == 2)
            out[j] = __float2bfloat16(p);
        else
            out[j] = p;
    }
}

/* Rung 1, kernel 3: O = P V, 16 x 16 tiles of O, P and V staged 16 keys
 * deep; every key of every row, masked ones included (their P is 0). */
__global__ void __launch_bounds__(256)
    textbook_output_kernel(const float *__restrict__ probs, const bf16 *__restrict__ v, bf16 *__restrict__ o, int seq,
                           int dim)
{
    __shared__ float p_tile[TEXTBOOK_TILE][TEXTBOOK_TILE + 1], v_tile[TEXTBOOK_TILE][TEXTBOOK_TILE + 1];
    int tx = threadIdx.x % TEXTBOOK_TILE, ty = threadIdx.x / TEXTBOOK_TILE;
    size_t head = (size_t)blockIdx.z * seq * dim;
    int i = blockIdx.y * TEXTBOOK_TILE + ty, d = blockIdx.x * TEXTBOOK_TILE + tx;
    const float *p_rows = probs + (size_t)blockIdx.z * seq * seq;
    float sum = 0.0f;
    for (int j0 = 0; j0 < seq; j0 += TEXTBOOK_TILE) {
        p_tile[ty][tx] = i < seq && j0 + tx < seq ? p_rows[(size_t)i * seq + j0 + tx] : 0.0f;
        v_tile[ty][tx] = j0 + ty < seq ? __bfloat162float(v[head + (size_t)(j0 + ty) * dim + d]) : 0.0f;
        __syncthreads();
#pragma unroll
        for (int j = 0; j < TEXTBOOK_TILE; ++j) sum += p_tile[ty][j] * v_tile[j][tx];
        __syncthreads();
    }
    if (i < seq) o[head + (size_t)i * dim + d] = __float2bfloat16(sum);
}

/* ---- Rung 3: fused, FP32 CUDA cores ----------------------------------------------- */

/* Rung 3: one kernel, one pass over the keys. A block of 4 warps owns 32
 * query rows (a warp 8), held in shared memory as FP32 and multiplied by
 * scale log2 e; tiles of 64 keys and their values are staged in shared
 * memory as FP32. Per tile a lane scores keys lane and lane + 32 for its
 * warp's 8 rows, the warp keeps each row's running max and sum (the online
 * softmax: the accumulator is rescaled by exp2(old max - new max) when the
 * max grows), and each lane accumulates D / 32 columns of O for the 8 rows.
 * No S x S matrix touches memory: the traffic is Q, K, V once per block of
 * 32 rows. Should move the textbook's memory bound to the FP32 pipe; it
 * cannot beat rung 2's tensor-core GEMMs (FP32 FMA is 1/15 of the BF16
 * tensor rate on an H100).
 * Measured (H100, ratios to cuDNN as for rung 1): 0.016 / 0.016 / 0.035 /
 * 0.048, 11.3 TFLOP/s at 4x32x4096x128: 1.9x the textbook (3.3x causal:
 * it skips the masked key tiles), 7.9x slower than rung 2, which buys
 * tensor cores with the S x S traffic (89 TFLOP/s). Fusion alone loses to
 * tensor cores alone; it pays from rung 4 on. */
constexpr int FUSED_ROWS_PER_WARP = 8, FUSED_WARPS = 4, FUSED_ROWS = FUSED_ROWS_PER_WARP * FUSED_WARPS;
constexpr int FUSED_KEYS = 64;

template <int D>
struct fused_fp32_shape {
    static constexpr int K_STRIDE = D + 1; /* lane-indexed rows: no bank conflicts */
    static constexpr size_t Q_FLOATS = FUSED_ROWS * D, K_FLOATS = FUSED_KEYS * K_STRIDE, V_FLOATS = FUSED_KEYS * D;
    static constexpr size_t P_FLOATS = FUSED_WARPS * FUSED_ROWS_PER_WARP * FUSED_KEYS;
    static constexpr size_t SHARED_BYTES = (Q_FLOATS + K_FLOATS + V_FLOATS + P_FLOATS) * sizeof(float);
};

template <int D>
__global__ void __launch_bounds__(FUSED_WARPS * 32)
    fused_fp32_kernel(const bf16 *__restrict__ q, const bf16 *__restrict__ k, const bf16 *__restrict__ v,
                      bf16 *__restrict__ o, int seq, int causal, float scale_log2)
{
    typedef fused_fp32_shape<D> F;
    extern __shared__ float fused_shared[];
    float *q_tile = fused_shared, *k_tile = q_tile + F::Q_FLOATS, *v_tile = k_tile + F::K_FLOATS;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float *p_rows = v_tile + F::V_FLOATS + warp * FUSED_ROWS_PER_WARP * FUSED_KEYS;
    size_t head = (size_t)blockIdx.y * seq * D;
    int q0 = blockIdx.x * FUSED_ROWS, row0 = q0 + warp * FUSED_ROWS_PER_WARP;
    for (int e = threadIdx.x; e < FUSED_ROWS * D; e += blockDim.x) {
        int r = e / D;
        q_tile[e] = q0 + r < seq ? __bfloat162float(q[head + (size_t)q0 * D + e]) * scale_log2 : 0.0f;
    }
    float m[FUSED_ROWS_PER_WARP], l[FUSED_ROWS_PER_WARP], acc[FUSED_ROWS_PER_WARP][D / 32];
#pragma unroll
    for (int r = 0; r < FUSED_ROWS_PER_WARP; ++r) {
        m[r] = -INFINITY;
        l[r] = 0.0f;
#pragma unroll
        for (int t = 0; t < D / 32; ++t) acc[r][t] = 0.0f;
    }
    int keys_end = causal ? min(seq, q0 + FUSED_ROWS) : seq;
    for (int key0 = 0; key0 < keys_end; key0 += FUSED_KEYS) {
        __syncthreads(); /* the Q tile is written; the previous K and V tiles are read */
        for (int e = threadIdx.x; e < FUSED_KEYS * D; e += blockDim.x) {
            int r = e / D, d = e % D;
            bool inside = key0 + r < seq;
            size_t at = head + (size_t)(key0 + r) * D + d;
            k_tile[r * F::K_STRIDE + d] = inside ? __bfloat162float(k[at]) : 0.0f;
            v_tile[e] = inside ? __bfloat162float(v[at]) : 0.0f;
        }
        __syncthreads();
        float s[FUSED_ROWS_PER_WARP][2] = {};
#pragma unroll 4
        for (int d = 0; d < D; ++d) {
            float k_low = k_tile[lane * F::K_STRIDE + d], k_high = k_tile[(lane + 32) * F::K_STRIDE + d];
#pragma unroll
            for (int r = 0; r < FUSED_ROWS_PER_WARP; ++r) {
                float qv = q_tile[(warp * FUSED_ROWS_PER_WARP + r) * D + d];
                s[r][0] += qv * k_low;
                s[r][1] += qv * k_high;
            }
        }
#pragma unroll
        for (int r = 0; r < FUSED_ROWS_PER_WARP; ++r) {
            int row = row0 + r;
#pragma unroll
            for (int c = 0; c < 2; ++c) {
                int key = key0 + lane + 32 * c;
                if (key >= seq || (causal && key > row)) s[r][c] = -INFINITY;
            }
            float top = fmaxf(s[r][0], s[r][1]);
#pragma unroll
            for (int offset = 16; offset > 0; offset /= 2) top = fmaxf(top, __shfl_xor_sync(0xffffffffu, top, offset));
            top = fmaxf(top, m[r]);
            /* Rows past S see only keys of score 0 and rows before the
             * tile's first key are fully masked here, but tile 0 gave
             * every row a finite max: top is finite. */
            float alpha = exp2f(m[r] - top);
            m[r] = top;
            float p_low = exp2f(s[r][0] - top), p_high = exp2f(s[r][1] - top);
            float sum = p_low + p_high;
#pragma unroll
            for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
            l[r] = l[r] * alpha + sum;
#pragma unroll
            for (int t = 0; t < D / 32; ++t) acc[r][t] *= alpha;
            p_rows[r * FUSED_KEYS + lane] = p_low;
            p_rows[r * FUSED_KEYS + lane + 32] = p_high;
        }
        __syncwarp();
#pragma unroll 4
        for (int j = 0; j < FUSED_KEYS; ++j) {
            float vv[D / 32];
#pragma unroll
            for (int t = 0; t < D / 32; ++t) vv[t] = v_tile[j * D + lane + 32 * t];
#pragma unroll
            for (int r = 0; r < FUSED_ROWS_PER_WARP; ++r) {
                float p = p_rows[r * FUSED_KEYS + j];
#pragma unroll
                for (int t = 0; t < D / 32; ++t) acc[r][t] += p * vv[t];
            }
        }
        __syncwarp(); /* p_rows is rewritten by the next tile */
    }
#pragma unroll
    for (int r = 0; r < FUSED_ROWS_PER_WARP; ++r) {
        int row = row0 + r;
        if (row >= seq) continue;
        float inverse = 1.0f / l[r];
#pragma unroll
        for (int t = 0; t < D / 32; ++t)
            o[head + (size_t)row * D + lane + 32 * t] = __float2bfloat16(acc[r][t] * inverse);
    }
}

/* ---- Rungs 4-5: mma.sync ----------------------------------------------------------- */

/* A block of 4 warps owns 64 query rows, a warp 16 of them; keys come in
 * tiles of 64. */
constexpr int MMA_WARPS = 4, MMA_ROWS = 16 * MMA_WARPS, MMA_KEYS = 64;

template <int D>
struct mma_shape {
    static constexpr int TILE_BYTES = MMA_KEYS * D * 2; /* a 64-row tile of Q, K or V */
    static_assert(MMA_ROWS == MMA_KEYS, "Q and K/V tiles share one layout");
    static constexpr size_t SYNC_SHARED = 3 * TILE_BYTES;  /* Q, K, V */
    static constexpr size_t ASYNC_SHARED = 5 * TILE_BYTES; /* Q, 2 x (K, V) */
};

/* Rows row0.. of a [seq][D] head into a 64-row swizzled tile, 16 bytes a
 * copy, zeros past seq: synchronously (rung 4) or by cp.async (rung 5). */
template <int D, bool ASYNC>
__device__ __forceinline__ void load_tile(uint8_t *tile, const bf16 *__restrict__ head, int row0, int seq)
{
    constexpr int CHUNKS = D / 8;
#pragma unroll
    for (int c = threadIdx.x; c < MMA_KEYS * CHUNKS; c += MMA_WARPS * 32) {
        int row = c / CHUNKS, chunk = c % CHUNKS;
        bool inside = row0 + row < seq;
        const bf16 *src = head + (size_t)(inside ? row0 + row : 0) * D + chunk * 8;
        uint32_t offset = tile_offset<MMA_KEYS>(row, chunk);
        if constexpr (ASYNC) {
            cp_async_16(smem_address(tile + offset), src, inside ? 16u : 0u);
        } else {
            uint4 value = inside ? *reinterpret_cast<const uint4 *>(src) : make_uint4(0, 0, 0, 0);
            *reinterpret_cast<uint4 *>(tile + offset) = value;
        }
    }
}

/* The warp's 16 query rows as mma A fragments, one per 16 columns of D. */
template <int D>
__device__ __forceinline__ void load_query_fragments(uint32_t (&qf)[D / 16][4], uint32_t q_tile, int warp, int lane)
{
#pragma unroll
    for (int step = 0; step < D / 16; ++step)
        ldmatrix_x4(qf[step], q_tile + tile_offset<MMA_KEYS>(16 * warp + (lane & 15), 2 * step + (lane >> 4)));
}

/* One key tile through a warp: S = Q K^T (16 x 64, 8 n8 accumulators),
 * the online softmax on them, P rounded to BF16 straight from the
 * accumulators into A fragments (the accumulator layout of two n8 tiles is
 * the A layout of one k16 step), O += P V with V's fragments read
 * transposed by ldmatrix. */
template <int D>
__device__ __forceinline__ void mma_key_tile(const uint32_t (&qf)[D / 16][4], uint32_t k_tile, uint32_t v_tile,
                                             float (&acc)[D / 2], float (&m)[2], float (&l)[2], bool masked,
                                             int row0, int key0, int seq, bool causal, float scale_log2, int lane)
{
    float s[MMA_KEYS / 2] = {};
#pragma unroll
    for (int pair = 0; pair < MMA_KEYS / 16; ++pair)
#pragma unroll
        for (int step = 0; step < D / 16; ++step) {
            uint32_t b[4];
            ldmatrix_x4(b, k_tile + tile_offset<MMA_KEYS>(16 * pair + (lane & 7) + ((lane >> 4) << 3),
                                                          2 * step + ((lane >> 3) & 1)));
            float(&s0)[4] = *reinterpret_cast<float(*)[4]>(&s[8 * pair]);
            float(&s1)[4] = *reinterpret_cast<float(*)[4]>(&s[8 * pair + 4]);
            mma_bf16_m16n8k16(s0, qf[step], b[0], b[1]);
            mma_bf16_m16n8k16(s1, qf[step], b[2], b[3]);
        }
    float alpha[2];
    online_softmax(s, m, l, alpha, masked, row0, key0, seq, causal, scale_log2, lane);
    rescale_rows(acc, alpha);
#pragma unroll
    for (int step = 0; step < MMA_KEYS / 16; ++step) {
        uint32_t pf[4] = {pack_bf16(s[8 * step], s[8 * step + 1]), pack_bf16(s[8 * step + 2], s[8 * step + 3]),
                          pack_bf16(s[8 * step + 4], s[8 * step + 5]), pack_bf16(s[8 * step + 6], s[8 * step + 7])};
#pragma unroll
        for (int pair = 0; pair < D / 16; ++pair) {
            uint32_t b[4];
            ldmatrix_x4_trans(b, v_tile + tile_offset<MMA_KEYS>(16 * step + (lane & 7) + (((lane >> 3) & 1) << 3),
                                                                2 * pair + (lane >> 4)));
            float(&o0)[4] = *reinterpret_cast<float(*)[4]>(&acc[8 * pair]);
            float(&o1)[4] = *reinterpret_cast<float(*)[4]>(&acc[8 * pair + 4]);
            mma_bf16_m16n8k16(o0, pf, b[0], b[1]);
            mma_bf16_m16n8k16(o1, pf, b[2], b[3]);
        }
    }
}

/* Whether a warp's key tile needs the mask: it crosses S, or (causal) the
 * diagonal of the warp's rows. */
__device__ __forceinline__ bool tile_needs_mask(int key0, int row0, int seq, bool causal)
{
    return key0 + MMA_KEYS > seq || (causal && key0 + MMA_KEYS - 1 > row0);
}

/* Rung 4: tensor cores. Q K^T and P V on mma.sync m16n8k16 (BF16 in, FP32
 * accumulation) with every fragment loaded by ldmatrix from swizzled tiles
 * (V's transposed on the way); the probabilities never leave registers.
 * Each warp owns 16 query rows end to end, its softmax statistics in its
 * own registers: no warp waits on another but at the tile barriers. Tiles
 * are loaded synchronously: the tensor cores idle while K and V arrive.
 * Should move from rung 3's FP32 pipe to the tensor pipe (15x the rate).
 * Measured (H100, ratios to cuDNN as for rung 1): 0.258 / 0.263 / 0.377 /
 * 0.481, 179 TFLOP/s at 4x32x4096x128: 15.8x rung 3 (what tensor cores
 * buy), 2.0x rung 2 (what fusion buys once the products are on tensor
 * cores). */
template <int D>
__global__ void __launch_bounds__(MMA_WARPS * 32)
    mma_kernel(const bf16 *__restrict__ q, const bf16 *__restrict__ k, const bf16 *__restrict__ v,
               bf16 *__restrict__ o, int seq, int causal, float scale_log2)
{
    typedef mma_shape<D> M;
    extern __shared__ __align__(1024) uint8_t mma_shared[];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    size_t head = (size_t)blockIdx.y * seq * D;
    int q0 = blockIdx.x * MMA_ROWS, row0 = q0 + 16 * warp;
    uint32_t q_tile = smem_address(mma_shared), k_tile = q_tile + M::TILE_BYTES, v_tile = k_tile + M::TILE_BYTES;
    load_tile<D, false>(mma_shared, q + head, q0, seq);
    __syncthreads();
    uint32_t qf[D / 16][4];
    load_query_fragments<D>(qf, q_tile, warp, lane);
    float acc[D / 2] = {}, m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};
    int keys_end = causal ? min(seq, q0 + MMA_ROWS) : seq;
    for (int key0 = 0; key0 < keys_end; key0 += MMA_KEYS) {
        __syncthreads(); /* every warp is done with the previous tiles */
        load_tile<D, false>(mma_shared + M::TILE_BYTES, k + head, key0, seq);
        load_tile<D, false>(mma_shared + 2 * M::TILE_BYTES, v + head, key0, seq);
        __syncthreads();
        mma_key_tile<D>(qf, k_tile, v_tile, acc, m, l, tile_needs_mask(key0, row0, seq, causal), row0, key0, seq,
                        causal, scale_log2, lane);
    }
    store_rows(o + head, acc, l, row0, seq, D, lane);
}

/* Rung 5: K and V tiles arrive by cp.async into two stages: tile t + 1
 * copies (no registers, no waiting) while the warps multiply tile t, one
 * barrier a tile. Q arrives the same way with tile 0.
 * Should hide the load latency that rung 4 exposes once a tile.
 * Measured (H100, ratios to cuDNN as for rung 1): 0.349 / 0.371 / 0.470 /
 * 0.593, 242 TFLOP/s at 4x32x4096x128, 1.35x rung 4. Left: mma.sync's
 * issue rate (2 ldmatrix + 4 mma per 16 x 16 x 16 step a warp) and the
 * 64-row block, which reads each K and V tile for 64 queries only. */
template <int D>
__global__ void __launch_bounds__(MMA_WARPS * 32)
    mma_async_kernel(const bf16 *__restrict__ q, const bf16 *__restrict__ k, const bf16 *__restrict__ v,
                     bf16 *__restrict__ o, int seq, int causal, float scale_log2)
{
    typedef mma_shape<D> M;
    extern __shared__ __align__(1024) uint8_t mma_shared[];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    size_t head = (size_t)blockIdx.y * seq * D;
    int q0 = blockIdx.x * MMA_ROWS, row0 = q0 + 16 * warp;
    uint32_t q_tile = smem_address(mma_shared);
    auto stage = [&](int t) { return mma_shared + (1 + 2 * (t % 2)) * M::TILE_BYTES; };
    int keys_end = causal ? min(seq, q0 + MMA_ROWS) : seq;
    int tiles = attention_ceil_div(keys_end, MMA_KEYS);
    load_tile<D, true>(mma_shared, q + head, q0, seq);
    load_tile<D, true>(stage(0), k + head, 0, seq);
    load_tile<D, true>(stage(0) + M::TILE_BYTES, v + head, 0, seq);
    cp_async_commit();
    uint32_t qf[D / 16][4];
    float acc[D / 2] = {}, m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};
    for (int t = 0; t < tiles; ++t) {
        /* Stage (t + 1) % 2 held tile t - 1, which every warp has finished
         * (the barrier at the end of the last iteration). One commit per
         * tile, empty past the end: "all but the newest group" is tile t. */
        if (t + 1 < tiles) {
            load_tile<D, true>(stage(t + 1), k + head, (t + 1) * MMA_KEYS, seq);
            load_tile<D, true>(stage(t + 1) + M::TILE_BYTES, v + head, (t + 1) * MMA_KEYS, seq);
        }
        cp_async_commit();
        cp_async_wait<1>();
        __syncthreads();
        if (t == 0) load_query_fragments<D>(qf, q_tile, warp, lane);
        uint32_t k_tile = smem_address(stage(t)), v_tile = k_tile + M::TILE_BYTES;
        int key0 = t * MMA_KEYS;
        mma_key_tile<D>(qf, k_tile, v_tile, acc, m, l, tile_needs_mask(key0, row0, seq, causal), row0, key0, seq,
                        causal, scale_log2, lane);
        __syncthreads();
    }
    store_rows(o + head, acc, l, row0, seq, D, lane);
}

/* ---- Launchers ---------------------------------------------------------------- */

static const bf16 *bf16_of(const uint16_t *p)
{
    return reinterpret_cast<const bf16 *>(p);
}

extern "C" void attention_textbook(const attention_problem *p, cudaStream_t stream)
{
    dim3 square(attention_ceil_div(p->seq, TEXTBOOK_TILE), attention_ceil_div(p->seq, TEXTBOOK_TILE), p->heads);
    textbook_scores_kernel<<<square, 256, 0, stream>>>(reinterpret_cast<const bf16 *>(p->q), bf16_of(p->k), p->scores,
                                                       p->seq, p->dim, p->scale);
    CUDA_CHECK_LAUNCH();
    unsigned rows = (unsigned)p->heads * p->seq;
    softmax_rows_kernel<float><<<rows, 256, 0, stream>>>(p->scores, p->scores, p->seq, p->causal);
    CUDA_CHECK_LAUNCH();
    dim3 out(p->dim / TEXTBOOK_TILE, attention_ceil_div(p->seq, TEXTBOOK_TILE), p->heads);
    textbook_output_kernel<<<out, 256, 0, stream>>>(p->scores, bf16_of(p->v), reinterpret_cast<bf16 *>(p->o), p->seq,
                                                    p->dim);
    CUDA_CHECK_LAUNCH();
}

extern "C" void attention_softmax_to_bf16(const attention_problem *p, cudaStream_t stream)
{
    softmax_rows_kernel<bf16><<<(unsigned)p->heads * p->seq, 256, 0, stream>>>(
        p->scores, reinterpret_cast<bf16 *>(p->probs), p->seq, p->causal);
    CUDA_CHECK_LAUNCH();
}

template <auto KERNEL_64, auto KERNEL_128>
static void launch_fused(const attention_problem *p, int rows, size_t shared_64, size_t shared_128,
                         cudaStream_t stream)
{
    dim3 grid(attention_ceil_div(p->seq, rows), p->heads);
    float scale_log2 = p->scale * ATTENTION_LOG2E;
    const bf16 *q = bf16_of(p->q), *k = bf16_of(p->k), *v = bf16_of(p->v);
    bf16 *o = reinterpret_cast<bf16 *>(p->o);
    if (p->dim == 64) {
        allow_shared_bytes<KERNEL_64>(shared_64);
        KERNEL_64<<<grid, 128, shared_64, stream>>>(q, k, v, o, p->seq, p->causal, scale_log2);
    } else {
        allow_shared_bytes<KERNEL_128>(shared_128);
        KERNEL_128<<<grid, 128, shared_128, stream>>>(q, k, v, o, p->seq, p->causal, scale_log2);
    }
    CUDA_CHECK_LAUNCH();
}

extern "C" void attention_fused_fp32(const attention_problem *p, cudaStream_t stream)
{
    launch_fused<fused_fp32_kernel<64>, fused_fp32_kernel<128>>(p, FUSED_ROWS, fused_fp32_shape<64>::SHARED_BYTES,
                                                                fused_fp32_shape<128>::SHARED_BYTES, stream);
}

extern "C" void attention_mma(const attention_problem *p, cudaStream_t stream)
{
    launch_fused<mma_kernel<64>, mma_kernel<128>>(p, MMA_ROWS, mma_shape<64>::SYNC_SHARED,
                                                  mma_shape<128>::SYNC_SHARED, stream);
}

extern "C" void attention_mma_async(const attention_problem *p, cudaStream_t stream)
{
    launch_fused<mma_async_kernel<64>, mma_async_kernel<128>>(p, MMA_ROWS, mma_shape<64>::ASYNC_SHARED,
                                                              mma_shape<128>::ASYNC_SHARED, stream);
}

extern "C" size_t attention_sm80_shared_bytes(attention_launcher *rung, int dim)
{
    bool wide = dim == 128;
    if (rung == attention_fused_fp32)
        return wide ? fused_fp32_shape<128>::SHARED_BYTES : fused_fp32_shape<64>::SHARED_BYTES;
    if (rung == attention_mma) return wide ? mma_shape<128>::SYNC_SHARED : mma_shape<64>::SYNC_SHARED;
    if (rung == attention_mma_async) return wide ? mma_shape<128>::ASYNC_SHARED : mma_shape<64>::ASYNC_SHARED;
    return 0;
}
