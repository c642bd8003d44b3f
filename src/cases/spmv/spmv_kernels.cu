/* SpMV kernels, in ladder order: a thread per row, a warp per row, then a
 * block per equal share of the entries (runs of short rows staged through
 * shared memory, long rows split into chunks), then the same with each
 * thread's loads issued before any is used. Baseline: cuSPARSE's generic SpMV.
 * The matrix is read once, so every rung is bound by DRAM bandwidth; what
 * separates them is how many of the bytes each load fetches are used, and
 * whether every SM stays busy to the end. */
#include "spmv.h"

#include <cusparse.h>

#include "harness/check/check.h"

static_assert(SPMV_THREADS % 32 == 0 && SPMV_THREADS <= 1024, "blocks of whole warps");
static_assert(SPMV_BLOCK_NNZ % SPMV_THREADS == 0, "a chunk is a whole number of entries per thread");
static_assert(SPMV_BLOCK_NNZ % SPMV_LINE_ENTRIES == 0, "chunks after a row's first start on a line");
static_assert(SPMV_LINE_ENTRIES <= SPMV_THREADS, "entries before a task's first lie in a thread's first pass");

__device__ __forceinline__ float warp_sum(float v, int width = 32)
{
    for (int offset = width / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset, width);
    return v;
}

/* The block's sum, valid in thread 0. Starts with a barrier so that the
 * block may call it twice with the same scratch. */
__device__ float block_sum(float v, float *warp_sums)
{
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    float total = 0;
    if (warp == 0) total = warp_sum(lane < SPMV_THREADS / 32 ? warp_sums[lane] : 0.0f);
    return total;
}

/* Rung 0: a thread per row, the textbook CSR kernel. Neighbouring threads
 * walk rows that are a whole row apart in memory, so each load of a warp
 * touches up to 32 different sectors and uses 4 bytes of each: most of the
 * bandwidth fetches bytes that only later iterations (if the cache keeps
 * them) or nobody use. And a warp lasts as long as its longest row. */
__global__ void scalar_kernel(spmv_matrix a, const float *__restrict__ x, float *__restrict__ y)
{
    const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= a.rows) return;
    const int end = a.row_ptr[row + 1];
    float sum = 0;
    for (int k = a.row_ptr[row]; k < end; ++k) sum += a.val[k] * x[a.col[k]];
    y[row] = sum;
}

/* Rung 1: a warp per row. The 32 lanes read 32 consecutive entries of the
 * row: coalesced column indices and values, then a shuffle sum. What is
 * left: rows shorter than 32 leave lanes idle (a power-law matrix's typical
 * row has a handful of entries), and one very long row still keeps one warp
 * busy long after the rest of the GPU is done. */
__global__ void vector_kernel(spmv_matrix a, const float *__restrict__ x, float *__restrict__ y)
{
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (row >= a.rows) return; /* whole warps: rows are per warp */
    const int end = a.row_ptr[row + 1];
    float sum = 0;
    for (int k = a.row_ptr[row] + lane; k < end; k += 32) sum += a.val[k] * x[a.col[k]];
    sum = warp_sum(sum);
    if (lane == 0) y[row] = sum;
}

/* Each thread's share of a task: SPMV_BLOCK_NNZ / SPMV_THREADS entries. */
#define SPMV_PER_THREAD (SPMV_BLOCK_NNZ / SPMV_THREADS)

/* The task's window, entries [base, base + size) with size at most
 * SPMV_BLOCK_NNZ: products[k] = val[base + k] * x[col[base + k]] for k from
 * skip. The k before skip (entries of earlier tasks) are never read: rung
 * 3 leaves 0 * x[0] there, NaN when x[0] is infinite. Rung 2 writes the
 * plain loop; the compiler unrolls it by 4, so a thread has up to 4 entries
 * in flight. Rung 3 (LoadsFirst) issues the loads of all SPMV_PER_THREAD of its
 * entries, then all their gathers: every entry in flight, the same bytes.
 * Its matrix loads are evict-first (__ldcs): the matrix is read once, and
 * the L2 space it leaves is x's, which is gathered again and again. */
