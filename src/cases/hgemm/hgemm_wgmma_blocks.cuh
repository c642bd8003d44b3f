/* The wgmma building blocks of hgemm_warp_specialized.cuh's kernel: a
 * warpgroup's k-tile of wgmma, its stores of C (from registers, or through
 * shared memory and TMA stores), and the sum of a tile's slices of K in
 * their cluster. sm_90a only, as that header. */
#ifndef LADDER_HGEMM_WGMMA_BLOCKS_CUH
#define LADDER_HGEMM_WGMMA_BLOCKS_CUH

#include "hgemm_tiles.cuh"

/* A warpgroup's share of a wgmma tile: 64 rows of A (a_rows: the
 * descriptor of 64 swizzled 128-byte rows) against BN rows of B^T (b_rows),
 * one k-tile (4 steps of 16, each 32 bytes on).
 * The descriptors come in formed, each k-step's by an add to them
 * (wgmma_descriptor_advance), and the warp-specialized consumers form
 * theirs once, for stage 0. Formed from each step's address, as first
 * written, they took most of a consumer's instructions: at a 64 x 80 tile
 * (one consumer, its four wgmmas 160 clocks of the tensor pipe) the loop
 * ran 82 instructions a k-tile, now 44. Nsight Compute at 77 x 5000 x 3000
 * (H200, the profiler's clocks): 22.7K cycles against 23.7K, 1.16M
 * instructions against 1.77M (cuBLAS 19.9K, 0.99M); the consumers now
 * wait mostly on their stage's bytes. H200, one call, two rounds, us,
 * against the build before: swap_ab 17.8 against 18.7-18.9 at 200 x 3000 x
 * 4000, 17.0 against 17.5-17.8 at 100 and 90 x 4000 x 4000, 14.8 against
 * 15.1-15.3 at 64 and 16 x 4096 x 4096, 15.4 against 15.7-15.9 at 150 x
 * 3000 x 3000, 15.5 against 15.6-15.8 at 77 x 5000 x 3000; narrow_tiles
 * 22.3-22.4 against 24.0-24.2 at 240 x 5120 x 4096; within 1% at the
 * other shapes measured (eleven of swap_ab, two of narrow_tiles, split_k
 * at 256 x 256 x 65536 and 128 x 4096 x 14336, persistent_multicast at the
 * three squares). */
template <int BN, bool OVERWRITE = false>
__device__ __forceinline__ void wgmma_k_tile(float (&acc)[BN / 2], uint64_t a_rows, uint64_t b_rows)
{
    static_assert(!OVERWRITE || BN <= 256, "one wgmma a k-step");
    if constexpr (BN > 256) {
        /* Past wgmma's widest (n256), two halves: each BN / 2 rows of B,
         * the second's 1024-byte-aligned when BN is a multiple of 16, and
         * each half's accumulators laid out as the whole's would be. */
        constexpr int HALF = BN / 2;
        wgmma_k_tile<HALF>(*reinterpret_cast<float(*)[HALF / 2]>(acc), a_rows, b_rows);
        wgmma_k_tile<HALF>(*reinterpret_cast<float(*)[HALF / 2]>(acc + HALF / 2), a_rows,
                           wgmma_descriptor_advance(b_rows, HALF * HGEMM_ROW_BYTES));
    } else {
        /* OVERWRITE: the first k-step overwrites the accumulators */
        wgmma_ss_bf16<BN, OVERWRITE>(acc, a_rows, b_rows);
#pragma unroll
        for (int step = 1; step < HGEMM_TILE_K / 16; ++step)
            wgmma_ss_bf16<BN>(acc, wgmma_descriptor_advance(a_rows, 32 * step),
                              wgmma_descriptor_advance(b_rows, 32 * step));
    }
}

/* A warpgroup's 64 x BN accumulator of an m x n product into C at (row0,
 * col0): warp w holds rows 16 w + lane / 4 and + 8. TRANSPOSED: the product
 * is C^T (swap_ab), so element (row, col) goes to C[col][row], C being
 * n x m row-major; a warp's store then covers 4 rows of C with 8
 * consecutive floats each, whole 32-byte sectors. CHECKED: the tile may
 * cross C's edge, and each store tests its place. */
