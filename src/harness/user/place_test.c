/* Placing a tried kernel among synthetic records of a bandwidth ladder:
 * between two rungs, above every rung, below every rung, a wrong result,
 * a result above the ceiling, and the limiter of a tensor case; the
 * --ncu limiter line, each of its rules from synthetic counters. */
#include <math.h>
#include <string.h>

#include "harness/testing/test_util.h"
#include "place.h"

static const ladder_variant variants[] = {
    {"slow", "the slow rung's story", NULL, 0, 0, NULL},
    {"middle", "the middle rung's story", NULL, 0, 0, NULL},
    {"fast", "the fast rung's story", NULL, 0, 0, NULL},
    {"memcpy", "the baseline", NULL, 0, LADDER_BASELINE, NULL},
};
static const ladder_case fake_case = {.name = "fake", .variants = variants, .variant_count = 4};

/* A record of `ms` per run moving 1e9 bytes against a 1000 GB/s ceiling. */
static ladder_record record(const char *name, int index, double ms)
{
    ladder_record r;
    memset(&r, 0, sizeof r);
    snprintf(r.variant, sizeof r.variant, "%s", name);
    snprintf(r.size, sizeof r.size, "1000x1000");
    r.index = index;
    r.valid = 1;
    r.median_ms = ms;
    r.gbps = 1e9 / (ms * 1e-3) / 1e9;
    r.gflops = NAN;
    r.fraction_of_bandwidth = r.gbps / 1000;
    r.fraction_of_fp32 = NAN;
    r.fraction_of_ceiling = r.fraction_of_bandwidth;
    r.ceiling = "bandwidth_gbps";
    return r;
}

/* Counters where no rule fires: DRAM half busy, coalesced, no conflicts, occupied. */
static ladder_record profiled(void)
{
    ladder_record r = record("mine.cu", -1, 1.6);
    r.user = 1;
    r.has_counters = 1;
    r.counters = (ladder_counters){.kernels = 1, .dram_throughput_pct = 50, .global_load_sectors_per_request = 4,
                                   .global_store_sectors_per_request = 4,
                                   .shared_load_wavefronts_per_instruction = NAN, .shared_bank_conflicts = 0,
                                   .achieved_occupancy_pct = 70};
    return r;
}

/* The limiter line of `r`, which must contain `want`. */
static void expect_limiter(const ladder_record *r, const char *want)
{
    char out[512];
    ladder_limiter_line(r, out, sizeof out);
    EXPECTF(strstr(out, want) != NULL && strncmp(out, "limiter: ", 9) == 0 && out[strlen(out) - 1] == '\n',
            "want '%s', got '%s'", want, out);
}

static void test_limiter_line(void)
{
    ladder_record r = profiled();
    expect_limiter(&r, "limiter: none stands out (DRAM at 50 % of peak, occupancy 70 %): latency");

    /* DRAM near peak outranks everything else that is wrong. */
    r.counters.dram_throughput_pct = 92;
    r.counters.achieved_occupancy_pct = 10;
    r.counters.global_store_sectors_per_request = 32;
    expect_limiter(&r, "limiter: DRAM at 92 % of peak (memory-bound: fewer bytes, or it is done)");
    r.counters.dram_throughput_pct = 79; /* just under the threshold: the next rule speaks */
    expect_limiter(&r, "global stores of 32.0 sectors per request (uncoalesced: 4 is a warp of floats)");

    /* Compute near the measured ceiling: compute-bound, by the record's fraction. */
    r = profiled();
    r.ceiling = "tensor_bf16_gflops";
    r.fraction_of_bandwidth = 0.1;
    r.fraction_of_ceiling = 0.85;
    expect_limiter(&r, "limiter: BF16 tensor at 0.85 of the measured ceiling (compute-bound");
    r.fraction_of_ceiling = 0.5;
    expect_limiter(&r, "none stands out");

    /* 32-way conflicts; a 16-byte load's 4 wavefronts without a conflict is no conflict. */
    r = profiled();
    r.counters.shared_load_wavefronts_per_instruction = 32;
    r.counters.shared_bank_conflicts = 1e6;
    r.counters.global_load_sectors_per_request = 32;
    expect_limiter(&r, "limiter: 32-way bank conflicts on shared loads (32.0 wavefronts per instruction: pad the "
                       "tile)");
    r.counters.shared_load_wavefronts_per_instruction = 4;
    r.counters.shared_bank_conflicts = 0;
    expect_limiter(&r, "limiter: global loads of 32.0 sectors per request (uncoalesced: 4 is a warp of floats)");

    /* 16 sectors per request may be a warp of float4 loads: not flagged. */
    r.counters.global_load_sectors_per_request = 16;
    expect_limiter(&r, "none stands out");

    r.counters.achieved_occupancy_pct = 18;
    expect_limiter(&r, "limiter: achieved occupancy 18 % (latency not hidden: more warps or more work in flight)");

    /* No kernel under the profiler; no counters, no line. */
    r.counters.kernels = 0;
    expect_limiter(&r, "limiter: no kernel ran under the profiler");
    r.has_counters = 0;
    char out[64] = "x";
    ladder_limiter_line(&r, out, sizeof out);
    EXPECTF(out[0] == '\0', "%s", out);
}

