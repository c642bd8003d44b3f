/* Bank-conflict kernels. Shared memory has 32 banks of 4-byte words; word w
 * is in bank w mod 32. A warp's access takes one wavefront per distinct
 * word that any bank must deliver (lanes reading the same word share it, a
 * broadcast), so lanes stride words apart need gcd(stride, 32) wavefronts.
 * 8- and 16-byte accesses move 256 or 512 bytes per warp, at least 2 or 4
 * wavefronts of 128 bytes, one per half- or quarter-warp when conflict-free.
 *
 * The loads must survive the compiler: each is `ld.volatile.shared` of the
 * width under test, written in inline PTX, so that nvcc can neither hoist the
 * loop-invariant addresses out of the repeat loop nor merge or split the
 * accesses. Summing the values and storing the sum keeps them live. */
#include "smem_banks.h"

#include "harness/check/check.h"

template <int WORDS>
__device__ __forceinline__ uint32_t shared_load_sum(unsigned address);

template <>
__device__ __forceinline__ uint32_t shared_load_sum<1>(unsigned address)
{
    uint32_t a;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a) : "r"(address));
    return a;
}

template <>
__device__ __forceinline__ uint32_t shared_load_sum<2>(unsigned address)
{
    uint32_t a, b;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(address));
    return a + b;
}

template <>
__device__ __forceinline__ uint32_t shared_load_sum<4>(unsigned address)
{
    uint32_t a, b, c, d;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "r"(address));
    return a + b + c + d;
}

/* Every thread reads SMEM_BANKS_UNROLL consecutive elements starting at
 * element lane * stride, `repeats` times. Consecutive elements shift all
 * lanes by the same number of banks, so every access of the loop has the
 * conflict degree of the stride. */
template <int WORDS>
__global__ void __launch_bounds__(SMEM_BANKS_THREADS)
    sweep_kernel(const uint32_t *__restrict__ table, uint32_t *__restrict__ sums, int repeats, int stride)
{
    __shared__ __align__(16) uint32_t words[SMEM_BANKS_TABLE_ELEMENTS * WORDS];
    for (int w = threadIdx.x; w < SMEM_BANKS_TABLE_ELEMENTS * WORDS; w += blockDim.x) words[w] = table[w];
    __syncthreads();
    int lane = threadIdx.x & 31;
    unsigned base = (unsigned)__cvta_generic_to_shared(words) + lane * stride * WORDS * 4;
    uint32_t sum = 0;
    for (int r = 0; r < repeats; ++r) {
#pragma unroll
        for (int u = 0; u < SMEM_BANKS_UNROLL; ++u) sum += shared_load_sum<WORDS>(base + u * WORDS * 4);
    }
    sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/* The padding fix on the tile a transpose reads by columns: tile[32][32 + PAD]
 * holds the table's first 32 x 32 words. By rows, lane k reads tile[u][k]:
 * consecutive words. By columns, lane k reads tile[k][u]: words 32 + PAD
 * apart, all in one bank when PAD = 0 (32-way), in 32 banks when PAD = 1. */
template <int PAD, bool COLUMNS>
__global__ void __launch_bounds__(SMEM_BANKS_THREADS)
    tile_kernel(const uint32_t *__restrict__ table, uint32_t *__restrict__ sums, int repeats)
{
    __shared__ uint32_t tile[32][32 + PAD];
    for (int w = threadIdx.x; w < 32 * 32; w += blockDim.x) tile[w / 32][w % 32] = table[w];
    __syncthreads();
    int lane = threadIdx.x & 31;
    unsigned base = (unsigned)__cvta_generic_to_shared(COLUMNS ? &tile[lane][0] : &tile[0][lane]);
    const unsigned step = COLUMNS ? 4 : (32 + PAD) * 4;
    uint32_t sum = 0;
    for (int r = 0; r < repeats; ++r) {
#pragma unroll
        for (int u = 0; u < 32; ++u) sum += shared_load_sum<1>(base + u * step);
    }
    sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" void smem_banks_sweep_4(const uint32_t *table, uint32_t *sums, int blocks, int repeats, int stride,
                                   cudaStream_t stream)
{
    sweep_kernel<1><<<blocks, SMEM_BANKS_THREADS, 0, stream>>>(table, sums, repeats, stride);
}

extern "C" void smem_banks_sweep_8(const uint32_t *table, uint32_t *sums, int blocks, int repeats, int stride,
                                   cudaStream_t stream)
{
    sweep_kernel<2><<<blocks, SMEM_BANKS_THREADS, 0, stream>>>(table, sums, repeats, stride);
}

extern "C" void smem_banks_sweep_16(const uint32_t *table, uint32_t *sums, int blocks, int repeats, int stride,
                                    cudaStream_t stream)
{
    sweep_kernel<4><<<blocks, SMEM_BANKS_THREADS, 0, stream>>>(table, sums, repeats, stride);
}

extern "C" void smem_banks_tile_rows(const uint32_t *table, uint32_t *sums, int blocks, int repeats, int unused,
                                     cudaStream_t stream)
{
    (void)unused;
    tile_kernel<0, false><<<blocks, SMEM_BANKS_THREADS, 0, stream>>>(table, sums, repeats);
}

extern "C" void smem_banks_tile_columns(const uint32_t *table, uint32_t *sums, int blocks, int repeats, int unused,
                                        cudaStream_t stream)
{
    (void)unused;
    tile_kernel<0, true><<<blocks, SMEM_BANKS_THREADS, 0, stream>>>(table, sums, repeats);
}

extern "C" void smem_banks_tile_columns_padded(const uint32_t *table, uint32_t *sums, int blocks, int repeats,
                                               int unused, cudaStream_t stream)
{
    (void)unused;
    tile_kernel<1, true><<<blocks, SMEM_BANKS_THREADS, 0, stream>>>(table, sums, repeats);
}
