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

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"

#define SWEEP_POINT(name, fn, param, story) LADDER_RUNG(name, story, fn, param)

/* Lane k reads word k * s. 4-byte words: 32 banks of 4 bytes, gcd(s, 32)
 * lanes per bank, so a gcd(s, 32)-way conflict costing that many wavefronts.
 * 8-byte words: 256 bytes per warp access, served as 2 half-warp wavefronts
 * even without a conflict, 2 gcd(s, 16) in all. 16-byte words: 512 bytes, 4
 * quarter-warp wavefronts, 4 gcd(s, 8) in all. Each row's cost says how many
 * wavefronts the model expects, relative to stride 1 of 4-byte words.
 * Measured on an H200 with `ladder run smem_banks --ncu`: wavefronts per
 * load instruction (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld) are
 * 1, 2, 4 at stride 1 and 2, 4, 8 at stride 2 for 4-, 8-, 16-byte words, as
 * modelled, and the time per access follows them. The one exception is the
 * 16-byte broadcast: 2 wavefronts, not 1, while the 8-byte one takes 1. */
#define WORD_STRIDE(bytes, s, cost) \
    LADDER_RUNG("w" #bytes "_stride_" #s, "lane k reads word k * " #s ": " cost, smem_banks_sweep_##bytes, s)
#define RUNG(name, fn, story) LADDER_RUNG(name, story, fn, 0)

static const ladder_variant smem_banks_variants[] = {
    WORD_STRIDE(4, 1, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 2, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 3, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 4, "4-way conflict, 4 wavefronts"),
    WORD_STRIDE(4, 5, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 6, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 7, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 8, "8-way conflict, 8 wavefronts"),
    WORD_STRIDE(4, 9, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 10, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 11, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 12, "4-way conflict, 4 wavefronts"),
    WORD_STRIDE(4, 13, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 14, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 15, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 16, "16-way conflict, 16 wavefronts"),
    WORD_STRIDE(4, 17, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 18, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 19, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 20, "4-way conflict, 4 wavefronts"),
    WORD_STRIDE(4, 21, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 22, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 23, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 24, "8-way conflict, 8 wavefronts"),
    WORD_STRIDE(4, 25, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 26, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 27, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 28, "4-way conflict, 4 wavefronts"),
    WORD_STRIDE(4, 29, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 30, "2-way conflict, 2 wavefronts"),
    WORD_STRIDE(4, 31, "conflict-free, 1 wavefront"), WORD_STRIDE(4, 32, "32-way conflict, 32 wavefronts"),
    WORD_STRIDE(4, 33, "conflict-free, 1 wavefront"),
    SWEEP_POINT("w4_broadcast", smem_banks_sweep_4, 0,
                "every lane the same word: one broadcast wavefront, expected as stride 1"),
    WORD_STRIDE(8, 1, "2 wavefronts"), WORD_STRIDE(8, 2, "4 wavefronts"),
    WORD_STRIDE(8, 3, "2 wavefronts"), WORD_STRIDE(8, 4, "8 wavefronts"),
    WORD_STRIDE(8, 5, "2 wavefronts"), WORD_STRIDE(8, 6, "4 wavefronts"),
    WORD_STRIDE(8, 7, "2 wavefronts"), WORD_STRIDE(8, 8, "16 wavefronts"),
    WORD_STRIDE(8, 9, "2 wavefronts"), WORD_STRIDE(8, 10, "4 wavefronts"),
    WORD_STRIDE(8, 11, "2 wavefronts"), WORD_STRIDE(8, 12, "8 wavefronts"),
    WORD_STRIDE(8, 13, "2 wavefronts"), WORD_STRIDE(8, 14, "4 wavefronts"),
    WORD_STRIDE(8, 15, "2 wavefronts"), WORD_STRIDE(8, 16, "32 wavefronts"),
    WORD_STRIDE(8, 17, "2 wavefronts"), WORD_STRIDE(8, 18, "4 wavefronts"),
    WORD_STRIDE(8, 19, "2 wavefronts"), WORD_STRIDE(8, 20, "8 wavefronts"),
    WORD_STRIDE(8, 21, "2 wavefronts"), WORD_STRIDE(8, 22, "4 wavefronts"),
    WORD_STRIDE(8, 23, "2 wavefronts"), WORD_STRIDE(8, 24, "16 wavefronts"),
    WORD_STRIDE(8, 25, "2 wavefronts"), WORD_STRIDE(8, 26, "4 wavefronts"),
    WORD_STRIDE(8, 27, "2 wavefronts"), WORD_STRIDE(8, 28, "8 wavefronts"),
    WORD_STRIDE(8, 29, "2 wavefronts"), WORD_STRIDE(8, 30, "4 wavefronts"),
    WORD_STRIDE(8, 31, "2 wavefronts"), WORD_STRIDE(8, 32, "32 wavefronts"),
    WORD_STRIDE(8, 33, "2 wavefronts"),
    SWEEP_POINT("w8_broadcast", smem_banks_sweep_8, 0,
                "every lane the same 8-byte word: broadcast, one wavefront: expected as row 0"),
    WORD_STRIDE(16, 1, "4 wavefronts"), WORD_STRIDE(16, 2, "8 wavefronts"),
    WORD_STRIDE(16, 3, "4 wavefronts"), WORD_STRIDE(16, 4, "16 wavefronts"),
    WORD_STRIDE(16, 5, "4 wavefronts"), WORD_STRIDE(16, 6, "8 wavefronts"),
    WORD_STRIDE(16, 7, "4 wavefronts"), WORD_STRIDE(16, 8, "32 wavefronts"),
    WORD_STRIDE(16, 9, "4 wavefronts"), WORD_STRIDE(16, 10, "8 wavefronts"),
    WORD_STRIDE(16, 11, "4 wavefronts"), WORD_STRIDE(16, 12, "16 wavefronts"),
    WORD_STRIDE(16, 13, "4 wavefronts"), WORD_STRIDE(16, 14, "8 wavefronts"),
    WORD_STRIDE(16, 15, "4 wavefronts"), WORD_STRIDE(16, 16, "32 wavefronts"),
    WORD_STRIDE(16, 17, "4 wavefronts"), WORD_STRIDE(16, 18, "8 wavefronts"),
    WORD_STRIDE(16, 19, "4 wavefronts"), WORD_STRIDE(16, 20, "16 wavefronts"),
    WORD_STRIDE(16, 21, "4 wavefronts"), WORD_STRIDE(16, 22, "8 wavefronts"),
    WORD_STRIDE(16, 23, "4 wavefronts"), WORD_STRIDE(16, 24, "32 wavefronts"),
    WORD_STRIDE(16, 25, "4 wavefronts"), WORD_STRIDE(16, 26, "8 wavefronts"),
    WORD_STRIDE(16, 27, "4 wavefronts"), WORD_STRIDE(16, 28, "16 wavefronts"),
    WORD_STRIDE(16, 29, "4 wavefronts"), WORD_STRIDE(16, 30, "8 wavefronts"),
    WORD_STRIDE(16, 31, "4 wavefronts"), WORD_STRIDE(16, 32, "32 wavefronts"),
    WORD_STRIDE(16, 33, "4 wavefronts"),
    SWEEP_POINT("w16_broadcast", smem_banks_sweep_16, 0,
                "every lane the same 16-byte word: still 2 wavefronts (ncu; 4- and 8-byte broadcasts: 1), "
                "a 128-bit load is split in half-warps even with nothing to split"),
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

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 2 || size->dim[0] > 1 << 20 || size->dim[1] > 1 << 20) {
        snprintf(err, err_len, "smem_banks takes BLOCKSxREPEATS, each up to 2^20 (each repeat is %d reads per thread)",
                 SMEM_BANKS_UNROLL);
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
    smem_banks_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->blocks = (int)size->dim[0];
    s->repeats = (int)size->dim[1];
    s->threads = (size_t)s->blocks * SMEM_BANKS_THREADS;
    ladder_buffers b = {0};
    ladder_buffers_pair(&b, (void **)&s->host_sums, (void **)&s->device_sums, s->threads * sizeof(uint32_t));
    ladder_buffers_device(&b, (void **)&s->device_table, sizeof s->host_table);
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
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
    .try_refusal = "smem_banks is a sweep of shared-memory strides and word sizes, not one result computed from its inputs",
    .variants = smem_banks_variants,
    .variant_count = (int)(sizeof smem_banks_variants / sizeof smem_banks_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every row takes every size */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
