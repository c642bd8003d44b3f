/* Reduction kernels, in ladder order: the classic sequence of block-level
 * tree reductions (interleaved, sequential, unrolled), then grid-stride
 * accumulation, warp shuffles, 16-byte loads and a single pass. Each block
 * sums its share into one partial; the multi-pass rungs relaunch themselves on
 * the partials until one value is left, and all of those launches are in the
 * timed region. Indices are 64-bit: n may exceed 2^31. */
#include "reduce.h"

#include <cub/device/device_reduce.cuh>

#include "harness/check/check.h"

static_assert(REDUCE_THREADS >= 64 && (REDUCE_THREADS & (REDUCE_THREADS - 1)) == 0,
              "the unrolled trees need a power-of-two block of at least two warps");

/* ---- pass drivers ---- */

int reduce_pass_counts(long long n, long long per_block, long long *counts, int max)
{
    int passes = 0;
    for (long long count = n;; count = (count + per_block - 1) / per_block) {
        if (passes < max) counts[passes] = count;
        ++passes;
        if (count <= per_block) return passes;
    }
}

size_t reduce_partials_capacity(long long n)
{
    long long counts[64];
    int passes = reduce_pass_counts(n, REDUCE_THREADS, counts, 64);
    size_t total = 0;
    for (int p = 0; p < passes; ++p) total += (size_t)((counts[p] + REDUCE_THREADS - 1) / REDUCE_THREADS);
    return total;
}

/* Launch `kernel` on n elements, then on its partial sums, until one block
 * is left; that last launch writes `out`. Every pass writes its partials
 * after the previous pass's, so no pass reads what it overwrites. */
template <typename Kernel>
static void run_passes(Kernel kernel, long long per_block, const float *in, float *out, long long n,
                       const reduce_workspace *w, cudaStream_t stream)
{
    long long counts[64];
    int passes = reduce_pass_counts(n, per_block, counts, 64);
    const float *src = in;
    float *dst = w->partials;
    for (int p = 0; p < passes; ++p) {
        long long blocks = (counts[p] + per_block - 1) / per_block;
        float *target = p == passes - 1 ? out : dst;
        kernel<<<(unsigned)blocks, REDUCE_THREADS, 0, stream>>>(src, target, counts[p]);
        src = target;
        dst = target + blocks;
    }
}

/* Blocks that fill every SM once at the kernel's occupancy, for the
 * grid-stride rungs. A host-side query of microseconds, issued while the GPU
 * is still busy with earlier work (CUB makes the same queries on every call). */
template <typename Kernel>
static long long one_wave_blocks(Kernel kernel, int block = REDUCE_THREADS)
{
    int device, sms, per_sm;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    return (long long)sms * (per_sm > 0 ? per_sm : 1);
}

/* One wave of blocks, but no more blocks than there are first iterations. */
static unsigned grid_stride_blocks(long long wave, long long n, long long per_block_iteration)
{
    long long needed = (n + per_block_iteration - 1) / per_block_iteration;
    long long blocks = needed < wave ? needed : wave;
    return (unsigned)(blocks > 0 ? blocks : 1);
}

/* ---- shared pieces of the block reductions ---- */

/* Halve the active threads each step, thread t adding s[t + half]: the active
 * threads stay contiguous (whole warps retire together) and consecutive
 * threads touch consecutive words (no bank conflicts). Stops once `stop`
 * threads are left. */
__device__ void halving_tree(float *s, unsigned tid, unsigned stop)
{
    for (unsigned half = blockDim.x / 2; half > stop; half >>= 1) {
        if (tid < half) s[tid] += s[tid + half];
        __syncthreads();
    }
}

/* The last 64 partials, reduced by warp 0 alone, without block barriers.
 * The classic version relied on the 32 lanes running in lockstep and only
 * declared s volatile. Since Volta, lanes of a warp are scheduled
 * independently, so that is a race: a lane may read s[tid + offset] before
 * its neighbour has written it, or after the neighbour has already overwritten
 * it with the next step's value. __syncwarp() between the read and the write
 * of each step, and again before the next read, makes it correct; volatile
 * keeps each access a real shared-memory access. Call with tid < 32. */
__device__ float warp_tail_sum(volatile float *s, unsigned tid)
{
    float v = s[tid];
#pragma unroll
    for (unsigned offset = 32; offset > 0; offset >>= 1) {
        v += s[tid + offset];
        __syncwarp();
        s[tid] = v;
        __syncwarp();
    }
    return v;
}

