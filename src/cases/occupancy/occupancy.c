/* The occupancy ladder (SPEC §13): one memory-bound copy, each thread one
 * load in flight, launched so that the resident warps per SM change and
 * nothing else. Forced occupancy (dynamic shared memory that only k blocks
 * fit) shows the bandwidth climbing with the warps until latency is hidden;
 * the block-size sweep shows what the block-slot and thread limits do to
 * small and large blocks; the grid sweep shows a grid too small for the
 * SMs. Baseline: cudaMemcpy of the same bytes. The occupancy each launch
 * should reach comes from the calculator (harness/occupancy_calc.h) at the
 * device's limits, and goes into the summaries next to the bandwidth. */
#include "occupancy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/device/occupancy_calc.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"

#define FORCED_BLOCK 128 /* threads of the forced-occupancy rungs: 4 warps, 6.25% of a 64-warp SM per block */
#define GRID_BLOCK 256   /* threads of the grid-size rungs */

typedef struct occupancy_state {
    long long n;
    float *host_in, *host_out;
    float *device_in, *device_out;
    int sm_count;
    ladder_sm_limits limits;
    int copy_regs, copy_static_smem;
} occupancy_state;

/* How a rung launches the copy; `param` is its sweep point. */
typedef void occupancy_rung(const occupancy_state *s, int param, cudaStream_t stream);

int occupancy_forcing_smem(const ladder_sm_limits *limits, int threads, int regs, int static_smem, int blocks)
{
    int unit = limits->smem_alloc_unit;
    long long allocation = (long long)limits->smem_per_sm / blocks / unit * unit;
    long long dynamic = allocation - limits->smem_reserved_per_block - static_smem;
    if (dynamic < 0) return -1;
    ladder_occupancy r;
    char err[160];
    if (ladder_occupancy_compute(limits, threads, regs, static_smem + dynamic, &r, err, sizeof err) != 0 ||
        r.blocks_per_sm != blocks)
        return -1;
    return (int)dynamic;
}

/* Rungs 0..: one wave of exactly `blocks` blocks per SM, each looping over
 * its share of the array. */
static void run_forced(const occupancy_state *s, int blocks, cudaStream_t stream)
{
    int smem = occupancy_forcing_smem(&s->limits, FORCED_BLOCK, s->copy_regs, s->copy_static_smem, blocks);
    occupancy_copy(s->device_in, s->device_out, s->n, FORCED_BLOCK, blocks * s->sm_count, smem, stream);
}

/* One element per thread, as many blocks as that takes. */
static void run_block_size(const occupancy_state *s, int block, cudaStream_t stream)
{
    long long grid = (s->n + block - 1) / block;
    occupancy_copy(s->device_in, s->device_out, s->n, block, (int)(grid < 1 << 30 ? grid : 1 << 30), 0, stream);
}

/* `per_sm` blocks of 256 threads for every SM, the grid-stride loop covering
 * the rest. */
static void run_grid_size(const occupancy_state *s, int per_sm, cudaStream_t stream)
{
    occupancy_copy(s->device_in, s->device_out, s->n, GRID_BLOCK, per_sm * s->sm_count, 0, stream);
}

static void memcpy_baseline(const occupancy_state *s, int param, cudaStream_t stream)
{
    (void)param;
    CUDA_CHECK(cudaMemcpyAsync(s->device_out, s->device_in, (size_t)s->n * sizeof(float), cudaMemcpyDeviceToDevice,
                               stream));
}

#define FORCED(k)                                                                                              \
    LADDER_RUNG("blocks_per_sm_" #k,                                                                           \
                "shared memory forces " #k " block(s) of 128 threads per SM: " #k " x 4 warps of loads in flight", \
                run_forced, k)
#define BLOCK(b) \
    LADDER_RUNG("block_" #b, #b "-thread blocks, one element per thread: resident warps set by threads and block slots", \
                run_block_size, b)
