/* CPU tests of the p2p case's ladder table: each sweep route covers 4 KiB to
 * 1 GiB in order, the matrix names every ordered pair of up to 8 GPUs once
 * and no GPU with itself, names are unique, sizes the case must refuse, the
 * summaries from synthetic records (fits, fractions of the link, the best
 * route, the matrix's extremes), and the whole ladder skipped with its
 * reason where there are fewer than two GPUs. */
#include <math.h>
#include <string.h>

#include "harness/device/gpus.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "cases/multigpu_test.h"
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

static const ladder_summary *find_summary(const ladder_results *r, const char *name)
{
    for (size_t i = 0; i < r->summary_count; ++i)
        if (strcmp(r->summaries[i].name, name) == 0) return &r->summaries[i];
    return NULL;
}

/* Records from known models (time = latency + bytes / rate): the summaries
 * give back each route's fit, the fraction of the link at 1 GiB, the best
 * one-way route, and the matrix's extremes; without a link rate the
 * fractions are NaN, not numbers. */
static void test_summaries(void)
{
    const double link = 478.125; /* GB/s: 18 links of 26.5625 */
    ladder_results r = {0};
    for (int i = 0; i < p2p_case.variant_count; ++i) {
        const ladder_variant *v = &p2p_case.variants[i];
        p2p_route route = p2p_route_of(v);
        double latency = 10e-6, rate = 25e9, bytes = v->param;
        if (route == P2P_COPY) latency = 8e-6, rate = 390e9;
        if (route == P2P_STORE) latency = 4e-6, rate = 440e9;
        if (route == P2P_BOTH_WAYS) latency = 8e-6, rate = 760e9, bytes = 2.0 * v->param;
        if (route == P2P_MATRIX) {
            if (P2P_MATRIX_FROM(v->param) > 1 || P2P_MATRIX_TO(v->param) > 1) continue; /* a two-GPU run */
            bytes = 0x1p30;
            rate = P2P_MATRIX_FROM(v->param) == 0 ? 390e9 : 380e9;
        }
        ladder_record *rec = ladder_results_add(&r);
        snprintf(rec->variant, sizeof rec->variant, "%s", v->name);
        rec->index = i;
        rec->valid = 1;
        rec->bytes = bytes;
        rec->median_ms = (latency + bytes / rate) * 1e3;
        rec->rel_spread = 0.002;
        rec->gbps = bytes / (rec->median_ms * 1e-3) / 1e9;
    }
    p2p_summarize_ladder(&r, 0, link);
    const ladder_summary *s = find_summary(&r, "peer_store_bandwidth_gbps");
    EXPECTF(s && fabs(s->value / 440 - 1) < 1e-6, "peer_store bandwidth %g", s ? s->value : NAN);
    s = find_summary(&r, "peer_store_latency_us");
    EXPECTF(s && fabs(s->value / 4 - 1) < 1e-6, "peer_store latency %g", s ? s->value : NAN);
    double store_1g = 0x1p30 / (4e-6 + 0x1p30 / 440e9) / 1e9;
    s = find_summary(&r, "best_one_way_fraction_of_link");
    EXPECTF(s && fabs(s->value - store_1g / link) < 1e-9 && strstr(s->note, "(peer_store)"), "best fraction %g: %s",
            s ? s->value : NAN, s ? s->note : "");
    s = find_summary(&r, "peer_copy_both_ways_fraction_of_link");
    double both_1g = 0x1p31 / (8e-6 + 0x1p31 / 760e9) / 1e9;
    EXPECTF(s && fabs(s->value - both_1g / (2 * link)) < 1e-9, "both ways fraction %g", s ? s->value : NAN);
    s = find_summary(&r, "matrix_slowest_gbps");
    EXPECTF(s && fabs(s->value - 0x1p30 / (10e-6 + 0x1p30 / 380e9) / 1e9) < 1e-6 && strstr(s->note, "GPU 1 to GPU 0"),
            "slowest pair %g: %s", s ? s->value : NAN, s ? s->note : "");
    size_t before = r.summary_count;
    p2p_summarize_ladder(&r, 0, NAN); /* NVML silent */
    for (size_t i = before; i < r.summary_count; ++i)
        if (strstr(r.summaries[i].name, "fraction")) EXPECTF(isnan(r.summaries[i].value), "%s without a link rate",
                                                             r.summaries[i].name);
    ladder_results_free(&r);
}

int main(void)
{
    test_table();
    test_sizes_refused();
    test_summaries();
    test_skips_below_two_gpus(&p2p_case);
    return test_result("p2p_test");
}
