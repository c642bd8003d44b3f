/* Blur kernels, in ladder order. Every kernel clamps coordinates into the
 * image (the border replicated) and rounds with mean9: exact agreement with
 * blur_reference. Rows are `pitch` bytes apart; indices go through size_t. */
#include "blur.h"

#include "harness/check/check.h"

/* One pixel of C samples of type T. Four-channel pixels are aligned to their
 * size, so a pixel moves as one 4-byte (8-bit) or 8-byte (16-bit) access;
 * three 8-bit samples stay three byte accesses: the cost rung 2 removes. */
template <typename T, int C>
struct alignas(C == 4 ? 4 * sizeof(T) : sizeof(T)) pixel {
    T sample[C];
};

__device__ __forceinline__ unsigned mean9(unsigned sum) { return (sum + 4) / 9; }

__device__ __forceinline__ int clamp_index(int i, int n) { return min(max(i, 0), n - 1); }

template <typename P>
__device__ __forceinline__ const P *row_at(const void *base, size_t pitch, int y)
{
    return reinterpret_cast<const P *>(static_cast<const char *>(base) + (size_t)y * pitch);
}

template <typename P>
__device__ __forceinline__ P *row_at(void *base, size_t pitch, int y)
{
    return reinterpret_cast<P *>(static_cast<char *>(base) + (size_t)y * pitch);
}

template <typename T, int C>
__device__ __forceinline__ void accumulate(unsigned sum[C], const pixel<T, C> &p)
{
#pragma unroll
    for (int c = 0; c < C; ++c) sum[c] += p.sample[c];
}

template <typename T, int C>
__device__ __forceinline__ void store_mean(pixel<T, C> *dst, const unsigned sum[C])
{
    pixel<T, C> p;
#pragma unroll
    for (int c = 0; c < C; ++c) p.sample[c] = (T)mean9(sum[c]);
    *dst = p;
}

#define BLOCK_W 32 /* pixel rungs: a block is 32 x 8 pixels, one per thread */
#define BLOCK_H 8

static dim3 pixel_grid(int width, int height)
{
    return dim3((width + BLOCK_W - 1) / BLOCK_W, (height + BLOCK_H - 1) / BLOCK_H);
}

/* Rung 0, naive (C = 3, packed RGB): one thread per pixel, nine pixels read
 * straight from global memory, each as three byte loads. Neighbouring
 * threads read overlapping pixels, so the caches absorb most of the 9x
 * re-reading; what is left is 27 load instructions per 3 bytes written.
 * Rungs 2 and 3 (C = 4): the same kernel on pixels padded to 4 bytes, one
 * aligned 4-byte load per neighbour; rung 3 only changes the row pitch.
 * Also the generic kernel of `ladder blur` for every file format. */
template <typename T, int C>
__global__ void naive_kernel(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width, int height)
{
    typedef pixel<T, C> P;
    int x = blockIdx.x * BLOCK_W + threadIdx.x, y = blockIdx.y * BLOCK_H + threadIdx.y;
    if (x >= width || y >= height) return;
    unsigned sum[C] = {};
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy) {
        const P *row = row_at<P>(in, in_pitch, clamp_index(y + dy, height));
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx) accumulate<T, C>(sum, row[clamp_index(x + dx, width)]);
    }
    store_mean<T, C>(row_at<P>(out, out_pitch, y) + x, sum);
}

/* Rung 1 (C = 3) and rung 4 (C = 4, pitched): a 34 x 10 pixel tile, the
 * block's 32 x 8 pixels and a one-pixel halo, loaded once into shared memory
 * (each pixel read from global memory about 1.3 times instead of 9), then
 * the nine neighbours read from the tile. */
