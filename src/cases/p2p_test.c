/* CPU tests of the p2p case's ladder table: each sweep route covers 4 KiB to
 * 1 GiB in order, the matrix names every ordered pair of up to 8 GPUs once
 * and no GPU with itself, names are unique, sizes the case must refuse, and
 * the whole ladder skipped with its reason where there are fewer than two GPUs. */
#include <string.h>

#include "../harness/gpus.h"
#include "../harness/runner.h"
#include "../harness/test_util.h"
#include "p2p.h"

extern const ladder_case p2p_case;

static void test_table(void)
{
    int seen_sweep[P2P_MATRIX] = {0}, seen_pair[8][8] = {{0}};
    for (int i = 0; i < p2p_case.variant_count; ++i) {
        const ladder_variant *v = &p2p_case.variants[i];
        for (int j = i + 1; j < p2p_case.variant_count; ++j)
            EXPECTF(strcmp(v->name, p2p_case.variants[j].name) != 0, "name %s twice", v->name);
        p2p_route r = p2p_route_of(v);
        EXPECTF(!(v->flags & (LADDER_BASELINE | LADDER_HOST)), "%s: flags %u", v->name, v->flags);
        if (r == P2P_MATRIX) {
            int a = P2P_MATRIX_FROM(v->param), b = P2P_MATRIX_TO(v->param);
            EXPECTF(a != b && a < 8 && b < 8, "%s: pair %d %d", v->name, a, b);
            char want[32];
            snprintf(want, sizeof want, "matrix_%d_to_%d", a, b);
            EXPECTF(strcmp(v->name, want) == 0, "%s is pair %d %d", v->name, a, b);
            ++seen_pair[a][b];
            continue;
        }
        /* The k-th point of a route: 2^(12 + k) bytes, in ladder order. */
        long long want = 1LL << (P2P_SWEEP_MIN_LOG2 + seen_sweep[r]);
        EXPECTF(v->param == want, "%s: %d bytes, expected %lld", v->name, v->param, want);
        ++seen_sweep[r];
    }
    for (int r = 0; r < P2P_MATRIX; ++r)
        EXPECTF(seen_sweep[r] == P2P_SWEEP_MAX_LOG2 - P2P_SWEEP_MIN_LOG2 + 1, "route %d has %d points", r, seen_sweep[r]);
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b) EXPECTF(seen_pair[a][b] == (a != b), "pair %d %d seen %d times", a, b, seen_pair[a][b]);
}

static void test_sizes_refused(void)
{
    /* Refused before any GPU is touched: this runs without one. */
    const char *bad[] = {"2^30+1", "4096x2", NULL};
    for (int i = 0; bad[i]; ++i) {
        ladder_size size;
        ladder_status status = LADDER_OK;
        char err[256];
        EXPECT(ladder_parse_size(bad[i], &size, err, sizeof err) == 0);
        void *state = p2p_case.create(&size, &status, err, sizeof err);
        EXPECTF(!state && status == LADDER_BAD_SIZE, "size %s accepted", bad[i]);
        if (state) p2p_case.destroy(state);
    }
}

/* Fewer than two GPUs (none on CI, one on most machines): the whole ladder
 * runs through the harness without touching a GPU, every rung skipped with
 * the reason, and the summaries say how many GPUs there were. */
static void test_skips_below_two_gpus(const ladder_case *c)
{
    int gpus[LADDER_MAX_GPUS];
    int n = ladder_run_gpus(gpus, LADDER_MAX_GPUS);
    if (n >= 2) {
        printf("%d GPUs here: the skip path is for the GPU test's machine to see\n", n);
        return;
    }
    ladder_size size;
    char err[256];
    EXPECT(ladder_parse_size("2^20", &size, err, sizeof err) == 0);
    ladder_device device = {0};
    ladder_results results = {0};
    ladder_run_options options = {.seed = 1, .min_samples = 10, .time_cap_s = 0.01};
    EXPECT(ladder_run_case(c, &size, &device, &options, &results, err, sizeof err) == LADDER_OK);
    EXPECT(results.count == (size_t)c->variant_count);
    size_t clear = 0;
    for (size_t i = 0; i < results.count; ++i)
        clear += results.records[i].skipped && strstr(results.records[i].reason, "needs two GPUs") != NULL;
    EXPECTF(clear == results.count, "%zu of %zu rungs skipped for want of a second GPU", clear, results.count);
    EXPECT(results.summary_count >= 1 && strcmp(results.summaries[0].name, "gpus") == 0 &&
           results.summaries[0].value == n);
    ladder_results_free(&results);
}

int main(void)
{
    test_table();
    test_sizes_refused();
    test_skips_below_two_gpus(&p2p_case);
    return test_result("p2p_test");
}
