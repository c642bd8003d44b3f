/* The texture study (SPEC §10). (1) A shifted copy out[i] = in[i + shift],
 * shift 0..32, through a plain load, __ldg and tex1Dfetch: on Hopper all three
 * read through the same unified L1/texture cache, so they are expected to
 * track each other. (2) 2D sampling of a CUDA array and of pitch-linear
 * memory with every addressing mode, texel and normalized coordinates,
 * nearest and linear filtering, each checked element by element against a
 * CPU model of the hardware rule. Every row reads ROWS * COLS floats and
 * writes as many (the 2D samples are 1.25 texels apart and cover the whole
 * texture, so they too read about every texel once): "speedup" is relative
 * to the plain aligned copy, row 0.
 * Baseline: cudaMemcpy D2D of the same bytes. */
#include "texture.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/buffers.h"
#include "harness/case.h"
#include "harness/check/check.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"

/* ---------------- the CPU model of a texture fetch ---------------- */

static const texture_sampler samplers[TEXTURE_SAMPLED_COUNT / 2] = {
    {TEXTURE_CLAMP, 0, 0},  {TEXTURE_CLAMP, 0, 1},  {TEXTURE_CLAMP, 1, 0},  {TEXTURE_CLAMP, 1, 1},
    {TEXTURE_BORDER, 0, 0}, {TEXTURE_BORDER, 0, 1}, {TEXTURE_BORDER, 1, 0}, {TEXTURE_BORDER, 1, 1},
    {TEXTURE_WRAP, 1, 0},   {TEXTURE_WRAP, 1, 1},   {TEXTURE_MIRROR, 1, 0}, {TEXTURE_MIRROR, 1, 1},
};

texture_sampler texture_sampler_of(int param)
{
    return samplers[param % (TEXTURE_SAMPLED_COUNT / 2)];
}

texture_memory texture_memory_of(int param)
{
    return param < TEXTURE_SAMPLED_COUNT / 2 ? TEXTURE_ARRAY : TEXTURE_PITCH;
}

/* The hardware rule, measured on an NVIDIA H200 (sm_90, CUDA 13.0, driver
 * 580) by a standalone probe: tex2D<float> over float CUDA arrays and
 * pitch-linear memory (the two agree everywhere) holding a ramp T[x] = x + 1,
 * so that each returned value names the texel and the weight, plus random
 * texels for the 2D blend. The rule, and what showed it:
 *
 * 1. Texel coordinates are used as given. A sweep in 1/4096-texel steps
 *    (57344 positions from -2 to 8194) agreed with floor(x) and with rule 4
 *    exactly. The case's positions lie on a 1/1024 grid, so whatever fixed
 *    point the hardware uses below 1/4096 cannot move them.
 * 2. A normalized coordinate u (denormals flushed to 0) is cut to 21
 *    fractional bits, rounding down, before it is scaled: x = floor(u * 2^21)
 *    / 2^21 * extent. Over about 190000 coordinates at widths 11 to 8192
 *    (the case's positions, random ones, and ulp-by-ulp sweeps across texel
 *    boundaries) this agreed everywhere, nearest and linear. Exact u * extent
 *    disagreed at every width that is not a power of two: the texel
 *    boundaries i / extent are then off the 2^-21 grid, and the position
 *    moves by up to extent * 2^-21 (0.003 texel at 6144: a wrong texel for
 *    nearest next to a boundary, a weight one step off for linear). Other
 *    bit counts (18 to 26), rounding to nearest, and rounding toward zero
 *    (at negative u) disagreed too.
 * 3. Every addressing mode acts on texel indices, normalized or not: clamp to
 *    the edge, border reads 0, wrap takes the index modulo the extent, mirror
 *    reflects it with period 2 * extent (about 74000 coordinates at widths
 *    37 to 8192, all agreeing). Wrapping or reflecting u before scaling, as
 *    the Programming Guide describes it, picks another texel where the
 *    reflected position lands on a texel edge or a weight tie.
 * 4. Nearest returns texel floor(x). Linear splits x - 0.5 into an index i
 *    and a fraction, and the weight alpha is that fraction rounded to the
 *    nearest 1/256, ties up (every weight change of the sweep in 1 sat on a
 *    tie; truncation disagreed at over a third of its positions), so alpha
 *    can be 1.
 * 5. In 2D the product alpha * beta is itself rounded to the nearest 1/256,
 *    ties up, giving ab, and the four weights are built from it: 1 - alpha - beta + ab,
 *    alpha - ab, beta - ab and ab. With the exact products (1 - alpha)(1 -
 *    beta) and so on, 49152 bilinear samples on random texels were off by up
 *    to 25576 ulp; with this rule all were within half an ulp, the 773 ties
 *    among them included. The hardware returns the exact blend of those
 *    weights rounded once to fp32.
 *
 * Everything here is exact in double for the coordinates the case makes. */

