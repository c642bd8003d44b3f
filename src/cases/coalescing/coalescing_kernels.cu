/* Coalescing kernels. The memory system serves a warp's request in 32-byte
 * sectors; a 128-byte line holds 4 of them. A request costs the distinct
 * sectors its 32 addresses touch, whatever the order of the lanes (since
 * Fermi; G80 needed thread k on word k of an aligned segment). DRAM moves
 * whole sectors, so useful bandwidth is useful bytes / sectors moved. */
#include "coalescing.h"

#include "harness/check/check.h"

#define THREADS 256

static unsigned blocks_for(long long threads)
{
    return (unsigned)((threads + THREADS - 1) / THREADS);
}

__global__ void fill_kernel(float *words, uint64_t count, uint64_t key)
{
    uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step)
        words[i] = coalescing_input_word(key, i);
}

extern "C" void coalescing_fill(float *words, uint64_t count, uint64_t key, cudaStream_t stream)
{
    fill_kernel<<<4096, THREADS, 0, stream>>>(words, count, key);
}

/* (a) Offset: thread t copies element t + offset, so with offset k each
 * warp's request starts k elements past a line. Unless the shift is a whole
 * number of sectors the request straddles one extra sector, which the next
 * warp needs anyway: L1/L2 absorb it and DRAM moves the same bytes. */
template <typename T>
__global__ void copy_offset_kernel(const T *__restrict__ in, T *__restrict__ out, long long count, int offset)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i + offset] = in[i + offset];
}

/* (b) Stride: thread i reads element i * stride. A warp's reads span
 * 32 * stride elements: once that passes 32 sectors (stride 8 for floats,
 * 4 for doubles) every element drags in a sector of its own, 32 bytes for 4
 * or 8 useful. Writes stay coalesced. Hopper's L2 fills misses 64 bytes at a
 * time, so DRAM's floor is 64 B per element, from 64 bytes apart
 * (measured: coalescing.c). */
template <typename T>
__global__ void copy_stride_kernel(const T *__restrict__ in, T *__restrict__ out, long long count, int stride)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = in[i * stride];
}

template <typename T>
static void launch_offset(const float *in, float *out, long long n, int offset, cudaStream_t stream)
{
    long long count = n * (long long)sizeof(float) / (long long)sizeof(T);
    copy_offset_kernel<T><<<blocks_for(count), THREADS, 0, stream>>>((const T *)in, (T *)out, count, offset);
}

template <typename T>
static void launch_stride(const float *in, float *out, long long n, int stride, cudaStream_t stream)
{
    long long count = n * (long long)sizeof(float) / (long long)sizeof(T);
    copy_stride_kernel<T><<<blocks_for(count), THREADS, 0, stream>>>((const T *)in, (T *)out, count, stride);
}

extern "C" void coalescing_copy_offset_f32(const float *in, float *out, long long n, int offset, cudaStream_t stream)
{
    launch_offset<float>(in, out, n, offset, stream);
}

extern "C" void coalescing_copy_offset_f64(const float *in, float *out, long long n, int offset, cudaStream_t stream)
{
    launch_offset<double>(in, out, n, offset, stream);
}

extern "C" void coalescing_copy_stride_f32(const float *in, float *out, long long n, int stride, cudaStream_t stream)
{
    launch_stride<float>(in, out, n, stride, stream);
}

extern "C" void coalescing_copy_stride_f64(const float *in, float *out, long long n, int stride, cudaStream_t stream)
{
    launch_stride<double>(in, out, n, stride, stream);
}

/* (c) The classic add-one, out of place so that every run starts from the
 * same input. Each warp owns a group of consecutive words and PATTERN says
 * which lane takes which word:
 *   COALESCED   lane k, word k: 4 sectors per warp.
 *   IDLE_LANES  lanes 24..31 do nothing, a group is 24 words: 96 bytes, still
 *               3 whole sectors; only the lanes are wasted.
 *   PERMUTED    lane k takes word 13k mod 32: the same 4 sectors.
 *   MISALIGNED  thread k takes word k + 1 (the launcher shifts both pointers):
 *               5 sectors per warp, one shared with the next warp.
 * The warps of one launch go over the count words `passes` times: pass p is
 * warps [p * groups, (p + 1) * groups). With a window that fits in L2 every
 * pass after the first (cold after the harness's flush) is served from L2. */
enum add_one_pattern { COALESCED, IDLE_LANES, PERMUTED, MISALIGNED };

template <int PATTERN>
__global__ void add_one_kernel(const float *__restrict__ in, float *__restrict__ out, long long count,
                               long long groups_per_pass)
{
    const int words_per_group = PATTERN == IDLE_LANES ? COALESCING_ACTIVE_LANES : 32;
    int lane = threadIdx.x & 31;
    long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (PATTERN == IDLE_LANES && lane >= COALESCING_ACTIVE_LANES) return;
    int word = PATTERN == PERMUTED ? COALESCING_PERMUTED_WORD(lane) : lane;
    long long i = (warp % groups_per_pass) * words_per_group + word;
    if (i < count) out[i] = in[i] + 1.0f;
}

