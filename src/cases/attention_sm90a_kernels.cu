/* Attention rung 6: Hopper. Built only for sm_90a (its own object library,
 * as hgemm's Hopper rungs: wgmma and setmaxnreg exist on no other target)
 * and run on compute capability 9.0 only. Q, K and V tiles come from 3D
 * tensor maps ([heads][S][D], attention.h), which fill rows past S with
 * zeros, so the kernel has no edge code but its masks and stores. */
#include <cudaTypedefs.h>
#include <stdio.h>

#include "../harness/check.h"
#include "attention_tiles.cuh"

/* The dynamic shared memory base rounded up to 1024 bytes: the 128-byte
 * swizzle repeats every 8 rows of 128 bytes, and TMA and wgmma both assume
 * a tile starts at that period. */
__device__ __forceinline__ uint8_t *aligned_1024(uint8_t *p)
{
    return reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(p) + 1023) & ~(uintptr_t)1023);
}

/* A block owns 128 query rows (2 consumer warpgroups of 64) and walks the
 * keys in tiles of 128, K and V each in a ring of 2 stages. Tiles of Q, K
 * and V are all 128 rows: D / 64 panels of 128 x 128 bytes. */
constexpr int WS_ROWS = 128, WS_KEYS = 128, WS_STAGES = 2;
constexpr int WS_THREADS = 384, WS_PRODUCER_REGISTERS = 40, WS_CONSUMER_REGISTERS = 232;
constexpr int WS_PANEL_BYTES = 128 * 128;

template <int D>
struct ws_shape {
    static constexpr int TILE_BYTES = WS_ROWS * D * 2;
    static constexpr int BARRIERS = 1 + 4 * WS_STAGES;
    static constexpr size_t SHARED_BYTES = (size_t)(1 + 2 * WS_STAGES) * TILE_BYTES + BARRIERS * 8 + 1024;
    static_assert(SHARED_BYTES <= 227 * 1024, "fits Hopper's 227 KB a block");
};

/* The 128-row tile at `row` of head `head` (D / 64 boxes), counted on
 * `full`. */
template <int D>
__device__ __forceinline__ void tma_load_rows(uint32_t tile, const CUtensorMap &map, int row, int head, uint64_t *full)
{
    mbarrier_arrive_expect_bytes(full, ws_shape<D>::TILE_BYTES);
#pragma unroll
    for (int panel = 0; panel < D / 64; ++panel)
        tma_load_3d(tile + panel * WS_PANEL_BYTES, &map, 64 * panel, row, head, full);
}

/* Rung 6: the Hopper path. Warp 0 of warpgroup 0 produces: one thread
 * issues the TMA copies of Q once and of each K and V tile into a 2-stage
 * ring, K and V on barriers of their own, so that Q K^T can start while V
 * still arrives; the warpgroup gives its registers back (setmaxnreg 40).
 * Warpgroups 1 and 2 consume, 64 query rows each, with up to 232
 * registers: S = Q K^T by wgmma m64n128k16 with both operands from shared
 * memory (Q's descriptor at its 64 rows, K's as hgemm's B), the online
 * softmax on the accumulator (the mma.sync layout, per warp), P rounded
 * into wgmma A fragments in registers, and O += P V by wgmma with A from
 * registers and V read N-major through the transposing descriptor. A stage
 * is released as soon as the product that read it is done.
 * Should move from mma.sync's issue rate (rung 5) toward the wgmma rate;
 * inside a warpgroup the softmax still waits for Q K^T and P V for the
 * softmax, so the tensor pipe idles while the FP32 and MUFU pipes work,
 * hidden only by the other warpgroup. */
