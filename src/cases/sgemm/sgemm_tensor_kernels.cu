/* SGEMM's tensor-core rungs, the top of the ladder: TF32 (tf32, at reduced
 * precision, against cuBLAS's TF32) and 3xTF32 (3xtf32, FP32 accuracy from
 * three TF32 passes) on mma.sync, their tiles brought in by cp.async. */
#include "sgemm_tiles.cuh"

#include "harness/hardware/shared_memory.cuh"

/* ---- Tensor cores: TF32 and 3xTF32 (sm_80+) -----------------------------------
 * The FP32 rungs (the other sgemm_*_kernels.cu) use the FMA lanes alone.
 * These two feed the tensor cores with mma.sync.m16n8k8 in TF32 (1 sign, 8
 * exponent, 10 mantissa bits), FP32 accumulation: on Hopper the TF32 tensor
 * rate is about 7x the FP32 FMA rate.
 *   tf32 (PASSES = 1): each operand rounded to TF32 once; A*B in one pass.
 *     Error about 4e-4 relative, a tolerance of its own (sgemm.c).
 *   3xtf32 (PASSES = 3): x = hi + lo with hi = tf32(x), lo = tf32(x - hi);
 *     A*B = Ahi*Blo + Alo*Bhi + Ahi*Bhi (Alo*Blo, 2^-22 of the product,
 *     dropped): three tensor passes recover FP32 accuracy (docs/cases/
 *     sgemm-tensor.md has the argument and the measured errors).
 * Both: 128 x 128 blocks of 8 warps of 64 x 32, k-tiles of 32, the swizzled
 * block order of the FP32 rungs. Fragment layout in shared memory: A
 * row-major with rows BK + 4 floats apart, so that the 8 rows an ldmatrix
 * phase reads fall in 8 different 16-byte bank groups (ldmatrix.b16 moves
 * 32-bit words: lane l gets word l % 4 of row l / 4, the m16n8k8 A
 * fragment); B row-major with rows BN + 8 apart, so that the fragment's
 * scalar loads (k = lane % 4, n = lane / 4) hit bank 8 (lane % 4) + lane / 4:
 * all 32 banks.
 * SUM_OUTSIDE (3xtf32): the tensor core adds each product into its FP32
 * accumulator with truncation (round toward zero), which biases a long sum
 * toward zero: 3xtf32 accumulating in place (C = acc) measured a relative
 * error of 2.9e-5 against the double reference at 4096^3 (H100), 25x cuBLAS
 * FP32's 1.2e-6. So each k-tile's products are summed in the tensor core
 * into a fresh partial (from zero), and the partial is added to the
 * accumulator with an FP32 FADD, which rounds to nearest: the truncation then
 * acts only on partials of 32 terms, without a common sign. Error 3.1e-7, at
 * 0.89x the speed (0.835 against 0.938 of cuBLAS, first version).
 * Measured at 4096^3 on the H100 (ratio to cuBLAS FP32, same process):
 *   tf32 from the ring (PATH_RING, 2 blocks an SM)        2.97-3.00
 *        from the split pass below (1 block an SM)        2.42-2.45
 *   3xtf32 with A split once a block, B in registers      1.347 (PATH_SPLIT_A)
 *        the same, 3 raw stages                           1.333
 *        A and B both split once a block (hi, lo in
 *        shared memory)                                   1.308-1.321
 *        from the ring, 3 / 5 stages                      1.170 / 1.178
 *        split pass with k-tiles of 16, 4 stages          1.079
 *        128 x 64 blocks of 4 warps, k16, 2 blocks an SM  1.059
 *        the first split pass, chunk roles chosen at run
 *        time (integer divisions in the loop: 1260
 *        instructions a k-tile for 192 HMMA, now 623)     0.835
 * The limiter of 3xtf32 (Nsight Compute, H100, PATH_SPLIT_A): the tensor
 * pipe busy 64% of cycles, shared memory (L1) 57%, issue slots 35%, 2 warps
 * a scheduler (214-221 registers: 64 accumulators, 64 partials, 48 fragment
 * registers) with 0.49 eligible: latency-bound at one block an SM. The
 * 1.5x target needs the pipe near 75%: more warps (the partials leave no
 * registers for a second block), or wgmma, which reads both operands from
 * shared memory, frees the fragment registers and issues 4x fewer
 * instructions a FLOP (not done: TF32 wgmma needs both operands K-major,
 * so B must be transposed on the way in). */
