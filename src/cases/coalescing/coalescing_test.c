/* CPU tests of the coalescing case: the hashed input matches the harness's
 * hash, each variant's expected output (the word map the check uses) agrees
 * with a naive host model of what the kernel is meant to compute, the sweep
 * tables are complete, and bad sizes are refused. No GPU needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalescing.h"
#include "harness/case.h"
#include "harness/check/rng.h"
#include "harness/testing/test_util.h"

extern const ladder_case coalescing_case;

static void test_input_word_matches_harness_hash(void)
{
    printf("input words: the header's hash is ladder_hash64, values in [1, 2) with 23 random bits\n");
    for (uint64_t seed = 0; seed < 4; ++seed) {
        uint64_t key = ladder_hash64(seed);
        for (uint64_t i = 0; i < 1000; i += 7) {
            float expected = 1.0f + (float)(ladder_hash64(key ^ i) >> 41) / 8388608.0f;
            float got = coalescing_input_word(key, i);
            EXPECTF(got == expected, "seed %llu word %llu: %.9g, harness hash gives %.9g", (unsigned long long)seed,
                   (unsigned long long)i, got, expected);
            EXPECTF(got >= 1.0f && got < 2.0f, "word out of [1, 2): %.9g", got);
        }
    }
    EXPECTF(coalescing_input_word(1, 0) != coalescing_input_word(2, 0), "different keys give the same word");
}

/* Naive models of the kernels on a word array: out[w] is written with the
 * value the variant must produce; written[w] marks the words it must write
 * (2 for float4 padding, which the kernel writes but nothing checks). */
typedef struct model_buffers {
    float *in, *out;
    unsigned char *written;
    long long in_words, out_words;
} model_buffers;

static void model_copy(model_buffers *b, long long to, long long from, int words, float add)
{
    for (int c = 0; c < words; ++c) {
        b->out[to + c] = b->in[from + c] + add;
        b->written[to + c] = 1;
    }
}

static void run_model(const ladder_variant *v, long long n, model_buffers *b)
{
    coalescing_launcher *f = (coalescing_launcher *)v->impl;
    long long k = v->param;
    if (f == coalescing_copy_offset_f32)
        for (long long i = 0; i < n; ++i) model_copy(b, i + k, i + k, 1, 0.0f);
    else if (f == coalescing_copy_offset_f64) /* doubles are pairs of words */
        for (long long i = 0; i < n / 2; ++i) model_copy(b, 2 * (i + k), 2 * (i + k), 2, 0.0f);
    else if (f == coalescing_copy_stride_f32)
        for (long long i = 0; i < n; ++i) model_copy(b, i, i * k, 1, 0.0f);
    else if (f == coalescing_copy_stride_f64)
        for (long long i = 0; i < n / 2; ++i) model_copy(b, 2 * i, 2 * (i * k), 2, 0.0f);
    else if (f == coalescing_add_one_misaligned)
        for (long long i = 0; i < n / k; ++i) model_copy(b, 1 + i, 1 + i, 1, 1.0f);
    else if (f == coalescing_add_one_coalesced || f == coalescing_add_one_idle_lanes ||
             f == coalescing_add_one_permuted)
        for (long long i = 0; i < n / k; ++i) model_copy(b, i, i, 1, 1.0f);
    else if (f == coalescing_aos_direct || f == coalescing_aos_staged) /* point i at words 3i..3i+2 */
        for (long long i = 0; i < n / 3; ++i) model_copy(b, 3 * i, 3 * i, 3, 1.0f);
    else if (f == coalescing_soa) /* component c of point i at word c * m + i */
        for (long long i = 0; i < n / 3; ++i)
            for (int c = 0; c < 3; ++c) model_copy(b, c * (n / 3) + i, c * (n / 3) + i, 1, 1.0f);
    else if (f == coalescing_aos_float4)
        for (long long i = 0; i < n / 3; ++i) {
            model_copy(b, 4 * i, 4 * i, 3, 1.0f);
            b->written[4 * i + 3] = 2;
        }
    else /* the memcpy baseline */
        for (long long i = 0; i < n; ++i) model_copy(b, i, i, 1, 0.0f);
}