template <int D>
__global__ void __launch_bounds__(WS_THREADS, 1)
    wgmma_ws_kernel(const __grid_constant__ CUtensorMap q_map, const __grid_constant__ CUtensorMap k_map,
                    const __grid_constant__ CUtensorMap v_map, bf16 *__restrict__ o, int seq, int causal,
                    float scale_log2)
{
    typedef ws_shape<D> W;
    extern __shared__ uint8_t raw_shared[];
    uint8_t *shared = aligned_1024(raw_shared);
    uint32_t q_tile = smem_address(shared);
    auto k_stage = [&](int s) { return q_tile + (uint32_t)(1 + s) * W::TILE_BYTES; };
    auto v_stage = [&](int s) { return q_tile + (uint32_t)(1 + WS_STAGES + s) * W::TILE_BYTES; };
    uint64_t *q_full = reinterpret_cast<uint64_t *>(shared + (1 + 2 * WS_STAGES) * W::TILE_BYTES);
    uint64_t *k_full = q_full + 1, *v_full = k_full + WS_STAGES, *k_empty = v_full + WS_STAGES,
             *v_empty = k_empty + WS_STAGES;
    int head = blockIdx.y, q0 = blockIdx.x * WS_ROWS;
    int keys_end = causal ? min(seq, q0 + WS_ROWS) : seq;
    int tiles = attention_ceil_div(keys_end, WS_KEYS);
    if (threadIdx.x == 0) {
        mbarrier_init(q_full, 1);
        for (int s = 0; s < WS_STAGES; ++s) {
            mbarrier_init(&k_full[s], 1);
            mbarrier_init(&v_full[s], 1);
            mbarrier_init(&k_empty[s], 8); /* the 8 consumer warps */
            mbarrier_init(&v_empty[s], 8);
        }
        mbarrier_init_fence();
    }
    __syncthreads();
    int warpgroup = threadIdx.x / 128;
    if (warpgroup == 0) {
        setmaxnreg_decrease<WS_PRODUCER_REGISTERS>();
        if (threadIdx.x != 0) return;
        tma_load_rows<D>(q_tile, q_map, q0, head, q_full);
        for (int t = 0; t < tiles; ++t) {
            int s = t % WS_STAGES;
            uint32_t phase = (uint32_t)(t / WS_STAGES) & 1;
            mbarrier_wait(&k_empty[s], phase ^ 1);
            tma_load_rows<D>(k_stage(s), k_map, t * WS_KEYS, head, &k_full[s]);
            mbarrier_wait(&v_empty[s], phase ^ 1);
            tma_load_rows<D>(v_stage(s), v_map, t * WS_KEYS, head, &v_full[s]);
        }
        return;
    }
    setmaxnreg_increase<WS_CONSUMER_REGISTERS>();
    int consumer = warpgroup - 1, warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
    int row0 = q0 + 64 * consumer + 16 * warp;
    uint32_t q_rows = q_tile + 64 * consumer * 128;
    float acc[D / 2], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};
#pragma unroll
    for (int i = 0; i < D / 2; ++i) acc[i] = 0.0f;
    mbarrier_wait(q_full, 0);
    for (int t = 0; t < tiles; ++t) {
        int s = t % WS_STAGES, key0 = t * WS_KEYS;
        uint32_t phase = (uint32_t)(t / WS_STAGES) & 1;
        float scores[WS_KEYS / 2];
#pragma unroll
        for (int i = 0; i < WS_KEYS / 2; ++i) scores[i] = 0.0f;
        mbarrier_wait(&k_full[s], phase);
        wgmma_fence();
#pragma unroll
        for (int step = 0; step < D / 16; ++step) {
            uint32_t offset = (step / 4) * WS_PANEL_BYTES + 32 * (step % 4);
            wgmma_m64n128k16_bf16(scores, wgmma_descriptor_sw128(q_rows + offset),
                                  wgmma_descriptor_sw128(k_stage(s) + offset));
        }
        wgmma_commit();
        wgmma_wait<0>();
        if (lane == 0) mbarrier_arrive(&k_empty[s]);
#pragma unroll
        for (int i = 0; i < WS_KEYS / 2; ++i) scores[i] *= scale_log2;
        bool masked = key0 + WS_KEYS > seq || (causal && key0 + WS_KEYS - 1 > row0);
        float alpha[2];
        online_softmax(scores, m, l, alpha, masked, row0, key0, seq, causal, lane);
        rescale_rows(acc, alpha);
        uint32_t pf[WS_KEYS / 16][4];
#pragma unroll
        for (int step = 0; step < WS_KEYS / 16; ++step) {
            pf[step][0] = pack_bf16(scores[8 * step], scores[8 * step + 1]);
            pf[step][1] = pack_bf16(scores[8 * step + 2], scores[8 * step + 3]);
            pf[step][2] = pack_bf16(scores[8 * step + 4], scores[8 * step + 5]);
            pf[step][3] = pack_bf16(scores[8 * step + 6], scores[8 * step + 7]);
        }
        mbarrier_wait(&v_full[s], phase);
        wgmma_fence();
#pragma unroll
        for (int step = 0; step < WS_KEYS / 16; ++step) {
            uint64_t v_desc = wgmma_descriptor_sw128_n_major(v_stage(s) + step * 16 * 128, WS_PANEL_BYTES);
            if constexpr (D == 128)
                wgmma_m64n128k16_bf16_rs_n_major(acc, pf[step], v_desc);
            else
                wgmma_m64n64k16_bf16_rs_n_major(acc, pf[step], v_desc);
        }
        wgmma_commit();
        wgmma_wait<0>();
        if (lane == 0) mbarrier_arrive(&v_empty[s]);
    }
    store_rows(o + (size_t)head * seq * D, acc, l, row0, seq, D, lane);
}

