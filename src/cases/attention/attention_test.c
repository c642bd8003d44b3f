/* CPU tests of the attention case: the reference row against the naive
 * definition (the whole score matrix, masked, exponentiated and
 * normalized), the checker against planted errors (a missing tail key, an
 * off-by-one causal diagonal, a NaN, an unwritten row), the sample's
 * edges, the work counted from the problem, the sizes the case takes and
 * its sanitizer sizes. No GPU needed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "harness/check/bf16.h"
#include "harness/check/rng.h"
#include "harness/run/runner.h"
#include "harness/run/size.h"
#include "harness/testing/test_util.h"

extern const ladder_case attention_case;

typedef struct problem {
    long long heads, seq, dim;
    int causal;
    uint16_t *q, *k, *v, *o;
} problem;

static void fill(uint16_t *x, long long n, uint64_t seed, float lo, float hi)
{
    float *draw = malloc((size_t)n * sizeof(float));
    ladder_fill_uniform(draw, (size_t)n, seed, lo, hi);
    for (long long e = 0; e < n; ++e) x[e] = ladder_to_bf16(draw[e]);
    free(draw);
}

/* The definition, one head at a time: P = softmax(mask(Q K^T / sqrt(D)))
 * over whole rows, O = P V, rounded to BF16. */
static void naive_attention(problem *p)
{
    long long s = p->seq, d = p->dim;
    double *scores = malloc((size_t)(s * s) * sizeof(double));
    for (long long h = 0; h < p->heads; ++h) {
        const uint16_t *q = p->q + h * s * d, *k = p->k + h * s * d, *v = p->v + h * s * d;
        for (long long i = 0; i < s; ++i)
            for (long long j = 0; j < s; ++j) {
                double dot = 0;
                for (long long e = 0; e < d; ++e)
                    dot += (double)ladder_from_bf16(q[i * d + e]) * ladder_from_bf16(k[j * d + e]);
                scores[i * s + j] = p->causal && j > i ? -INFINITY : dot / sqrt((double)d);
            }
        for (long long i = 0; i < s; ++i) {
            double top = -INFINITY, total = 0;
            for (long long j = 0; j < s; ++j) top = fmax(top, scores[i * s + j]);
            for (long long j = 0; j < s; ++j) total += scores[i * s + j] = exp(scores[i * s + j] - top);
            for (long long e = 0; e < d; ++e) {
                double out = 0;
                for (long long j = 0; j < s; ++j) out += scores[i * s + j] / total * ladder_from_bf16(v[j * d + e]);
                p->o[(h * s + i) * d + e] = ladder_to_bf16((float)out);
            }
        }
    }
    free(scores);
}

static problem make_problem(long long heads, long long seq, long long dim, int causal, uint64_t seed)
{
    long long n = heads * seq * dim;
    problem p = {heads, seq, dim, causal, malloc(n * 2), malloc(n * 2), malloc(n * 2), malloc(n * 2)};
    fill(p.q, n, seed, -2.0f, 2.0f);
    fill(p.k, n, seed + 1, -2.0f, 2.0f);
    fill(p.v, n, seed + 2, -1.0f, 1.0f);
    naive_attention(&p);
    return p;
}

static void free_problem(problem *p)
{
    free(p->q);
    free(p->k);
    free(p->v);
    free(p->o);
}

static ladder_check check(const problem *p, const attention_sample *sample)
{
    return attention_check_host(p->q, p->k, p->v, p->o, p->heads, p->seq, p->dim, p->causal, sample,
                                attention_tolerance());
}

static void test_reference(void)
{
    for (int causal = 0; causal < 2; ++causal) {
        problem p = make_problem(3, 17, 64, causal, 5 + causal);
        /* The reference row against the definition: only BF16 rounding of O
         * separates them. */
        double out[64];
        double worst = 0;
        for (long long h = 0; h < p.heads; ++h)
            for (long long i = 0; i < p.seq; ++i) {
                attention_reference_row(p.q, p.k, p.v, p.seq, p.dim, causal, h, i, out);
                for (int e = 0; e < 64; ++e) {
                    double got = ladder_from_bf16(p.o[(h * p.seq + i) * 64 + e]);
                    worst = fmax(worst, fabs(got - out[e]) / fmax(fabs(out[e]), 1e-3));
                }
            }
        EXPECTF(worst <= 0x1p-8, "causal %d: the reference is %.2e from the definition", causal, worst);
        ladder_check r = check(&p, NULL);
        EXPECTF(r.passed && r.rel_error < 0x1p-9, "causal %d: the definition itself: error %.2e", causal, r.rel_error);
        /* Row 0 of the causal form is V's row 0. */
        if (causal)
            for (int e = 0; e < 64; ++e) EXPECT(p.o[e] == p.v[e]);
        free_problem(&p);
    }
}

/* Row i of head h over keys 0 .. keys - 1 whatever the mask says, into O
 * as BF16: the output of a kernel that gets its key range wrong. */
