/* CPU tests of the texture model: hand-computed fetches for every addressing
 * mode, with nearest and linear filtering, texel and normalized coordinates;
 * the 8-bit weight quantization with its ties; the rules measured on an H200
 * (normalized coordinates cut to 21 fractional bits, addressing on texel
 * indices, the rounded 2D product weight), each with a fetch that the rule
 * used before (exact u * extent, wrap and mirror on u, exact weight
 * products) gets wrong; the sample positions' exactness and their distance
 * from every weight tie; and the check's tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "texture.h"
#include "harness/case.h"
#include "harness/testing/test_util.h"

extern const ladder_case texture_case;

/* A 4 x 1 texture: T = 1, 2, 4, 8. */
static const float row4[4] = {1, 2, 4, 8};

static const char *address_names[] = {"clamp", "border", "wrap", "mirror"};

/* One fetch on a one-row texture, at y = 0.5 (the row's centre, texel or
 * normalized: a one-texel axis is the same either way). */
static void expect_fetch_in(const float *texels, int width, texture_address a, int normalized, int linear, float x,
                            double expected)
{
    texture_sampler s = {a, normalized, linear};
    double got = texture_model_fetch(texels, width, 1, s, x, 0.5f);
    EXPECTF(got == expected, "width %d, %s %s %s at x = %a: %.9g, by hand %.9g", width, address_names[a],
           normalized ? "normalized" : "texel", linear ? "linear" : "nearest", x, got, expected);
}

static void expect_fetch(texture_address a, int normalized, int linear, float x, double expected)
{
    expect_fetch_in(row4, 4, a, normalized, linear, x, expected);
}

static void test_nearest(void)
{
    printf("nearest: texel floor(x), each addressing mode on T = {1, 2, 4, 8}\n");
    expect_fetch(TEXTURE_CLAMP, 0, 0, 2.7f, 4);
    expect_fetch(TEXTURE_CLAMP, 0, 0, -3.0f, 1);
    expect_fetch(TEXTURE_CLAMP, 0, 0, 9.0f, 8);
    expect_fetch(TEXTURE_CLAMP, 1, 0, 0.3f, 2);  /* x = 1.2 */
    expect_fetch(TEXTURE_BORDER, 0, 0, -0.2f, 0);
    expect_fetch(TEXTURE_BORDER, 0, 0, 4.1f, 0);
    expect_fetch(TEXTURE_BORDER, 0, 0, 3.9f, 8);
    expect_fetch(TEXTURE_BORDER, 1, 0, 1.01f, 0);
    expect_fetch(TEXTURE_WRAP, 1, 0, 1.3f, 2);   /* x = 5.2: index 5 mod 4 = 1 */
    expect_fetch(TEXTURE_WRAP, 1, 0, -0.1f, 8);  /* x = -0.4: index -1 mod 4 = 3 */
    expect_fetch(TEXTURE_MIRROR, 1, 0, 1.3f, 4); /* x = 5.2: index 5 reflects to 8 - 1 - 5 = 2 */
    expect_fetch(TEXTURE_MIRROR, 1, 0, -0.1f, 1); /* x = -0.4: index -1 reflects to 0 */
    expect_fetch(TEXTURE_MIRROR, 1, 0, 2.3f, 2); /* x = 9.2: index 9 mod 8 = 1 */
    expect_fetch(TEXTURE_MIRROR, 1, 0, 1.0f, 8); /* x = 4: index 4 reflects to 3, the edge texel */
    /* x = -1 exactly: index -1 reflects to 0. Reflecting u first (1 - frac(-0.25)
     * = 0.25, x = 1) would give texel 1, T = 2. */
    expect_fetch(TEXTURE_MIRROR, 1, 0, -0.25f, 1);
}

