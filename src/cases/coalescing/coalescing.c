/* The coalescing study (SPEC §2), one table of sweeps: (a) copies shifted by
 * 0..32 elements, (b) copies reading every stride-th element, both in float
 * and double; (c) the classic add-one with its four G80 access patterns, on
 * DRAM and on an L2-resident window; (d) three layouts of float3 points.
 * Every row moves n floats' worth of useful bytes (read once, written once),
 * so GB/s is useful bandwidth and "speedup" is relative to the aligned float
 * copy, row 0: below 1 for every shape that wastes sectors. Baseline:
 * cudaMemcpy D2D of the same bytes. */
#include "coalescing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"

static void memcpy_baseline(const float *in, float *out, long long n, int unused, cudaStream_t stream)
{
    (void)unused;
    CUDA_CHECK(cudaMemcpyAsync(out, in, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

/* (a) Offsets: thread t reads and writes element t + k. Unless the shift is a
 * whole number of 32-byte sectors, each warp's request touches one sector more
 * than it uses (5 for 4 with floats, 9 for 8 with doubles); that sector is the
 * next warp's, so L2 serves it and DRAM moves the same bytes: the sector model
 * puts every offset near offset 0. */
#define OFFSET(type, k)                                                                              \
    LADDER_RUNG("offset_" #type "_" #k, "read and write shifted by " #k " elements: one extra sector per warp", \
                coalescing_copy_offset_##type, k)

/* (b) Strides: thread i reads element i * s and writes element i. A warp's
 * reads span 32 s elements; from 32 bytes apart (floats: stride 8, doubles:
 * 4) every element needs a 32-byte sector of its own from L2, the textbook
 * floor. Hopper goes below that floor, and Nsight Compute says why (H200,
 * 25.2M floats, `ladder run coalescing --ncu`):
 * - The L2 fills a miss 64 bytes at a time (cudaLimitMaxL2FetchGranularity
 *   reads 64 by default), so from 64 bytes apart each element costs 64 B of
 *   DRAM: dram__bytes_read is 0.81 GB at float stride 8, 1.21 GB at 12 and
 *   1.61 GB at 16 to 32, while the L2 sectors asked for stay at 25.2M (0.81
 *   GB). With the limit set to 32 bytes, stride 16 reads 0.81 GB and takes
 *   241 us instead of 397 us (a standalone probe, not a rung: the limit is
 *   per context).
 * - Past 64 bytes apart the DRAM bytes stay flat, but DRAM runs further from
 *   its peak as the reads spread: 91 % of peak at 64 bytes apart, 80 % at
 *   128 (floats at 32, doubles at 16), 62 % at 256 (doubles at 32).
 * At stride 1 a copy of one float per thread reaches only 51 % of DRAM peak,
 * bound by loads in flight rather than by sectors, so the small strides fall
 * less than the sector model's 2 / (s + 1). Each row's story gives the bytes
 * per element read, as 32-byte sectors from L2 and as DRAM fetches. */
#define STRIDE(type, s, l2_bytes, dram_bytes)                                                        \
    LADDER_RUNG("stride_" #type "_" #s,                                                              \
                "read at a stride of " #s " elements, write contiguously; per element read: "        \
                "~" #l2_bytes " B of L2 sectors, ~" #dram_bytes " B of DRAM",                         \
                coalescing_copy_stride_##type, s)
#define RUNG(name, fn, param, story) LADDER_RUNG(name, story, fn, param)

static const ladder_variant coalescing_variants[] = {
    /* (a) offsets, float then double */
    OFFSET(f32, 0), OFFSET(f32, 1), OFFSET(f32, 2), OFFSET(f32, 3), OFFSET(f32, 4), OFFSET(f32, 5),
    OFFSET(f32, 6), OFFSET(f32, 7), OFFSET(f32, 8), OFFSET(f32, 9), OFFSET(f32, 10), OFFSET(f32, 11),
    OFFSET(f32, 12), OFFSET(f32, 13), OFFSET(f32, 14), OFFSET(f32, 15), OFFSET(f32, 16), OFFSET(f32, 17),
    OFFSET(f32, 18), OFFSET(f32, 19), OFFSET(f32, 20), OFFSET(f32, 21), OFFSET(f32, 22), OFFSET(f32, 23),
    OFFSET(f32, 24), OFFSET(f32, 25), OFFSET(f32, 26), OFFSET(f32, 27), OFFSET(f32, 28), OFFSET(f32, 29),
    OFFSET(f32, 30), OFFSET(f32, 31), OFFSET(f32, 32),
    OFFSET(f64, 0), OFFSET(f64, 1), OFFSET(f64, 2), OFFSET(f64, 3), OFFSET(f64, 4), OFFSET(f64, 5),
    OFFSET(f64, 6), OFFSET(f64, 7), OFFSET(f64, 8), OFFSET(f64, 9), OFFSET(f64, 10), OFFSET(f64, 11),
    OFFSET(f64, 12), OFFSET(f64, 13), OFFSET(f64, 14), OFFSET(f64, 15), OFFSET(f64, 16), OFFSET(f64, 17),
    OFFSET(f64, 18), OFFSET(f64, 19), OFFSET(f64, 20), OFFSET(f64, 21), OFFSET(f64, 22), OFFSET(f64, 23),
    OFFSET(f64, 24), OFFSET(f64, 25), OFFSET(f64, 26), OFFSET(f64, 27), OFFSET(f64, 28), OFFSET(f64, 29),
    OFFSET(f64, 30), OFFSET(f64, 31), OFFSET(f64, 32),
    /* (b) strides, float then double */
    STRIDE(f32, 1, 4, 4), STRIDE(f32, 2, 8, 8), STRIDE(f32, 3, 12, 12),
    STRIDE(f32, 4, 16, 16), STRIDE(f32, 5, 20, 20), STRIDE(f32, 6, 24, 24),
    STRIDE(f32, 7, 28, 28), STRIDE(f32, 8, 32, 32), STRIDE(f32, 9, 32, 36),
    STRIDE(f32, 10, 32, 40), STRIDE(f32, 11, 32, 44), STRIDE(f32, 12, 32, 48),
    STRIDE(f32, 13, 32, 52), STRIDE(f32, 14, 32, 56), STRIDE(f32, 15, 32, 60),
    STRIDE(f32, 16, 32, 64), STRIDE(f32, 17, 32, 64), STRIDE(f32, 18, 32, 64),
    STRIDE(f32, 19, 32, 64), STRIDE(f32, 20, 32, 64), STRIDE(f32, 21, 32, 64),
    STRIDE(f32, 22, 32, 64), STRIDE(f32, 23, 32, 64), STRIDE(f32, 24, 32, 64),
    STRIDE(f32, 25, 32, 64), STRIDE(f32, 26, 32, 64), STRIDE(f32, 27, 32, 64),
    STRIDE(f32, 28, 32, 64), STRIDE(f32, 29, 32, 64), STRIDE(f32, 30, 32, 64),
    STRIDE(f32, 31, 32, 64), STRIDE(f32, 32, 32, 64),
    STRIDE(f64, 1, 8, 8), STRIDE(f64, 2, 16, 16), STRIDE(f64, 3, 24, 24),
    STRIDE(f64, 4, 32, 32), STRIDE(f64, 5, 32, 40), STRIDE(f64, 6, 32, 48),
    STRIDE(f64, 7, 32, 56), STRIDE(f64, 8, 32, 64), STRIDE(f64, 9, 32, 64),
    STRIDE(f64, 10, 32, 64), STRIDE(f64, 11, 32, 64), STRIDE(f64, 12, 32, 64),
    STRIDE(f64, 13, 32, 64), STRIDE(f64, 14, 32, 64), STRIDE(f64, 15, 32, 64),
    STRIDE(f64, 16, 32, 64), STRIDE(f64, 17, 32, 64), STRIDE(f64, 18, 32, 64),
    STRIDE(f64, 19, 32, 64), STRIDE(f64, 20, 32, 64), STRIDE(f64, 21, 32, 64),
    STRIDE(f64, 22, 32, 64), STRIDE(f64, 23, 32, 64), STRIDE(f64, 24, 32, 64),
    STRIDE(f64, 25, 32, 64), STRIDE(f64, 26, 32, 64), STRIDE(f64, 27, 32, 64),
    STRIDE(f64, 28, 32, 64), STRIDE(f64, 29, 32, 64), STRIDE(f64, 30, 32, 64),
    STRIDE(f64, 31, 32, 64), STRIDE(f64, 32, 32, 64),
    /* (c) the classic add-one: G80 took 356 us coalesced, 357 us with idle
     * threads, about 3,500 us permuted or misaligned, on 3M floats. */
    RUNG("addone_coalesced", coalescing_add_one_coalesced, 1,
         "out[i] = in[i] + 1 (the G80 example, out of place): lane k on word k, 4 sectors per warp"),
    RUNG("addone_idle_lanes", coalescing_add_one_idle_lanes, 1,
         "lanes 24-31 idle: 3 whole sectors per warp, no sector wasted, but 4/3 the warps: 0.77x coalesced on an H200"),
    RUNG("addone_permuted", coalescing_add_one_permuted, 1,
         "lane k on word 13k mod 32: the same 4 sectors in another order; coalesced since Fermi: expected as coalesced"),
    RUNG("addone_misaligned", coalescing_add_one_misaligned, 1,
         "every access one float late: 5 sectors per warp, the extra one the next warp's: expected within a few %"),
    RUNG("l2_addone_coalesced", coalescing_add_one_coalesced, COALESCING_L2_PASSES,
         "L2-resident: add-one over n/8 floats (3M at the default size) 8 times in one launch: passes 2-8 hit L2"),
    RUNG("l2_addone_idle_lanes", coalescing_add_one_idle_lanes, COALESCING_L2_PASSES,
         "L2-resident, lanes 24-31 idle: 4/3 the warps for the same sectors"),
    RUNG("l2_addone_permuted", coalescing_add_one_permuted, COALESCING_L2_PASSES,
         "L2-resident, permuted within each warp: the same sectors per request"),
    RUNG("l2_addone_misaligned", coalescing_add_one_misaligned, COALESCING_L2_PASSES,
         "L2-resident, one float late: 5 sectors per 4 of data; with no DRAM to hide behind, expected to show"),
    /* (d) float3 points, one added to each component. */
    RUNG("aos_direct", coalescing_aos_direct, 0,
         "float3 array of structures: 3 loads 12 B apart per warp, each spanning 12 sectors; L1 serves the 2nd and 3rd"),
    RUNG("aos_staged", coalescing_aos_staged, 0,
         "the block's floats in as 3 coalesced scalar loads per thread, updated in shared memory, out the same way"),
    RUNG("soa", coalescing_soa, 0,
         "structure of arrays: x, y, z in three arrays, three coalesced loads and stores per thread"),
    RUNG("aos_float4_padded", coalescing_aos_float4, 0,
         "padded to float4: one 16-byte load and store per point, but 4/3 the bytes: expected ~0.75x of soa"),
    {"memcpy", "cudaMemcpy device to device of the same bytes", (ladder_impl)memcpy_baseline, 0, LADDER_BASELINE},
};

typedef struct coalescing_state {
    long long n;                /* floats per variant */
    size_t in_words, out_words; /* sized for the widest shape */
    uint64_t key;               /* the current draw */
    float *device_in, *device_out;
    float *host_out;            /* pinned: the check reads the whole output back */
} coalescing_state;

coalescing_word_map coalescing_expected_words(const ladder_variant *v, long long n)
{
    long long k = v->param;
    coalescing_launcher *f = (coalescing_launcher *)v->impl;
    if (f == coalescing_copy_offset_f32) return (coalescing_word_map){n, 1, k, 1, k, 1, 0.0f};
    if (f == coalescing_copy_offset_f64) return (coalescing_word_map){n / 2, 2, 2 * k, 2, 2 * k, 2, 0.0f};
    if (f == coalescing_copy_stride_f32) return (coalescing_word_map){n, 1, 0, 1, 0, k, 0.0f};
    if (f == coalescing_copy_stride_f64) return (coalescing_word_map){n / 2, 2, 0, 2, 0, 2 * k, 0.0f};
    if (f == coalescing_add_one_misaligned) return (coalescing_word_map){n / k, 1, 1, 1, 1, 1, 1.0f};
    if (f == coalescing_add_one_coalesced || f == coalescing_add_one_idle_lanes || f == coalescing_add_one_permuted)
        return (coalescing_word_map){n / k, 1, 0, 1, 0, 1, 1.0f};
    /* AoS and SoA both cover words [0, n): the layout decides which words are
     * x, y or z, not what each must hold. */
    if (f == coalescing_aos_direct || f == coalescing_aos_staged || f == coalescing_soa)
        return (coalescing_word_map){n, 1, 0, 1, 0, 1, 1.0f};
    if (f == coalescing_aos_float4) return (coalescing_word_map){n / 3, 3, 0, 4, 0, 4, 1.0f};
    return (coalescing_word_map){n, 1, 0, 1, 0, 1, 0.0f}; /* the memcpy baseline */
}

static void destroy(void *opaque)
{
    coalescing_state *s = opaque;
    if (!s) return;
    cudaFree(s->device_in);
    cudaFree(s->device_out);
    cudaFreeHost(s->host_out);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    long long n = size->dim[0];
    if (size->count != 1 || n % 24 != 0 || n > (1LL << 31)) {
        snprintf(err, err_len, "coalescing takes N floats, a multiple of 24 (n/2 doubles, n/3 float3s, n/8 "
                               "for the L2 rungs) up to 2^31");
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
    long long n = size->dim[0];
    coalescing_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->n = n;
    /* Stride 32 reads up to word 32n; shifted doubles up to n + 64; float4s 4n/3. */
    s->in_words = (size_t)(32 * n > n + 2 * COALESCING_MAX_SHIFT ? 32 * n : n + 2 * COALESCING_MAX_SHIFT);
    s->out_words = (size_t)(n + 2 * COALESCING_MAX_SHIFT > 4 * n / 3 ? n + 2 * COALESCING_MAX_SHIFT : 4 * n / 3);
    ladder_buffers b = {0};
    ladder_buffers_device(&b, (void **)&s->device_in, s->in_words * sizeof(float));
    ladder_buffers_device(&b, (void **)&s->device_out, s->out_words * sizeof(float));
    ladder_buffers_pinned(&b, (void **)&s->host_out, s->out_words * sizeof(float));
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    return s;
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    coalescing_state *s = opaque;
    s->key = ladder_hash64(seed);
    coalescing_fill(s->device_in, s->in_words, s->key, 0);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    coalescing_state *s = opaque;
    ((coalescing_launcher *)v->impl)(s->device_in, s->device_out, s->n, v->param, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    coalescing_state *s = opaque;
    return (ladder_output){s->device_out, s->out_words * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    coalescing_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_out, s->device_out, s->out_words * sizeof(float), cudaMemcpyDeviceToHost));
    coalescing_word_map map = coalescing_expected_words(v, s->n);
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)
    for (long long e = 0; e < map.elements; ++e) {
        for (int c = 0; c < map.words_used; ++c) {
            double ref = coalescing_input_word(s->key, (uint64_t)(map.in_first + e * map.in_step + c)) + map.add;
            double got = s->host_out[map.out_first + e * map.out_step + c];
            ref_squared += ref * ref;
            if (!isfinite(got)) ++nonfinite;
            else diff_squared += (got - ref) * (got - ref);
        }
    }
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, 0.0);
}

static ladder_work work(void *opaque)
{
    coalescing_state *s = opaque;
    return (ladder_work){2.0 * (double)s->n * sizeof(float), 0.0};
}

const ladder_case coalescing_case = {
    .name = "coalescing",
    .title = "global memory access shapes: offsets, strides, the G80 add-one, float3 layouts",
    .size_help = "N floats moved per variant, a multiple of 24; the stride rungs read 32N",
    .default_size = "2^24+2^23",
    .quick_size = "2^21+2^20",
    .test_sizes = {"24", "984", "10392", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_refusal = "coalescing is a sweep of access patterns (offsets, strides, layouts), not one result computed from its inputs",
    .variants = coalescing_variants,
    .variant_count = (int)(sizeof coalescing_variants / sizeof coalescing_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every variant takes every multiple of 24 */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
