/* ADO kernels, in ladder order. Two stages: the mean of every row of every
 * data set (L*M*N floats read: all the memory traffic), then for each data
 * set the L x L matrix times its means (2*L*L*N flops, the matrix read from
 * L2). The rungs first fix how the means are read, then how the product is
 * reduced, then split the stages and hand the product to cuBLAS, then run the
 * mean stage at copy bandwidth. The V100S times quoted are the published run
 * of this workload at L = M = N = 1024, the classic reference (not ours). */
#include "ado.h"

#include <stdint.h>

#include "harness/check/check.h"

#define WARP 32

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = WARP / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* Sum of s[0..count) by a shared-memory sweep, every thread of the block
 * taking part (count <= blockDim.x; s written and a barrier passed). Each step
 * halves the live range, thread t adding s[t + half]; a count that is not a
 * power of two only loses its missing partners in the first step. log2(count)
 * block barriers per call. Returns the sum in thread 0. */
__device__ float sweep_sum(float *s, int t, int count)
{
    int half = 1;
    while (2 * half < count) half *= 2;
    for (; half > 0; half >>= 1) {
        if (t < half && t + half < count) s[t] += s[t + half];
        __syncthreads();
    }
    return t == 0 ? s[0] : 0.0f; /* the others may already be writing the next s[t] */
}

/* v1 (one block, param 1) and v2 (a block per data set, param 0): one thread
 * per row j, blockDim.x == L. The thread sums its row alone: at each step a
 * warp's 32 loads are M floats apart, 32 sectors for 128 useful bytes. Then,
 * for every output i, each thread multiplies its mean by matrix[i][j] and the
 * block sweeps the L products into one: log2(L) + 1 barriers per output, L*N
 * outputs. v1 is one block on one SM doing all of it (V100S: 2.37 s); v2
 * spreads the data sets over every SM (V100S: 0.083 s). */
__global__ void thread_per_row_kernel(const float *__restrict__ input, const float *__restrict__ matrix,
                                      float *__restrict__ out, int L, int M, int N)
{
    extern __shared__ float sweep[]; /* L floats */
    int j = threadIdx.x;
    for (int k = blockIdx.x; k < N; k += gridDim.x) {
        const float *row = input + ((size_t)k * L + j) * M;
        float sum = 0.0f;
        for (int i = 0; i < M; ++i) sum += row[i];
        float mean = sum / M;
        for (int i = 0; i < L; ++i) {
            sweep[j] = matrix[(size_t)i * L + j] * mean;
            __syncthreads();
            float total = sweep_sum(sweep, j, L);
            if (j == 0) out[(size_t)i * N + k] = total;
        }
    }
}

/* The mean stage with coalesced reads (v3 onwards): a 32 x 32 block per data
 * set, warp w takes rows w, w + 32, ...; its lanes read consecutive columns,
 * so each warp load is one 128-byte line, and a shuffle sums the row. */
__device__ void warp_row_means(const float *__restrict__ dataset, int L, int M, float *means)
{
    int lane = threadIdx.x, warp = threadIdx.y;
    for (int j = warp; j < L; j += WARP) {
        const float *row = dataset + (size_t)j * M;
        float sum = 0.0f;
        for (int i = lane; i < M; i += WARP) sum += row[i];
        sum = warp_sum(sum);
        if (lane == 0) means[j] = sum / M;
    }
}

static const dim3 warp_rows_block(WARP, WARP);

/* Thread t's share of one output: sum over j = t, t + 1024, ... of
 * matrix[i][j] * means[j]; consecutive threads read consecutive matrix words. */
__device__ __forceinline__ float product_share(const float *__restrict__ matrix_row, const float *means, int L,
                                               int t)
{
    float partial = 0.0f;
    for (int j = t; j < L; j += WARP * WARP) partial += matrix_row[j] * means[j];
    return partial;
}

/* v3: coalesced means (the only change from v2), the product still swept
 * through shared memory (V100S: 0.021 s). */
