/* The blur ladder (SPEC §9): a 3x3 box filter on 8-bit RGB images, from one
 * thread per pixel reading nine neighbours to a register window that moves
 * bytes nearly as fast as a copy. Baseline: cudaMemcpy D2D of the image's
 * bytes, read once and written once, the same bytes the filter must move.
 * Layout conversions (padding to 4 bytes, pitched rows) happen when the
 * input is uploaded, outside the timed kernel; the host<->device transfers
 * are timed apart and reported as summaries. */
#include "blur.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/measure/timing.h"
#include "harness/check/validate.h"
#include "harness/user/load.h"
#include "ladder_try.h"

static unsigned sample_at(const void *samples, size_t i, int sample_bytes)
{
    return sample_bytes == 1 ? ((const uint8_t *)samples)[i] : ((const uint16_t *)samples)[i];
}

void blur_reference(const void *in, void *out, int width, int height, int channels, int sample_bytes)
{
#pragma omp parallel for schedule(static)
    for (int y = 0; y < height; ++y) {
        int rows[3] = {y > 0 ? y - 1 : 0, y, y + 1 < height ? y + 1 : height - 1};
        for (int x = 0; x < width; ++x) {
            int cols[3] = {x > 0 ? x - 1 : 0, x, x + 1 < width ? x + 1 : width - 1};
            for (int c = 0; c < channels; ++c) {
                unsigned sum = 0;
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j)
                        sum += sample_at(in, ((size_t)rows[i] * width + cols[j]) * channels + c, sample_bytes);
                size_t o = ((size_t)y * width + x) * channels + c;
                if (sample_bytes == 1) ((uint8_t *)out)[o] = (uint8_t)((sum + 4) / 9);
                else ((uint16_t *)out)[o] = (uint16_t)((sum + 4) / 9);
            }
        }
    }
}

/* variant.param: the layout a rung reads and writes. */
enum blur_layout {
    PACKED,         /* RGB, 3 bytes a pixel, rows 3*width bytes apart */
    PADDED,         /* RGB and a zero byte, rows 4*width apart */
    PITCHED_PADDED, /* padded pixels, rows cudaMallocPitch apart */
    PITCHED_PACKED, /* packed pixels, rows cudaMallocPitch apart (16-byte aligned) */
    LAYOUT_COUNT
};

static const int layout_channels[LAYOUT_COUNT] = {3, 4, 4, 3};

static void memcpy_baseline(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width, int height,
                            int channels, cudaStream_t stream)
{
    (void)out_pitch, (void)width, (void)channels;
    CUDA_CHECK(cudaMemcpyAsync(out, in, in_pitch * (size_t)height, cudaMemcpyDeviceToDevice, stream));
}

static const ladder_variant blur_variants[] = {
    LADDER_RUNG("naive", "one thread per pixel, 9 neighbours x 3 byte loads from global memory, packed RGB",
                blur_naive, PACKED),
    LADDER_RUNG("shared_tile", "32x8 pixels and a 1-pixel halo staged in shared memory: each pixel loaded ~1.3x, not 9x",
                blur_shared_tile, PACKED),
    LADDER_RUNG("padded4", "back to global loads, RGB padded to 4 bytes: one aligned 4-byte load per neighbour, not 3",
                blur_naive, PADDED),
    LADDER_RUNG("pitched", "padded pixels in cudaMallocPitch rows: every row starts at the pitch alignment, whatever the width",
                blur_naive, PITCHED_PADDED),
    LADDER_RUNG("pitched_shared", "pitched padded pixels through the shared-memory tile: aligned loads, 1.3x reads",
                blur_shared_tile, PITCHED_PADDED),
    LADDER_RUNG("window_4byte", "packed pitched rows as bytes: a thread owns 4 bytes x 8 rows, separable sums in registers",
                blur_window_4byte, PITCHED_PACKED),
    LADDER_RUNG("window_16byte", "the register window with 16-byte loads and stores: a quarter of the instructions per byte",
                blur_window_16byte, PITCHED_PACKED),
    LADDER_RUNG("window_lean", "the same, fewer instructions a byte: edge checks only at row ends, byte permutes, /9 as mul-high",
                blur_window_lean, PITCHED_PACKED),
    LADDER_VARIANT("memcpy", "cudaMemcpy device to device of the image's bytes", memcpy_baseline, PACKED,
                   LADDER_BASELINE),
};