template <bool LoadsFirst>
__device__ __forceinline__ void stage_products(const spmv_matrix &a, const float *__restrict__ x, int base,
                                               int skip, int size, float *products)
{
    /* skip < SPMV_LINE_ENTRIES <= SPMV_THREADS: only a thread's first entry
     * can lie before it, so only the first is tested. Tested on every entry
     * (H100, banded matrix), it stopped the compiler batching rung 2's loads
     * (535 -> 694 us) and took rung 3 from 32 to 48 registers, 8 blocks an
     * SM to 5 (340 -> 457 us). Rung 3's entries before skip gather x[0]
     * times 0, one line for the warp: a test in the product loop instead
     * cost 14 registers. */
    if constexpr (!LoadsFirst) {
        int k = threadIdx.x;
        if (k >= skip && k < size) products[k] = __ldg(a.val + base + k) * x[__ldg(a.col + base + k)];
        for (k += SPMV_THREADS; k < size; k += SPMV_THREADS)
            products[k] = __ldg(a.val + base + k) * x[__ldg(a.col + base + k)];
    } else {
        int col[SPMV_PER_THREAD];
        float val[SPMV_PER_THREAD];
#pragma unroll
        for (int u = 0; u < SPMV_PER_THREAD; ++u) {
            const int k = threadIdx.x + u * SPMV_THREADS;
            const bool mine = k < size && (u > 0 || k >= skip);
            col[u] = mine ? __ldcs(a.col + base + k) : 0;
            val[u] = mine ? __ldcs(a.val + base + k) : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < SPMV_PER_THREAD; ++u) {
            const int k = threadIdx.x + u * SPMV_THREADS;
            if (k < size) products[k] = val[u] * x[col[u]];
        }
    }
}

/* Rung 2 (and 3 with LoadsFirst): every block gets the same amount of work,
 * whatever the row lengths. A task is either a run of short rows whose
 * window holds at most SPMV_BLOCK_NNZ entries: the block loads them all with every lane
 * busy (coalesced, no idle lanes), keeps the products in shared memory,
 * then reduces each row with a group of threads sized to the run (256 rows:
 * a thread each; 8 rows: 32 threads each). Or it is one chunk of a long
 * row: the block stages the chunk's products the same way and sums them,
 * writes the partial, and the last chunk of the row to finish (an arrival
 * counter) adds the partials in order and writes y: a row of a million
 * entries is spread over a thousand blocks instead of holding one warp.
 * The plan gives each task its entry range, so the matrix loads wait for
 * one load (the task), not three (the task, then two row pointers), and
 * starts each task's window on a line (spmv_plan_tasks).
 * Rung 3 exists because rung 2, with 1024 entries a task, measured half of
 * cuSPARSE on the banded matrix (H100: 1319 against 2620 GB/s): 8 blocks
 * of 256 threads an SM with a few entries each in flight, short
 * of what DRAM latency needs at 3 TB/s. Measured on the H100 (ratio to
 * cuSPARSE, banded / power-law): loads first with 4 entries a thread
 * 0.855 / 0.949; with 8 (2048 entries a task, rung 2 then 0.64 / 0.94)
 * 0.879 / 0.955; with the entry range in the task 1.042 / 0.945
 * (without evict-first); evict-first matrix loads 1.060 / 0.957 (tried
 * on rung 2 before loads-first, they gained nothing); windows starting on a
 * line, 1.123 / 1.017 (this code).
 * What held the power-law matrix below cuSPARSE (Nsight Compute, H100):
 * the L2's tag lookups, at 97 % of peak in both kernels. Nearly every
 * entry gathers x from a different line, so each entry is a lookup, and
 * whatever else a kernel asks of the L2 comes on top. With tasks starting
 * mid-line, each warp's 32 consecutive 4-byte loads of indices or values
 * touched two lines: 77.5-78.5 M lookups to cuSPARSE's 74.0 M, 4-5 %
 * slower. From a line's start, 73.4 M (the banded matrix's fell from 22.7
 * M to 16.4 M).
 * Losers: threads per row set by the task's mean row length, each group
 * looping over rows with the row bounds staged in shared memory (so a
 * 2000-entry row in a run of short rows is not one thread's serial sum),
 * 0.64 / 0.92; gathers of x as L2 evict-last (createpolicy) 1.006-1.030 /
 * 0.965; the task loaded once per block through shared memory, 1.030 /
 * 0.967 (both before the line-aligned windows); after them, each row bound
 * loaded once into shared memory instead of twice by the row's group,
 * 0.958 / 1.016.
 * Rung 3's launch bounds ask for 8 blocks of 256 threads an SM, a full
 * sm_80 or sm_90 SM: they hold ptxas to 32 registers, where it picks 34
 * and leaves room for 6. */
