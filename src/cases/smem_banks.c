/* The bank-conflict sweep (SPEC §3b, 3c). A sweep of shared-memory access
 * shapes, not a ladder toward a goal: row 0 is the conflict-free 4-byte
 * access, and a row's "speedup" is the inverse of its time per access
 * relative to row 0, so an n-way conflict should read about 1/n. Each thread
 * makes the same number of accesses in every row. No DRAM bytes to speak of
 * and no flops: GB/s and the ceiling are left empty, the times are the result.
 * No vendor baseline exists for this. */
#include "smem_banks.h"

#include <stdio.h>
#include <stdlib.h>

#include "../harness/case.h"
#include "../harness/check.h"
#include "../harness/rng.h"

#define SWEEP_POINT(name, fn, param, story) LADDER_RUNG(name, story, fn, param)
#define RUNG(name, fn, story) LADDER_RUNG(name, story, fn, 0)

static const ladder_variant smem_banks_variants[] = {
    SWEEP_POINT("w4_stride_1", smem_banks_sweep_4, 1,
                "reference: lane k reads word k, 32 banks, one wavefront per warp access"),
    SWEEP_POINT("w4_stride_2", smem_banks_sweep_4, 2,
                "lanes 2 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_3", smem_banks_sweep_4, 3,
                "odd stride 3: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_4", smem_banks_sweep_4, 4,
                "lanes 4 words apart share a bank in groups of 4: 4-way conflict, expected ~4x stride 1"),
    SWEEP_POINT("w4_stride_5", smem_banks_sweep_4, 5,
                "odd stride 5: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_6", smem_banks_sweep_4, 6,
                "lanes 6 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_7", smem_banks_sweep_4, 7,
                "odd stride 7: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_8", smem_banks_sweep_4, 8,
                "lanes 8 words apart share a bank in groups of 8: 8-way conflict, expected ~8x stride 1"),
    SWEEP_POINT("w4_stride_9", smem_banks_sweep_4, 9,
                "odd stride 9: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_10", smem_banks_sweep_4, 10,
                "lanes 10 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_11", smem_banks_sweep_4, 11,
                "odd stride 11: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_12", smem_banks_sweep_4, 12,
                "lanes 12 words apart share a bank in groups of 4: 4-way conflict, expected ~4x stride 1"),
    SWEEP_POINT("w4_stride_13", smem_banks_sweep_4, 13,
                "odd stride 13: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_14", smem_banks_sweep_4, 14,
                "lanes 14 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_15", smem_banks_sweep_4, 15,
                "odd stride 15: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_16", smem_banks_sweep_4, 16,
                "lanes 16 words apart share a bank in groups of 16: 16-way conflict, expected ~16x stride 1"),
    SWEEP_POINT("w4_stride_17", smem_banks_sweep_4, 17,
                "odd stride 17: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_18", smem_banks_sweep_4, 18,
                "lanes 18 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_19", smem_banks_sweep_4, 19,
                "odd stride 19: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_20", smem_banks_sweep_4, 20,
                "lanes 20 words apart share a bank in groups of 4: 4-way conflict, expected ~4x stride 1"),
    SWEEP_POINT("w4_stride_21", smem_banks_sweep_4, 21,
                "odd stride 21: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_22", smem_banks_sweep_4, 22,
                "lanes 22 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_23", smem_banks_sweep_4, 23,
                "odd stride 23: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_24", smem_banks_sweep_4, 24,
                "lanes 24 words apart share a bank in groups of 8: 8-way conflict, expected ~8x stride 1"),
    SWEEP_POINT("w4_stride_25", smem_banks_sweep_4, 25,
                "odd stride 25: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_26", smem_banks_sweep_4, 26,
                "lanes 26 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_27", smem_banks_sweep_4, 27,
                "odd stride 27: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_28", smem_banks_sweep_4, 28,
                "lanes 28 words apart share a bank in groups of 4: 4-way conflict, expected ~4x stride 1"),
    SWEEP_POINT("w4_stride_29", smem_banks_sweep_4, 29,
                "odd stride 29: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_30", smem_banks_sweep_4, 30,
                "lanes 30 words apart share a bank in groups of 2: 2-way conflict, expected ~2x stride 1"),
    SWEEP_POINT("w4_stride_31", smem_banks_sweep_4, 31,
                "odd stride 31: lanes land in 32 distinct banks, conflict-free: expected as stride 1"),
    SWEEP_POINT("w4_stride_32", smem_banks_sweep_4, 32,
                "lanes 32 words apart share a bank in groups of 32: 32-way conflict, expected ~32x stride 1"),
    SWEEP_POINT("w4_stride_33", smem_banks_sweep_4, 33,
                "stride 33 = 32 + 1: each lane one bank further, conflict-free: the padding fix"),
    SWEEP_POINT("w4_broadcast", smem_banks_sweep_4, 0,
                "every lane the same word: one broadcast wavefront, expected as stride 1"),
    SWEEP_POINT("w8_stride_1", smem_banks_sweep_8, 1,
                "8-byte words: 256 B per warp access, 2 half-warp wavefronts even without conflict: ~2x row 0"),
    SWEEP_POINT("w8_stride_2", smem_banks_sweep_8, 2,
                "stride 2: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_3", smem_banks_sweep_8, 3,
                "stride 3: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_4", smem_banks_sweep_8, 4,
                "stride 4: 4-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w8_stride_5", smem_banks_sweep_8, 5,
                "stride 5: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_6", smem_banks_sweep_8, 6,
                "stride 6: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_7", smem_banks_sweep_8, 7,
                "stride 7: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_8", smem_banks_sweep_8, 8,
                "stride 8: 8-way conflict within each phase: 16 wavefronts, expected ~16x row 0"),
    SWEEP_POINT("w8_stride_9", smem_banks_sweep_8, 9,
                "stride 9: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_10", smem_banks_sweep_8, 10,
                "stride 10: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_11", smem_banks_sweep_8, 11,
                "stride 11: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_12", smem_banks_sweep_8, 12,
                "stride 12: 4-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w8_stride_13", smem_banks_sweep_8, 13,
                "stride 13: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_14", smem_banks_sweep_8, 14,
                "stride 14: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_15", smem_banks_sweep_8, 15,
                "stride 15: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_16", smem_banks_sweep_8, 16,
                "stride 16: 16-way conflict within each phase: 32 wavefronts, expected ~32x row 0"),
    SWEEP_POINT("w8_stride_17", smem_banks_sweep_8, 17,
                "stride 17: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_18", smem_banks_sweep_8, 18,
                "stride 18: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_19", smem_banks_sweep_8, 19,
                "stride 19: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_20", smem_banks_sweep_8, 20,
                "stride 20: 4-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w8_stride_21", smem_banks_sweep_8, 21,
                "stride 21: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_22", smem_banks_sweep_8, 22,
                "stride 22: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_23", smem_banks_sweep_8, 23,
                "stride 23: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_24", smem_banks_sweep_8, 24,
                "stride 24: 8-way conflict within each phase: 16 wavefronts, expected ~16x row 0"),
    SWEEP_POINT("w8_stride_25", smem_banks_sweep_8, 25,
                "stride 25: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_26", smem_banks_sweep_8, 26,
                "stride 26: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_27", smem_banks_sweep_8, 27,
                "stride 27: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_28", smem_banks_sweep_8, 28,
                "stride 28: 4-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w8_stride_29", smem_banks_sweep_8, 29,
                "stride 29: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_30", smem_banks_sweep_8, 30,
                "stride 30: 2-way conflict within each phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w8_stride_31", smem_banks_sweep_8, 31,
                "stride 31: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_stride_32", smem_banks_sweep_8, 32,
                "stride 32: 16-way conflict within each phase: 32 wavefronts, expected ~32x row 0"),
    SWEEP_POINT("w8_stride_33", smem_banks_sweep_8, 33,
                "stride 33: no lane shares a bank within its phase: 2 wavefronts, expected ~2x row 0"),
    SWEEP_POINT("w8_broadcast", smem_banks_sweep_8, 0,
                "every lane the same 8-byte word: broadcast, one wavefront: expected as row 0"),
    SWEEP_POINT("w16_stride_1", smem_banks_sweep_16, 1,
                "16-byte words: 512 B per warp access, 4 quarter-warp wavefronts even without conflict: ~4x row 0"),
    SWEEP_POINT("w16_stride_2", smem_banks_sweep_16, 2,
                "stride 2: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_3", smem_banks_sweep_16, 3,
                "stride 3: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_4", smem_banks_sweep_16, 4,
                "stride 4: 4-way conflict within each phase: 16 wavefronts, expected ~16x row 0"),
    SWEEP_POINT("w16_stride_5", smem_banks_sweep_16, 5,
                "stride 5: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_6", smem_banks_sweep_16, 6,
                "stride 6: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_7", smem_banks_sweep_16, 7,
                "stride 7: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_8", smem_banks_sweep_16, 8,
                "stride 8: 8-way conflict within each phase: 32 wavefronts, expected ~32x row 0"),
    SWEEP_POINT("w16_stride_9", smem_banks_sweep_16, 9,
                "stride 9: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_10", smem_banks_sweep_16, 10,
                "stride 10: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_11", smem_banks_sweep_16, 11,
                "stride 11: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_12", smem_banks_sweep_16, 12,
                "stride 12: 4-way conflict within each phase: 16 wavefronts, expected ~16x row 0"),
    SWEEP_POINT("w16_stride_13", smem_banks_sweep_16, 13,
                "stride 13: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_14", smem_banks_sweep_16, 14,
                "stride 14: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_15", smem_banks_sweep_16, 15,
                "stride 15: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_16", smem_banks_sweep_16, 16,
                "stride 16: 8-way conflict within each phase: 32 wavefronts, expected ~32x row 0"),
    SWEEP_POINT("w16_stride_17", smem_banks_sweep_16, 17,
                "stride 17: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_18", smem_banks_sweep_16, 18,
                "stride 18: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_19", smem_banks_sweep_16, 19,
                "stride 19: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_20", smem_banks_sweep_16, 20,
                "stride 20: 4-way conflict within each phase: 16 wavefronts, expected ~16x row 0"),
    SWEEP_POINT("w16_stride_21", smem_banks_sweep_16, 21,
                "stride 21: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_22", smem_banks_sweep_16, 22,
                "stride 22: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_23", smem_banks_sweep_16, 23,
                "stride 23: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_24", smem_banks_sweep_16, 24,
                "stride 24: 8-way conflict within each phase: 32 wavefronts, expected ~32x row 0"),
    SWEEP_POINT("w16_stride_25", smem_banks_sweep_16, 25,
                "stride 25: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_26", smem_banks_sweep_16, 26,
                "stride 26: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_27", smem_banks_sweep_16, 27,
                "stride 27: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_28", smem_banks_sweep_16, 28,
                "stride 28: 4-way conflict within each phase: 16 wavefronts, expected ~16x row 0"),
    SWEEP_POINT("w16_stride_29", smem_banks_sweep_16, 29,
                "stride 29: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_30", smem_banks_sweep_16, 30,
                "stride 30: 2-way conflict within each phase: 8 wavefronts, expected ~8x row 0"),
    SWEEP_POINT("w16_stride_31", smem_banks_sweep_16, 31,
                "stride 31: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_stride_32", smem_banks_sweep_16, 32,
                "stride 32: 8-way conflict within each phase: 32 wavefronts, expected ~32x row 0"),
    SWEEP_POINT("w16_stride_33", smem_banks_sweep_16, 33,
                "stride 33: no lane shares a bank within its phase: 4 wavefronts, expected ~4x row 0"),
    SWEEP_POINT("w16_broadcast", smem_banks_sweep_16, 0,
                "every lane the same 16-byte word: broadcast, one wavefront: expected as row 0"),
    /* (c) the padding fix on a 32 x 32 tile. */
    RUNG("tile_rows", smem_banks_tile_rows,
         "32 x 32 tile read by rows, tile[u][lane]: consecutive words, conflict-free: expected as row 0"),
    RUNG("tile_columns", smem_banks_tile_columns,
         "read by columns, tile[lane][u]: lanes 32 words apart, all in one bank: 32-way, expected ~32x row 0"),
    RUNG("tile_columns_padded", smem_banks_tile_columns_padded,
         "columns of tile[32][33]: lanes 33 words apart land in 32 banks: conflict-free again, expected as row 0"),
};