/* ---- Tensor maps and launchers ---------------------------------------------------- */

static int encode_map(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap *map, const uint16_t *tensor, int heads,
                      int seq, int dim, char *err, size_t err_len)
{
    cuuint64_t dims[3] = {(cuuint64_t)dim, (cuuint64_t)seq, (cuuint64_t)heads};
    cuuint64_t strides[2] = {(cuuint64_t)dim * 2, (cuuint64_t)seq * dim * 2};
    cuuint32_t box[3] = {64, WS_ROWS, 1}, element_strides[3] = {1, 1, 1};
    CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, (void *)tensor, dims, strides, box, element_strides,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        snprintf(err, err_len, "cuTensorMapEncodeTiled failed (CUresult %d) for a %d x %d x %d tensor", (int)r, heads,
                 seq, dim);
        return -1;
    }
    return 0;
}

extern "C" int attention_encode_tensor_maps(attention_problem *p, char *err, size_t err_len)
{
    void *entry = NULL;
    cudaDriverEntryPointQueryResult found;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &found);
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !entry) {
        snprintf(err, err_len, "the driver has no cuTensorMapEncodeTiled (%s)", cudaGetErrorString(e));
        return -1;
    }
    PFN_cuTensorMapEncodeTiled_v12000 encode = (PFN_cuTensorMapEncodeTiled_v12000)entry;
    if (encode_map(encode, &p->q_map, p->q, p->heads, p->seq, p->dim, err, err_len) ||
        encode_map(encode, &p->k_map, p->k, p->heads, p->seq, p->dim, err, err_len) ||
        encode_map(encode, &p->v_map, p->v, p->heads, p->seq, p->dim, err, err_len))
        return -1;
    return 0;
}

template <auto KERNEL>
static void allow_shared_bytes(size_t bytes)
{
    static bool opted_in = false;
    if (!opted_in) {
        CUDA_CHECK(cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        opted_in = true;
    }
}

template <int D>
static void launch_wgmma_ws(const attention_problem *p, cudaStream_t stream)
{
    constexpr auto kernel = wgmma_ws_kernel<D>;
    allow_shared_bytes<kernel>(ws_shape<D>::SHARED_BYTES);
    dim3 grid(attention_ceil_div(p->seq, WS_ROWS), p->heads);
    kernel<<<grid, WS_THREADS, ws_shape<D>::SHARED_BYTES, stream>>>(p->q_map, p->k_map, p->v_map,
                                                                   reinterpret_cast<bf16 *>(p->o), p->seq, p->causal,
                                                                   p->scale * ATTENTION_LOG2E);
    CUDA_CHECK_LAUNCH();
}

extern "C" void attention_wgmma_ws(const attention_problem *p, cudaStream_t stream)
{
    if (p->dim == 64)
        launch_wgmma_ws<64>(p, stream);
    else
        launch_wgmma_ws<128>(p, stream);
}

extern "C" size_t attention_sm90a_shared_bytes(attention_launcher *rung, int dim)
{
    if (rung == attention_wgmma_ws) return dim == 128 ? ws_shape<128>::SHARED_BYTES : ws_shape<64>::SHARED_BYTES;
    return 0;
}