template <int BN, bool TRANSPOSED, bool CHECKED>
__device__ __forceinline__ void wgmma_store_tile(float *__restrict__ c, int m, int n, int row0, int col0,
                                                 const float (&acc)[BN / 2])
{
    int warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
    int row = row0 + 16 * warp + lane / 4;
    if constexpr (TRANSPOSED) {
        /* One pointer walks the columns, 8 m floats a step: an address per
         * element would not fit beside 128 accumulators in the 168
         * registers the kernel is compiled for (it spilled). */
        float *column = c + (size_t)(col0 + 2 * (lane % 4)) * m + row;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j, column += (size_t)8 * m) {
            int col = col0 + 8 * j + 2 * (lane % 4);
            if (!CHECKED || col < n) {
                if (!CHECKED || row < m) column[0] = acc[4 * j];
                if (!CHECKED || row + 8 < m) column[8] = acc[4 * j + 2];
            }
            if (!CHECKED || col + 1 < n) {
                if (!CHECKED || row < m) column[m] = acc[4 * j + 1];
                if (!CHECKED || row + 8 < m) column[m + 8] = acc[4 * j + 3];
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
            int col = col0 + 8 * j + 2 * (lane % 4);
            if constexpr (CHECKED) {
                store_pair(c, m, n, row, col, acc[4 * j], acc[4 * j + 1]);
                store_pair(c, m, n, row + 8, col, acc[4 * j + 2], acc[4 * j + 3]);
            } else {
                float *at = c + (size_t)row * n + col;
                *reinterpret_cast<float2 *>(at) = make_float2(acc[4 * j], acc[4 * j + 1]);
                *reinterpret_cast<float2 *>(at + 8 * (size_t)n) = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
            }
        }
    }
}

/* A tile wholly inside C (all but the edge tiles; for 8-byte stores, N
 * even) stores without a test, in code of its own: tests that choose per
 * store cost every tile the edge tiles' branches (sgemm's 3xtf32_wgmma ran
 * 20% slower with them). */
template <int BN, bool TRANSPOSED = false>
__device__ __forceinline__ void wgmma_store(float *__restrict__ c, int m, int n, int row0, int col0,
                                            const float (&acc)[BN / 2])
{
    if (row0 + 64 <= m && col0 + BN <= n && (TRANSPOSED || n % 2 == 0))
        wgmma_store_tile<BN, TRANSPOSED, false>(c, m, n, row0, col0, acc);
    else
        wgmma_store_tile<BN, TRANSPOSED, true>(c, m, n, row0, col0, acc);
}

/* Rows of C a TMA store writes at once: a box of 64 rows by 32 floats
 * (one 128-byte line each, 8 KB), staged in shared memory with the
 * 128-byte swizzle; each consumer warpgroup has BUFFERS such buffers. */
constexpr int WS_STORE_COLS = 32, WS_STORE_BUFFER_BYTES = 64 * WS_STORE_COLS * 4;

/* Chunk `chunk` (columns 32 chunk ..) of a warpgroup's 64 x BN
 * accumulator into the buffer at `buffer`, as c_map's box lies there.
 * An 8-byte store is served a half-warp at a time: rows r to r + 3, whose
 * 32 bytes of one column group land in 16-byte chunks (2 g) ^ r and (2 g
 * + 1) ^ r, the same 8 banks for rows r and r ^ 1. Odd rows therefore
 * write group g ^ 2 while even rows write g, and the four rows of a
 * half-warp fill the 32 banks once; the two rows of a thread (row, row +
 * 8) are alike in parity and swizzle. Nsight Compute at 4096^3 (H200,
 * 2026-11-29): 0.68M wavefronts of shared stores where the rows r and r ^
 * 1 of a group met (2-way: 1.22M, 0.67M of them conflicts, now 0.13M),
 * 233.8 against 239.7 us at its fixed clock; a timeline's tile change 4.4-
 * 5.4K clocks where it was 5.1-5.5K. At the clocks the card chose, one
 * call, two rounds, against the build before: 573.9, 572.9 against 575.9,
 * 575.2 us at 6144^3; 1.355, 1.353 against 1.361, 1.355 ms at 8192^3;
 * 38.8, 39.0 against 39.6, 39.6 us at 4096 x 4096 x 512; 4096^3 within
 * its throttling's noise (180.4, 186.6 against 180.5, 185.7). */