/* The weight as the hardware stores it: 8 fractional bits, rounded to the
 * nearest with ties up, so 1.0 is representable (rules 4 and 5). */
static double fixed_point_weight(double fraction)
{
    return floor(fraction * 256.0 + 0.5) / 256.0;
}

/* Rule 2: a normalized coordinate in 21-bit fixed point, scaled to texels. */
#define TEXTURE_NORMALIZED_FRACTION_BITS 21
static double texel_space(float coordinate, int extent, texture_sampler s)
{
    if (!s.normalized) return coordinate;
    if (fabsf(coordinate) < FLT_MIN) coordinate = 0.0f;
    double fixed = floor(ldexp(coordinate, TEXTURE_NORMALIZED_FRACTION_BITS));
    return ldexp(fixed * extent, -TEXTURE_NORMALIZED_FRACTION_BITS);
}

/* Rule 3: index i of an axis of `extent` texels, or -1 for a border read. */
static long long resolve_index(long long i, int extent, texture_address address)
{
    long long period;
    switch (address) {
    case TEXTURE_CLAMP: return i < 0 ? 0 : i >= extent ? extent - 1 : i;
    case TEXTURE_BORDER: return i < 0 || i >= extent ? -1 : i;
    case TEXTURE_WRAP: return ((i % extent) + extent) % extent;
    case TEXTURE_MIRROR:
        period = 2LL * extent;
        i = ((i % period) + period) % period;
        return i < extent ? i : period - 1 - i;
    }
    return -1;
}

static double texel(const float *texels, int width, int height, texture_address address, long long x, long long y)
{
    long long i = resolve_index(x, width, address), j = resolve_index(y, height, address);
    return i < 0 || j < 0 ? 0.0 : texels[j * width + i]; /* the border colour is 0 */
}

double texture_model_fetch(const float *texels, int width, int height, texture_sampler s, float x, float y)
{
    double tx = texel_space(x, width, s), ty = texel_space(y, height, s);
    if (!s.linear) return texel(texels, width, height, s.address, (long long)floor(tx), (long long)floor(ty));
    double bx = tx - 0.5, by = ty - 0.5;
    long long i = (long long)floor(bx), j = (long long)floor(by);
    double alpha = fixed_point_weight(bx - (double)i), beta = fixed_point_weight(by - (double)j);
    double both = fixed_point_weight(alpha * beta); /* rule 5 */
    return (1 - alpha - beta + both) * texel(texels, width, height, s.address, i, j) +
           (alpha - both) * texel(texels, width, height, s.address, i + 1, j) +
           (beta - both) * texel(texels, width, height, s.address, i, j + 1) +
           both * texel(texels, width, height, s.address, i + 1, j + 1);
}

ladder_check texture_check_sampled_host(const float *texels, const float *out, int rows, int cols, int param)
{
    texture_sampler s = texture_sampler_of(param);
    double largest = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(max : largest) reduction(+ : nonfinite)
    for (int y = 0; y < rows; ++y) {
        for (int x = 0; x < cols; ++x) {
            /* The same float arithmetic as the kernel: IEEE division both sides. */
            float u = texture_sample_position(x, cols), v = texture_sample_position(y, rows);
            if (s.normalized) u /= (float)cols, v /= (float)rows;
            double got = out[(size_t)y * cols + x];
            double difference = fabs(got - texture_model_fetch(texels, cols, rows, s, u, v));
            if (!isfinite(got)) ++nonfinite;
            else if (difference > largest) largest = difference;
        }
    }
    double tolerance = s.linear ? TEXTURE_LINEAR_TOLERANCE : 0.0;
    ladder_check c = {largest, tolerance, nonfinite, nonfinite == 0 && largest <= tolerance};
    return c;
}

