/* CPU tests of the all-reduce case: the chunk ranges, the ring's schedule
 * (simulated for 2 to 8 GPUs: no contribution counted twice or lost, no GPU
 * reading and writing one chunk in the same step, the ring and the two-shot
 * sums equal to the direct sum), the bus-bandwidth formula, the
 * NCCL_NVLS_ENABLE guard, the summaries from synthetic records (fits, bus
 * bandwidth, the best rung against NCCL per size), and the whole ladder
 * skipped with its reason where there are fewer than two GPUs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/device/gpus.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "cases/multigpu_test.h"
#include "allreduce.h"

extern const ladder_case allreduce_case;

static const long long counts[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 31, 32, 33, 1025, 4099, 1000003, 1LL << 28};
#define COUNTS (sizeof counts / sizeof counts[0])

static void test_chunks(void)
{
    for (int n = 2; n <= ALLREDUCE_MAX_GPUS; ++n)
        for (size_t k = 0; k < COUNTS; ++k) {
            long long count = counts[k], expected_begin = 0, largest = 0, smallest_nonlast = -1;
            for (int c = 0; c < n; ++c) {
                long long begin, end;
                allreduce_chunk(count, n, c, &begin, &end);
                EXPECTF(begin == expected_begin, "n %d count %lld chunk %d begins at %lld, not %lld", n, count, c, begin,
                        expected_begin);
                EXPECTF(end >= begin && end <= count, "n %d count %lld chunk %d: [%lld, %lld)", n, count, c, begin, end);
                EXPECTF(begin == count || begin % ALLREDUCE_CHUNK_ALIGN == 0, "n %d count %lld chunk %d starts at %lld",
                        n, count, c, begin);
                if (end - begin > largest) largest = end - begin;
                if (end < count && (smallest_nonlast < 0 || end - begin < smallest_nonlast)) smallest_nonlast = end - begin;
                expected_begin = end;
            }
            EXPECTF(expected_begin == count, "n %d count %lld: chunks end at %lld", n, count, expected_begin);
            /* Balanced: every chunk but the tail is the same size, at most one alignment step above count / n. */
            EXPECTF(largest <= (count + n - 1) / n + ALLREDUCE_CHUNK_ALIGN - 1, "n %d count %lld: a chunk of %lld", n,
                    count, largest);
            EXPECTF(smallest_nonlast < 0 || smallest_nonlast == largest, "n %d count %lld: uneven inner chunks", n, count);
        }
}

/* Each GPU's copy of each chunk as the set of GPUs whose inputs it holds. */
static void test_ring_schedule(void)
{
    for (int n = 2; n <= ALLREDUCE_MAX_GPUS; ++n) {
        unsigned held[ALLREDUCE_MAX_GPUS][ALLREDUCE_MAX_GPUS], next[ALLREDUCE_MAX_GPUS][ALLREDUCE_MAX_GPUS];
        const unsigned all = (1u << n) - 1;
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) held[r][c] = 1u << r;
        for (int step = 0; step < n - 1; ++step) {
            memcpy(next, held, sizeof held);
            for (int r = 0; r < n; ++r) {
                int q = (r + 1) % n, c = allreduce_ring_reduce_chunk(r, step, n);
                EXPECTF((held[q][c] & held[r][c]) == 0, "n %d step %d: chunk %d counted twice at %d", n, step, c, q);
                next[q][c] = held[q][c] | held[r][c];
                /* q adds into chunk c while it sends another one. */
                EXPECTF(allreduce_ring_reduce_chunk(q, step, n) != c, "n %d step %d: %d sends what it receives", n,
                        step, q);
            }
            memcpy(held, next, sizeof held);
        }
        for (int r = 0; r < n; ++r)
            EXPECTF(held[r][allreduce_ring_owned_chunk(r, n)] == all, "n %d: rank %d's chunk %d holds %#x", n, r,
                    allreduce_ring_owned_chunk(r, n), held[r][allreduce_ring_owned_chunk(r, n)]);
        for (int step = 0; step < n - 1; ++step) {
            memcpy(next, held, sizeof held);
            for (int r = 0; r < n; ++r) {
                int q = (r + 1) % n, c = allreduce_ring_gather_chunk(r, step, n);
                EXPECTF(held[r][c] == all, "n %d gather step %d: rank %d sends chunk %d incomplete", n, step, r, c);
                EXPECTF(allreduce_ring_gather_chunk(q, step, n) != c, "n %d gather step %d: %d overwrites what it sends",
                        n, step, q);
                next[q][c] = held[r][c];
            }
            memcpy(held, next, sizeof held);
        }
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                EXPECTF(held[r][c] == all, "n %d: after the ring rank %d chunk %d holds %#x", n, r, c, held[r][c]);
    }
}