static void test_linear(void)
{
    printf("linear: x - 0.5 split into texel i and an 8-bit weight, each addressing mode\n");
    expect_fetch(TEXTURE_CLAMP, 0, 1, 1.5f, 2);        /* exactly on texel 1 */
    expect_fetch(TEXTURE_CLAMP, 0, 1, 1.75f, 2.5);     /* 0.75 * 2 + 0.25 * 4 */
    expect_fetch(TEXTURE_CLAMP, 0, 1, 0.25f, 1);       /* texels -1 and 0 both clamp to 0 */
    expect_fetch(TEXTURE_CLAMP, 0, 1, 3.9f, 8);        /* texels 3 and 4 both clamp to 3 */
    expect_fetch(TEXTURE_BORDER, 0, 1, 0.25f, 0.75);   /* 0.25 * 0 + 0.75 * 1 */
    expect_fetch(TEXTURE_BORDER, 0, 1, 4.25f, 2);      /* 0.25 * 8 + 0.75 * 0 */
    expect_fetch(TEXTURE_BORDER, 1, 1, 0.0625f, 0.75); /* x = 0.25, as above */
    expect_fetch(TEXTURE_WRAP, 1, 1, 0.0625f, 2.75);   /* x = 0.25: 0.25 * T[3] + 0.75 * T[0] */
    expect_fetch(TEXTURE_WRAP, 1, 1, 1.0625f, 2.75);   /* one period later, the same */
    expect_fetch(TEXTURE_WRAP, 1, 1, 0.96875f, 5.375); /* x = 3.875: 0.625 * 8 + 0.375 * T[0] */
    expect_fetch(TEXTURE_MIRROR, 1, 1, 1.0625f, 8);    /* x = 4.25: indices 3, 4 reflect to 3, 3 */
    expect_fetch(TEXTURE_MIRROR, 1, 1, -0.0625f, 1);   /* x = -0.25: indices -1, 0 reflect to 0, 0 */
    expect_fetch(TEXTURE_MIRROR, 1, 1, 1.375f, 4);     /* x = 5.5: index 5, weight 0, reflects to 2 */
    expect_fetch(TEXTURE_MIRROR, 1, 1, 1.625f, 2);     /* x = 6.5: index 6 reflects to 1 */
    /* A weight tie in a reflected period: x = 5.5 + 1/512, so x - 0.5 = 5 + 0.5/256
     * and the weight rounds up to 1/256 on index 6: (255 * T[2] + T[1]) / 256.
     * Reflecting u first (x = 8 - 5.501953125 = 2.498046875, x - 0.5 = 1 +
     * 255.5/256) would round the other way, all on texel 2: 4. */
    expect_fetch(TEXTURE_MIRROR, 1, 1, 1.37548828125f, 1022.0 / 256.0);
}

static void test_weight_quantization(void)
{
    printf("weights: 8 fractional bits, rounded to the nearest 1/256\n");
    /* x = 1.8: x - 0.5 = 1.3, weight 76.8/256 -> 77/256: 2 + 2 * 77/256. */
    expect_fetch(TEXTURE_CLAMP, 0, 1, 1.8f, 2.0 + 2.0 * 77.0 / 256.0);
    /* x = 1.5 + 0.1: 25.6/256 -> 26/256 (a truncating rule would give 25). */
    expect_fetch(TEXTURE_CLAMP, 0, 1, 1.6f, 2.0 + 2.0 * 26.0 / 256.0);
    /* A weight that rounds up to 1: 255.7/256 -> 256/256, all on texel i + 1. */
    expect_fetch(TEXTURE_CLAMP, 0, 1, 1.5f + 255.7f / 256.0f, 4);
    /* A tie, 0.5/256, rounds up: 2 + 2/256 (truncation and ties-to-even give 2). */
    expect_fetch(TEXTURE_CLAMP, 0, 1, 1.5f + 1.0f / 512.0f, 2.0 + 2.0 / 256.0);
}