/* How a k-tile reaches the MMAs.
 * SPLIT_A (3xtf32): each thread owns a fixed set of 16-byte chunks of every
 * k-tile of A and B; it copies them (cp.async) into its own slots of a
 * STAGES-deep raw ring, and later moves them itself into the split buffer
 * that the MMAs read: A split into hi and lo (once a block, not once for each
 * of the 4 warps that read it), B unsplit (2 warps read each B element: each
 * warp splits its B fragments in registers, which halves B's shared-memory
 * traffic; splitting B once a block too measured 1.308-1.321 against 1.347).
 * The raw slots are private, so a thread's own wait_group is all the
 * ordering they need. The split buffer is double: the split of tile t + 1,
 * interleaved with the MMAs of tile t so that its integer and FP32 work
 * issues between tensor instructions, writes one half while the MMAs read
 * the other; one barrier a k-tile.
 * RING (tf32): the cp.async ring of the FP32 rungs, in the fragment layout;
 * each warp rounds its own fragments in registers. One pass needs 127
 * registers, so two blocks an SM hide each other's barriers. */
enum tensor_path { PATH_SPLIT_A, PATH_RING };

template <int BM, int BN, int BK, int WARPS_M, int WARPS_N, int STAGES, int PASSES, int PATH>
struct tensor_shape {
    static constexpr bool RING = PATH == PATH_RING;
    static constexpr int THREADS = WARPS_M * WARPS_N * 32;
    static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;
    static constexpr int MI = WM / 16, NI = WN / 8; /* m16 and n8 tiles of a warp */
    static constexpr int A_LD = BK + 4, B_LD = BN + 8;
    static constexpr int PARTS = PASSES == 1 ? 1 : 2; /* A's: hi, and lo for 3xtf32 */
    static constexpr int A_FLOATS = BM * A_LD, B_FLOATS = BK * B_LD;
    static constexpr int SPLIT_FLOATS = PARTS * A_FLOATS + B_FLOATS; /* A's parts, B unsplit */
    static constexpr int A_CHUNKS = BM * BK / 4, B_CHUNKS = BK * BN / 4;
    static constexpr int CHUNKS = (A_CHUNKS + B_CHUNKS) / THREADS; /* a thread's, per k-tile */
    static constexpr int RAW_FLOATS = BM * BK + BK * BN;
    static constexpr int RING_FLOATS = A_FLOATS + B_FLOATS;
    /* Where B starts in a tile of the fragment layout: after A's parts. */
    static constexpr int B_AT = (RING ? 1 : PARTS) * A_FLOATS;
    static constexpr int MIN_BLOCKS = RING && PASSES == 1 ? 2 : 1;
    static constexpr size_t SHARED_BYTES =
        (size_t)(RING ? STAGES * RING_FLOATS : 2 * SPLIT_FLOATS + STAGES * RAW_FLOATS) * sizeof(float);
    static_assert(WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "whole m16n8k8 tiles");
    static_assert(A_CHUNKS % THREADS == 0 && B_CHUNKS % THREADS == 0, "whole chunks a thread");
    static_assert(CHUNKS % (BK / 8) == 0, "the split spreads evenly over the k-steps");
    static_assert(SHARED_BYTES <= 227 * 1024, "fits Hopper's 227 KB a block");
    static_assert(PASSES == 1 || PASSES == 3, "tf32 or 3xtf32");
};