/* The ring and two-shot schedules on real arrays, in integers (exact sums),
 * at odd counts: what the GPU rungs compute, element for element. */
static void test_schedules_sum(void)
{
    for (int n = 2; n <= ALLREDUCE_MAX_GPUS; ++n)
        for (size_t k = 0; k < COUNTS; ++k) {
            long long count = counts[k];
            if (count > 100000) continue;
            long long *ring[ALLREDUCE_MAX_GPUS], *twoshot[ALLREDUCE_MAX_GPUS], *want = calloc((size_t)count + 1, 8);
            long long *received = calloc((size_t)count + 1, 8);
            for (int r = 0; r < n; ++r) {
                ring[r] = malloc(((size_t)count + 1) * 8);
                twoshot[r] = malloc(((size_t)count + 1) * 8);
                for (long long i = 0; i < count; ++i) {
                    ring[r][i] = twoshot[r][i] = (long long)(i * 7 + r * 1000 + 1);
                    want[i] += ring[r][i];
                }
            }
            for (int step = 0; step < 2 * (n - 1); ++step) {
                int gather = step >= n - 1;
                /* Within a step the sends read what the previous step left. */
                long long *snapshot[ALLREDUCE_MAX_GPUS];
                for (int r = 0; r < n; ++r) {
                    snapshot[r] = malloc(((size_t)count + 1) * 8);
                    memcpy(snapshot[r], ring[r], (size_t)count * 8);
                }
                for (int r = 0; r < n; ++r) {
                    int q = (r + 1) % n;
                    int c = gather ? allreduce_ring_gather_chunk(r, step - (n - 1), n)
                                   : allreduce_ring_reduce_chunk(r, step, n);
                    long long begin, end;
                    allreduce_chunk(count, n, c, &begin, &end);
                    memcpy(received, snapshot[r] + begin, (size_t)(end - begin) * 8);
                    for (long long i = begin; i < end; ++i)
                        ring[q][i] = gather ? received[i - begin] : ring[q][i] + received[i - begin];
                }
                for (int r = 0; r < n; ++r) free(snapshot[r]);
            }
            for (int r = 0; r < n; ++r) {
                long long begin, end;
                allreduce_chunk(count, n, r, &begin, &end);
                for (long long i = begin; i < end; ++i) {
                    long long s = 0;
                    for (int g = 0; g < n; ++g) s += twoshot[g][i];
                    for (int g = 0; g < n; ++g) twoshot[g][i] = s;
                }
            }
            long long wrong_ring = 0, wrong_two = 0;
            for (int r = 0; r < n; ++r)
                for (long long i = 0; i < count; ++i) {
                    wrong_ring += ring[r][i] != want[i];
                    wrong_two += twoshot[r][i] != want[i];
                }
            EXPECTF(wrong_ring == 0, "n %d count %lld: ring leaves %lld wrong elements", n, count, wrong_ring);
            EXPECTF(wrong_two == 0, "n %d count %lld: two-shot leaves %lld wrong elements", n, count, wrong_two);
            for (int r = 0; r < n; ++r) {
                free(ring[r]);
                free(twoshot[r]);
            }
            free(want);
            free(received);
        }
}

static void test_bus_bandwidth(void)
{
    /* nccl-tests' factors: 1 at 2 GPUs, 1.5 at 4, 1.75 at 8. */
    EXPECT_NEAR(allreduce_bus_bandwidth(100, 2), 100, 1e-12);
    EXPECT_NEAR(allreduce_bus_bandwidth(100, 3), 400.0 / 3, 1e-12);
    EXPECT_NEAR(allreduce_bus_bandwidth(100, 4), 150, 1e-12);
    EXPECT_NEAR(allreduce_bus_bandwidth(100, 8), 175, 1e-12);
    EXPECT_NEAR(allreduce_bus_bandwidth(100, 1), 0, 0); /* one GPU moves nothing */
}

static void test_nvls_guard(void)
{
    unsetenv("NCCL_NVLS_ENABLE");
    allreduce_keep_nvls_off();
    const char *v = getenv("NCCL_NVLS_ENABLE");
    EXPECT(v && strcmp(v, "0") == 0);
    /* A choice the user made stands. */
    setenv("NCCL_NVLS_ENABLE", "1", 1);
    allreduce_keep_nvls_off();
    v = getenv("NCCL_NVLS_ENABLE");
    EXPECT(v && strcmp(v, "1") == 0);
    unsetenv("NCCL_NVLS_ENABLE");
}

static const ladder_summary *find_summary(const ladder_results *r, const char *name)
{
    for (size_t i = 0; i < r->summary_count; ++i)
        if (strcmp(r->summaries[i].name, name) == 0) return &r->summaries[i];
    return NULL;
}

