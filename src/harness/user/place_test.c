/* Placing a tried kernel among synthetic records of a bandwidth ladder:
 * between two rungs, above every rung, below every rung, a wrong result,
 * a result above the ceiling, and the limiter of a tensor case. */
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
    return test_result("place_test");
}