int main(void)
{
    ladder_record rungs[5] = {record("slow", 0, 10), record("middle", 1, 2), record("fast", 2, 1.25),
                              record("memcpy", 3, 1.1)};
    rungs[3].baseline = 1;
    char out[2048];

    ladder_record mine = record("mine.cu", -1, 1.6);
    mine.user = 1;
    rungs[4] = mine;
    ladder_place(&fake_case, rungs, 5, &mine, out, sizeof out);
    EXPECTF(strstr(out, "mine.cu at 1000x1000: 625 GB/s, 0.62 of the bandwidth ceiling: between rung 1 middle (0.50) "
                        "and rung 2 fast (0.80)\n") != NULL, "%s", out);
    EXPECTF(strstr(out, "next: rung 2 fast: the fast rung's story\n") != NULL, "%s", out);

    /* Faster than every rung: said, with the ratio to the vendor. */
    mine = record("mine.cu", -1, 1.0);
    mine.user = 1;
    ladder_place(&fake_case, rungs, 4, &mine, out, sizeof out);
    EXPECTF(strstr(out, "faster than every rung (the best: rung 2 fast (0.80))") &&
                strstr(out, "against the vendor, memcpy: 1.10x"),
            "%s", out);
    EXPECT(!strstr(out, "next:"));

    /* Slower than every rung: the next step is the slowest rung. */
    mine = record("mine.cu", -1, 20);
    ladder_place(&fake_case, rungs, 4, &mine, out, sizeof out);
    EXPECTF(strstr(out, "slower than every rung (the slowest: rung 0 slow (0.10))") &&
                strstr(out, "next: rung 0 slow: the slow rung's story"),
            "%s", out);

    /* Far below the ceiling (a first naive kernel on tensor cores): the
     * fraction keeps a digit rather than reading 0.00. */
    mine = record("mine.cu", -1, 5000);
    ladder_place(&fake_case, rungs, 4, &mine, out, sizeof out);
    EXPECTF(strstr(out, ", 0.0002 of the bandwidth ceiling") != NULL, "%s", out);

    /* A wrong result is not placed; it says by how much. */
    mine = record("mine.cu", -1, 0.5);
    mine.valid = 0;
    mine.rel_error = 0.25;
    mine.tolerance = 1e-6;
    ladder_place(&fake_case, rungs, 4, &mine, out, sizeof out);
    EXPECTF(strstr(out, "wrong result (error 2.50e-01, tolerance 1.00e-06): not placed") && !strstr(out, "between"),
            "%s", out);

    /* Right at its own size but wrong at an odd one: not placed either. */
    mine = record("mine.cu", -1, 1.6);
    snprintf(mine.test_size_failures, sizeof mine.test_size_failures, "1000x777: error 1.00e-01, tolerance 0");
    ladder_place(&fake_case, rungs, 4, &mine, out, sizeof out);
    EXPECTF(strstr(out, "wrong at the case's test sizes (1000x777: error") && !strstr(out, "between"), "%s", out);

    /* Above the measured ceiling: flagged, never a record to beat. */
    mine = record("mine.cu", -1, 0.5);
    ladder_place(&fake_case, rungs, 4, &mine, out, sizeof out);
    EXPECTF(strstr(out, "2.00 of the measured bandwidth ceiling") && strstr(out, "check the work count or the timing") &&
                !strstr(out, "faster than every rung"),
            "%s", out);

    /* Nothing ran to place against; a skipped (faulted) kernel says why. */
    mine = record("mine.cu", -1, 1.6);
    ladder_place(&fake_case, &rungs[3], 1, &mine, out, sizeof out);
    EXPECTF(strstr(out, "no rung ran at this size") != NULL, "%s", out);
    mine.skipped = 1;
    snprintf(mine.reason, sizeof mine.reason, "faulted at 33x4097 (checked run): CUDA error");
    ladder_place(&fake_case, rungs, 4, &mine, out, sizeof out);
    EXPECTF(strstr(out, "not run: faulted at 33x4097") != NULL, "%s", out);

    /* The limiter: the higher fraction, and which ceiling it is. */
    const char *ceiling;
    ladder_record tensor = record("t", 0, 1);
    tensor.ceiling = "tensor_bf16_gflops";
    tensor.fraction_of_bandwidth = 0.3;
    tensor.fraction_of_ceiling = 0.7;
    tensor.fraction_of_fp32 = 2.5; /* a tensor rung beats the FMA rate: never its limiter */
    EXPECT_NEAR(ladder_limiter_fraction(&tensor, &ceiling), 0.7, 1e-12);
    EXPECT(strcmp(ceiling, "BF16 tensor") == 0);
    tensor.fraction_of_bandwidth = 0.9;
    EXPECT_NEAR(ladder_limiter_fraction(&tensor, &ceiling), 0.9, 1e-12);
    EXPECT(strcmp(ceiling, "bandwidth") == 0);
    ladder_record fp32 = record("f", 0, 1);
    fp32.fraction_of_fp32 = 0.6;
    fp32.fraction_of_bandwidth = 0.2;
    EXPECT_NEAR(ladder_limiter_fraction(&fp32, &ceiling), 0.6, 1e-12);
    EXPECT(strcmp(ceiling, "FP32") == 0);

    test_limiter_line();
    return test_result("place_test");
}