static void test_normalized_fixed_point(void)
{
    printf("normalized: u cut to 21 fractional bits (rounding down) before scaling, every addressing mode\n");
    const float row3[3] = {1, 2, 4};
    for (int a = TEXTURE_CLAMP; a <= TEXTURE_MIRROR; ++a) {
        /* u = 1/3 as a float is 0x1.555556p-2, a little above 1/3: u * 3 =
         * 1 + 2^-26 would be texel 1. u * 2^21 = 699050.6875 cuts to 699050,
         * x = 3 * 699050 / 2^21 = 1 - 2^-20: texel 0. */
        expect_fetch_in(row3, 3, (texture_address)a, 1, 0, 1.0f / 3.0f, 1);
        /* u = 2/3 = 0x1.555556p-1: u * 2^21 = 1398101.375 cuts to 1398101,
         * x = 2 - 2^-21: texel 1 (exact u * 3 would be texel 2). */
        expect_fetch_in(row3, 3, (texture_address)a, 1, 0, 2.0f / 3.0f, 2);
        /* Linear, u = 0x1.56aaacp-3: u * 2^21 = 350890.6875 cuts to 350890, x
         * = 1052670 / 2^21, x - 0.5 = 0.49976/256: weight 0, texel 0 alone.
         * Exact u * 3 is 0.5 + 0.5000076/256: weight 1/256, 1 + 1/256. */
        expect_fetch_in(row3, 3, (texture_address)a, 1, 1, 0x1.56aaacp-3f, 1);
    }
    /* A power-of-two width loses nothing: texel edges i / 4 are on the grid. */
    expect_fetch(TEXTURE_CLAMP, 1, 0, 0.25f, 2);
    expect_fetch(TEXTURE_CLAMP, 1, 0, nextafterf(0.25f, 0.0f), 1);
}

static void test_bilinear_2d(void)
{
    printf("2D: the four weights of a 2 x 2 texture {1, 2; 3, 4}\n");
    const float square[4] = {1, 2, 3, 4};
    texture_sampler clamp_linear = {TEXTURE_CLAMP, 0, 1};
    double got = texture_model_fetch(square, 2, 2, clamp_linear, 1.0f, 1.0f);
    EXPECTF(got == 2.5, "centre: %.9g, by hand 2.5", got);
    /* weights 0.25 across, 0.75 down: rows 1.25 and 3.25, blended 0.25 / 0.75. */
    got = texture_model_fetch(square, 2, 2, clamp_linear, 0.75f, 1.25f);
    EXPECTF(got == 2.75, "(0.75, 1.25): %.9g, by hand 2.75", got);
    texture_sampler border_point = {TEXTURE_BORDER, 0, 0};
    EXPECTF(texture_model_fetch(square, 2, 2, border_point, 1.5f, 1.5f) == 4, "nearest (1.5, 1.5) is not T[1][1]");
    EXPECTF(texture_model_fetch(square, 2, 2, border_point, 1.5f, 2.5f) == 0, "below the texture is not the border");

    printf("2D: the product weight alpha * beta is rounded to 1/256 (ties up), the other three follow from it\n");
    /* A single 1 in the corner returns the product weight itself. alpha =
     * 141/256, beta = 186/256: alpha * beta = 102.445/256 -> 102/256 (the
     * exact product, 0.400177, is what the model used before). */
    const float corner[4] = {0, 0, 0, 1};
    got = texture_model_fetch(corner, 2, 2, clamp_linear, 0.5f + 141.0f / 256.0f, 0.5f + 186.0f / 256.0f);
    EXPECTF(got == 102.0 / 256.0, "corner, alpha 141/256, beta 186/256: %.9g, by hand 102/256", got);
    /* alpha = 1/2, beta = 1/256: the product 0.5/256 is a tie, rounded up to 1/256. */
    got = texture_model_fetch(corner, 2, 2, clamp_linear, 1.0f, 0.5f + 1.0f / 256.0f);
    EXPECTF(got == 1.0 / 256.0, "corner, alpha 1/2, beta 1/256: %.9g, by hand 1/256", got);
    /* All four weights on {1, 2; 4, 8}, same alpha and beta, ab = 102/256:
     * (256 - 141 - 186 + 102) * 1 + (141 - 102) * 2 + (186 - 102) * 4 + 102 * 8
     * = 31 + 78 + 336 + 816 = 1261, over 256. */
    const float doubling[4] = {1, 2, 4, 8};
    got = texture_model_fetch(doubling, 2, 2, clamp_linear, 0.5f + 141.0f / 256.0f, 0.5f + 186.0f / 256.0f);
    EXPECTF(got == 1261.0 / 256.0, "{1, 2; 4, 8}: %.9g, by hand 1261/256", got);
}