/* `ladder try blur FILE.cu`: the user's ladder_try_blur (include/ladder_try.h) as a rung. */
typedef void tried_blur_entry(const unsigned char *in, unsigned char *out, int width, int height, cudaStream_t stream);

/* The user's code runs on the naive rung's layout: packed RGB, rows 3 * width bytes apart. */
static void tried_blur(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width, int height,
                       int channels, cudaStream_t stream)
{
    (void)in_pitch, (void)out_pitch, (void)channels;
    _Static_assert(LADDER_SAME_TYPE(ladder_try_blur, tried_blur_entry), "ladder_try.h disagrees with this adapter");
    ((tried_blur_entry *)ladder_user_entry())(in, out, width, height, stream);
    ladder_user_check_launch();
}

const char *const blur_default_variant = "window_lean";

typedef struct blur_buffers {
    uint8_t *in, *out; /* device */
    size_t pitch;      /* bytes between rows */
} blur_buffers;

struct blur_state {
    int width, height;
    size_t packed_bytes;         /* 3 * width * height */
    uint8_t *host_in, *host_out; /* pinned, packed */
    uint8_t *host_ref;           /* the CPU reference for host_in */
    uint8_t *host_padded;        /* a padded output on its way back */
    blur_buffers layout[LAYOUT_COUNT];
};

void blur_state_destroy(blur_state *s)
{
    if (!s) return;
    for (int i = 0; i < LAYOUT_COUNT; ++i) {
        cudaFree(s->layout[i].in);
        cudaFree(s->layout[i].out);
    }
    cudaFreeHost(s->host_in);
    cudaFreeHost(s->host_out);
    free(s->host_ref);
    free(s->host_padded);
    free(s);
}