__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1,
                                         const float *c)
{
#if __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
          "f"(c[3]));
#endif
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const float *p)
{
#if __CUDA_ARCH__ >= 800
    unsigned shared = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared));
#endif
}

/* A thread's chunks of a k-tile. A: chunk i (i < A_PER) is row
 * threadIdx.x / (BK/4) + i A_STEP, k 4 (threadIdx.x % (BK/4)); B: chunk i is
 * row threadIdx.x / (BN/4) + i B_STEP, column 4 (threadIdx.x % (BN/4)). A
 * quarter warp covers 128 contiguous bytes of one row, in global memory, in
 * the raw ring (A's chunk i at float 4 (threadIdx.x + i THREADS), B's after
 * A's) and in the split buffer: none of the three accesses has a bank
 * conflict. Which chunks are A's is known at compile time, so that no index
 * needs a run-time division (the first version chose per chunk at run time:
 * integer divisions in the loop, 6.6 instructions per HMMA). */
template <int BM, int BN, int BK, int WARPS_M, int WARPS_N, int STAGES, int PASSES, int PATH, bool VEC>
struct tensor_chunks {
    using shape = tensor_shape<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, PATH>;
    static constexpr bool RING = shape::RING;
    static constexpr int A_PER = shape::A_CHUNKS / shape::THREADS, B_PER = shape::B_CHUNKS / shape::THREADS;
    static constexpr int A_STEP = shape::THREADS / (BK / 4), B_STEP = shape::THREADS / (BN / 4);
    static_assert(shape::THREADS % (BK / 4) == 0 && shape::THREADS % (BN / 4) == 0, "whole rows a pass");

    const float *a_src, *b_src; /* chunk 0's first element at k0 = 0 */
    int a_rows_left, a_k, b_k, b_cols_left;
    int a_split, b_split; /* chunk 0's offset in the split buffer */

    __device__ tensor_chunks(const float *a, const float *b, int m, int n, int k, int block_row, int block_col)
    {
        int t = threadIdx.x;
        int a_row = t / (BK / 4), b_col = t % (BN / 4) * 4;
        a_k = t % (BK / 4) * 4;
        b_k = t / (BN / 4);
        a_src = a + (size_t)(block_row + a_row) * k + a_k;
        b_src = b + (size_t)b_k * n + block_col + b_col;
        a_rows_left = m - block_row - a_row;
        b_cols_left = n - block_col - b_col;
        a_split = a_row * shape::A_LD + a_k;
        b_split = shape::B_AT + b_k * shape::B_LD + b_col;
    }

    /* Start the copies of this thread's chunks of the k-tile at k0 into a
     * raw stage. */
    __device__ __forceinline__ void copy(float *raw, int n, int k, int k0) const
    {
        /* RING: straight into the fragment layout (PARTS = 1: B after A);
         * else into this thread's private slots. */
        float *a_dst = RING ? raw + a_split : raw + 4 * threadIdx.x;
        float *b_dst = RING ? raw + b_split : raw + 4 * threadIdx.x + 4 * shape::A_CHUNKS;
        constexpr int A_NEXT = RING ? A_STEP * shape::A_LD : 4 * shape::THREADS;
        constexpr int B_NEXT = RING ? B_STEP * shape::B_LD : 4 * shape::THREADS;
#pragma unroll
        for (int i = 0; i < A_PER; ++i) {
            const float *src = a_src + (size_t)i * A_STEP * k + k0;
            bool row_inside = i * A_STEP < a_rows_left;
            if (VEC) copy_async_16(a_dst + i * A_NEXT, src, row_inside && a_k + k0 < k);
            else
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    copy_async_4(a_dst + i * A_NEXT + j, src + j, row_inside && a_k + k0 + j < k);
        }
#pragma unroll
        for (int i = 0; i < B_PER; ++i) {
            const float *src = b_src + (size_t)(k0 + i * B_STEP) * n;
            bool row_inside = b_k + k0 + i * B_STEP < k;
            if (VEC) copy_async_16(b_dst + i * B_NEXT, src, row_inside && b_cols_left > 0);
            else
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    copy_async_4(b_dst + i * B_NEXT + j, src + j, row_inside && j < b_cols_left);
        }
    }