/* ---------------- the ladder ---------------- */

static void memcpy_baseline(const texture_inputs *in, int unused, float *out, cudaStream_t stream)
{
    (void)unused;
    CUDA_CHECK(cudaMemcpyAsync(out, in->linear, (size_t)in->count * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

/* The shifted copy out[i] = in[i + shift], one float per thread: a shift that
 * is not a whole number of 32-byte sectors makes each warp touch 5 sectors for
 * 4 of data, one of them the next warp's. Three ways to load the same float:
 * an ordinary load, __ldg (the read-only path), and tex1Dfetch on a texture
 * object over the same linear memory. Since Volta all three go through the
 * unified L1/texture cache, so they are expected to track each other. */
/* The 2D rows: one sampler each (texture_samplers[param]). */
#define SAMPLED(name, param, story) LADDER_RUNG(name, story, texture_sample_2d, param)

#define SHIFT(way, fn, k) \
    LADDER_RUNG(#way "_shift_" #k, #way " load of in[i + " #k "]", fn, k)

static const ladder_variant texture_variants[] = {
    SHIFT(plain, texture_shift_plain, 0), SHIFT(plain, texture_shift_plain, 1), SHIFT(plain, texture_shift_plain, 2), SHIFT(plain, texture_shift_plain, 3),
    SHIFT(plain, texture_shift_plain, 4), SHIFT(plain, texture_shift_plain, 5), SHIFT(plain, texture_shift_plain, 6), SHIFT(plain, texture_shift_plain, 7),
    SHIFT(plain, texture_shift_plain, 8), SHIFT(plain, texture_shift_plain, 9), SHIFT(plain, texture_shift_plain, 10), SHIFT(plain, texture_shift_plain, 11),
    SHIFT(plain, texture_shift_plain, 12), SHIFT(plain, texture_shift_plain, 13), SHIFT(plain, texture_shift_plain, 14), SHIFT(plain, texture_shift_plain, 15),
    SHIFT(plain, texture_shift_plain, 16), SHIFT(plain, texture_shift_plain, 17), SHIFT(plain, texture_shift_plain, 18), SHIFT(plain, texture_shift_plain, 19),
    SHIFT(plain, texture_shift_plain, 20), SHIFT(plain, texture_shift_plain, 21), SHIFT(plain, texture_shift_plain, 22), SHIFT(plain, texture_shift_plain, 23),
    SHIFT(plain, texture_shift_plain, 24), SHIFT(plain, texture_shift_plain, 25), SHIFT(plain, texture_shift_plain, 26), SHIFT(plain, texture_shift_plain, 27),
    SHIFT(plain, texture_shift_plain, 28), SHIFT(plain, texture_shift_plain, 29), SHIFT(plain, texture_shift_plain, 30), SHIFT(plain, texture_shift_plain, 31),
    SHIFT(plain, texture_shift_plain, 32),
    SHIFT(ldg, texture_shift_ldg, 0), SHIFT(ldg, texture_shift_ldg, 1), SHIFT(ldg, texture_shift_ldg, 2), SHIFT(ldg, texture_shift_ldg, 3),
    SHIFT(ldg, texture_shift_ldg, 4), SHIFT(ldg, texture_shift_ldg, 5), SHIFT(ldg, texture_shift_ldg, 6), SHIFT(ldg, texture_shift_ldg, 7),
    SHIFT(ldg, texture_shift_ldg, 8), SHIFT(ldg, texture_shift_ldg, 9), SHIFT(ldg, texture_shift_ldg, 10), SHIFT(ldg, texture_shift_ldg, 11),
    SHIFT(ldg, texture_shift_ldg, 12), SHIFT(ldg, texture_shift_ldg, 13), SHIFT(ldg, texture_shift_ldg, 14), SHIFT(ldg, texture_shift_ldg, 15),
    SHIFT(ldg, texture_shift_ldg, 16), SHIFT(ldg, texture_shift_ldg, 17), SHIFT(ldg, texture_shift_ldg, 18), SHIFT(ldg, texture_shift_ldg, 19),
    SHIFT(ldg, texture_shift_ldg, 20), SHIFT(ldg, texture_shift_ldg, 21), SHIFT(ldg, texture_shift_ldg, 22), SHIFT(ldg, texture_shift_ldg, 23),
    SHIFT(ldg, texture_shift_ldg, 24), SHIFT(ldg, texture_shift_ldg, 25), SHIFT(ldg, texture_shift_ldg, 26), SHIFT(ldg, texture_shift_ldg, 27),
    SHIFT(ldg, texture_shift_ldg, 28), SHIFT(ldg, texture_shift_ldg, 29), SHIFT(ldg, texture_shift_ldg, 30), SHIFT(ldg, texture_shift_ldg, 31),
    SHIFT(ldg, texture_shift_ldg, 32),
    SHIFT(tex, texture_shift_fetch, 0), SHIFT(tex, texture_shift_fetch, 1), SHIFT(tex, texture_shift_fetch, 2), SHIFT(tex, texture_shift_fetch, 3),
    SHIFT(tex, texture_shift_fetch, 4), SHIFT(tex, texture_shift_fetch, 5), SHIFT(tex, texture_shift_fetch, 6), SHIFT(tex, texture_shift_fetch, 7),
    SHIFT(tex, texture_shift_fetch, 8), SHIFT(tex, texture_shift_fetch, 9), SHIFT(tex, texture_shift_fetch, 10), SHIFT(tex, texture_shift_fetch, 11),
    SHIFT(tex, texture_shift_fetch, 12), SHIFT(tex, texture_shift_fetch, 13), SHIFT(tex, texture_shift_fetch, 14), SHIFT(tex, texture_shift_fetch, 15),
    SHIFT(tex, texture_shift_fetch, 16), SHIFT(tex, texture_shift_fetch, 17), SHIFT(tex, texture_shift_fetch, 18), SHIFT(tex, texture_shift_fetch, 19),
    SHIFT(tex, texture_shift_fetch, 20), SHIFT(tex, texture_shift_fetch, 21), SHIFT(tex, texture_shift_fetch, 22), SHIFT(tex, texture_shift_fetch, 23),
    SHIFT(tex, texture_shift_fetch, 24), SHIFT(tex, texture_shift_fetch, 25), SHIFT(tex, texture_shift_fetch, 26), SHIFT(tex, texture_shift_fetch, 27),
    SHIFT(tex, texture_shift_fetch, 28), SHIFT(tex, texture_shift_fetch, 29), SHIFT(tex, texture_shift_fetch, 30), SHIFT(tex, texture_shift_fetch, 31),
    SHIFT(tex, texture_shift_fetch, 32),
    SAMPLED("array_clamp_point", 0,
                "2D: CUDA array (block-linear), clamp to edge, texel coordinates, nearest texel, exact; expected near copy"),
    SAMPLED("array_clamp_linear", 1,
                "CUDA array (block-linear), clamp to edge, texel coordinates, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("array_clamp_norm_point", 2,
                "CUDA array (block-linear), clamp to edge, normalized, nearest texel, exact"),
    SAMPLED("array_clamp_norm_linear", 3,
                "CUDA array (block-linear), clamp to edge, normalized, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("array_border_point", 4,
                "CUDA array (block-linear), border (0 outside), texel coordinates, nearest texel, exact"),
    SAMPLED("array_border_linear", 5,
                "CUDA array (block-linear), border (0 outside), texel coordinates, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("array_border_norm_point", 6,
                "CUDA array (block-linear), border (0 outside), normalized, nearest texel, exact"),
    SAMPLED("array_border_norm_linear", 7,
                "CUDA array (block-linear), border (0 outside), normalized, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("array_wrap_point", 8,
                "CUDA array (block-linear), wrap (index mod width), normalized, nearest texel, exact"),
    SAMPLED("array_wrap_linear", 9,
                "CUDA array (block-linear), wrap (index mod width), normalized, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("array_mirror_point", 10,
                "CUDA array (block-linear), mirror, normalized, nearest texel, exact"),
    SAMPLED("array_mirror_linear", 11,
                "CUDA array (block-linear), mirror, normalized, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("pitch_clamp_point", 12,
                "pitch-linear rows, clamp to edge, texel coordinates, nearest texel, exact"),
    SAMPLED("pitch_clamp_linear", 13,
                "pitch-linear rows, clamp to edge, texel coordinates, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("pitch_clamp_norm_point", 14,
                "pitch-linear rows, clamp to edge, normalized, nearest texel, exact"),
    SAMPLED("pitch_clamp_norm_linear", 15,
                "pitch-linear rows, clamp to edge, normalized, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("pitch_border_point", 16,
                "pitch-linear rows, border (0 outside), texel coordinates, nearest texel, exact"),
    SAMPLED("pitch_border_linear", 17,
                "pitch-linear rows, border (0 outside), texel coordinates, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("pitch_border_norm_point", 18,
                "pitch-linear rows, border (0 outside), normalized, nearest texel, exact"),
    SAMPLED("pitch_border_norm_linear", 19,
                "pitch-linear rows, border (0 outside), normalized, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("pitch_wrap_point", 20,
                "pitch-linear rows, wrap (index mod width), normalized, nearest texel, exact"),
    SAMPLED("pitch_wrap_linear", 21,
                "pitch-linear rows, wrap (index mod width), normalized, bilinear, 8-bit weights (4 ulp)"),
    SAMPLED("pitch_mirror_point", 22,
                "pitch-linear rows, mirror, normalized, nearest texel, exact"),
    SAMPLED("pitch_mirror_linear", 23,
                "pitch-linear rows, mirror, normalized, bilinear, 8-bit weights (4 ulp)"),
    {"memcpy", "cudaMemcpy device to device of the same bytes", (ladder_impl)memcpy_baseline, 0, LADDER_BASELINE},
};

typedef struct texture_state {
    texture_inputs inputs;
    float *device_in, *device_out;
    float *host_in, *host_out; /* pinned: every check reads the input and output */
    cudaArray_t array;
    float *pitched;
    size_t pitch;
    char fetch_reason[160];                        /* why the tex1Dfetch rows cannot run, or "" */
    char sampled_reason[TEXTURE_SAMPLED_COUNT][160]; /* the same for each 2D row */
} texture_state;

static void destroy(void *opaque)
{
    texture_state *s = opaque;
    if (!s) return;
    if (s->inputs.linear_texture) cudaDestroyTextureObject(s->inputs.linear_texture);
    for (int i = 0; i < TEXTURE_SAMPLED_COUNT; ++i)
        if (s->inputs.sampled[i]) cudaDestroyTextureObject(s->inputs.sampled[i]);
    cudaFreeArray(s->array);
    cudaFree(s->pitched);
    cudaFree(s->device_in);
    cudaFree(s->device_out);
    cudaFreeHost(s->host_in);
    cudaFreeHost(s->host_out);
    free(s);
}

static struct cudaChannelFormatDesc float_channel(void)
{
    return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
}

/* The 1D texture over the linear input, for tex1Dfetch; a reason if this GPU
 * cannot make one that large. */
static void make_linear_texture(texture_state *s)
{
    struct cudaChannelFormatDesc channel = float_channel();
    size_t texels = (size_t)s->inputs.count + TEXTURE_MAX_SHIFT, limit = 0;
    int device;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&limit, &channel, device));
    if (texels > limit) {
        snprintf(s->fetch_reason, sizeof s->fetch_reason,
                 "tex1Dfetch: %zu texels exceed this GPU's 1D linear texture limit of %zu", texels, limit);
        return;
    }
    struct cudaResourceDesc resource;
    memset(&resource, 0, sizeof resource);
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = s->device_in;
    resource.res.linear.desc = channel;
    resource.res.linear.sizeInBytes = texels * sizeof(float);
    struct cudaTextureDesc sampling;
    memset(&sampling, 0, sizeof sampling);
    sampling.readMode = cudaReadModeElementType;
    CUDA_CHECK(cudaCreateTextureObject(&s->inputs.linear_texture, &resource, &sampling, NULL));
}

static enum cudaTextureAddressMode cuda_address_mode(texture_address a)
{
    switch (a) {
    case TEXTURE_CLAMP: return cudaAddressModeClamp;
    case TEXTURE_BORDER: return cudaAddressModeBorder;
    case TEXTURE_WRAP: return cudaAddressModeWrap;
    case TEXTURE_MIRROR: return cudaAddressModeMirror;
    }
    return cudaAddressModeClamp;
}

static void set_sampled_reason(texture_state *s, texture_memory memory, const char *what, cudaError_t err)
{
    for (int p = 0; p < TEXTURE_SAMPLED_COUNT; ++p)
        if (texture_memory_of(p) == memory && !s->sampled_reason[p][0])
            snprintf(s->sampled_reason[p], sizeof s->sampled_reason[p], "%s: %s", what, cudaGetErrorString(err));
}

/* The CUDA array, the pitched copy, and one texture object per 2D row. A
 * failure (a size past this GPU's texture limits) skips the rows it affects
 * with the CUDA error as the reason. */
static void make_sampled_textures(texture_state *s)
{
    int rows = s->inputs.rows, cols = s->inputs.cols;
    if (rows > TEXTURE_MAX_2D_EXTENT || cols > TEXTURE_MAX_2D_EXTENT) {
        for (int p = 0; p < TEXTURE_SAMPLED_COUNT; ++p)
            snprintf(s->sampled_reason[p], sizeof s->sampled_reason[p],
                     "2D sampling needs ROWS and COLS <= %d (sample positions exact in a float)", TEXTURE_MAX_2D_EXTENT);
        return;
    }
    struct cudaChannelFormatDesc channel = float_channel();
    cudaError_t err = cudaMallocArray(&s->array, &channel, (size_t)cols, (size_t)rows, 0);
    if (err != cudaSuccess) {
        cudaGetLastError();
        s->array = NULL;
        set_sampled_reason(s, TEXTURE_ARRAY, "CUDA array", err);
    }
    err = cudaMallocPitch((void **)&s->pitched, &s->pitch, (size_t)cols * sizeof(float), (size_t)rows);
    if (err != cudaSuccess) {
        cudaGetLastError();
        s->pitched = NULL;
        set_sampled_reason(s, TEXTURE_PITCH, "pitched allocation", err);
    }
    for (int p = 0; p < TEXTURE_SAMPLED_COUNT; ++p) {
        if (s->sampled_reason[p][0]) continue;
        texture_sampler sampler = texture_sampler_of(p);
        struct cudaResourceDesc resource;
        memset(&resource, 0, sizeof resource);
        if (texture_memory_of(p) == TEXTURE_ARRAY) {
            resource.resType = cudaResourceTypeArray;
            resource.res.array.array = s->array;
        } else {
            resource.resType = cudaResourceTypePitch2D;
            resource.res.pitch2D.devPtr = s->pitched;
            resource.res.pitch2D.desc = channel;
            resource.res.pitch2D.width = (size_t)cols;
            resource.res.pitch2D.height = (size_t)rows;
            resource.res.pitch2D.pitchInBytes = s->pitch;
        }
        struct cudaTextureDesc sampling;
        memset(&sampling, 0, sizeof sampling); /* border colour 0 */
        sampling.addressMode[0] = sampling.addressMode[1] = cuda_address_mode(sampler.address);
        sampling.filterMode = sampler.linear ? cudaFilterModeLinear : cudaFilterModePoint;
        sampling.readMode = cudaReadModeElementType;
        sampling.normalizedCoords = sampler.normalized;
        err = cudaCreateTextureObject(&s->inputs.sampled[p], &resource, &sampling, NULL);
        if (err != cudaSuccess) {
            cudaGetLastError();
            s->inputs.sampled[p] = 0;
            snprintf(s->sampled_reason[p], sizeof s->sampled_reason[p], "texture object: %s", cudaGetErrorString(err));
        }
        s->inputs.normalized[p] = sampler.normalized;
    }
}

static int size_error(const ladder_size *size, char *err, size_t err_len)
{
    long long rows = size->count == 2 ? size->dim[0] : 1, cols = size->dim[size->count - 1];
    if (size->count > 2 || rows > (1LL << 31) || cols > (1LL << 31) ||
        rows * cols > (1LL << 31) - 2 * TEXTURE_MAX_SHIFT) {
        snprintf(err, err_len, "texture takes ROWSxCOLS (or N, read as 1xN), at most 2^31 - 64 elements");
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
    long long rows = size->count == 2 ? size->dim[0] : 1, cols = size->dim[size->count - 1];
    texture_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->inputs.rows = (int)rows;
    s->inputs.cols = (int)cols;
    s->inputs.count = rows * cols;
    size_t in_bytes = ((size_t)s->inputs.count + TEXTURE_MAX_SHIFT) * sizeof(float);
    size_t out_bytes = (size_t)s->inputs.count * sizeof(float);
    ladder_buffers b = {0};
    ladder_buffers_device(&b, (void **)&s->device_in, in_bytes);
    ladder_buffers_device(&b, (void **)&s->device_out, out_bytes);
    ladder_buffers_pinned(&b, (void **)&s->host_in, in_bytes);
    ladder_buffers_pinned(&b, (void **)&s->host_out, out_bytes);
    if (ladder_buffers_missing(&b, size, status, err, err_len)) {
        destroy(s);
        return NULL;
    }
    s->inputs.linear = s->device_in;
    make_linear_texture(s);
    make_sampled_textures(s);
    return s;
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    texture_state *s = opaque;
    size_t texels = (size_t)s->inputs.count + TEXTURE_MAX_SHIFT;
    size_t row_bytes = (size_t)s->inputs.cols * sizeof(float);
    ladder_fill_uniform(s->host_in, texels, seed, 1.0f, 2.0f);
    CUDA_CHECK(cudaMemcpy(s->device_in, s->host_in, texels * sizeof(float), cudaMemcpyHostToDevice));
    if (s->array)
        CUDA_CHECK(cudaMemcpy2DToArray(s->array, 0, 0, s->device_in, row_bytes, row_bytes, (size_t)s->inputs.rows,
                                       cudaMemcpyDeviceToDevice));
    if (s->pitched)
        CUDA_CHECK(cudaMemcpy2D(s->pitched, s->pitch, s->device_in, row_bytes, row_bytes, (size_t)s->inputs.rows,
                                cudaMemcpyDeviceToDevice));
}

static const char *unsupported(void *opaque, const ladder_variant *v)
{
    texture_state *s = opaque;
    if (v->impl == (ladder_impl)texture_shift_fetch && s->fetch_reason[0]) return s->fetch_reason;
    if (v->impl == (ladder_impl)texture_sample_2d && s->sampled_reason[v->param][0]) return s->sampled_reason[v->param];
    return NULL;
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    texture_state *s = opaque;
    ((texture_launcher *)v->impl)(&s->inputs, v->param, s->device_out, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    texture_state *s = opaque;
    return (ladder_output){s->device_out, (size_t)s->inputs.count * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    texture_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_out, s->device_out, (size_t)s->inputs.count * sizeof(float),
                          cudaMemcpyDeviceToHost));
    if (v->impl == (ladder_impl)texture_sample_2d)
        return texture_check_sampled_host(s->host_in, s->host_out, s->inputs.rows, s->inputs.cols, v->param);
    /* The shifted copies, and the baseline (a copy at shift 0): exact. */
    return ladder_compare_f32(s->host_out, s->host_in + v->param, (size_t)s->inputs.count, 0.0);
}

static ladder_work work(void *opaque)
{
    texture_state *s = opaque;
    return (ladder_work){2.0 * (double)s->inputs.count * sizeof(float), 0.0};
}

const ladder_case texture_case = {
    .name = "texture",
    .title = "plain, __ldg and texture loads of a shifted copy; 2D addressing and filtering against a CPU model",
    .size_help = "ROWSxCOLS (or N = 1xN); 2D rows need ROWS, COLS <= 7168",
    .default_size = "6144x6144",
    .quick_size = "2048x2048",
    .test_sizes = {"37x1001", "13x11", "1x50", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .try_refusal = "texture is a sweep of fetch paths and addressing modes, each checked against a model of the "
                   "hardware, not one result",
    .variants = texture_variants,
    .variant_count = (int)(sizeof texture_variants / sizeof texture_variants[0]),
    .size_error = size_error,
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = unsupported,
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