__global__ void __launch_bounds__(WARP *WARP) warp_rows_sweep_kernel(const float *__restrict__ input,
                                                                     const float *__restrict__ matrix,
                                                                     float *__restrict__ out, int L, int M, int N)
{
    extern __shared__ float shared[]; /* means[L], then sweep[1024] */
    float *means = shared, *sweep = shared + L;
    int k = blockIdx.x, t = threadIdx.y * WARP + threadIdx.x;
    int count = L < WARP * WARP ? L : WARP * WARP;
    warp_row_means(input + (size_t)k * L * M, L, M, means);
    __syncthreads();
    for (int i = 0; i < L; ++i) {
        sweep[t] = product_share(matrix + (size_t)i * L, means, L, t);
        __syncthreads();
        float total = sweep_sum(sweep, t, count);
        if (t == 0) out[(size_t)i * N + k] = total;
    }
}

/* v4: the product reduced in two shuffle stages, each warp's 32 shares in
 * registers, then warp 0 over the 32 warp sums: one block barrier per output
 * instead of 11 (V100S: 0.0118 s). The warp sums alternate between two
 * buffers, so writing output i + 1's cannot overrun warp 0 still reading
 * output i's: the next write to the same buffer is behind output i + 1's
 * barrier, which warp 0 reaches only after its reads. */
__global__ void __launch_bounds__(WARP *WARP) warp_rows_shuffle_kernel(const float *__restrict__ input,
                                                                       const float *__restrict__ matrix,
                                                                       float *__restrict__ out, int L, int M, int N)
{
    extern __shared__ float means[]; /* L floats */
    __shared__ float warp_sums[2][WARP];
    int k = blockIdx.x, lane = threadIdx.x, warp = threadIdx.y;
    warp_row_means(input + (size_t)k * L * M, L, M, means);
    __syncthreads();
    for (int i = 0; i < L; ++i) {
        float partial = warp_sum(product_share(matrix + (size_t)i * L, means, L, warp * WARP + lane));
        if (lane == 0) warp_sums[i & 1][warp] = partial;
        __syncthreads();
        if (warp == 0) {
            float total = warp_sum(warp_sums[i & 1][lane]);
            if (lane == 0) out[(size_t)i * N + k] = total;
        }
    }
}

/* v5's first stage: v3's mean stage alone, every data set's means to global
 * memory, means[k*L + j]. */
__global__ void __launch_bounds__(WARP *WARP) warp_rows_means_kernel(const float *__restrict__ input,
                                                                     float *__restrict__ means, int L, int M)
{
    int k = blockIdx.x;
    warp_row_means(input + (size_t)k * L * M, L, M, means + (size_t)k * L);
}

/* The second stage as one SGEMM for data sets [first, first + count): with
 * the means as a column-major L x N matrix V (ld L) and the row-major matrix
 * read as column-major A^T, out viewed column-major (N x L, ld N) is
 * V^T * A^T. FP32 math: the handle's mode is CUBLAS_DEFAULT_MATH (no TF32). */
static void product_sgemm(const ado_problem *p, int first, int count, cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(p->blas, stream));
    CUBLAS_CHECK(cublasSgemm(p->blas, CUBLAS_OP_T, CUBLAS_OP_N, count, p->L, p->L, &one,
                             p->means + (size_t)first * p->L, p->L, p->matrix, p->L, &zero, p->out + first, p->N));
}

/* Beyond: the mean stage at copy bandwidth. All N*L rows are one flat list;
 * a warp takes a row and its lanes issue STREAM_LOADS independent 16-byte
 * loads each before adding any (4 KB in flight per warp for M = 1024, a
 * quarter of the load instructions of v5's mean stage), and blocks are not
 * tied to data sets, so there is no tail of partly filled waves of 1024-thread
 * blocks. Rows start wherever row * M puts them: up to 3 floats before the
 * first 16-byte boundary and up to 3 after the last whole float4 are read
 * one by one. */
#define STREAM_LOADS 8
#define STREAM_WARPS 8

