/* The transpose ladder (SPEC §4): from a naive column-writing kernel to a tile
 * that moves as many bytes per second as a copy. Baseline: cudaMemcpy D2D of
 * the same bytes, the rate any transpose is aiming at. */
#include "transpose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "harness/user/load.h"
#include "ladder_try.h"

/* variant.param: what a correct output is. */
enum { TRANSPOSED = 0, COPIED = 1 };

/* The reference is the input itself, read in the other order: exact, so the
 * tolerance is zero. */
ladder_check transpose_check_host(const float *in, const float *out, long long rows, long long cols, int copied)
{
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)
    for (long long r = 0; r < rows; ++r) {
        for (long long c = 0; c < cols; ++c) {
            double ref = in[r * cols + c];
            double got = copied ? out[r * cols + c] : out[c * rows + r];
            ref_squared += ref * ref;
            if (!isfinite(got)) ++nonfinite;
            else diff_squared += (got - ref) * (got - ref);
        }
    }
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, 0.0);
}

static void memcpy_baseline(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemcpyAsync(out, in, (size_t)rows * cols * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}


static const ladder_variant transpose_variants[] = {
    LADDER_RUNG("copy", "row-to-row copy in the same 32x8-thread tile walk: the bandwidth a transpose aims at",
         transpose_copy, COPIED),
    LADDER_RUNG("copy_shared", "the copy staged through a shared-memory tile: what the round trip and barrier cost",
         transpose_copy_shared, COPIED),
    LADDER_RUNG("naive", "transpose: coalesced reads, column writes (32 sectors per warp store)", transpose_naive,
         TRANSPOSED),
    LADDER_RUNG("tiled", "32x32 shared tile: reads and writes both coalesced; column reads of the tile: 32-way bank conflicts",
         transpose_tiled, TRANSPOSED),
    LADDER_RUNG("tiled_padded", "tile padded to 33 columns: a tile column spans 32 banks, no conflicts",
         transpose_tiled_padded, TRANSPOSED),
    LADDER_RUNG("diagonal", "diagonal block order against partition camping (moot since Fermi's address hashing)",
         transpose_diagonal, TRANSPOSED),
    LADDER_RUNG("column_order", "padded tile, blocks walk down the input's columns: output rows written in order",
         transpose_column_order, TRANSPOSED),
    LADDER_RUNG("wide_tile", "64x64 tile, 512 threads, float4 accesses, conflict-free walk, column order: more bytes in flight",
         transpose_wide_tile, TRANSPOSED),
    LADDER_RUNG("wide_rows", "a warp moves two whole 256-byte rows, not four half rows: fewer warps per DRAM page",
         transpose_wide_rows, TRANSPOSED),
    LADDER_VARIANT("memcpy", "cudaMemcpy device to device of the same bytes", memcpy_baseline, COPIED,
                   LADDER_BASELINE),
};

/* `ladder try transpose FILE.cu`: the user's ladder_try_transpose (include/ladder_try.h) as a rung. */
static void tried_transpose(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    _Static_assert(LADDER_SAME_TYPE(ladder_try_transpose, transpose_launcher),
                   "ladder_try.h disagrees with transpose.h");
    ((transpose_launcher *)ladder_user_entry())(in, out, rows, cols, stream);
    ladder_user_check_launch();
}

typedef struct transpose_state {
    int rows, cols;
    size_t count;
    float *host_in, *host_out;
    float *device_in, *device_out;
} transpose_state;

static void destroy(void *opaque)
{
    transpose_state *s = opaque;
    if (!s) return;
    cudaFree(s->device_in);
    cudaFree(s->device_out);
    free(s->host_in);
    free(s->host_out);
    free(s);
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count < 1 || size->count > 2) {
        snprintf(err, err_len, "transpose takes ROWSxCOLS or N");
        return 1;
    }
    long long rows = size->dim[0], cols = size->count == 2 ? size->dim[1] : size->dim[0];
    if (rows > TRANSPOSE_MAX_DIM || cols > TRANSPOSE_MAX_DIM) {
        snprintf(err, err_len, "each dimension must be at most %d", TRANSPOSE_MAX_DIM);
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
    long long rows = size->dim[0], cols = size->count == 2 ? size->dim[1] : size->dim[0];
    transpose_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->rows = (int)rows;
    s->cols = (int)cols;
    s->count = (size_t)rows * (size_t)cols;
    size_t bytes = s->count * sizeof(float);
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
    transpose_state *s = opaque;
    ladder_fill_uniform(s->host_in, s->count, seed, 1.0f, 2.0f);
    CUDA_CHECK(cudaMemcpy(s->device_in, s->host_in, s->count * sizeof(float), cudaMemcpyHostToDevice));
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    transpose_state *s = opaque;
    ((transpose_launcher *)v->impl)(s->device_in, s->device_out, s->rows, s->cols, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    transpose_state *s = opaque;
    return (ladder_output){s->device_out, s->count * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    transpose_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_out, s->device_out, s->count * sizeof(float), cudaMemcpyDeviceToHost));
    return transpose_check_host(s->host_in, s->host_out, s->rows, s->cols, v->param == COPIED);
}

static ladder_work work(void *opaque)
{
    transpose_state *s = opaque;
    return (ladder_work){2.0 * (double)s->count * sizeof(float), 0.0};
}

const ladder_case transpose_case = {
    .name = "transpose",
    .title = "matrix transpose, FP32: naive to copy bandwidth",
    .size_help = "ROWSxCOLS or N (square); any size >= 1",
    .default_size = "8192x8192",
    .quick_size = "2048x2048",
    .test_sizes = {"1000x777", "33x4097", "512x256", "1000x1028", "1x1", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "transpose/transpose_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_transpose, TRANSPOSED),
    .variants = transpose_variants,
    .variant_count = (int)(sizeof transpose_variants / sizeof transpose_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every rung handles every size */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
