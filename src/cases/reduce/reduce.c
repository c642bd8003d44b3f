/* The reduction ladder (SPEC §7): the classic sequence of block reductions,
 * from interleaved addressing with a divergent branch to a fully unrolled
 * tree, then many elements per thread, warp shuffles, 16-byte loads in one
 * pass, and more bytes in flight. Baseline: CUB DeviceReduce::Sum.
 *
 * The sum needs every input byte read once, so the ceiling is bandwidth. */
#include "reduce.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "harness/user/load.h"
#include "ladder_try.h"

double reduce_reference(const float *in, long long n)
{
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (long long i = 0; i < n; ++i) sum += in[i];
    return sum;
}

/* Inputs are positive, so no cancellation: the error of a float sum is the
 * rounding of its additions. ladder_fp32_tolerance(n) (8 u sqrt(n)) holds
 * any summation order with room to spare; a tree sum is far inside it. A
 * lost element shows at the small test sizes (at n = 4097 one lost element
 * is 4 to 12 times the tolerance); at 2^28 only gross errors can. */
double reduce_tolerance(long long n)
{
    return ladder_fp32_tolerance((double)n);
}


static const ladder_variant reduce_variants[] = {
    LADDER_RUNG("interleaved_divergent",
         "tree in shared memory, thread t adds at step s when t % 2s == 0: divergent warps, slow modulo",
         reduce_interleaved_divergent, 0),
    LADDER_RUNG("interleaved_bank_conflicts",
         "thread t works on index 2st: no divergence, but lanes 2s words apart collide in shared-memory banks",
         reduce_interleaved_bank_conflicts, 0),
    LADDER_RUNG("sequential_addressing", "halving tree, thread t adds s[t + half]: contiguous words, no bank conflicts",
         reduce_sequential_addressing, 0),
    LADDER_RUNG("first_add_during_load", "each thread loads two elements and adds them: half the blocks, no idle first step",
         reduce_first_add_during_load, 0),
    LADDER_RUNG("unroll_last_warp",
         "the last 64 partials reduced by warp 0 with __syncwarp, no block barriers: fewer instructions per step",
         reduce_unroll_last_warp, 0),
    LADDER_RUNG("fully_unrolled", "block size as a template parameter: the whole tree is straight-line code",
         reduce_fully_unrolled, 0),
    LADDER_RUNG("many_elements_per_thread",
         "one wave of blocks, grid-stride accumulation in registers, then one block over the partials (2 launches)",
         reduce_many_elements_per_thread, 0),
    LADDER_RUNG("warp_shuffle_two_stage",
         "shuffles within each warp, then warp 0 over the warp sums: registers instead of a shared tree",
         reduce_warp_shuffle_two_stage, 0),
    LADDER_RUNG("vectorized_single_pass",
         "float4 loads, grid-stride, the last block to finish sums the partials: a quarter of the loads, one launch",
         reduce_vectorized_single_pass, 1),
    LADDER_RUNG("unroll4_float4", "4 independent float4 loads per thread per iteration: 64 bytes in flight instead of 16",
         reduce_vectorized_single_pass, 4),
    LADDER_RUNG("unroll8_float4", "8 independent float4 loads per thread per iteration: 128 bytes in flight",
         reduce_vectorized_single_pass, 8),
    LADDER_RUNG("wide_blocks", "the same loads in blocks of 1024 threads: a quarter of the blocks to schedule and finish",
         reduce_wide_blocks, 0),
    LADDER_VARIANT("cub", "CUB DeviceReduce::Sum, temporary storage allocated outside the timed region", reduce_cub, 0,
                   LADDER_BASELINE),
};

/* `ladder try reduce FILE.cu`: the user's ladder_try_reduce (include/ladder_try.h) as a rung. */
typedef void tried_reduce_entry(const float *in, float *out, long long n, float *scratch, size_t scratch_floats,
                                cudaStream_t stream);

