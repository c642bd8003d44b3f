/* GPU test of the tensor-core rungs' accuracy, for each generation's pair
 * (mma.sync: tf32, 3xtf32; Hopper's wgmma: tf32_wgmma, 3xtf32_wgmma): on
 * the same inputs, the 3xTF32 rung's error against the double reference is
 * at most twice cuBLAS FP32's (mma.sync) or below it (wgmma), and the TF32
 * rung's and cuBLAS TF32's are the TF32 error (far above both, within their
 * own tolerance), at K = 4096 (the error grows with K) on 1024 x 1024
 * outputs, three draws. Then each pair at odd shapes beyond gpu_validate's
 * test sizes (1 x N, N x 1, odd K and N: the padded copies of the Hopper
 * rungs, both of their tile heights, K shorter than a k-tile), two draws
 * each (one under a sanitizer). A pair the device cannot run is skipped
 * with its reason; exits 77
 * without a GPU or when neither pair runs. */
#include <stdio.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "sgemm.h"

extern const ladder_case sgemm_case;

static const ladder_variant *variant(const char *name)
{
    int i = ladder_find_variant(&sgemm_case, name);
    if (i < 0) ladder_die("sgemm has no variant %s", name);
    return &sgemm_case.variants[i];
}

typedef struct tensor_pair {
    const char *three, *single;
    double worst_ratio_to_cublas; /* the 3xTF32 rung's error over cuBLAS FP32's */
} tensor_pair;

static const tensor_pair pairs[] = {{"3xtf32", "tf32", 2.0}, {"3xtf32_wgmma", "tf32_wgmma", 1.0}};

/* Returns 1 if the pair ran, 0 if the device cannot run it. */
static int test_pair(const tensor_pair *pair)
{
    char err[512];
    ladder_size size;
    ladder_status status;
    EXPECT(ladder_parse_size("1024x1024x4096", &size, err, sizeof err) == 0);
    void *state = sgemm_case.create(&size, &status, err, sizeof err);
    if (!state) ladder_die("sgemm 1024x1024x4096: %s", err);
    const ladder_variant *cublas = variant("cublas"), *three = variant(pair->three), *tf32 = variant(pair->single);
    const ladder_variant *cublas_tf32 = variant("cublas_tf32");
    const char *reason = sgemm_case.unsupported(state, three);
    if (!reason) reason = sgemm_case.unsupported(state, tf32);
    if (reason) {
        printf("%s, %s skipped: %s\n", pair->three, pair->single, reason);
        sgemm_case.destroy(state);
        return 0;
    }
    /* The comparisons with cuBLAS need it: without (LADDER_SKIP_BASELINES),
     * only the odd shapes below; under a sanitizer too (they measure
     * rounding, which a sanitizer does not check, at K = 4096). */
    for (uint64_t seed = 1; seed <= 3 && !ladder_skip_baselines() && !ladder_under_sanitizer(); ++seed) {
        ladder_check base = ladder_validate_variant(&sgemm_case, state, cublas, seed);
        ladder_check split = ladder_validate_variant(&sgemm_case, state, three, seed);
        ladder_check single = ladder_validate_variant(&sgemm_case, state, tf32, seed);
        ladder_check library_single = ladder_validate_variant(&sgemm_case, state, cublas_tf32, seed);
        printf("seed %llu: cuBLAS FP32 %.2e, %s %.2e (%.2fx), %s %.2e, cuBLAS TF32 %.2e (tolerance %.1e)\n",
               (unsigned long long)seed, base.rel_error, pair->three, split.rel_error, split.rel_error / base.rel_error,
               pair->single, single.rel_error, library_single.rel_error, single.tolerance);
        EXPECT(base.passed && split.passed && single.passed && library_single.passed);
        EXPECT(split.rel_error < pair->worst_ratio_to_cublas * base.rel_error);
        EXPECT(single.rel_error > 10 * base.rel_error);
    }
    sgemm_case.destroy(state);

    const char *odd[] = {"1x4095x1000",  "4095x1x1000", "1000x1000x1000", "257x4095x33",
                         "129x68x4095", "200x4096x4", "4097x2300x37"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; ++i) {
        EXPECT(ladder_parse_size(odd[i], &size, err, sizeof err) == 0);
        state = sgemm_case.create(&size, &status, err, sizeof err);
        if (!state) ladder_die("sgemm %s: %s", odd[i], err);
        for (int draw = 0; draw < ladder_validation_draws(); ++draw) {
            ladder_check s3 = ladder_validate_variant(&sgemm_case, state, three, 100 + i * 2 + draw);
            ladder_check s1 = ladder_validate_variant(&sgemm_case, state, tf32, 200 + i * 2 + draw);
            printf("%-16s %s %.2e (tolerance %.1e) %s, %s %.2e (tolerance %.1e) %s\n", odd[i], pair->three,
                   s3.rel_error, s3.tolerance, s3.passed ? "ok" : "FAIL", pair->single, s1.rel_error, s1.tolerance,
                   s1.passed ? "ok" : "FAIL");
            EXPECT(s3.passed && s1.passed);
        }
        sgemm_case.destroy(state);
    }
    return 1;
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    int ran = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) ran += test_pair(&pairs[i]);
    if (!ran) return LADDER_EXIT_SKIP_TEST;
    return test_result("sgemm_gpu_test");
}