template <int BN>
__device__ __forceinline__ void wgmma_write_chunk(uint32_t buffer, int chunk, const float (&acc)[BN / 2])
{
    static_assert(WS_STORE_COLS / 8 == 4, "a chunk's column groups pair as g and g ^ 2");
    int warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32, row = 16 * warp + lane / 4;
    bool odd_row = row % 2;
    uint32_t swizzle = (uint32_t)(row % 8) ^ (odd_row ? 4u : 0u);
#pragma unroll
    for (int group = 0; group < WS_STORE_COLS / 8; ++group) {
        int j = chunk * (WS_STORE_COLS / 8) + group, j_odd = chunk * (WS_STORE_COLS / 8) + (group ^ 2);
        /* Columns 8 group + 2 (lane % 4), + 1 (of group ^ 2 in odd rows):
         * 16-byte chunk 2 group + lane % 4 / 2 of the row's line (^ 4 in
         * odd rows), swizzled by the row. */
        uint32_t within = (uint32_t)(lane % 2) * 8, line_chunk = 2 * group + (lane % 4) / 2;
        uint32_t at = buffer + row * 128 + ((line_chunk ^ swizzle) << 4) + within;
        store_shared_pair(at, odd_row ? acc[4 * j_odd] : acc[4 * j], odd_row ? acc[4 * j_odd + 1] : acc[4 * j + 1]);
        store_shared_pair(at + 8 * 128, odd_row ? acc[4 * j_odd + 2] : acc[4 * j + 2],
                          odd_row ? acc[4 * j_odd + 3] : acc[4 * j + 3]);
    }
}

/* A warpgroup's 64 x BN accumulator into C at (row0, col0) through its
 * BUFFERS buffers at `buffers` and TMA stores of 32 columns (c_map: C in
 * boxes of 32 x 64), which clip at C's edges: the warpgroup writes a buffer, one
 * thread sends it, and the warpgroup goes on to the next while the copy
 * engine writes C, so that the stores of a tile drain under the next
 * tile's multiplies. Named barrier `barrier` (128 threads) orders the
 * warpgroup's writes before the send and the send's read of a buffer
 * before its next writes. `sent` counts the chunks the warpgroup has sent
 * in all its tiles so far: the buffers take turns across tiles, so that
 * the one written next is always the one sent longest ago. Counted from
 * each tile's first chunk, as first written, a tile of 224 columns (7
 * chunks) began in the buffer its last chunk had just been sent from,
 * whose copy could still be reading it: persistent_multicast failed 4 of
 * 24 checks at 2200 x 4700 x 200 (224 wide, H100, 2026-11-28), and 2 of 48
 * at it and 1048 x 2499 x 66 in a second call, beside 0 of 48 with the
 * turns kept across tiles. compute-sanitizer never saw it: its tools run
 * the copies too slowly for a race. Chunks FIRST to END - 1 only, where
 * a consumer stores a tile's chunks at different times (HOLDS_C). */
template <int BN, int BUFFERS, int FIRST = 0, int END = BN / WS_STORE_COLS>
__device__ __forceinline__ void wgmma_store_through_tma(const CUtensorMap &c_map, uint32_t buffers, int barrier,
                                                        int row0, int col0, const float (&acc)[BN / 2], int &sent)
{
    bool sender = threadIdx.x % 128 == 0;
#pragma unroll
    for (int chunk = FIRST; chunk < END; ++chunk, ++sent) {
        uint32_t buffer = buffers + (uint32_t)(sent % BUFFERS) * WS_STORE_BUFFER_BYTES;
        /* The send of BUFFERS chunks ago, from this buffer, has read it. */
        if (sender) bulk_wait<BUFFERS - 1, true>();
        named_barrier_sync(barrier, 128);
        wgmma_write_chunk<BN>(buffer, chunk, acc);
        fence_async_shared();
        named_barrier_sync(barrier, 128);
        if (sender) {
            tma_store_2d(&c_map, col0 + chunk * WS_STORE_COLS, row0, buffer);
            bulk_commit();
        }
    }
}

/* A consumer's products in its ring for the in-cluster sum: quad q of
 * every thread, then quad q + 1 (16 bytes a thread). */
constexpr uint32_t WS_SUM_QUAD_STRIDE = 128 * 16;

/* Block `rank`'s share of a tile's sum over its SLICES blocks: quads
 * rank, rank + SLICES, ... of this thread (at `mine` in every block), added
 * in rank order and stored as wgmma_store would. The loads of IN_FLIGHT
 * quads are issued before the first of their sums: a warp issues in order,
 * and with each quad's loads followed by its sum, as first written, the
 * warp waited out a round trip to its peers' shared memory for every quad.
 * 8 quads (32 registers) beside one or two consumers, 4 beside three (152
 * registers each); with 16 the 192-row kernels and the 128-row ones 208
 * wide and wider spilled, and with 8 the 192-row ones still did. H200, one
 * call, two rounds, swap_ab against the build before (us, ratio to cuBLAS
 * in the same round), 2026-11-29: 20.42 against 21.25-21.44 at 100 x 3072
 * x 8192 (1.03 against 0.99), 21.8-21.9 against 22.9-23.1 at 128 x 3072 x
 * 8192 (0.98 against 0.93), 16.2-16.3 against 17.2-17.4 at 128 x 4096 x
 * 4096, 15.65 against 16.6-16.8 at 80 x 4096 x 4096, 16.0 against 17.0-17.1
 * at 100 x 4096 x 4096, 38.1 against 39.0-39.3 at 128 x 4096 x 14336;
 * level where no slices meet in a cluster. 16 quads beside one consumer
 * (no spills there), in a second call: level with 8 at those ten shapes. */