template <bool LoadsFirst>
__global__ void __launch_bounds__(SPMV_THREADS, LoadsFirst ? 2048 / SPMV_THREADS : 0)
    adaptive_kernel(spmv_matrix a, const spmv_task *__restrict__ tasks, float *partials, unsigned *arrivals,
                    const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ float products[SPMV_BLOCK_NNZ];
    __shared__ float warp_sums[SPMV_THREADS / 32];
    __shared__ int last_chunk;
    const spmv_task task = tasks[blockIdx.x];
    const int base = SPMV_WINDOW_START(task.entry_begin);
    const int skip = task.entry_begin - base, size = task.entry_end - base;

    if (task.chunks == 1) {
        const int rows = task.row_end - task.row_begin; /* 1 .. SPMV_THREADS */
        int group = 32;                                 /* threads per row: a power of two dividing the warp */
        while (group > 1 && group * rows > SPMV_THREADS) group /= 2;
        const int index = threadIdx.x / group, lane = threadIdx.x % group;
        /* The row's bounds are loaded with the entries, not after the barrier. */
        int begin = 0, end = 0;
        if (index < rows) {
            begin = a.row_ptr[task.row_begin + index] - base;
            end = a.row_ptr[task.row_begin + index + 1] - base;
        }
        stage_products<LoadsFirst>(a, x, base, skip, size, products);
        __syncthreads();
        float sum = 0;
        for (int k = begin + lane; k < end; k += group) sum += products[k];
        sum = warp_sum(sum, group); /* every lane takes part: groups never straddle a warp */
        if (index < rows && lane == 0) y[task.row_begin + index] = sum;
        return;
    }

    stage_products<LoadsFirst>(a, x, base, skip, size, products);
    __syncthreads();
    float sum = 0;
    for (int k = skip + threadIdx.x; k < size; k += SPMV_THREADS) sum += products[k];
    sum = block_sum(sum, warp_sums);
    const int row_first_task = blockIdx.x - task.chunk;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence(); /* the partial is visible before the arrival is counted */
        last_chunk = atomicAdd(&arrivals[row_first_task], 1u) == (unsigned)task.chunks - 1;
    }
    __syncthreads();
    if (!last_chunk) return;
    __threadfence();
    float total = 0;
    for (int c = threadIdx.x; c < task.chunks; c += SPMV_THREADS) total += __ldcg(partials + row_first_task + c);
    total = block_sum(total, warp_sums);
    if (threadIdx.x == 0) {
        y[task.row_begin] = total;
        arrivals[row_first_task] = 0; /* ready for the next launch */
    }
}

static unsigned blocks_for(long long threads)
{
    return (unsigned)((threads + SPMV_THREADS - 1) / SPMV_THREADS);
}

extern "C" void spmv_scalar(const spmv_matrix *a, const spmv_plan *, const float *x, float *y, int,
                            cudaStream_t stream)
{
    scalar_kernel<<<blocks_for(a->rows), SPMV_THREADS, 0, stream>>>(*a, x, y);
}

