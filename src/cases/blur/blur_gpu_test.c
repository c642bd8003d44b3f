/* GPU test: every rung equals the CPU reference exactly, at sizes chosen for
 * the edges of each kernel: width or height 1, odd widths, rows whose byte
 * count is or is not a multiple of 4 and 16, tiles and warps cut off at the
 * right and the bottom, the 8-row window cut off. Then the generic kernel of
 * `ladder blur` on every file format (8/16-bit, RGB/RGBA, odd MAXVAL).
 * Exits 77 without a GPU. */
#include <stdlib.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/check/rng.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "blur.h"

static void random_samples(void *samples, size_t count, int sample_bytes, unsigned maxval, uint64_t seed)
{
    for (size_t i = 0; i < count; ++i) {
        unsigned v = (unsigned)ladder_random_below(seed, i, maxval + 1);
        if (sample_bytes == 1) ((uint8_t *)samples)[i] = (uint8_t)v;
        else ((uint16_t *)samples)[i] = (uint16_t)v;
    }
}

static void every_rung(int width, int height)
{
    char err[256];
    blur_state *s = blur_state_create(width, height, err, sizeof err);
    EXPECTF(s != NULL, "%dx%d: %s", width, height, err);
    if (!s) return;
    size_t bytes = (size_t)3 * width * height;
    uint8_t *in = malloc(bytes), *ref = malloc(bytes), *out = malloc(bytes);
    random_samples(in, bytes, 1, 255, (uint64_t)width * 7919 + height);
    blur_reference(in, ref, width, height, 3, 1);
    blur_state_upload(s, in);
    for (int i = 0; i < blur_case.variant_count; ++i) {
        const ladder_variant *v = &blur_case.variants[i];
        if (v->flags & LADDER_BASELINE) continue;
        memset(out, 0xFF, bytes);
        blur_state_run(s, v, 0);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
        blur_state_download(s, v, out);
        size_t wrong = 0, first = bytes;
        for (size_t k = 0; k < bytes; ++k)
            if (out[k] != ref[k]) wrong++, first = first < k ? first : k;
        EXPECTF(wrong == 0, "%dx%d %s: %zu samples differ, first at pixel (%zu, %zu) channel %zu", width, height,
                v->name, wrong, first / 3 % width, first / 3 / width, first % 3);
    }
    printf("%dx%d: every rung checked\n", width, height);
    free(in), free(ref), free(out);
    blur_state_destroy(s);
}

static void file_format(int width, int height, int channels, int sample_bytes, unsigned maxval)
{
    size_t count = (size_t)width * height * channels, bytes = count * sample_bytes;
    void *in = malloc(bytes), *ref = malloc(bytes), *out = malloc(bytes);
    random_samples(in, count, sample_bytes, maxval, (uint64_t)channels * 31 + sample_bytes);
    blur_reference(in, ref, width, height, channels, sample_bytes);
    const ladder_variant *best = &blur_case.variants[ladder_find_variant(&blur_case, blur_default_variant)];
    char err[256];
    const char *ran = blur_samples_on_gpu(in, out, width, height, channels, sample_bytes, best, err, sizeof err);
    EXPECTF(ran != NULL, "%s", err);
    EXPECTF(ran && memcmp(out, ref, bytes) == 0, "%dx%d, %d channels, %d-byte samples (%s): differs from the reference",
            width, height, channels, sample_bytes, ran ? ran : "");
    free(in), free(ref), free(out);
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    static const int sizes[][2] = {
        {1, 1}, {1, 9}, {2, 1}, {3, 2}, {5, 3}, {1, 300}, {300, 1}, {16, 5}, {21, 17},
        {64, 64}, {65, 33}, {683, 9}, {171, 40}, {1283, 131}, {1920, 1081}, {2731, 7},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) every_rung(sizes[i][0], sizes[i][1]);

    file_format(37, 11, 3, 1, 255);
    file_format(37, 11, 4, 1, 255);
    file_format(1, 1, 4, 1, 255);
    file_format(37, 11, 3, 2, 65535);
    file_format(29, 3, 4, 2, 65535);
    file_format(5, 40, 3, 2, 1000);
    return test_result("blur_gpu_test");
}