typedef struct smem_banks_state {
    int blocks, repeats;
    size_t threads;
    uint32_t host_table[SMEM_BANKS_TABLE_WORDS];
    uint32_t *host_sums;
    uint32_t *device_table, *device_sums;
} smem_banks_state;

uint32_t smem_banks_expected_sum(const ladder_variant *v, const uint32_t *table, int lane, int repeats)
{
    smem_banks_launcher *f = (smem_banks_launcher *)v->impl;
    uint32_t once = 0;
    if (f == smem_banks_tile_rows) {
        for (int u = 0; u < 32; ++u) once += table[u * 32 + lane];
    } else if (f == smem_banks_tile_columns || f == smem_banks_tile_columns_padded) {
        for (int u = 0; u < 32; ++u) once += table[lane * 32 + u];
    } else {
        int words = f == smem_banks_sweep_4 ? 1 : f == smem_banks_sweep_8 ? 2 : 4;
        for (int u = 0; u < SMEM_BANKS_UNROLL; ++u)
            for (int c = 0; c < words; ++c) once += table[(lane * v->param + u) * words + c];
    }
    return once * (uint32_t)repeats; /* wrapping, as the device's adds */
}

static void destroy(void *opaque)
{
    smem_banks_state *s = opaque;
    if (!s) return;
    cudaFree(s->device_table);
    cudaFree(s->device_sums);
    free(s->host_sums);
    free(s);
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    if (size->count != 2 || size->dim[0] > 1 << 20 || size->dim[1] > 1 << 20) {
        *status = LADDER_BAD_SIZE;
        snprintf(err, err_len, "smem_banks takes BLOCKSxREPEATS, each up to 2^20 (each repeat is %d reads per thread)",
                 SMEM_BANKS_UNROLL);
        return NULL;
    }
    smem_banks_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->blocks = (int)size->dim[0];
    s->repeats = (int)size->dim[1];
    s->threads = (size_t)s->blocks * SMEM_BANKS_THREADS;
    s->host_sums = ladder_host_alloc(s->threads * sizeof(uint32_t));
    if (ladder_try_cuda_malloc((void **)&s->device_table, sizeof s->host_table) ||
        ladder_try_cuda_malloc((void **)&s->device_sums, s->threads * sizeof(uint32_t))) {
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "%d blocks need %.2f MB of device memory; not available", s->blocks,
                 s->threads * sizeof(uint32_t) / 1e6);
        destroy(s);
        return NULL;
    }
    return s;
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    smem_banks_state *s = opaque;
    uint64_t key = ladder_hash64(seed);
    for (uint64_t i = 0; i < SMEM_BANKS_TABLE_WORDS; ++i) s->host_table[i] = (uint32_t)(ladder_hash64(key ^ i) >> 32);
    CUDA_CHECK(cudaMemcpy(s->device_table, s->host_table, sizeof s->host_table, cudaMemcpyHostToDevice));
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    smem_banks_state *s = opaque;
    ((smem_banks_launcher *)v->impl)(s->device_table, s->device_sums, s->blocks, s->repeats, v->param, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    smem_banks_state *s = opaque;
    return (ladder_output){s->device_sums, s->threads * sizeof(uint32_t), 0xFF};
}