extern "C" void spmv_vector(const spmv_matrix *a, const spmv_plan *, const float *x, float *y, int,
                            cudaStream_t stream)
{
    vector_kernel<<<blocks_for(32LL * a->rows), SPMV_THREADS, 0, stream>>>(*a, x, y);
}

extern "C" void spmv_adaptive(const spmv_matrix *a, const spmv_plan *plan, const float *x, float *y, int loads_first,
                              cudaStream_t stream)
{
    if (loads_first)
        adaptive_kernel<true><<<plan->task_count, SPMV_THREADS, 0, stream>>>(*a, plan->tasks, plan->partials,
                                                                             plan->arrivals, x, y);
    else
        adaptive_kernel<false><<<plan->task_count, SPMV_THREADS, 0, stream>>>(*a, plan->tasks, plan->partials,
                                                                              plan->arrivals, x, y);
}

/* ---- baseline: cuSPARSE generic SpMV ---- */

struct spmv_cusparse {
    cusparseHandle_t handle;
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t x, y;
    void *workspace;
};

static const float one = 1.0f, zero = 0.0f; /* beta = 0: y is not read, so its poison cannot leak in */

extern "C" void spmv_cusparse_destroy(spmv_cusparse *c)
{
    if (!c) return;
    if (c->a) cusparseDestroySpMat(c->a);
    if (c->x) cusparseDestroyDnVec(c->x);
    if (c->y) cusparseDestroyDnVec(c->y);
    if (c->handle) cusparseDestroy(c->handle);
    cudaFree(c->workspace);
    delete c;
}

extern "C" spmv_cusparse *spmv_cusparse_create(const spmv_matrix *m, const float *x, float *y, char *err,
                                               size_t err_len)
{
    spmv_cusparse *c = new spmv_cusparse();
    size_t bytes = 0;
    cusparseStatus_t s = cusparseCreate(&c->handle);
    if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseCreateCsr(&c->a, m->rows, m->cols, m->nnz, (void *)m->row_ptr, (void *)m->col, (void *)m->val,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
    if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseCreateDnVec(&c->x, m->cols, (void *)x, CUDA_R_32F);
    if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseCreateDnVec(&c->y, m->rows, y, CUDA_R_32F);
    if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseSpMV_bufferSize(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->a, c->x, &zero, c->y,
                                    CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, &bytes);
    if (s != CUSPARSE_STATUS_SUCCESS) {
        snprintf(err, err_len, "cuSPARSE setup failed: %s", cusparseGetErrorString(s));
        spmv_cusparse_destroy(c);
        return nullptr;
    }
    if (ladder_try_cuda_malloc(&c->workspace, bytes > 0 ? bytes : 1)) {
        snprintf(err, err_len, "no device memory left for cuSPARSE's %zu-byte workspace", bytes);
        spmv_cusparse_destroy(c);
        return nullptr;
    }
    /* The analysis of the structure, once, as the adaptive rung's plan is. */
    s = cusparseSpMV_preprocess(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->a, c->x, &zero, c->y,
                                CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, c->workspace);
    if (s != CUSPARSE_STATUS_SUCCESS) {
        snprintf(err, err_len, "cuSPARSE preprocessing failed: %s", cusparseGetErrorString(s));
        spmv_cusparse_destroy(c);
        return nullptr;
    }
    return c;
}

extern "C" void spmv_cusparse_run(const spmv_matrix *, const spmv_plan *plan, const float *, float *, int,
                                  cudaStream_t stream)
{
    spmv_cusparse *c = plan->cusparse;
    cusparseStatus_t s = cusparseSetStream(c->handle, stream);
    if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseSpMV(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->a, c->x, &zero, c->y, CUDA_R_32F,
                         CUSPARSE_SPMV_CSR_ALG1, c->workspace);
    if (s != CUSPARSE_STATUS_SUCCESS) ladder_die("cusparseSpMV: %s", cusparseGetErrorString(s));
}