template <int PATTERN>
static void launch_add_one(const float *in, float *out, long long n, int passes, cudaStream_t stream)
{
    const int words_per_group = PATTERN == IDLE_LANES ? COALESCING_ACTIVE_LANES : 32;
    long long count = n / passes;
    long long groups = (count + words_per_group - 1) / words_per_group;
    int shift = PATTERN == MISALIGNED ? 1 : 0;
    add_one_kernel<PATTERN><<<blocks_for(groups * passes * 32), THREADS, 0, stream>>>(in + shift, out + shift,
                                                                                     count, groups);
}

extern "C" void coalescing_add_one_coalesced(const float *in, float *out, long long n, int passes, cudaStream_t stream)
{
    launch_add_one<COALESCED>(in, out, n, passes, stream);
}

extern "C" void coalescing_add_one_idle_lanes(const float *in, float *out, long long n, int passes, cudaStream_t stream)
{
    launch_add_one<IDLE_LANES>(in, out, n, passes, stream);
}

extern "C" void coalescing_add_one_permuted(const float *in, float *out, long long n, int passes, cudaStream_t stream)
{
    launch_add_one<PERMUTED>(in, out, n, passes, stream);
}

extern "C" void coalescing_add_one_misaligned(const float *in, float *out, long long n, int passes, cudaStream_t stream)
{
    launch_add_one<MISALIGNED>(in, out, n, passes, stream);
}

/* (d) Points: add one to x, y and z of m points.
 * Direct: a float3 has no 12-byte load, so a warp issues three 4-byte loads
 * whose addresses are 12 bytes apart: each spans 384 bytes, 12 sectors for 4
 * sectors of data. The first load brings the lines into L1 and the other two
 * hit there, so DRAM should see about the useful bytes; the cost is in L1
 * wavefronts and in stores that each fill a third of their sectors. */
__global__ void aos_direct_kernel(const float3 *__restrict__ in, float3 *__restrict__ out, long long m)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    float3 p = in[i];
    out[i] = make_float3(p.x + 1.0f, p.y + 1.0f, p.z + 1.0f);
}

/* Staged (the G80 fix): the block's 3 * THREADS floats come in as three
 * coalesced scalar loads per thread, each thread updates its point in shared
 * memory (stride 3 words: 3 is odd, so the 32 lanes hit 32 banks), and three
 * coalesced scalar stores write the block back. */
__global__ void aos_staged_kernel(const float *__restrict__ in, float *__restrict__ out, long long m)
{
    __shared__ float block_points[3 * THREADS];
    long long first_word = (long long)blockIdx.x * 3 * THREADS;
    long long words = 3 * m;
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        long long w = first_word + k * THREADS + threadIdx.x;
        if (w < words) block_points[k * THREADS + threadIdx.x] = in[w];
    }
    __syncthreads();
    if ((long long)blockIdx.x * THREADS + threadIdx.x < m) {
#pragma unroll
        for (int c = 0; c < 3; ++c) block_points[3 * threadIdx.x + c] += 1.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        long long w = first_word + k * THREADS + threadIdx.x;
        if (w < words) out[w] = block_points[k * THREADS + threadIdx.x];
    }
}

/* Structure of arrays: three coalesced streams in, three out. */
__global__ void soa_kernel(const float *__restrict__ in, float *__restrict__ out, long long m)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
#pragma unroll
    for (int c = 0; c < 3; ++c) out[c * m + i] = in[c * m + i] + 1.0f;
}

/* Padded to float4: one 16-byte load and store per point, fully coalesced,
 * but a quarter of the bytes moved is padding. */
__global__ void aos_float4_kernel(const float4 *__restrict__ in, float4 *__restrict__ out, long long m)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    float4 p = in[i];
    out[i] = make_float4(p.x + 1.0f, p.y + 1.0f, p.z + 1.0f, p.w + 1.0f);
}

extern "C" void coalescing_aos_direct(const float *in, float *out, long long n, int unused, cudaStream_t stream)
{
    (void)unused;
    long long m = n / 3;
    aos_direct_kernel<<<blocks_for(m), THREADS, 0, stream>>>((const float3 *)in, (float3 *)out, m);
}

extern "C" void coalescing_aos_staged(const float *in, float *out, long long n, int unused, cudaStream_t stream)
{
    (void)unused;
    long long m = n / 3;
    aos_staged_kernel<<<blocks_for(m), THREADS, 0, stream>>>(in, out, m);
}

extern "C" void coalescing_soa(const float *in, float *out, long long n, int unused, cudaStream_t stream)
{
    (void)unused;
    long long m = n / 3;
    soa_kernel<<<blocks_for(m), THREADS, 0, stream>>>(in, out, m);
}

extern "C" void coalescing_aos_float4(const float *in, float *out, long long n, int unused, cudaStream_t stream)
{
    (void)unused;
    long long m = n / 3;
    aos_float4_kernel<<<blocks_for(m), THREADS, 0, stream>>>((const float4 *)in, (float4 *)out, m);
}