template <typename T, int C>
__global__ void shared_tile_kernel(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width,
                                   int height)
{
    typedef pixel<T, C> P;
    __shared__ P tile[BLOCK_H + 2][BLOCK_W + 2];
    int x0 = blockIdx.x * BLOCK_W - 1, y0 = blockIdx.y * BLOCK_H - 1; /* image position of tile[0][0] */
    for (int i = threadIdx.y * BLOCK_W + threadIdx.x; i < (BLOCK_H + 2) * (BLOCK_W + 2); i += BLOCK_W * BLOCK_H) {
        int ty = i / (BLOCK_W + 2), tx = i % (BLOCK_W + 2);
        tile[ty][tx] = row_at<P>(in, in_pitch, clamp_index(y0 + ty, height))[clamp_index(x0 + tx, width)];
    }
    __syncthreads();
    int x = x0 + 1 + threadIdx.x, y = y0 + 1 + threadIdx.y;
    if (x >= width || y >= height) return;
    unsigned sum[C] = {};
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
        for (int dx = 0; dx < 3; ++dx) accumulate<T, C>(sum, tile[threadIdx.y + dy][threadIdx.x + dx]);
    store_mean<T, C>(row_at<P>(out, out_pitch, y) + x, sum);
}

/* Rungs 5 and 6, the register window, on packed RGB rows that start at
 * 16-byte boundaries (pitched). The pixel rungs spend 9 loads and 27 adds per
 * pixel; here the sums are separable and the image is treated as rows of
 * bytes: a thread owns WORDS aligned 4-byte words of a row (4 or 16 bytes, a
 * warp 128 or 512 contiguous bytes) and walks WINDOW_ROWS rows down, so
 *  - every input byte is loaded once per thread column (plus 2 halo rows of
 *    WINDOW_ROWS), as the widest aligned load the row allows;
 *  - the horizontal neighbours of a byte (3 bytes left and right, the same
 *    channel of the next pixel) come from funnel shifts of adjacent words, the
 *    words at the ends of a thread's span from the neighbouring lanes by
 *    shuffle (lanes 0 and 31 load their one outer word);
 *  - the sums run two bytes at a time in 16-bit lanes of a 32-bit register
 *    (9 * 255 < 2^16), and each row's horizontal sums are kept for the next
 *    two output rows.
 * Rung 6 differs only in WORDS = 4: 16-byte loads, a quarter of the load and
 * shuffle instructions per byte. All of a thread's rows are loaded before
 * the first is used: 10 independent loads in flight per thread.
 * Measured shapes (7680x4320, H100, ratio to cudaMemcpy; rows per thread x
 * warps per block): 8 x 4 (this one) 0.855-0.862; 8 x 2 0.865; 12 x 4 0.866;
 * 16 x 4 0.820; 8 x 8 0.822; 6 x 4 0.781; 4 x 4 0.761; 8 x 4 capped at 64
 * registers (8 blocks an SM) 0.703. Ncu on this shape: DRAM 71 % of peak,
 * SM throughput 75 %, 95 registers, 5 blocks (31 % occupancy) an SM: latency and
 * instruction issue share the limit, so neither taller windows (fewer halo
 * re-reads, more registers) nor more warps (fewer registers, more re-reads)
 * buy anything.
 * Rung 7, LEAN, the same window on an instruction diet, because on the H200
 * (40 % more bandwidth than the H100) rung 6 stops at 0.70 of cudaMemcpy,
 * out of issue slots: about 20 instructions per output byte. Warps with no
 * byte next to a row end skip the edge fix-ups (warp-uniform: only the first
 * and last warp of a row take them); the odd bytes go to 16-bit lanes with
 * one byte permute instead of a shift and a mask; the division by 9 takes a
 * multiply-high per 16-bit lane straight from the packed sums, and three
 * byte permutes pack the four means. Measured steps on the H200 (ratio to
 * cudaMemcpy, one run each): rung 6 0.698; two divisions per multiply alone
 * 0.722; edge fast path alone 0.768; both 0.852; with the byte permutes
 * (this code) 0.896, and 0.956 on the H100. */
#define WINDOW_ROWS 8  /* output rows per thread */
#define WINDOW_WARPS 4 /* warps per block, stacked down the image */
#define FULL_MASK 0xFFFFFFFFu

template <int WORDS>
__device__ __forceinline__ void load_words(const uint8_t *row, int chunk, uint32_t w[WORDS])
{
    if constexpr (WORDS == 4) {
        uint4 v = reinterpret_cast<const uint4 *>(row)[chunk];
        w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    } else {
        w[0] = reinterpret_cast<const uint32_t *>(row)[chunk];
    }
}

