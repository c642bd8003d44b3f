/* GPU test of the tensor-core rungs' accuracy: on the same inputs, 3xtf32's
 * error against the double reference is at most twice cuBLAS FP32's, and
 * tf32's and cuBLAS TF32's are the TF32 error (far above both, within
 * their own tolerance), at
 * K = 4096 (the error grows with K) on 1024 x 1024 outputs, three draws.
 * Then both rungs at odd shapes beyond gpu_validate's test sizes (1 x N,
 * N x 1, odd K, the 4-byte copy path and the 16-byte one), two draws each.
 * Exits 77 without a GPU, or where the rungs are unsupported. */
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

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    char err[512];
    ladder_size size;
    ladder_status status;
    EXPECT(ladder_parse_size("1024x1024x4096", &size, err, sizeof err) == 0);
    void *state = sgemm_case.create(&size, &status, err, sizeof err);
    if (!state) ladder_die("sgemm 1024x1024x4096: %s", err);
    const ladder_variant *cublas = variant("cublas"), *three = variant("3xtf32"), *tf32 = variant("tf32");
    const ladder_variant *cublas_tf32 = variant("cublas_tf32");
    const char *reason = sgemm_case.unsupported(state, three);
    if (!reason) reason = sgemm_case.unsupported(state, tf32);
    if (reason) {
        printf("skipped: %s\n", reason);
        sgemm_case.destroy(state);
        return LADDER_EXIT_SKIP_TEST;
    }
    /* The comparisons with cuBLAS need it: without (LADDER_SKIP_BASELINES),
     * only the odd shapes below. */
    for (uint64_t seed = 1; seed <= 3 && !ladder_skip_baselines(); ++seed) {
        ladder_check base = ladder_validate_variant(&sgemm_case, state, cublas, seed);
        ladder_check split = ladder_validate_variant(&sgemm_case, state, three, seed);
        ladder_check single = ladder_validate_variant(&sgemm_case, state, tf32, seed);
        ladder_check library_single = ladder_validate_variant(&sgemm_case, state, cublas_tf32, seed);
        printf("seed %llu: cuBLAS FP32 %.2e, 3xtf32 %.2e (%.2fx), tf32 %.2e, cuBLAS TF32 %.2e (tolerance %.1e)\n",
               (unsigned long long)seed, base.rel_error, split.rel_error, split.rel_error / base.rel_error,
               single.rel_error, library_single.rel_error, single.tolerance);
        EXPECT(base.passed && split.passed && single.passed && library_single.passed);
        EXPECT(split.rel_error <= 2 * base.rel_error);
        EXPECT(single.rel_error > 10 * base.rel_error);
    }
    sgemm_case.destroy(state);

    const char *odd[] = {"1x4095x1000", "4095x1x1000", "1000x1000x1000", "257x4095x33", "129x68x4095", "200x4096x4"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; ++i) {
        EXPECT(ladder_parse_size(odd[i], &size, err, sizeof err) == 0);
        state = sgemm_case.create(&size, &status, err, sizeof err);
        if (!state) ladder_die("sgemm %s: %s", odd[i], err);
        for (int draw = 0; draw < 2; ++draw) {
            ladder_check s3 = ladder_validate_variant(&sgemm_case, state, three, 100 + i * 2 + draw);
            ladder_check s1 = ladder_validate_variant(&sgemm_case, state, tf32, 200 + i * 2 + draw);
            printf("%-16s 3xtf32 %.2e (tolerance %.1e) %s, tf32 %.2e (tolerance %.1e) %s\n", odd[i], s3.rel_error,
                   s3.tolerance, s3.passed ? "ok" : "FAIL", s1.rel_error, s1.tolerance, s1.passed ? "ok" : "FAIL");
            EXPECT(s3.passed && s1.passed);
        }
        sgemm_case.destroy(state);
    }
    return test_result("sgemm_gpu_test");
}