static int allocate_layout(blur_buffers *b, int width, int height, int channels, int pitched)
{
    size_t row_bytes = (size_t)width * channels;
    if (!pitched) {
        b->pitch = row_bytes;
        return ladder_try_cuda_malloc((void **)&b->in, row_bytes * height) ||
               ladder_try_cuda_malloc((void **)&b->out, row_bytes * height);
    }
    size_t out_pitch;
    if (cudaMallocPitch((void **)&b->in, &b->pitch, row_bytes, height) != cudaSuccess ||
        cudaMallocPitch((void **)&b->out, &out_pitch, row_bytes, height) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    if (out_pitch != b->pitch || b->pitch % 16) ladder_die("cudaMallocPitch gave pitches %zu and %zu", b->pitch, out_pitch);
    /* The window rungs read whole 16-byte chunks: the row padding they touch
     * must hold defined bytes (it never reaches a stored sample). */
    CUDA_CHECK(cudaMemset(b->in, 0, b->pitch * height));
    return 0;
}

blur_state *blur_state_create(int width, int height, char *err, size_t err_len)
{
    blur_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->width = width;
    s->height = height;
    s->packed_bytes = (size_t)3 * width * height;
    int failed = cudaMallocHost((void **)&s->host_in, s->packed_bytes) != cudaSuccess ||
                 cudaMallocHost((void **)&s->host_out, s->packed_bytes) != cudaSuccess;
    s->host_ref = malloc(s->packed_bytes);
    s->host_padded = malloc(s->packed_bytes / 3 * 4);
    failed |= !s->host_ref || !s->host_padded;
    for (int i = 0; i < LAYOUT_COUNT && !failed; ++i)
        failed = allocate_layout(&s->layout[i], width, height, layout_channels[i], i >= PITCHED_PADDED);
    if (failed) {
        cudaGetLastError();
        snprintf(err, err_len, "a %dx%d image in 4 layouts needs %.2f GB on the device and %.2f GB on the host; not available",
                 width, height, 2 * 14.0 * width * height / 1e9, 13.0 * width * height / 1e9);
        blur_state_destroy(s);
        return NULL;
    }
    return s;
}

void blur_state_upload(blur_state *s, const uint8_t *packed_rgb)
{
    if (packed_rgb != s->host_in) memcpy(s->host_in, packed_rgb, s->packed_bytes);
    const blur_buffers *packed = &s->layout[PACKED];
    CUDA_CHECK(cudaMemcpy(packed->in, s->host_in, s->packed_bytes, cudaMemcpyHostToDevice));
    blur_repack(packed->in, packed->pitch, 3, s->layout[PADDED].in, s->layout[PADDED].pitch, 4, s->width, s->height, 0);
    blur_repack(packed->in, packed->pitch, 3, s->layout[PITCHED_PADDED].in, s->layout[PITCHED_PADDED].pitch, 4,
                s->width, s->height, 0);
    CUDA_CHECK(cudaMemcpy2D(s->layout[PITCHED_PACKED].in, s->layout[PITCHED_PACKED].pitch, packed->in, packed->pitch,
                            packed->pitch, s->height, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());
}

void blur_state_run(blur_state *s, const ladder_variant *v, cudaStream_t stream)
{
    const blur_buffers *b = &s->layout[v->param];
    ((blur_launcher *)v->impl)(b->in, b->pitch, b->out, b->pitch, s->width, s->height, layout_channels[v->param],
                               stream);
}

void blur_state_download(blur_state *s, const ladder_variant *v, uint8_t *packed_rgb)
{
    const blur_buffers *b = &s->layout[v->param];
    size_t packed_row = (size_t)3 * s->width;
    if (layout_channels[v->param] == 3) {
        CUDA_CHECK(cudaMemcpy2D(packed_rgb, packed_row, b->out, b->pitch, packed_row, s->height, cudaMemcpyDeviceToHost));
        return;
    }
    size_t padded_row = (size_t)4 * s->width, pixels = (size_t)s->width * s->height;
    CUDA_CHECK(cudaMemcpy2D(s->host_padded, padded_row, b->out, b->pitch, padded_row, s->height, cudaMemcpyDeviceToHost));
    for (size_t p = 0; p < pixels; ++p) memcpy(packed_rgb + 3 * p, s->host_padded + 4 * p, 3);
}

const char *blur_samples_on_gpu(const void *in, void *out, int width, int height, int channels, int sample_bytes,
                                const ladder_variant *v, char *err, size_t err_len)
{
    if (channels == 3 && sample_bytes == 1) {
        blur_state *s = blur_state_create(width, height, err, err_len);
        if (!s) return NULL;
        blur_state_upload(s, in);
        blur_state_run(s, v, 0);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
        blur_state_download(s, v, out);
        blur_state_destroy(s);
        return v->name;
    }
    size_t bytes = (size_t)width * height * channels * sample_bytes;
    void *device_in = NULL, *device_out = NULL;
    if (ladder_try_cuda_malloc(&device_in, bytes) || ladder_try_cuda_malloc(&device_out, bytes)) {
        cudaFree(device_in);
        snprintf(err, err_len, "a %dx%d image needs 2 x %.2f GB on the device; not available", width, height, bytes / 1e9);
        return NULL;
    }
    CUDA_CHECK(cudaMemcpy(device_in, in, bytes, cudaMemcpyHostToDevice));
    blur_generic(device_in, device_out, width, height, channels, sample_bytes, 0);
    CUDA_CHECK(cudaMemcpy(out, device_out, bytes, cudaMemcpyDeviceToHost));
    cudaFree(device_in);
    cudaFree(device_out);
    return "naive";
}

/* ---- the case interface ---- */

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    if (size->count != 2) {
        snprintf(err, err_len, "blur takes WIDTHxHEIGHT");
        return 1;
    }
    if (size->dim[0] > BLUR_MAX_DIM || size->dim[1] > BLUR_MAX_DIM) {
        snprintf(err, err_len, "width and height must be at most %d", BLUR_MAX_DIM);
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
    blur_state *s = blur_state_create((int)size->dim[0], (int)size->dim[1], err, err_len);
    if (!s) *status = LADDER_NO_MEMORY;
    return s;
}

static void destroy(void *state) { blur_state_destroy(state); }

/* Random bytes from the seed: 0..255 in every channel, so saturated pixels and
 * every carry in the packed 16-bit sums occur. */
static void fill_inputs(void *opaque, uint64_t seed)
{
    blur_state *s = opaque;
    uint64_t key = ladder_hash64(seed);
    long long words = (long long)((s->packed_bytes + 7) / 8);
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < words; ++i) {
        uint64_t bits = ladder_hash64(key ^ (uint64_t)i);
        size_t first = (size_t)i * 8, n = s->packed_bytes - first < 8 ? s->packed_bytes - first : 8;
        memcpy(s->host_in + first, &bits, n);
    }
    blur_state_upload(s, s->host_in);
    blur_reference(s->host_in, s->host_ref, s->width, s->height, 3, 1);
}

static void run(void *state, const ladder_variant *v, cudaStream_t stream) { blur_state_run(state, v, stream); }

static ladder_output output(void *opaque, const ladder_variant *v)
{
    blur_state *s = opaque;
    const blur_buffers *b = &s->layout[v->param];
    return (ladder_output){b->out, b->pitch * s->height, 0xFF}; /* 255 needs all nine neighbours at 255 */
}

ladder_check blur_compare(const uint8_t *out, const uint8_t *ref, size_t bytes)
{
    double diff_squared = 0, ref_squared = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared)
    for (long long i = 0; i < (long long)bytes; ++i) {
        double d = (double)out[i] - (double)ref[i];
        diff_squared += d * d;
        ref_squared += (double)ref[i] * ref[i];
    }
    /* Exact: one sample off by one fails. */
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, 0}, 0.0);
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    blur_state *s = opaque;
    blur_state_download(s, v, s->host_out);
    return blur_compare(s->host_out, (v->flags & LADDER_BASELINE) ? s->host_in : s->host_ref, s->packed_bytes);
}