__global__ void __launch_bounds__(STREAM_WARPS *WARP) streamed_means_kernel(const float *__restrict__ input,
                                                                          float *__restrict__ means,
                                                                          long long first_row, long long rows, int M,
                                                                          float inv_M)
{
    long long row = first_row + (long long)blockIdx.x * STREAM_WARPS + threadIdx.x / WARP;
    if (row >= first_row + rows) return;
    int lane = threadIdx.x % WARP;
    const float *p = input + row * M;
    int head = (int)(((16 - ((uintptr_t)p & 15)) & 15) / 4);
    if (head > M) head = M;
    int body = (M - head) / 4;
    int tail_start = head + 4 * body;
    const float4 *p4 = reinterpret_cast<const float4 *>(p + head);
    float sum = lane < head ? p[lane] : 0.0f;
    for (int b = lane; b < body; b += WARP * STREAM_LOADS) {
        float4 v[STREAM_LOADS];
#pragma unroll
        for (int u = 0; u < STREAM_LOADS; ++u)
            v[u] = b + WARP * u < body ? p4[b + WARP * u] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
        for (int u = 0; u < STREAM_LOADS; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    if (lane < M - tail_start) sum += p[tail_start + lane];
    sum = warp_sum(sum);
    if (lane == 0) means[row] = sum * inv_M;
}

static void streamed_means(const ado_problem *p, long long first_row, long long rows, cudaStream_t stream)
{
    unsigned blocks = (unsigned)((rows + STREAM_WARPS - 1) / STREAM_WARPS);
    streamed_means_kernel<<<blocks, STREAM_WARPS * WARP, 0, stream>>>(p->input, p->means, first_row, rows, p->M,
                                                                      1.0f / p->M);
}

/* ---- launchers ---- */

extern "C" void ado_thread_per_row(const ado_problem *p, int one_block, cudaStream_t stream)
{
    unsigned blocks = one_block ? 1u : (unsigned)p->N;
    thread_per_row_kernel<<<blocks, p->L, p->L * sizeof(float), stream>>>(p->input, p->matrix, p->out, p->L, p->M,
                                                                          p->N);
}

extern "C" void ado_warp_rows_sweep(const ado_problem *p, int, cudaStream_t stream)
{
    size_t shared = ((size_t)p->L + WARP * WARP) * sizeof(float);
    warp_rows_sweep_kernel<<<p->N, warp_rows_block, shared, stream>>>(p->input, p->matrix, p->out, p->L, p->M, p->N);
}

extern "C" void ado_warp_rows_shuffle(const ado_problem *p, int, cudaStream_t stream)
{
    warp_rows_shuffle_kernel<<<p->N, warp_rows_block, p->L * sizeof(float), stream>>>(p->input, p->matrix, p->out,
                                                                                      p->L, p->M, p->N);
}

/* v5: the mean stage alone, then one SGEMM for every data set at once: the
 * L*L*N products run on cuBLAS's tiled kernels instead of one block per data
 * set re-reading the whole matrix from L2 (V100S: 0.0065 s). */
extern "C" void ado_means_sgemm(const ado_problem *p, int, cudaStream_t stream)
{
    warp_rows_means_kernel<<<p->N, warp_rows_block, 0, stream>>>(p->input, p->means, p->L, p->M);
    product_sgemm(p, 0, p->N, stream);
}

extern "C" void ado_streamed_means_sgemm(const ado_problem *p, int, cudaStream_t stream)
{
    streamed_means(p, 0, (long long)p->N * p->L, stream);
    product_sgemm(p, 0, p->N, stream);
}

/* Beyond: the data sets in `chunks` slices. Each slice's means go on the
 * timed stream; its SGEMM goes on a second stream as soon as they are
 * written, so the products of one slice run beside the reads of the next and
 * only the last slice's SGEMM is left after the last byte is read. */
extern "C" void ado_overlapped_chunks(const ado_problem *p, int chunks, cudaStream_t stream)
{
    int per_chunk = (p->N + chunks - 1) / chunks;
    for (int first = 0; first < p->N; first += per_chunk) {
        int count = p->N - first < per_chunk ? p->N - first : per_chunk;
        streamed_means(p, (long long)first * p->L, (long long)count * p->L, stream);
        CUDA_CHECK(cudaEventRecord(p->chunk_ready, stream));
        CUDA_CHECK(cudaStreamWaitEvent(p->side_stream, p->chunk_ready, 0));
        product_sgemm(p, first, count, p->side_stream);
    }
    CUDA_CHECK(cudaEventRecord(p->side_done, p->side_stream));
    CUDA_CHECK(cudaStreamWaitEvent(stream, p->side_done, 0));
}