    /* Move chunk c (A's first, then B's) of this thread from a raw stage
     * into the split buffer: A's as hi = tf32(x) and, for 3xtf32, lo =
     * tf32(x - hi) (x - hi is exact); B's as they are. Two integer operations
     * a rounding: cvt.rna.tf32.f32 compiles to the same two plus a test for
     * infinity. */
    __device__ __forceinline__ void split(float *split_buffer, const float *raw, int c) const
    {
        bool is_a = c < A_PER;
        int i = is_a ? c : c - A_PER;
        const float *x_at = raw + 4 * threadIdx.x + (is_a ? 0 : 4 * shape::A_CHUNKS) + 4 * i * shape::THREADS;
        float *hi = split_buffer + (is_a ? a_split + i * A_STEP * shape::A_LD : b_split + i * B_STEP * shape::B_LD);
        float4 x = *reinterpret_cast<const float4 *>(x_at);
        if (!is_a) {
            *reinterpret_cast<float4 *>(hi) = x;
            return;
        }
        float4 h = make_float4(sgemm_tf32_round(x.x), sgemm_tf32_round(x.y), sgemm_tf32_round(x.z),
                               sgemm_tf32_round(x.w));
        *reinterpret_cast<float4 *>(hi) = h;
        if (PASSES == 3) /* lo sits one array further */
            *reinterpret_cast<float4 *>(hi + shape::A_FLOATS) =
                make_float4(sgemm_tf32_round(x.x - h.x), sgemm_tf32_round(x.y - h.y), sgemm_tf32_round(x.z - h.z),
                            sgemm_tf32_round(x.w - h.w));
    }
};

/* One k-step (8 deep) of a warp's MI x NI tiles, pass by pass: the three
 * MMAs into one accumulator depend on each other, and MI x NI others issue
 * between them. The small products first, before the step's large one joins
 * the sum. FRESH: d starts from zero (the first step of a partial). */
template <int PASSES, int MI, int NI>
__device__ __forceinline__ void mma_step(float (&d)[MI][NI][4], const uint32_t (&a_hi)[MI][4],
                                         const uint32_t (&a_lo)[MI][4], const uint32_t (&b_hi)[NI][2],
                                         const uint32_t (&b_lo)[NI][2], bool fresh)
{
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int pass = 0; pass < PASSES; ++pass)
#pragma unroll
        for (int mi = 0; mi < MI; ++mi)
#pragma unroll
            for (int ni = 0; ni < NI; ++ni) {
                bool a_small = PASSES == 3 && pass == 1, b_small = PASSES == 3 && pass == 0;
                const uint32_t(&b)[2] = b_small ? b_lo[ni] : b_hi[ni];
                mma_tf32(d[mi][ni], a_small ? a_lo[mi] : a_hi[mi], b[0], b[1],
                         fresh && pass == 0 ? zero : d[mi][ni]);
            }
}

/* acc[mi][ni] of a warp whose tiles start at (row0, col0): rows g and g + 8
 * of the m16 tile, columns 2 (lane % 4) and + 1 of the n8 tile (g = lane /
 * 4); 8-byte stores where n is even and C 8-byte aligned. */