template <int WORDS>
__device__ __forceinline__ void store_words(uint8_t *row, int chunk, const uint32_t w[WORDS])
{
    if constexpr (WORDS == 4) reinterpret_cast<uint4 *>(row)[chunk] = make_uint4(w[0], w[1], w[2], w[3]);
    else reinterpret_cast<uint32_t *>(row)[chunk] = w[0];
}

/* Horizontal sums of the four bytes of `centre` (row bytes first_byte..+3),
 * as 16-bit lanes: *even holds bytes 0 and 2, *odd bytes 1 and 3. `before`
 * and `after` are the words either side. At the row's ends a byte's missing
 * neighbour is itself (the replicated border pixel). */
template <bool EDGES, bool LEAN>
__device__ __forceinline__ void horizontal_sums(uint32_t before, uint32_t centre, uint32_t after, int first_byte,
                                                int row_bytes, uint32_t *even, uint32_t *odd)
{
    uint32_t left = __funnelshift_r(before, centre, 8);  /* bytes first_byte-3 .. first_byte */
    uint32_t right = __funnelshift_r(centre, after, 24); /* bytes first_byte+3 .. first_byte+6 */
    if (EDGES) {
        if (first_byte == 0) left = (left & 0xFF000000u) | (centre & 0x00FFFFFFu); /* first pixel */
        int first_clamped = row_bytes - 3 - first_byte; /* bytes from here on are in the last pixel (or past it) */
        if (first_clamped < 4) {
            uint32_t last = first_clamped <= 0 ? FULL_MASK : FULL_MASK << (8 * first_clamped);
            right = (right & ~last) | (centre & last);
        }
    }
    const uint32_t lanes = 0x00FF00FFu;
    *even = (left & lanes) + (centre & lanes) + (right & lanes);
    if (LEAN) /* bytes 1 and 3 to 16-bit lanes: one permute each (selector 0x4341: b1, 0, b3, 0) */
        *odd = __byte_perm(left, 0, 0x4341) + __byte_perm(centre, 0, 0x4341) + __byte_perm(right, 0, 0x4341);
    else
        *odd = ((left >> 8) & lanes) + ((centre >> 8) & lanes) + ((right >> 8) & lanes);
}

/* The four means of a word from its 3x3 sums in 16-bit lanes (even: bytes 0
 * and 2, odd: bytes 1 and 3; each at most 9 x 255). (s + 4) / 9 is
 * (s + 4) * 7282 / 2^16, exact for s + 4 < 2^12: for the low lane as the
 * high word of (s << 16) * 7282, for the high lane as the high word of the
 * packed pair times 7282 (the low lane adds under 2^-8 to the fraction,
 * never a carry). Three byte permutes pack the four quotients. */
__device__ __forceinline__ uint32_t mean9_word(uint32_t even, uint32_t odd)
{
    even += 0x00040004u;
    odd += 0x00040004u;
    uint32_t low = __byte_perm(__umulhi(even << 16, 7282u), __umulhi(odd << 16, 7282u), 0x0040); /* b0, b1 */
    uint32_t high = __byte_perm(__umulhi(even, 7282u), __umulhi(odd, 7282u), 0x0040);             /* b2, b3 */
    return __byte_perm(low, high, 0x5410);
}