#define GRID(k) \
    LADDER_RUNG("grid_" #k "_per_sm", "grid of " #k " x SMs blocks of 256 threads, grid-stride loop", run_grid_size, k)

static const ladder_variant occupancy_variants[] = {
    /* forced occupancy: bandwidth against resident warps */
    FORCED(1), FORCED(2), FORCED(3), FORCED(4), FORCED(6), FORCED(8), FORCED(12), FORCED(16),
    /* block size: small blocks hit the block slots, big ones the thread count */
    BLOCK(32), BLOCK(64), BLOCK(96), BLOCK(128), BLOCK(256), BLOCK(512), BLOCK(768), BLOCK(1024),
    /* grid size against the SM count: idle SMs, one partial wave, many waves */
    GRID(1), GRID(2), GRID(4), GRID(8), GRID(16), GRID(128),
    LADDER_VARIANT("memcpy", "cudaMemcpy device to device of the same bytes", memcpy_baseline, 0, LADDER_BASELINE),
};

static void destroy(void *opaque)
{
    occupancy_state *s = opaque;
    if (!s) return;
    cudaFree(s->device_in);
    cudaFree(s->device_out);
    free(s->host_in);
    free(s->host_out);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 1) {
        snprintf(err, err_len, "occupancy takes N, the number of floats to copy");
        return 1;
    }
    if (size->dim[0] > (1LL << 34)) {
        snprintf(err, err_len, "N must be at most 2^34");
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
    occupancy_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->n = size->dim[0];
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&s->sm_count, cudaDevAttrMultiProcessorCount, device));
    if (ladder_sm_limits_for_device(device, &s->limits, err, err_len) != 0) ladder_die("%s", err);
    occupancy_copy_attributes(&s->copy_regs, &s->copy_static_smem);
    occupancy_copy_allow_smem(s->limits.smem_per_block - s->copy_static_smem);
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
    occupancy_state *s = opaque;
    ladder_fill_uniform(s->host_in, (size_t)s->n, seed, 1.0f, 2.0f);
    CUDA_CHECK(cudaMemcpy(s->device_in, s->host_in, (size_t)s->n * sizeof(float), cudaMemcpyHostToDevice));
}

/* The occupancy a rung's launch should reach, from the calculator; NaN for
 * the baseline. */
static double expected_occupancy(const occupancy_state *s, const ladder_variant *v, int *blocks_per_sm)
{
    ladder_occupancy r;
    char err[160];
    int threads = FORCED_BLOCK, smem = s->copy_static_smem;
    if (v->impl == (ladder_impl)run_forced) {
        int dynamic = occupancy_forcing_smem(&s->limits, FORCED_BLOCK, s->copy_regs, s->copy_static_smem, v->param);
        if (dynamic < 0) return NAN;
        smem += dynamic;
    } else if (v->impl == (ladder_impl)run_block_size) {
        threads = v->param;
    } else if (v->impl == (ladder_impl)run_grid_size) {
        threads = GRID_BLOCK;
    } else {
        return NAN;
    }
    if (ladder_occupancy_compute(&s->limits, threads, s->copy_regs, smem, &r, err, sizeof err) != 0) return NAN;
    /* a grid of fewer blocks than the SMs hold leaves warp slots empty */
    if (v->impl == (ladder_impl)run_grid_size && v->param < r.blocks_per_sm) {
        *blocks_per_sm = v->param;
        return (double)v->param * r.warps_per_block / r.max_warps_per_sm;
    }
    *blocks_per_sm = r.blocks_per_sm;
    return r.occupancy;
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    occupancy_state *s = opaque;
    static char reason[200];
    if (v->impl == (ladder_impl)run_forced) {
        int dynamic = occupancy_forcing_smem(&s->limits, FORCED_BLOCK, s->copy_regs, s->copy_static_smem, v->param);
        if (dynamic < 0) {
            snprintf(reason, sizeof reason, "no shared-memory size leaves exactly %d blocks of %d threads on this SM",
                     v->param, FORCED_BLOCK);
            return reason;
        }
        int api = occupancy_copy_api_blocks(FORCED_BLOCK, dynamic);
        if (api != v->param) {
            snprintf(reason, sizeof reason, "%d bytes: the calculator says %d blocks, the CUDA occupancy API %d", dynamic,
                     v->param, api);
            return reason;
        }
    }
    if (v->impl == (ladder_impl)run_block_size && v->param > s->limits.max_threads_per_block)
        return "more threads per block than this GPU allows";
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    ((occupancy_rung *)v->impl)(opaque, v->param, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    occupancy_state *s = opaque;
    return (ladder_output){s->device_out, (size_t)s->n * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    (void)v;
    occupancy_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_out, s->device_out, (size_t)s->n * sizeof(float), cudaMemcpyDeviceToHost));
    return ladder_compare_f32(s->host_out, s->host_in, (size_t)s->n, 0.0); /* a copy is exact */
}