/* Records of a whole ladder with times from known models, time = latency +
 * bytes / algbw: two_shot fastest for large messages, one_shot_signal for
 * small ones, NCCL between. The summaries must give back the models, the bus
 * bandwidth scaled by 2(n-1)/n, and per size the right rung against NCCL. */
static void test_summaries(int gpus)
{
    ladder_results r = {0};
    for (int i = 0; i < allreduce_case.variant_count; ++i) {
        const ladder_variant *v = &allreduce_case.variants[i];
        double latency_us = 40, algbw = 20e9;
        if (strncmp(v->name, "two_shot_", 9) == 0) latency_us = 12, algbw = 400e9;
        if (strncmp(v->name, "one_shot_signal_", 16) == 0) latency_us = 5, algbw = 150e9;
        if (strncmp(v->name, "nccl_", 5) == 0) latency_us = 20, algbw = 300e9;
        ladder_record *rec = ladder_results_add(&r);
        snprintf(rec->variant, sizeof rec->variant, "%s", v->name);
        rec->index = i;
        rec->valid = 1;
        rec->bytes = v->param;
        rec->median_ms = (latency_us * 1e-6 + v->param / algbw) * 1e3;
        rec->rel_spread = 0.001;
        rec->gbps = v->param / (rec->median_ms * 1e-3) / 1e9;
    }
    allreduce_summarize(&r, 0, gpus);
    double factor = 2.0 * (gpus - 1) / gpus;
    const ladder_summary *s = find_summary(&r, "gpus");
    EXPECT(s && s->value == gpus);
    s = find_summary(&r, "two_shot_busbw_gbps");
    EXPECTF(s && fabs(s->value / (400 * factor) - 1) < 1e-6, "two_shot busbw %g", s ? s->value : NAN);
    s = find_summary(&r, "nccl_latency_us");
    EXPECTF(s && fabs(s->value / 20 - 1) < 1e-6, "nccl latency %g", s ? s->value : NAN);
    s = find_summary(&r, "best_busbw_gbps");
    EXPECTF(s && fabs(s->value / (400 * factor) - 1) < 1e-6 && strstr(s->note, "(two_shot)"), "best busbw %g: %s",
            s ? s->value : NAN, s ? s->note : "");
    s = find_summary(&r, "best_latency_us");
    EXPECTF(s && fabs(s->value / 5 - 1) < 1e-6 && strstr(s->note, "(one_shot_signal)"), "best latency %g: %s",
            s ? s->value : NAN, s ? s->note : "");
    /* 8 B: one_shot_signal against NCCL, (20 us) / (5 us) near 4. */
    s = find_summary(&r, "best_vs_nccl_8B");
    EXPECTF(s && fabs(s->value - 4) < 1e-3, "8 B ratio %g", s ? s->value : NAN);
    s = find_summary(&r, "busbw_8B_best_gbps");
    EXPECT(s && strstr(s->note, "one_shot_signal_8B"));
    /* 1 GiB: two_shot against NCCL, bus bandwidth from each one's algbw. */
    s = find_summary(&r, "busbw_1GiB_best_gbps");
    double two_shot_1g = 0x1p30 / (12e-6 + 0x1p30 / 400e9) / 1e9;
    EXPECTF(s && fabs(s->value / (two_shot_1g * factor) - 1) < 1e-9 && strstr(s->note, "two_shot_1GiB"),
            "1 GiB best busbw %g", s ? s->value : NAN);
    s = find_summary(&r, "busbw_1GiB_nccl_gbps");
    double nccl_1g = 0x1p30 / (20e-6 + 0x1p30 / 300e9) / 1e9;
    EXPECTF(s && fabs(s->value / (nccl_1g * factor) - 1) < 1e-9, "1 GiB nccl busbw %g", s ? s->value : NAN);
    s = find_summary(&r, "best_vs_nccl_1GiB");
    EXPECTF(s && fabs(s->value / ((20e-6 + 0x1p30 / 300e9) / (12e-6 + 0x1p30 / 400e9)) - 1) < 1e-9, "1 GiB ratio %g",
            s ? s->value : NAN);
    ladder_results_free(&r);

    /* A ladder that did not run (one GPU): only the count. */
    ladder_results none = {0};
    allreduce_summarize(&none, 0, 1);
    EXPECT(none.summary_count == 1);
    ladder_results_free(&none);
}

int main(void)
{
    test_chunks();
    test_ring_schedule();
    test_schedules_sum();
    test_bus_bandwidth();
    test_nvls_guard();
    test_summaries(2);
    test_summaries(8);
    test_skips_below_two_gpus(&allreduce_case);
    return test_result("allreduce_test");
}