/* The window's output rows from its loaded words (rungs 5 to 7, above). */
template <int WORDS, bool EDGES, bool LEAN>
__device__ __forceinline__ void window_rows(const uint32_t (&words)[WINDOW_ROWS + 2][WORDS],
                                            const uint32_t (&outer_left)[WINDOW_ROWS + 2],
                                            const uint32_t (&outer_right)[WINDOW_ROWS + 2], uint8_t *out,
                                            size_t out_pitch, int chunk, bool active, int y0, int height,
                                            int row_bytes)
{
    const int lane = threadIdx.x;
    uint32_t even[3][WORDS], odd[3][WORDS]; /* horizontal sums of the last three rows, by r % 3 */
#pragma unroll
    for (int r = 0; r < WINDOW_ROWS + 2; ++r) {
        uint32_t before = __shfl_up_sync(FULL_MASK, words[r][WORDS - 1], 1);
        uint32_t after = __shfl_down_sync(FULL_MASK, words[r][0], 1);
        if (lane == 0) before = outer_left[r];
        if (lane == 31) after = outer_right[r];
#pragma unroll
        for (int k = 0; k < WORDS; ++k)
            horizontal_sums<EDGES, LEAN>(k == 0 ? before : words[r][k - 1], words[r][k],
                                         k == WORDS - 1 ? after : words[r][k + 1], (chunk * WORDS + k) * 4,
                                         row_bytes, &even[r % 3][k], &odd[r % 3][k]);
        int y = y0 + r - 2;
        if (r < 2 || y >= height || !active) continue;
        uint32_t result[WORDS];
#pragma unroll
        for (int k = 0; k < WORDS; ++k) {
            uint32_t e = even[0][k] + even[1][k] + even[2][k], o = odd[0][k] + odd[1][k] + odd[2][k];
            if (LEAN)
                result[k] = mean9_word(e, o);
            else
                result[k] = mean9(e & 0xFFFF) | mean9(o & 0xFFFF) << 8 | mean9(e >> 16) << 16 | mean9(o >> 16) << 24;
        }
        store_words<WORDS>(out + (size_t)y * out_pitch, chunk, result);
    }
}

template <int WORDS, bool LEAN>
__global__ void __launch_bounds__(32 * WINDOW_WARPS)
    window_kernel(const uint8_t *in, size_t in_pitch, uint8_t *out, size_t out_pitch, int width, int height)
{
    const int lane = threadIdx.x; /* blockDim.x is 32: a warp is one threadIdx.y */
    const int row_bytes = 3 * width;
    const int chunks = (row_bytes + 4 * WORDS - 1) / (4 * WORDS);
    const int chunk = blockIdx.x * 32 + lane;
    const bool active = chunk < chunks; /* inactive lanes still take part in the shuffles */
    const int y0 = (blockIdx.y * WINDOW_WARPS + threadIdx.y) * WINDOW_ROWS;
    if (y0 >= height) return; /* the whole warp */

    /* Rows y0-1 .. y0+WINDOW_ROWS, clamped into the image. */
    uint32_t words[WINDOW_ROWS + 2][WORDS], outer_left[WINDOW_ROWS + 2], outer_right[WINDOW_ROWS + 2];
#pragma unroll
    for (int r = 0; r < WINDOW_ROWS + 2; ++r) {
        const uint8_t *row = in + (size_t)clamp_index(y0 - 1 + r, height) * in_pitch;
        const uint32_t *row_words = reinterpret_cast<const uint32_t *>(row);
#pragma unroll
        for (int k = 0; k < WORDS; ++k) words[r][k] = 0;
        if (active) load_words<WORDS>(row, chunk, words[r]);
        outer_left[r] = lane == 0 && chunk > 0 ? row_words[chunk * WORDS - 1] : 0;
        outer_right[r] = lane == 31 && chunk + 1 < chunks ? row_words[(chunk + 1) * WORDS] : 0;
    }
    /* A warp none of whose bytes has a neighbour past the row's ends skips
     * the edge fix-ups (warp-uniform, so the shuffles stay converged). */
    const bool interior = LEAN && blockIdx.x > 0 && (blockIdx.x * 32 + 32) * 4 * WORDS + 3 <= row_bytes;
    if (interior)
        window_rows<WORDS, false, LEAN>(words, outer_left, outer_right, out, out_pitch, chunk, active, y0, height,
                                        row_bytes);
    else
        window_rows<WORDS, true, LEAN>(words, outer_left, outer_right, out, out_pitch, chunk, active, y0, height,
                                       row_bytes);
}

/* ---- launchers ---- */

template <typename T, int C>
static void launch_naive(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width, int height,
                         cudaStream_t stream)
{
    naive_kernel<T, C><<<pixel_grid(width, height), dim3(BLOCK_W, BLOCK_H), 0, stream>>>(in, in_pitch, out,
                                                                                          out_pitch, width, height);
    CUDA_CHECK_LAUNCH();
}

