/* CPU tests of the blur reference: hand-computed 4x3 and 1x1 images (exact
 * means, rounding up from 5/9 and down from 4/9, clamped corners counted four
 * times), the saturated extremes, and random images of odd shapes against a
 * brute-force definition in double. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check/rng.h"
#include "harness/testing/test_util.h"
#include "blur.h"

/* 4x3 RGB. R is the linear ramp 36y + 9x: its clamped 3x3 mean is 36 mean(y)
 * + 9 mean(x), with mean(y) = 1/3, 1, 5/3 and mean(x) = 1/3, 1, 2, 8/3.
 * G is 1 at (1,1) and 5 at (3,2); B is 5 at (0,0) and 4 at (3,0): a corner
 * sample counts 4 times in its own neighbourhood, an edge neighbour twice. */
static void hand_computed_4x3(void)
{
    enum { W = 4, H = 3 };
    uint8_t in[H][W][3] = {{{0}}}, out[H][W][3];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) in[y][x][0] = (uint8_t)(36 * y + 9 * x);
    in[1][1][1] = 1, in[2][3][1] = 5;
    in[0][0][2] = 5, in[0][3][2] = 4;
    static const uint8_t expected[H][W][3] = {
        /* G sums 1 1 1 0 -> 0; B sums 20 10 8 16 -> 2 1 1 2 */
        {{15, 0, 2}, {21, 0, 1}, {30, 0, 1}, {36, 0, 2}},
        /* G sums 1 1 6 10 -> 0 0 1 1; B sums 10 5 4 8 -> 1 1 0 1 */
        {{39, 0, 1}, {45, 0, 1}, {54, 1, 0}, {60, 1, 1}},
        /* G sums 1 1 11 20 -> 0 0 1 2; B all 0 */
        {{63, 0, 0}, {69, 0, 0}, {78, 1, 0}, {84, 2, 0}},
    };
    blur_reference(in, out, W, H, 3, 1);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            for (int c = 0; c < 3; ++c)
                EXPECTF(out[y][x][c] == expected[y][x][c], "4x3 (%d,%d) channel %d: %d, expected %d", x, y, c,
                        out[y][x][c], expected[y][x][c]);
}

/* A 1x1 image is its own neighbourhood: the output equals the input. */
static void one_pixel(void)
{
    uint8_t rgb[3] = {0, 128, 255}, rgb_out[3];
    blur_reference(rgb, rgb_out, 1, 1, 3, 1);
    EXPECT(memcmp(rgb, rgb_out, 3) == 0);
    uint16_t rgba[4] = {1, 2, 65535, 40000}, rgba_out[4];
    blur_reference(rgba, rgba_out, 1, 1, 4, 2);
    EXPECT(memcmp(rgba, rgba_out, sizeof rgba) == 0);
}

/* The definition again, written the slow way: a double mean, rounded half up. */
static unsigned brute_force(const void *in, int width, int height, int channels, int sample_bytes, int x, int y,
                            int c)
{
    double total = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int yy = y + dy < 0 ? 0 : y + dy >= height ? height - 1 : y + dy;
            int xx = x + dx < 0 ? 0 : x + dx >= width ? width - 1 : x + dx;
            size_t i = ((size_t)yy * width + xx) * channels + c;
            total += sample_bytes == 1 ? ((const uint8_t *)in)[i] : ((const uint16_t *)in)[i];
        }
    return (unsigned)floor(total / 9.0 + 0.5);
}

static void random_against_definition(int width, int height, int channels, int sample_bytes, unsigned maxval)
{
    size_t count = (size_t)width * height * channels;
    void *in = malloc(count * sample_bytes), *out = malloc(count * sample_bytes);
    for (size_t i = 0; i < count; ++i) {
        unsigned v = (unsigned)ladder_random_below(42, i, maxval + 1);
        if (sample_bytes == 1) ((uint8_t *)in)[i] = (uint8_t)v;
        else ((uint16_t *)in)[i] = (uint16_t)v;
    }
    blur_reference(in, out, width, height, channels, sample_bytes);
    int wrong = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < channels; ++c) {
                size_t i = ((size_t)y * width + x) * channels + c;
                unsigned got = sample_bytes == 1 ? ((uint8_t *)out)[i] : ((uint16_t *)out)[i];
                wrong += got != brute_force(in, width, height, channels, sample_bytes, x, y, c);
            }
    EXPECTF(wrong == 0, "%dx%d, %d channels, %d-byte samples: %d samples differ from the definition", width,
            height, channels, sample_bytes, wrong);
    free(in);
    free(out);
}

int main(void)
{
    hand_computed_4x3();
    one_pixel();

    /* Saturated images stay saturated: (9 * max + 4) / 9 = max. */
    uint8_t white[5 * 2 * 3], white_out[5 * 2 * 3];
    memset(white, 255, sizeof white);
    blur_reference(white, white_out, 5, 2, 3, 1);
    EXPECT(memcmp(white, white_out, sizeof white) == 0);

    random_against_definition(1, 1, 3, 1, 255);
    random_against_definition(1, 17, 3, 1, 255);
    random_against_definition(23, 1, 4, 1, 255);
    random_against_definition(31, 19, 3, 1, 255);
    random_against_definition(13, 7, 4, 2, 65535);
    random_against_definition(6, 9, 3, 2, 1000);

    /* The comparison is exact: one sample off by one fails. */
    uint8_t a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 3, 4, 5, 6};
    EXPECT(blur_compare(a, b, 6).passed);
    b[5] = 7;
    EXPECT(!blur_compare(a, b, 6).passed);
    return test_result("blur_test");
}