/* Integer sums, exact: the measure is the fraction of threads whose sum is
 * wrong (an unwritten one reads 0xFFFFFFFF, the poison). */
static ladder_check check(void *opaque, const ladder_variant *v)
{
    smem_banks_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_sums, s->device_sums, s->threads * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    uint32_t expected[32];
    for (int lane = 0; lane < 32; ++lane) expected[lane] = smem_banks_expected_sum(v, s->host_table, lane, s->repeats);
    size_t wrong = 0;
    for (size_t t = 0; t < s->threads; ++t) wrong += s->host_sums[t] != expected[t % 32];
    ladder_check c = {(double)wrong / (double)s->threads, 0.0, 0, wrong == 0};
    return c;
}

static ladder_work work(void *opaque)
{
    (void)opaque;
    return (ladder_work){0.0, 0.0};
}

const ladder_case smem_banks_case = {
    .name = "smem_banks",
    .title = "shared-memory bank conflicts: strides 1..33 of 4-, 8-, 16-byte words, broadcast, padding",
    .size_help = "BLOCKSxREPEATS: blocks of 256 threads, each thread reading 32 x REPEATS times",
    .default_size = "2048x64",
    .quick_size = "528x16",
    .test_sizes = {"3x1", "1x2", "5x1", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .variants = smem_banks_variants,
    .variant_count = (int)(sizeof smem_banks_variants / sizeof smem_banks_variants[0]),
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every row takes every size */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