static void test_sample_positions(void)
{
    printf("sample positions: exact floats, past both edges, a quarter step from every weight boundary\n");
    const int extents[] = {11, 50, 1001, 4096, TEXTURE_MAX_2D_EXTENT};
    for (size_t e = 0; e < sizeof extents / sizeof extents[0]; ++e) {
        int n = extents[e], off_grid = 0, inexact = 0;
        double lowest = 1e9, highest = -1e9;
        for (int i = 0; i < n; ++i) {
            double exact = 1.25 * (i - n / 8) + (2.0 * ((i * 73) & 511) + 1) / 1024.0;
            float position = texture_sample_position(i, n);
            inexact += (double)position != exact;
            double steps = (exact - 0.5) * 256.0, residue = steps - floor(steps);
            off_grid += residue != 0.25 && residue != 0.75;
            lowest = fmin(lowest, exact), highest = fmax(highest, exact);
        }
        EXPECTF(!inexact, "extent %d: %d positions not exact in a float", n, inexact);
        EXPECTF(!off_grid, "extent %d: %d positions not a quarter step off the weight grid", n, off_grid);
        EXPECTF(lowest < 0 && highest > n, "extent %d: samples [%g, %g] do not pass both edges", n, lowest, highest);
    }
}

static void test_check_tolerance(void)
{
    printf("check: nearest exact, linear within 4 ulp, a weight one step off fails\n");
    enum { rows = 13, cols = 9 };
    float texels[rows * cols], out[rows * cols];
    for (int i = 0; i < rows * cols; ++i) texels[i] = 1.0f + (float)((i * 37) % 101) / 101.0f;
    for (int param = 0; param < TEXTURE_SAMPLED_COUNT; ++param) {
        texture_sampler s = texture_sampler_of(param);
        for (int y = 0; y < rows; ++y)
            for (int x = 0; x < cols; ++x) {
                float u = texture_sample_position(x, cols), v = texture_sample_position(y, rows);
                if (s.normalized) u /= (float)cols, v /= (float)rows;
                out[y * cols + x] = (float)texture_model_fetch(texels, cols, rows, s, u, v);
            }
        ladder_check c = texture_check_sampled_host(texels, out, rows, cols, param);
        EXPECTF(c.passed, "param %d: the model's own output (rounded to float) fails: %g", param, c.rel_error);
        if (s.linear) {
            out[40] = nextafterf(nextafterf(out[40], 3.0f), 3.0f);
            EXPECTF(texture_check_sampled_host(texels, out, rows, cols, param).passed, "param %d: 2 ulp rejected", param);
            out[40] += 1.0f / 256.0f * 0.3f;
            EXPECTF(!texture_check_sampled_host(texels, out, rows, cols, param).passed, "param %d: 1e-3 accepted",
                   param);
        } else {
            out[40] = nextafterf(out[40], 3.0f);
            EXPECTF(!texture_check_sampled_host(texels, out, rows, cols, param).passed, "param %d: 1 ulp accepted",
                   param);
        }
        out[7] = NAN;
        EXPECTF(!texture_check_sampled_host(texels, out, rows, cols, param).passed, "param %d: NaN accepted", param);
    }
}

static void test_bad_sizes_refused(void)
{
    printf("sizes: 3D sizes and more than 2^31 - 64 elements are refused before any allocation\n");
    const char *bad[] = {"2x3x4", "65536x65536", "2^40x2^40"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ladder_size size;
        char err[256] = "";
        if (ladder_parse_size(bad[i], &size, err, sizeof err) != 0) continue;
        ladder_status status = LADDER_OK;
        void *state = texture_case.create(&size, &status, err, sizeof err);
        EXPECTF(!state && status == LADDER_BAD_SIZE && err[0], "size %s accepted", bad[i]);
    }
}

int main(void)
{
    test_nearest();
    test_linear();
    test_weight_quantization();
    test_normalized_fixed_point();
    test_bilinear_2d();
    test_sample_positions();
    test_check_tolerance();
    test_bad_sizes_refused();
    printf(test_failures ? "texture_test: %d FAILED\n" : "texture_test: all passed\n", test_failures);
    return test_failures ? 1 : 0;
}