extern "C" void blur_naive(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width, int height,
                           int channels, cudaStream_t stream)
{
    if (channels == 4) launch_naive<uint8_t, 4>(in, in_pitch, out, out_pitch, width, height, stream);
    else launch_naive<uint8_t, 3>(in, in_pitch, out, out_pitch, width, height, stream);
}

extern "C" void blur_shared_tile(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width,
                                 int height, int channels, cudaStream_t stream)
{
    dim3 grid = pixel_grid(width, height), block(BLOCK_W, BLOCK_H);
    if (channels == 4)
        shared_tile_kernel<uint8_t, 4><<<grid, block, 0, stream>>>(in, in_pitch, out, out_pitch, width, height);
    else
        shared_tile_kernel<uint8_t, 3><<<grid, block, 0, stream>>>(in, in_pitch, out, out_pitch, width, height);
    CUDA_CHECK_LAUNCH();
}

template <int WORDS, bool LEAN = false>
static void launch_window(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width, int height,
                          int channels, cudaStream_t stream)
{
    if (channels != 3 || in_pitch % 16 || out_pitch % 16)
        ladder_die("blur window kernels take packed RGB rows at 16-byte boundaries");
    int chunks = (3 * width + 4 * WORDS - 1) / (4 * WORDS);
    int strips = (height + WINDOW_ROWS - 1) / WINDOW_ROWS;
    dim3 grid((chunks + 31) / 32, (strips + WINDOW_WARPS - 1) / WINDOW_WARPS);
    window_kernel<WORDS, LEAN><<<grid, dim3(32, WINDOW_WARPS), 0, stream>>>(
        static_cast<const uint8_t *>(in), in_pitch, static_cast<uint8_t *>(out), out_pitch, width, height);
    CUDA_CHECK_LAUNCH();
}

extern "C" void blur_window_4byte(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width,
                                  int height, int channels, cudaStream_t stream)
{
    launch_window<1>(in, in_pitch, out, out_pitch, width, height, channels, stream);
}

extern "C" void blur_window_16byte(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width,
                                   int height, int channels, cudaStream_t stream)
{
    launch_window<4>(in, in_pitch, out, out_pitch, width, height, channels, stream);
}

extern "C" void blur_window_lean(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width,
                                 int height, int channels, cudaStream_t stream)
{
    launch_window<4, true>(in, in_pitch, out, out_pitch, width, height, channels, stream);
}

extern "C" void blur_generic(const void *in, void *out, int width, int height, int channels, int sample_bytes,
                             cudaStream_t stream)
{
    size_t pitch = (size_t)width * channels * sample_bytes;
    if (sample_bytes == 1 && channels == 3) launch_naive<uint8_t, 3>(in, pitch, out, pitch, width, height, stream);
    else if (sample_bytes == 1) launch_naive<uint8_t, 4>(in, pitch, out, pitch, width, height, stream);
    else if (channels == 3) launch_naive<uint16_t, 3>(in, pitch, out, pitch, width, height, stream);
    else launch_naive<uint16_t, 4>(in, pitch, out, pitch, width, height, stream);
}

__global__ void repack_kernel(const uint8_t *in, size_t in_pitch, int in_channels, uint8_t *out, size_t out_pitch,
                              int out_channels, int width, int height)
{
    int x = blockIdx.x * BLOCK_W + threadIdx.x, y = blockIdx.y * BLOCK_H + threadIdx.y;
    if (x >= width || y >= height) return;
    const uint8_t *src = in + (size_t)y * in_pitch + (size_t)x * in_channels;
    uint8_t *dst = out + (size_t)y * out_pitch + (size_t)x * out_channels;
    for (int c = 0; c < out_channels; ++c) dst[c] = c < in_channels ? src[c] : 0;
}

extern "C" void blur_repack(const uint8_t *in, size_t in_pitch, int in_channels, uint8_t *out, size_t out_pitch,
                            int out_channels, int width, int height, cudaStream_t stream)
{
    repack_kernel<<<pixel_grid(width, height), dim3(BLOCK_W, BLOCK_H), 0, stream>>>(
        in, in_pitch, in_channels, out, out_pitch, out_channels, width, height);
    CUDA_CHECK_LAUNCH();
}