template <int BN, bool TRANSPOSED, int SLICES, int IN_FLIGHT>
__device__ __forceinline__ void wgmma_sum_own_quads(uint32_t mine, float *__restrict__ c, int m, int n, int row0,
                                                    int col0)
{
    constexpr int QUADS = BN / 8, OWN = (QUADS + SLICES - 1) / SLICES, BATCH = IN_FLIGHT / SLICES;
    int thread = threadIdx.x % 128, row = row0 + 16 * (thread / 32) + thread % 32 / 4;
    int rank = (int)cluster_rank();
    uint32_t there[SLICES];
#pragma unroll
    for (int r = 0; r < SLICES; ++r) there[r] = cluster_shared_address(mine, (uint32_t)r);
#pragma unroll
    for (int first = 0; first < OWN; first += BATCH) {
        float4 part[BATCH][SLICES];
#pragma unroll
        for (int i = 0; i < BATCH; ++i) {
            int q = rank + (first + i) * SLICES;
#pragma unroll
            for (int r = 0; r < SLICES; ++r)
                if (first + i < OWN && q < QUADS)
                    part[i][r] = load_cluster_shared_quad(there[r] + q * WS_SUM_QUAD_STRIDE);
        }
#pragma unroll
        for (int i = 0; i < BATCH; ++i) {
            int q = rank + (first + i) * SLICES;
            if (first + i >= OWN || q >= QUADS) break;
            float4 sum = part[i][0];
#pragma unroll
            for (int r = 1; r < SLICES; ++r)
                sum.x += part[i][r].x, sum.y += part[i][r].y, sum.z += part[i][r].z, sum.w += part[i][r].w;
            /* quad q is wgmma's columns 8 q + 2 (lane % 4), + 1, of rows row and row + 8 */
            int col = col0 + 8 * q + 2 * (thread % 4);
            const float value[2][2] = {{sum.x, sum.y}, {sum.z, sum.w}};
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 2; ++b)
                    if (row + 8 * a < m && col + b < n)
                        c[TRANSPOSED ? (size_t)(col + b) * m + row + 8 * a : (size_t)(row + 8 * a) * n + col + b] =
                            value[a][b];
        }
    }
}

/* The `slices` blocks of a cluster (2 or 4) have each multiplied one slice
 * of K of the same tile (SUM_IN_CLUSTER); their products meet in
 * distributed shared memory, not in partials in global memory summed by a
 * second kernel. Each consumer writes its accumulators into its block's
 * ring (free once every consumer's last multiply has read its stage),
 * thread by thread in 16-byte quads, so that the same thread of every
 * block finds its own quads at the same address. After the cluster's
 * barrier, block r adds quads r, r + slices, ... of every thread over the
 * blocks in rank order (the same order for every element and every run:
 * deterministic) and stores them (wgmma_sum_own_quads). Named barrier 3
 * (the consumers). The thread then makes its last arrival on the cluster's
 * barrier (the kernel waits on it before it leaves), relaxed: its loads
 * from its peers are done, their values stored, and a releasing arrival
 * would wait for those stores to reach L2. */
template <int BN, bool TRANSPOSED, int CONSUMERS>
__device__ __forceinline__ void wgmma_sum_slices_in_cluster(uint32_t ring, int consumer, int slices,
                                                            float *__restrict__ c, int m, int n, int row0, int col0,
                                                            const float (&acc)[BN / 2])
{
    uint32_t mine = ring + ((uint32_t)consumer * (BN / 8) * 128 + threadIdx.x % 128) * 16;
    named_barrier_sync(3, 128 * CONSUMERS);
#pragma unroll
    for (int q = 0; q < BN / 8; ++q)
        store_shared_quad(mine + q * WS_SUM_QUAD_STRIDE,
                          make_float4(acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]));
    cluster_sync();
    constexpr int IN_FLIGHT = CONSUMERS == 3 ? 4 : 8;
    if (slices == 2)
        wgmma_sum_own_quads<BN, TRANSPOSED, 2, IN_FLIGHT>(mine, c, m, n, row0, col0);
    else
        wgmma_sum_own_quads<BN, TRANSPOSED, 4, IN_FLIGHT>(mine, c, m, n, row0, col0);
    cluster_arrive_relaxed();
}

#endif