static void write_row_over_keys(problem *p, long long h, long long i, long long keys)
{
    long long s = p->seq, d = p->dim;
    double top = -INFINITY, total = 0, score[64], out[128];
    for (long long j = 0; j < keys; ++j) {
        double dot = 0;
        for (long long e = 0; e < d; ++e)
            dot += (double)ladder_from_bf16(p->q[(h * s + i) * d + e]) * ladder_from_bf16(p->k[(h * s + j) * d + e]);
        score[j] = dot / sqrt((double)d);
        top = fmax(top, score[j]);
    }
    for (long long e = 0; e < d; ++e) out[e] = 0;
    for (long long j = 0; j < keys; ++j) {
        double w = exp(score[j] - top);
        total += w;
        for (long long e = 0; e < d; ++e) out[e] += w * ladder_from_bf16(p->v[(h * s + j) * d + e]);
    }
    for (long long e = 0; e < d; ++e) p->o[(h * s + i) * d + e] = ladder_to_bf16((float)(out[e] / total));
}

static void test_planted_errors(void)
{
    /* A missing tail key: the full form loses key S - 1 in every row. */
    problem p = make_problem(2, 17, 64, 0, 21);
    for (long long h = 0; h < p.heads; ++h)
        for (long long i = 0; i < p.seq; ++i) write_row_over_keys(&p, h, i, p.seq - 1);
    ladder_check r = check(&p, NULL);
    EXPECTF(!r.passed, "a missing tail key passed: error %.2e, tolerance %.1e", r.rel_error, r.tolerance);
    free_problem(&p);

    /* An off-by-one causal diagonal: each row also sees the next key. */
    p = make_problem(2, 17, 64, 1, 22);
    for (long long h = 0; h < p.heads; ++h)
        for (long long i = 0; i + 1 < p.seq; ++i) write_row_over_keys(&p, h, i, i + 2);
    r = check(&p, NULL);
    EXPECTF(!r.passed, "an off-by-one causal mask passed: error %.2e", r.rel_error);
    free_problem(&p);

    /* The causal form computed as the full one. */
    p = make_problem(1, 17, 128, 1, 24);
    for (long long i = 0; i < p.seq; ++i) write_row_over_keys(&p, 0, i, p.seq);
    r = check(&p, NULL);
    EXPECTF(!r.passed, "no causal mask passed: error %.2e", r.rel_error);
    free_problem(&p);

    /* A NaN anywhere, and a row left as the poison (0xFFFF, a NaN). */
    p = make_problem(1, 9, 128, 1, 23);
    EXPECT(check(&p, NULL).passed);
    p.o[5 * 128 + 7] = 0x7FC0;
    r = check(&p, NULL);
    EXPECT(!r.passed && r.nonfinite == 1);
    memset(p.o + 8 * 128, 0xFF, 128 * 2);
    r = check(&p, NULL);
    EXPECT(!r.passed && r.nonfinite == 129);
    free_problem(&p);
}

static void test_sample(void)
{
    attention_sample sample;
    attention_draw_sample(7, 1000, 3, 256, &sample);
    EXPECT(sample.count == 256);
    EXPECT(sample.head[0] == 0 && sample.row[0] == 0 && sample.head[1] == 0 && sample.row[1] == 999);
    EXPECT(sample.head[2] == 6 && sample.row[2] == 0 && sample.head[3] == 6 && sample.row[3] == 999);
    int inside = 1;
    for (int i = 0; i < sample.count; ++i)
        inside &= sample.head[i] >= 0 && sample.head[i] < 7 && sample.row[i] >= 0 && sample.row[i] < 1000;
    EXPECT(inside);
    /* A wrong element in a sampled row fails; the NaN scan covers the rest. */
    problem p = make_problem(2, 20, 64, 0, 31);
    attention_draw_sample(2, 20, 4, 6, &sample);
    EXPECT(check(&p, &sample).passed);
    long long at = (sample.head[5] * 20 + sample.row[5]) * 64 + 3;
    p.o[at] = ladder_to_bf16(ladder_from_bf16(p.o[at]) + 0.5f);
    EXPECT(!check(&p, &sample).passed);
    free_problem(&p);
}

static void test_work(void)
{
    ladder_work full = attention_work_of(128, 4096, 128, 0), causal = attention_work_of(128, 4096, 128, 1);
    EXPECT_NEAR(full.flops, 4.0 * 128 * 4096.0 * 4096 * 128, 1);
    EXPECT_NEAR(causal.flops, 2.0 * 128 * 4096.0 * 4097 * 128, 1);
    EXPECT_NEAR(full.bytes, 4.0 * 128 * 4096 * 128 * 2, 1);
    EXPECT(causal.bytes == full.bytes);
    /* S = 1: one key, one product a column. */
    EXPECT_NEAR(attention_work_of(1, 1, 64, 1).flops, 4.0 * 64, 1e-9);
    EXPECT_NEAR(attention_work_of(1, 1, 64, 0).flops, 4.0 * 64, 1e-9);
}