static void test_word_maps_match_models(long long n)
{
    printf("word maps: every variant's expected output equals a naive model of its kernel (n = %lld)\n", n);
    model_buffers b;
    b.in_words = 32 * n + 64;
    b.out_words = 2 * n + 64;
    b.in = malloc((size_t)b.in_words * sizeof(float));
    b.out = malloc((size_t)b.out_words * sizeof(float));
    b.written = malloc((size_t)b.out_words);
    for (long long w = 0; w < b.in_words; ++w) b.in[w] = coalescing_input_word(42, (uint64_t)w);
    for (int vi = 0; vi < coalescing_case.variant_count; ++vi) {
        const ladder_variant *v = &coalescing_case.variants[vi];
        memset(b.written, 0, (size_t)b.out_words);
        run_model(v, n, &b);
        coalescing_word_map map = coalescing_expected_words(v, n);
        unsigned char *covered = calloc((size_t)b.out_words, 1);
        int bad = 0;
        for (long long e = 0; e < map.elements && !bad; ++e) {
            for (int c = 0; c < map.words_used; ++c) {
                long long to = map.out_first + e * map.out_step + c;
                long long from = map.in_first + e * map.in_step + c;
                if (to < 0 || to >= b.out_words || from < 0 || from >= b.in_words) {
                    bad = 1;
                    break;
                }
                covered[to] = 1;
                float expected = coalescing_input_word(42, (uint64_t)from) + map.add;
                if (b.written[to] != 1 || b.out[to] != expected) bad = 1;
            }
        }
        for (long long w = 0; w < b.out_words && !bad; ++w)
            if (b.written[w] == 1 && !covered[w]) bad = 1;
        EXPECTF(!bad, "%s: word map and model disagree", v->name);
        free(covered);
    }
    free(b.in);
    free(b.out);
    free(b.written);
}

static void test_sweep_tables(void)
{
    printf("tables: offsets 0..32 and strides 1..32 in float and double, row 0 the aligned float copy\n");
    const ladder_case *c = &coalescing_case;
    EXPECTF(strcmp(c->variants[0].name, "offset_f32_0") == 0, "row 0 is %s", c->variants[0].name);
    int offsets32 = 0, offsets64 = 0, strides32 = 0, strides64 = 0;
    unsigned long long seen_offset32 = 0, seen_offset64 = 0, seen_stride32 = 0, seen_stride64 = 0;
    for (int i = 0; i < c->variant_count; ++i) {
        const ladder_variant *v = &c->variants[i];
        coalescing_launcher *f = (coalescing_launcher *)v->impl;
        unsigned long long bit = 1ull << v->param;
        if (f == coalescing_copy_offset_f32) ++offsets32, seen_offset32 |= bit;
        if (f == coalescing_copy_offset_f64) ++offsets64, seen_offset64 |= bit;
        if (f == coalescing_copy_stride_f32) ++strides32, seen_stride32 |= bit;
        if (f == coalescing_copy_stride_f64) ++strides64, seen_stride64 |= bit;
        for (int j = 0; j < i; ++j)
            EXPECTF(strcmp(v->name, c->variants[j].name) != 0, "duplicate variant name %s", v->name);
        EXPECTF(strlen(v->name) <= 24, "name %s is wider than the table column", v->name);
    }
    unsigned long long offsets = (1ull << 33) - 1, strides = ((1ull << 33) - 1) & ~1ull;
    EXPECTF(offsets32 == 33 && seen_offset32 == offsets, "float offsets are not 0..32");
    EXPECTF(offsets64 == 33 && seen_offset64 == offsets, "double offsets are not 0..32");
    EXPECTF(strides32 == 32 && seen_stride32 == strides, "float strides are not 1..32");
    EXPECTF(strides64 == 32 && seen_stride64 == strides, "double strides are not 1..32");
    EXPECTF(c->variants[c->variant_count - 1].flags & LADDER_BASELINE, "the baseline is not last");
}

static void test_permutation_is_a_bijection(void)
{
    printf("permuted rung: lane k -> word 13k mod 32 takes every word of the warp once\n");
    int hits[32] = {0};
    for (int lane = 0; lane < 32; ++lane) ++hits[COALESCING_PERMUTED_WORD(lane)];
    for (int w = 0; w < 32; ++w) EXPECTF(hits[w] == 1, "word %d taken %d times", w, hits[w]);
}

static void test_bad_sizes_refused(void)
{
    printf("sizes: non-multiples of 24 and 2D sizes are refused before any allocation\n");
    const char *bad[] = {"100", "23", "24x24", "2^32"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ladder_size size;
        char err[256] = "";
        if (ladder_parse_size(bad[i], &size, err, sizeof err) != 0) continue;
        ladder_status status = LADDER_OK;
        void *state = coalescing_case.create(&size, &status, err, sizeof err);
        EXPECTF(!state && status == LADDER_BAD_SIZE && err[0], "size %s accepted", bad[i]);
    }
}

int main(void)
{
    test_input_word_matches_harness_hash();
    test_word_maps_match_models(24);
    test_word_maps_match_models(984);
    test_sweep_tables();
    test_permutation_is_a_bijection();
    test_bad_sizes_refused();
    printf(test_failures ? "coalescing_test: %d FAILED\n" : "coalescing_test: all passed\n", test_failures);
    return test_failures ? 1 : 0;
}