template <int MI, int NI>
__device__ __forceinline__ void store_fragments(float *__restrict__ c, int m, int n, int row0, int col0,
                                                const float (&acc)[MI][NI][4])
{
    int lane = threadIdx.x % 32;
    bool pairs = n % 2 == 0 && (uintptr_t)c % 8 == 0;
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            int row = row0 + mi * 16 + lane / 4 + half * 8;
            if (row >= m) continue;
#pragma unroll
            for (int ni = 0; ni < NI; ++ni) {
                int col = col0 + ni * 8 + lane % 4 * 2;
                float *dst = c + (size_t)row * n + col;
                float x = acc[mi][ni][2 * half], y = acc[mi][ni][2 * half + 1];
                if (pairs && col < n) *reinterpret_cast<float2 *>(dst) = make_float2(x, y);
                else {
                    if (col < n) dst[0] = x;
                    if (col + 1 < n) dst[1] = y;
                }
            }
        }
}

/* A warp's fragments for one k-step from a tile in the fragment layout (A_LO:
 * A's lo one array after its hi). ldmatrix: lane l addresses row l % 16, k
 * (l / 16) 4 of an m16 tile; B: k = lane % 4 (and + 4), n = lane / 4. */
template <bool A_LO, int MI, int NI, int A_LD, int B_LD, int A_FLOATS>
__device__ __forceinline__ void load_fragments(const float *a_tile, const float *b_tile, uint32_t (&a_hi)[MI][4],
                                               uint32_t (&a_lo)[MI][4], uint32_t (&b)[NI][2])
{
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
        ldmatrix_x4(a_hi[mi], a_tile + mi * 16 * A_LD);
        if (A_LO) ldmatrix_x4(a_lo[mi], a_tile + A_FLOATS + mi * 16 * A_LD);
    }
#pragma unroll
    for (int ni = 0; ni < NI; ++ni) {
        const float *p = b_tile + ni * 8;
        b[ni][0] = __float_as_uint(p[0]), b[ni][1] = __float_as_uint(p[4 * B_LD]);
    }
}

/* hi = tf32(x) and, for 3xtf32, lo = tf32(x - hi), in registers: a warp's
 * own fragments (B's for both rungs, A's too for tf32). */
/* SUM_OUTSIDE: a k-tile's products, summed from zero in `part`, added to
 * the accumulator in FP32. */
template <int MI, int NI>
__device__ __forceinline__ void add_tile_sums(float (&acc)[MI][NI][4], const float (&part)[MI][NI][4])
{
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int ni = 0; ni < NI; ++ni)
#pragma unroll
            for (int j = 0; j < 4; ++j) acc[mi][ni][j] += part[mi][ni][j];
}

template <int PASSES, int COUNT>
__device__ __forceinline__ void split_registers(uint32_t (&hi)[COUNT], uint32_t (&lo)[COUNT])
{
#pragma unroll
    for (int j = 0; j < COUNT; ++j) {
        float x = __uint_as_float(hi[j]), h = sgemm_tf32_round(x);
        hi[j] = __float_as_uint(h);
        if (PASSES == 3) lo[j] = __float_as_uint(sgemm_tf32_round(x - h));
    }
}

template <int BM, int BN, int BK, int WARPS_M, int WARPS_N, int STAGES, int PASSES, bool SUM_OUTSIDE, int PATH,
          bool VEC>