static const char *size_message(const char *text)
{
    static char err[256];
    ladder_size size;
    err[0] = '\0';
    if (ladder_parse_size(text, &size, err, sizeof err) != 0) return err;
    return ladder_check_size(&attention_case, &size, err, sizeof err) == LADDER_OK ? NULL : err;
}

static void test_sizes(void)
{
    EXPECT(!size_message("4x32x4096x128") && !size_message("causal:16x16x1024x64") && !size_message("1x1x1x64"));
    EXPECT(!size_message("causal:1x1x4097x128"));
    const char *m = size_message("4x32x4096x96");
    EXPECTF(m && strstr(m, "64 or 128"), "D = 96: %s", m ? m : "accepted");
    m = size_message("4x4096x128");
    EXPECTF(m && strstr(m, "BxHxSxD"), "three dimensions: %s", m ? m : "accepted");
    EXPECT(size_message("1x1x0x64"));
    m = size_message("banded:1x1x64x64");
    EXPECTF(m && strstr(m, "banded"), "another case's form: %s", m ? m : "accepted");
    m = size_message("1x70000x1x64");
    EXPECTF(m && strstr(m, "heads"), "too many heads: %s", m ? m : "accepted");
    m = size_message("1x1x2^25x128");
    EXPECTF(m && strstr(m, "2^31"), "a tensor past 2^31 elements: %s", m ? m : "accepted");
    for (int i = 0; attention_case.test_sizes[i]; ++i) EXPECT(!size_message(attention_case.test_sizes[i]));
}

/* The sizes gpu_validate and attention_gpu_test take under compute-sanitizer
 * (attention.c says why each is there): between them, full and causal at
 * both D with a partial last tile of every tile size (S not a multiple of
 * 16, the smallest) and at least 3 key tiles of 128 (the 2-stage rings wrap),
 * full at D = 128 with 3 key tiles of 176 ending part-way (rung 11's), S = 1,
 * more works than a Hopper GPU's 132 SMs at both D, full (the persistent
 * rungs walk; rung 11's works are 192-row blocks at D = 64), B and H above
 * 1; and each small enough for racecheck: at most 2^17 scores (B H S^2),
 * where the test sizes' causal:1x1x4097x64 has 2^24. */
static void test_sanitizer_sizes(void)
{
    int reached[2][2] = {{0, 0}, {0, 0}}, single_row = 0, walks[2] = {0, 0}, spread = 0, count = 0;
    int long_keys = 0;
    for (; attention_case.sanitizer_sizes[count]; ++count) {
        const char *text = attention_case.sanitizer_sizes[count], *m = size_message(text);
        EXPECTF(!m, "sanitizer size %s: %s", text, m ? m : "");
        ladder_size size;
        char err[256];
        if (m || ladder_parse_size(text, &size, err, sizeof err) != 0) continue;
        long long batch = size.dim[0], heads = size.dim[0] * size.dim[1], seq = size.dim[2];
        int causal = strcmp(size.form, "causal") == 0, wide = size.dim[3] == 128;
        if (seq % 16 != 0 && seq > 2 * 128) reached[causal][wide] = 1;
        long_keys |= !causal && wide && seq > 2 * 176 && seq % 176 != 0;
        single_row |= seq == 1;
        if (!causal) walks[wide] |= heads * ((seq + (wide ? 127 : 191)) / (wide ? 128 : 192)) > 132;
        spread |= batch > 1 && size.dim[1] > 1;
        EXPECTF((double)heads * seq * seq <= 131072.0, "sanitizer size %s: %lld scores, more than 2^17", text,
                heads * seq * seq);
    }
    for (int causal = 0; causal < 2; ++causal)
        for (int wide = 0; wide < 2; ++wide)
            EXPECTF(reached[causal][wide], "no sanitizer size %s at D = %d with a partial tile and 3 key tiles",
                    causal ? "causal" : "full", wide ? 128 : 64);
    EXPECTF(long_keys, "no full sanitizer size at D = 128 with 3 key tiles of 176, the last partial");
    EXPECTF(single_row, "no sanitizer size at S = 1");
    for (int wide = 0; wide < 2; ++wide)
        EXPECTF(walks[wide], "no full sanitizer size at D = %d with more than 132 works: the persistent rungs "
                             "never walk two", wide ? 128 : 64);
    EXPECTF(spread, "no sanitizer size with B and H both above 1");
    EXPECTF(count <= 6, "%d sanitizer sizes: each adds to every sanitizer tool's time", count);
}

int main(void)
{
    test_reference();
    test_planted_errors();
    test_sample();
    test_work();
    test_sizes();
    test_sanitizer_sizes();
    return test_result("attention_test");
}