static ladder_work work(void *opaque)
{
    blur_state *s = opaque;
    return (ladder_work){2.0 * (double)s->packed_bytes, 0.0};
}

static void upload_packed(void *opaque, cudaStream_t stream)
{
    blur_state *s = opaque;
    CUDA_CHECK(cudaMemcpyAsync(s->layout[PACKED].in, s->host_in, s->packed_bytes, cudaMemcpyHostToDevice, stream));
}

static void download_packed(void *opaque, cudaStream_t stream)
{
    blur_state *s = opaque;
    CUDA_CHECK(cudaMemcpyAsync(s->host_out, s->layout[PACKED].out, s->packed_bytes, cudaMemcpyDeviceToHost, stream));
}

/* The transfers a real image pays around the kernel (pinned host memory,
 * packed RGB), and the best rung as a fraction of the copy. */
static void summarize(void *opaque, ladder_results *results, size_t first)
{
    blur_state *s = opaque;
    ladder_timing_options options = {.min_samples = 10, .max_samples = 100, .target_spread = 0.01,
                                     .time_cap_s = 0.5, .warmup_runs = 1};
    double bytes = (double)s->packed_bytes;
    ladder_timing up = ladder_time_device(upload_packed, s, &options);
    ladder_timing down = ladder_time_device(download_packed, s, &options);
    ladder_add_summary(results, "h2d_ms", up.ms.median, "ms", "the packed image host to device, pinned memory, median");
    ladder_add_summary(results, "h2d_gbps", bytes / (up.ms.median * 1e-3) / 1e9, "GB/s", "image bytes / h2d_ms");
    ladder_add_summary(results, "d2h_ms", down.ms.median, "ms", "the packed result device to host, pinned memory, median");
    ladder_add_summary(results, "d2h_gbps", bytes / (down.ms.median * 1e-3) / 1e9, "GB/s", "image bytes / d2h_ms");

    double best = NAN;
    const char *best_name = NULL;
    for (size_t i = first; i < results->count; ++i) {
        const ladder_record *r = &results->records[i];
        if (r->baseline || r->skipped || !r->valid || !(r->ratio_to_baseline > 0)) continue;
        if (!best_name || r->ratio_to_baseline > best) best = r->ratio_to_baseline, best_name = r->variant;
    }
    char note[160];
    snprintf(note, sizeof note, "%s: memcpy time / kernel time on the same bytes (target 0.85)",
             best_name ? best_name : "no valid rung");
    ladder_add_summary(results, "best_of_memcpy", best, "ratio", note);
}

const ladder_case blur_case = {
    .name = "blur",
    .title = "3x3 box blur of 8-bit RGB images: naive to copy bandwidth",
    .size_help = "WIDTHxHEIGHT in pixels (8-bit RGB), each 1..262144",
    .default_size = "664x1024,7680x4320",
    .quick_size = "664x1024",
    .test_sizes = {"1x1", "1x37", "37x1", "67x45", "1283x131", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_template = "blur/blur_try_template.cu",
    .try_rung = LADDER_RUNG(NULL, NULL, tried_blur, PACKED),
    .variants = blur_variants,
    .variant_count = (int)(sizeof blur_variants / sizeof blur_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every rung takes every size */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
    .summarize = summarize,
};