static ladder_work work(void *opaque)
{
    occupancy_state *s = opaque;
    return (ladder_work){2.0 * (double)s->n * sizeof(float), 0.0};
}

/* Each rung's theoretical occupancy beside its bandwidth, and the least
 * forced occupancy that reaches 90% of the best forced rung: where latency
 * stops being hidden. */
static void summarize(void *opaque, ladder_results *results, size_t first)
{
    occupancy_state *s = opaque;
    double best_forced = 0;
    for (size_t i = first; i < results->count; ++i) {
        const ladder_record *rec = &results->records[i];
        if (!rec->skipped && occupancy_variants[rec->index].impl == (ladder_impl)run_forced)
            best_forced = fmax(best_forced, rec->gbps);
    }
    double hidden_at = NAN, hidden_gbps = NAN;
    for (size_t i = first; i < results->count; ++i) {
        const ladder_record *rec = &results->records[i];
        const ladder_variant *v = &occupancy_variants[rec->index];
        int blocks = 0;
        double occupancy = expected_occupancy(s, v, &blocks);
        if (rec->skipped || isnan(occupancy)) continue;
        ladder_summary *sum = ladder_results_add_summary(results);
        snprintf(sum->name, sizeof sum->name, "occupancy_%s", v->name);
        sum->value = occupancy;
        snprintf(sum->unit, sizeof sum->unit, "ratio");
        snprintf(sum->note, sizeof sum->note, "calculator at cc %d.%d, %d regs: %d blocks/SM; measured %.1f GB/s",
                 s->limits.cc_major, s->limits.cc_minor, s->copy_regs, blocks, rec->gbps);
        if (v->impl == (ladder_impl)run_forced && rec->gbps >= 0.9 * best_forced &&
            (isnan(hidden_at) || occupancy < hidden_at))
            hidden_at = occupancy, hidden_gbps = rec->gbps;
    }
    ladder_summary *sum = ladder_results_add_summary(results);
    snprintf(sum->name, sizeof sum->name, "latency_hidden_at_occupancy");
    sum->value = hidden_at;
    snprintf(sum->unit, sizeof sum->unit, "ratio");
    snprintf(sum->note, sizeof sum->note, "least forced occupancy within 90%% of the best forced rung (%.1f of %.1f GB/s)",
             hidden_gbps, best_forced);
}

const ladder_case occupancy_case = {
    .name = "occupancy",
    .title = "a memory-bound copy at forced occupancy, block sizes and grid sizes",
    .size_help = "N floats to copy (at most 2^34)",
    .default_size = "2^26",
    .quick_size = "2^22",
    .test_sizes = {"1", "1000", "100003", "2^20+7", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_refusal = "occupancy sweeps occupancy levels, block and grid sizes of one kernel: the sweep is the result",
    .variants = occupancy_variants,
    .variant_count = (int)(sizeof occupancy_variants / sizeof occupancy_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = unsupported,
    .run = run,
    .output = output,
    .check = check,
    .work = work,
    .summarize = summarize,
};