/* The user gets the multi-pass rungs' partials as scratch. */
static void tried_reduce(const float *in, float *out, long long n, const reduce_workspace *w, int param,
                         cudaStream_t stream)
{
    (void)param;
    _Static_assert(LADDER_SAME_TYPE(ladder_try_reduce, tried_reduce_entry), "ladder_try.h disagrees with this adapter");
    ((tried_reduce_entry *)ladder_user_entry())(in, out, n, w->partials, w->partials_capacity, stream);
    ladder_user_check_launch();
}

typedef struct reduce_state {
    long long n;
    float *host_in;
    float *device_in, *device_out;
    double reference;
    reduce_workspace workspace;
} reduce_state;

static void destroy(void *opaque)
{
    reduce_state *s = opaque;
    if (!s) return;
    cudaFree(s->device_in);
    cudaFree(s->device_out);
    cudaFree(s->workspace.partials);
    cudaFree(s->workspace.blocks_done);
    cudaFree(s->workspace.cub_temp);
    free(s->host_in);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1) {
        snprintf(err, err_len, "reduce takes one size: the number of floats N (e.g. 2^28)");
        return 1;
    }
    return 0;
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size_error(size, err, err_len)) {
        *status = LADDER_BAD_SIZE;
        return NULL;
    }
    reduce_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->n = size->dim[0];
    size_t bytes = (size_t)s->n * sizeof(float);
    reduce_workspace *w = &s->workspace;
    w->partials_capacity = reduce_partials_capacity(s->n);
    ladder_buffers b = {0};
    ladder_buffers_pair(&b, (void **)&s->host_in, (void **)&s->device_in, bytes);
    ladder_buffers_device(&b, (void **)&s->device_out, sizeof(float));
    ladder_buffers_device(&b, (void **)&w->partials, w->partials_capacity * sizeof(float));
    ladder_buffers_device(&b, (void **)&w->blocks_done, sizeof(unsigned));
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    w->cub_temp_bytes = reduce_cub_temp_bytes(s->n);
    if (ladder_try_cuda_malloc(&w->cub_temp, w->cub_temp_bytes)) {
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "no device memory left for CUB's %zu bytes of temporary storage", w->cub_temp_bytes);
        destroy(s);
        return NULL;
    }
    CUDA_CHECK(cudaMemset(w->blocks_done, 0, sizeof(unsigned)));
    return s;
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    reduce_state *s = opaque;
    ladder_fill_uniform(s->host_in, (size_t)s->n, seed, 0.5f, 1.5f);
    CUDA_CHECK(cudaMemcpy(s->device_in, s->host_in, (size_t)s->n * sizeof(float), cudaMemcpyHostToDevice));
    s->reference = reduce_reference(s->host_in, s->n);
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    reduce_state *s = opaque;
    ((reduce_launcher *)v->impl)(s->device_in, s->device_out, s->n, &s->workspace, v->param, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    reduce_state *s = opaque;
    return (ladder_output){s->device_out, sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    (void)v;
    reduce_state *s = opaque;
    float sum;
    CUDA_CHECK(cudaMemcpy(&sum, s->device_out, sizeof sum, cudaMemcpyDeviceToHost));
    return ladder_compare_f32_f64(&sum, &s->reference, 1, reduce_tolerance(s->n));
}

/* Every input read once, one float written; n - 1 additions. */
static ladder_work work(void *opaque)
{
    reduce_state *s = opaque;
    return (ladder_work){4.0 * (double)s->n + 4.0, (double)(s->n - 1)};
}

const ladder_case reduce_case = {
    .name = "reduce",
    .title = "sum of floats: divergent tree to past CUB",
    .size_help = "N, the number of floats (e.g. 2^28-3); any N >= 1",
    .default_size = "2^28",
    .quick_size = "2^24",
    .test_sizes = {"1", "30", "4097", "65539", "1000003", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "reduce/reduce_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_reduce, 0),
    .variants = reduce_variants,
    .variant_count = (int)(sizeof reduce_variants / sizeof reduce_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every rung takes every n */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