__global__ void __launch_bounds__(WARPS_M *WARPS_N * 32,
                                  (tensor_shape<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, PATH>::MIN_BLOCKS))
    tensor_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int n,
                  int k)
{
#if __CUDA_ARCH__ >= 800
    using shape = tensor_shape<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, PATH>;
    using chunks = tensor_chunks<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, PATH, VEC>;
    constexpr bool RING = shape::RING;
    constexpr int MI = shape::MI, NI = shape::NI, STEPS = BK / 8;
    extern __shared__ float4 tensor_shared[];
    float *shared = reinterpret_cast<float *>(tensor_shared);

    int tile_m, tile_n;
    sgemm_swizzled_tile(blockIdx.x, ceil_div(m, BM), ceil_div(n, BN), 8, &tile_m, &tile_n);
    int block_row = tile_m * BM, block_col = tile_n * BN;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int warp_row = warp / WARPS_N * shape::WM, warp_col = warp % WARPS_N * shape::WN;
    /* Where this lane's fragments start in a tile of the fragment layout. */
    int a_offset = (warp_row + lane % 16) * shape::A_LD + lane / 16 * 4;
    int b_offset = shape::B_AT + lane % 4 * shape::B_LD + warp_col + lane / 4;
    const chunks mine(a, b, m, n, k, block_row, block_col);

    float acc[MI][NI][4] = {};
    float part[MI][NI][4];
    float(&sums)[MI][NI][4] = SUM_OUTSIDE ? part : acc;
    int tiles = ceil_div(k, BK);

    if (RING) {
        /* The ring of the FP32 pipelined rungs: tile t + STAGES - 1 copies
         * while tile t multiplies; each warp splits its own fragments. */
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            if (s < tiles) mine.copy(shared + s * shape::RING_FLOATS, n, k, s * BK);
            copy_async_commit();
        }
        for (int t = 0; t < tiles; ++t) {
            copy_async_wait<STAGES - 2>();
            __syncthreads();
            int next = t + STAGES - 1;
            if (next < tiles) mine.copy(shared + next % STAGES * shape::RING_FLOATS, n, k, next * BK);
            copy_async_commit();
            const float *tile = shared + t % STAGES * shape::RING_FLOATS;
#pragma unroll
            for (int step = 0; step < STEPS; ++step) {
                uint32_t a_hi[MI][4], a_lo[MI][4], b_hi[NI][2], b_lo[NI][2];
                load_fragments<false, MI, NI, shape::A_LD, shape::B_LD, shape::A_FLOATS>(
                    tile + a_offset + step * 8, tile + b_offset + step * 8 * shape::B_LD, a_hi, a_lo, b_hi);
#pragma unroll
                for (int mi = 0; mi < MI; ++mi) split_registers<PASSES>(a_hi[mi], a_lo[mi]);
#pragma unroll
                for (int ni = 0; ni < NI; ++ni) split_registers<PASSES>(b_hi[ni], b_lo[ni]);
                mma_step<PASSES>(sums, a_hi, a_lo, b_hi, b_lo, SUM_OUTSIDE && step == 0);
            }
            if (SUM_OUTSIDE) add_tile_sums(acc, part);
        }
    } else {
        float *split_buffers = shared;
        float *raw_ring = split_buffers + 2 * shape::SPLIT_FLOATS;
        /* Tiles 0 .. STAGES-1 in flight, one commit group each (empty past
         * the end, so that "tile t + 1 has landed" is always "STAGES - 1
         * pending"). */
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            if (s < tiles) mine.copy(raw_ring + s * shape::RAW_FLOATS, n, k, s * BK);
            copy_async_commit();
        }
        copy_async_wait<STAGES - 1>();
