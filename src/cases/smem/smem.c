/* The shared-memory reverse (SPEC §3a): out[n - 1 - i] = in[i] over many
 * blocks, without staging, through a static and a dynamic shared array, and
 * through several arrays carved from one dynamic allocation. On Hopper every
 * rung should run at copy speed: the point is the declarations, and that
 * staging stopped being needed for coalescing after G80. Baseline: cudaMemcpy
 * D2D of the same bytes. The bank-conflict sweep is the case smem_banks. */
#include "smem.h"

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

ladder_check smem_reverse_check_host(const float *in, const float *out, long long n)
{
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)
    for (long long j = 0; j < n; ++j) {
        double ref = in[n - 1 - j], got = out[j];
        ref_squared += ref * ref;
        if (!isfinite(got)) ++nonfinite;
        else diff_squared += (got - ref) * (got - ref);
    }
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, 0.0);
}

static void memcpy_baseline(const float *in, float *out, long long n, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemcpyAsync(out, in, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

#define RUNG(name, fn, story) LADDER_RUNG(name, story, fn, 0)

static const ladder_variant smem_variants[] = {
    RUNG("reverse_direct", smem_reverse_direct,
         "no shared memory: a warp's reversed stores are a permutation of 4 sectors, coalesced since Fermi"),
    RUNG("reverse_static", smem_reverse_static,
         "staged in __shared__ float[256]: global loads and stores in lane order (the G80 fix); same speed expected"),
    RUNG("reverse_dynamic", smem_reverse_dynamic,
         "the same through extern __shared__, sized at launch: the same code after compilation, same speed expected"),
    RUNG("reverse_carved", smem_reverse_carved,
         "one extern allocation carved into double, int and char arrays (largest alignment first): value, index, flag"),
    {"memcpy", "cudaMemcpy device to device of the same bytes", (ladder_impl)memcpy_baseline, 0, LADDER_BASELINE},
};

/* `ladder try smem FILE.cu`: the user's ladder_try_smem (include/ladder_try.h) as a rung. */
static void tried_reverse(const float *in, float *out, long long n, cudaStream_t stream)
{
    _Static_assert(LADDER_SAME_TYPE(ladder_try_smem, smem_reverse_launcher), "ladder_try.h disagrees with smem.h");
    ((smem_reverse_launcher *)ladder_user_entry())(in, out, n, stream);
    ladder_user_check_launch();
}

typedef struct smem_state {
    long long n;
    float *host_in, *host_out;
    float *device_in, *device_out;
} smem_state;

static void destroy(void *opaque)
{
    smem_state *s = opaque;
    if (!s) return;
    cudaFree(s->device_in);
    cudaFree(s->device_out);
    free(s->host_in);
    free(s->host_out);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1 || size->dim[0] > (1LL << 33)) {
        snprintf(err, err_len, "smem takes N floats, up to 2^33");
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
    smem_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->n = size->dim[0];
    size_t bytes = (size_t)s->n * sizeof(float);
    ladder_buffers b = {0};
    ladder_buffers_pair(&b, (void **)&s->host_in, (void **)&s->device_in, bytes);
    ladder_buffers_pair(&b, (void **)&s->host_out, (void **)&s->device_out, bytes);
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    return s;
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    smem_state *s = opaque;
    ladder_fill_uniform(s->host_in, (size_t)s->n, seed, 1.0f, 2.0f);
    CUDA_CHECK(cudaMemcpy(s->device_in, s->host_in, (size_t)s->n * sizeof(float), cudaMemcpyHostToDevice));
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    smem_state *s = opaque;
    ((smem_reverse_launcher *)v->impl)(s->device_in, s->device_out, s->n, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    smem_state *s = opaque;
    return (ladder_output){s->device_out, (size_t)s->n * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    smem_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_out, s->device_out, (size_t)s->n * sizeof(float), cudaMemcpyDeviceToHost));
    /* The memcpy baseline copies instead of reversing; it is checked as a copy. */
    if (v->flags & LADDER_BASELINE) return ladder_compare_f32(s->host_out, s->host_in, (size_t)s->n, 0.0);
    return smem_reverse_check_host(s->host_in, s->host_out, s->n);
}

static ladder_work work(void *opaque)
{
    smem_state *s = opaque;
    return (ladder_work){2.0 * (double)s->n * sizeof(float), 0.0};
}

const ladder_case smem_case = {
    .name = "smem",
    .title = "reversing an array through shared memory: static, dynamic, carved",
    .size_help = "N floats, any N >= 1",
    .default_size = "2^26",
    .quick_size = "2^22",
    .test_sizes = {"100003", "257", "1", "4096", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "smem/smem_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_reverse, 0),
    .variants = smem_variants,
    .variant_count = (int)(sizeof smem_variants / sizeof smem_variants[0]),
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