/* The halving tree with the block size known at compile time: every step's
 * condition and the loop itself disappear. s[tid] holds the thread's value
 * and the block has passed a barrier. Returns the sum in thread 0. */
template <int BLOCK>
__device__ float block_tree_sum(float *s, unsigned tid)
{
    if (BLOCK >= 1024) { if (tid < 512) s[tid] += s[tid + 512]; __syncthreads(); }
    if (BLOCK >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
    if (BLOCK >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
    if (BLOCK >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
    return tid < 32 ? warp_tail_sum(s, tid) : 0.0f;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* Two-stage block sum in registers: each warp reduces its 32 values with
 * shuffles, lane 0 of each warp leaves one value in shared memory, and warp 0
 * reduces those. One barrier instead of log2(BLOCK). Returns the sum in
 * thread 0. A second call in the same kernel needs a barrier in between. */
template <int BLOCK>
__device__ float block_shuffle_sum(float v)
{
    __shared__ float warp_sums[BLOCK / 32];
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_sum(lane < BLOCK / 32 ? warp_sums[lane] : 0.0f);
    return v;
}

/* ---- the classic rungs: one (or two) elements per thread, one partial per block ---- */

/* Rung 0, interleaved addressing with a divergent branch: at step `stride`
 * only threads whose index is a multiple of 2*stride work, so every warp stays
 * busy for a few active lanes and the % is slow. */
__global__ void interleaved_divergent_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    __shared__ float s[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

/* Rung 1, interleaved without divergence: thread t works on index
 * 2*stride*t, so the active threads are contiguous and whole warps retire.
 * But a warp's lanes now touch words 2*stride apart, which fall in the same
 * banks: a 2-way conflict at stride 1, 4-way at 2, 8-way from stride 4 on
 * (with 256 threads, fewer lanes are active at the larger strides). */
__global__ void interleaved_bank_conflicts_kernel(const float *__restrict__ in, float *__restrict__ out,
                                                  long long n)
{
    __shared__ float s[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

/* Rung 2, sequential addressing: the halving tree, contiguous threads and
 * contiguous words. Half the threads are idle from the first step on. */
__global__ void sequential_addressing_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    __shared__ float s[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    halving_tree(s, tid, 0);
    if (tid == 0) out[blockIdx.x] = s[0];
}

/* Each thread loads two elements a block apart and adds them before the tree:
 * a block covers 2 * blockDim.x elements, half the blocks, half the passes'
 * tree work per element. */
__device__ __forceinline__ float first_add(const float *__restrict__ in, long long n, long long i, unsigned apart)
{
    return (i < n ? in[i] : 0.0f) + (i + apart < n ? in[i + apart] : 0.0f);
}

/* Rung 3, first add during the global load. */
__global__ void first_add_during_load_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    __shared__ float s[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    s[tid] = first_add(in, n, (long long)blockIdx.x * 2 * blockDim.x + tid, blockDim.x);
    __syncthreads();
    halving_tree(s, tid, 0);
    if (tid == 0) out[blockIdx.x] = s[0];
}

/* Rung 4, last warp unrolled: the halving tree stops at 64 partials, which
 * warp 0 finishes alone (warp_tail_sum): no barriers and no idle-warp steps
 * for the last six levels. Correct on Volta and later thanks to __syncwarp. */
__global__ void unroll_last_warp_kernel(const float *__restrict__ in, float *__restrict__ out, long long n)
{
    __shared__ float s[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    s[tid] = first_add(in, n, (long long)blockIdx.x * 2 * blockDim.x + tid, blockDim.x);
    __syncthreads();
    halving_tree(s, tid, 32);
    if (tid < 32) {
        float sum = warp_tail_sum(s, tid);
        if (tid == 0) out[blockIdx.x] = sum;
    }
}

/* Rung 5, fully unrolled: the block size is a template parameter, so the
 * tree is straight-line code with no loop counter or bound checks. */
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) fully_unrolled_kernel(const float *__restrict__ in, float *__restrict__ out,
                                                               long long n)
{
    __shared__ float s[BLOCK];
    unsigned tid = threadIdx.x;
    s[tid] = first_add(in, n, (long long)blockIdx.x * 2 * BLOCK + tid, BLOCK);
    __syncthreads();
    float sum = block_tree_sum<BLOCK>(s, tid);
    if (tid == 0) out[blockIdx.x] = sum;
}

/* ---- grid-stride rungs: a fixed grid, many elements per thread ---- */

/* Each thread accumulates pairs of elements a block apart over a grid-stride
 * loop: the per-element cost is one load and one add in registers, and only
 * one wave of blocks ever runs the tree. */
template <int BLOCK>
__device__ float grid_stride_pairs(const float *__restrict__ in, long long n)
{
    long long step = 2LL * BLOCK * gridDim.x;
    float sum = 0.0f;
    for (long long i = (long long)blockIdx.x * 2 * BLOCK + threadIdx.x; i < n; i += step) {
        sum += in[i];
        if (i + BLOCK < n) sum += in[i + BLOCK];
    }
    return sum;
}

/* Rung 6, many elements per thread, then the fully unrolled tree. */
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) many_elements_kernel(const float *__restrict__ in, float *__restrict__ out,
                                                              long long n)
{
    __shared__ float s[BLOCK];
    unsigned tid = threadIdx.x;
    s[tid] = grid_stride_pairs<BLOCK>(in, n);
    __syncthreads();
    float sum = block_tree_sum<BLOCK>(s, tid);
    if (tid == 0) out[blockIdx.x] = sum;
}

/* Rung 7, the same loads, then the two-stage shuffle reduction: registers
 * instead of a shared-memory tree, one barrier per block. */
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) warp_shuffle_kernel(const float *__restrict__ in, float *__restrict__ out,
                                                             long long n)
{
    float sum = block_shuffle_sum<BLOCK>(grid_stride_pairs<BLOCK>(in, n));
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

/* The grid-stride rungs run twice: the grid's partials, then one block over
 * them (one launch if one block was enough). */
template <typename Kernel>
static void run_two_passes(Kernel kernel, const float *in, float *out, long long n, const reduce_workspace *w,
                           cudaStream_t stream)
{
    unsigned blocks = grid_stride_blocks(one_wave_blocks(kernel), n, 2LL * REDUCE_THREADS);
    if (blocks == 1) {
        kernel<<<1, REDUCE_THREADS, 0, stream>>>(in, out, n);
        return;
    }
    kernel<<<blocks, REDUCE_THREADS, 0, stream>>>(in, w->partials, n);
    kernel<<<1, REDUCE_THREADS, 0, stream>>>(w->partials, out, blocks);
}

/* ---- single pass with 16-byte loads ---- */

/* After its partial is stored, a block takes a ticket; the block that draws
 * the last one sums every partial and writes the result, then resets the
 * counter for the next run. No second launch, and a fixed summation order:
 * the result is the same every run. */
template <int BLOCK>
__device__ void finish_in_last_block(float block_sum, float *out, float *partials, unsigned *blocks_done)
{
    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_sum;
        __threadfence(); /* the partial is visible to every block before the ticket is */
        is_last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    __threadfence(); /* order the reads below after the other blocks' partials */
    float sum = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += BLOCK) sum += __ldcg(partials + b);
    /* block_shuffle_sum's warp sums were last read before the barrier above. */
    sum = block_shuffle_sum<BLOCK>(sum);
    if (threadIdx.x == 0) {
        *out = sum;
        *blocks_done = 0;
    }
}

/* Rung 8 (UNROLL = 1), 16-byte loads, grid-stride, one pass: a quarter of the
 * load instructions of rung 7, and the second launch replaced by the
 * last-block finish. The input is cudaMalloc'd, so 16-byte aligned; the n % 4
 * trailing floats are added by the first threads of block 0.
 * Beyond (UNROLL = 4, 8): each thread issues UNROLL independent float4 loads
 * before adding any of them, so 16 * UNROLL bytes per thread are in flight
 * instead of 16: more outstanding requests per SM to cover DRAM latency.
 * Last (BLOCK = 1024): the same bytes in flight per SM, in blocks of 1024
 * threads: a quarter of the blocks to schedule, finish and add up.
 * Measured (2^28 floats, L2 flushed before each run, ratio to CUB, median of
 * 40, two sweeps, H100): blocks of 256, 0.993; 512, 1.000-1.002; 1024,
 * 1.010-1.012. Evict-first loads (__ldcs) cost 3-4% at every
 * block size (0.962-0.970), although without the flush they were level;
 * the L2::256B prefetch hint, +1% on the H100 without the flush, cost 5% on
 * the H200. Two waves of blocks instead of one: no better. */
template <int UNROLL, int BLOCK>
__global__ void __launch_bounds__(BLOCK) vectorized_kernel(const float *__restrict__ in, float *__restrict__ out,
                                                           long long n, float *partials, unsigned *blocks_done)
{
    const float4 *in4 = reinterpret_cast<const float4 *>(in);
    long long n4 = n / 4;
    long long stride = (long long)gridDim.x * BLOCK;
    long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
    float sum = 0.0f;
    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
        float4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = in4[i + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (; i < n4; i += stride) {
        float4 v = in4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) sum += in[4 * n4 + threadIdx.x];
    finish_in_last_block<BLOCK>(block_shuffle_sum<BLOCK>(sum), out, partials, blocks_done);
}

template <int UNROLL, int BLOCK>
static void run_vectorized(const float *in, float *out, long long n, const reduce_workspace *w, cudaStream_t stream)
{
    auto kernel = vectorized_kernel<UNROLL, BLOCK>;
    unsigned blocks = grid_stride_blocks(one_wave_blocks(kernel, BLOCK), n, 4LL * UNROLL * BLOCK);
    kernel<<<blocks, BLOCK, 0, stream>>>(in, out, n, w->partials, w->blocks_done);
}

/* ---- launchers ---- */

extern "C" void reduce_interleaved_divergent(const float *in, float *out, long long n, const reduce_workspace *w,
                                             int, cudaStream_t stream)
{
    run_passes(interleaved_divergent_kernel, REDUCE_THREADS, in, out, n, w, stream);
}

extern "C" void reduce_interleaved_bank_conflicts(const float *in, float *out, long long n,
                                                  const reduce_workspace *w, int, cudaStream_t stream)
{
    run_passes(interleaved_bank_conflicts_kernel, REDUCE_THREADS, in, out, n, w, stream);
}

extern "C" void reduce_sequential_addressing(const float *in, float *out, long long n, const reduce_workspace *w,
                                             int, cudaStream_t stream)
{
    run_passes(sequential_addressing_kernel, REDUCE_THREADS, in, out, n, w, stream);
}

extern "C" void reduce_first_add_during_load(const float *in, float *out, long long n, const reduce_workspace *w,
                                             int, cudaStream_t stream)
{
    run_passes(first_add_during_load_kernel, 2 * REDUCE_THREADS, in, out, n, w, stream);
}

extern "C" void reduce_unroll_last_warp(const float *in, float *out, long long n, const reduce_workspace *w, int,
                                        cudaStream_t stream)
{
    run_passes(unroll_last_warp_kernel, 2 * REDUCE_THREADS, in, out, n, w, stream);
}

extern "C" void reduce_fully_unrolled(const float *in, float *out, long long n, const reduce_workspace *w, int,
                                      cudaStream_t stream)
{
    run_passes(fully_unrolled_kernel<REDUCE_THREADS>, 2 * REDUCE_THREADS, in, out, n, w, stream);
}

extern "C" void reduce_many_elements_per_thread(const float *in, float *out, long long n,
                                                const reduce_workspace *w, int, cudaStream_t stream)
{
    run_two_passes(many_elements_kernel<REDUCE_THREADS>, in, out, n, w, stream);
}

extern "C" void reduce_warp_shuffle_two_stage(const float *in, float *out, long long n, const reduce_workspace *w,
                                              int, cudaStream_t stream)
{
    run_two_passes(warp_shuffle_kernel<REDUCE_THREADS>, in, out, n, w, stream);
}

extern "C" void reduce_vectorized_single_pass(const float *in, float *out, long long n,
                                              const reduce_workspace *w, int loads_in_flight, cudaStream_t stream)
{
    switch (loads_in_flight) {
    case 1: run_vectorized<1, REDUCE_THREADS>(in, out, n, w, stream); break;
    case 4: run_vectorized<4, REDUCE_THREADS>(in, out, n, w, stream); break;
    case 8: run_vectorized<8, REDUCE_THREADS>(in, out, n, w, stream); break;
    default: ladder_die("reduce: no vectorized kernel with %d loads in flight", loads_in_flight);
    }
}

extern "C" void reduce_wide_blocks(const float *in, float *out, long long n, const reduce_workspace *w, int,
                                   cudaStream_t stream)
{
    run_vectorized<8, 1024>(in, out, n, w, stream);
}

/* ---- baseline: CUB ---- */

extern "C" size_t reduce_cub_temp_bytes(long long n)
{
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float *>(nullptr),
                                      static_cast<float *>(nullptr), n));
    return bytes;
}

extern "C" void reduce_cub(const float *in, float *out, long long n, const reduce_workspace *w, int,
                           cudaStream_t stream)
{
    size_t bytes = w->cub_temp_bytes;
    CUDA_CHECK(cub::DeviceReduce::Sum(w->cub_temp, bytes, in, out, n, stream));
}