#pragma unroll
        for (int i = 0; i < shape::CHUNKS; ++i) mine.split(split_buffers, raw_ring, i);
        __syncthreads();
        if (STAGES < tiles) mine.copy(raw_ring, n, k, STAGES * BK);
        copy_async_commit();

        for (int t = 0; t < tiles; ++t) {
            /* This thread's chunks of tile t + 1 have landed. */
            copy_async_wait<STAGES - 1>();
            const float *now = split_buffers + (t & 1) * shape::SPLIT_FLOATS;
            float *next = split_buffers + ((t + 1) & 1) * shape::SPLIT_FLOATS;
            /* After the last tile there is no next one: the split then
             * repeats the last tile's own (landed, not refilled) chunks into
             * the idle half, harmless, rather than branch around the split
             * and cut the MMAs it is interleaved with into separate blocks. */
            const float *raw_next = raw_ring + (t + 1 < tiles ? t + 1 : t) % STAGES * shape::RAW_FLOATS;
#pragma unroll
            for (int step = 0; step < STEPS; ++step) {
                uint32_t a_hi[MI][4], a_lo[MI][4], b_hi[NI][2], b_lo[NI][2];
                load_fragments<PASSES == 3, MI, NI, shape::A_LD, shape::B_LD, shape::A_FLOATS>(
                    now + a_offset + step * 8, now + b_offset + step * 8 * shape::B_LD, a_hi, a_lo, b_hi);
#pragma unroll
                for (int ni = 0; ni < NI; ++ni) split_registers<PASSES>(b_hi[ni], b_lo[ni]);
                /* This step's share of the next tile's split. */
#pragma unroll
                for (int i = step * (shape::CHUNKS / STEPS); i < (step + 1) * (shape::CHUNKS / STEPS); ++i)
                    mine.split(next, raw_next, i);
                mma_step<PASSES>(sums, a_hi, a_lo, b_hi, b_lo, SUM_OUTSIDE && step == 0);
            }
            if (SUM_OUTSIDE) add_tile_sums(acc, part);
            /* Every warp is done with tile t's split half (refilled next
             * iteration) and has written tile t + 1's; this thread's reads
             * of the raw slot of tile t + 1 are complete before the copy
             * below reuses it. */
            __syncthreads();
            if (t + 1 + STAGES < tiles)
                mine.copy(raw_ring + (t + 1) % STAGES * shape::RAW_FLOATS, n, k, (t + 1 + STAGES) * BK);
            copy_async_commit();
        }
    }
    store_fragments(c, m, n, block_row + warp_row, block_col + warp_col, acc);
#endif
}

/* ---- Launchers ---------------------------------------------------------------- */

/* Each configuration named once, for its launcher and for its shared memory. */
template <int BM, int BN, int BK, int WARPS_M, int WARPS_N, int STAGES, int PASSES, bool SUM_OUTSIDE, int PATH>
static void launch_tensor(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    using shape = tensor_shape<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, PATH>;
    int blocks = ceil_div(m, BM) * ceil_div(n, BN);
    if (k % 4 == 0 && n % 4 == 0 && aligned16(a) && aligned16(b)) {
        constexpr auto kernel = tensor_kernel<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, SUM_OUTSIDE, PATH, true>;
        allow_shared_bytes<kernel>(shape::SHARED_BYTES);
        kernel<<<blocks, shape::THREADS, shape::SHARED_BYTES, stream>>>(a, b, c, m, n, k);
    } else {
        constexpr auto kernel = tensor_kernel<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, SUM_OUTSIDE, PATH, false>;
        allow_shared_bytes<kernel>(shape::SHARED_BYTES);
        kernel<<<blocks, shape::THREADS, shape::SHARED_BYTES, stream>>>(a, b, c, m, n, k);
    }
}

#define TENSOR_TF32 128, 128, 32, 2, 4, 3, 1, false, PATH_RING
#define TENSOR_3XTF32 128, 128, 32, 2, 4, 2, 3, true, PATH_SPLIT_A

extern "C" void sgemm_tf32(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    launch_tensor<TENSOR_TF32>(a, b, c, m, n, k, stream);
}

extern "C" void sgemm_3xtf32(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream)
{
    launch_tensor<TENSOR_3XTF32>(a, b, c, m, n, k, stream);
}

template <int BM, int BN, int BK, int WARPS_M, int WARPS_N, int STAGES, int PASSES, bool SUM_OUTSIDE, int PATH>
static constexpr size_t tensor_shared_bytes()
{
    return tensor_shape<BM, BN, BK, WARPS_M, WARPS_N, STAGES, PASSES, PATH>::SHARED_BYTES;
}

size_t sgemm_tensor_shared_bytes(sgemm_launcher *rung)
{
    if (rung == sgemm_tf32) return tensor_shared_bytes<TENSOR_TF32>();
    if (rung == sgemm_3xtf32) return tensor_shared_bytes<TENSOR_3XTF32>();
    return 0;
}
