/* GPU test: the shipped Matrix Market files through the case (every
 * variant, several draws: the adaptive rung's arrival counters must be
 * reset by each launch for the next), and the check catches a kernel that
 * leaves the last row unwritten. Exits 77 without a GPU. */
#include <stdio.h>
#include <string.h>

#include "../harness/check.h"
#include "../harness/device.h"
#include "../harness/runner.h"
#include "../harness/test_util.h"
#include "spmv.h"

extern const ladder_case spmv_case;

/* The vector rung, then the last row poisoned again. */
static void skips_last_row(const spmv_matrix *a, const spmv_plan *plan, const float *x, float *y, int param,
                           cudaStream_t stream)
{
    spmv_vector(a, plan, x, y, param, stream);
    CUDA_CHECK(cudaMemsetAsync(y + a->rows - 1, 0xFF, sizeof(float), stream));
}

int main(void)
{
    ladder_device device;
    char err[512];
    if (ladder_device_open(0, &device, err, sizeof err) != 0) {
        printf("skipped: %s\n", err);
        return LADDER_EXIT_SKIP_TEST;
    }
    char root[4096];
    snprintf(root, sizeof root, "%s", __FILE__);
    char *cut = strstr(root, "src/cases/spmv_gpu_test.c");
    if (cut) *cut = '\0';
    const char *files[] = {"general_real_97x89.mtx", "symmetric_pattern_1500.mtx"};
    const ladder_variant broken = {"skips_last_row", "", (ladder_impl)skips_last_row, 0, 0};
    for (int f = 0; f < 2; ++f) {
        char path[4200];
        snprintf(path, sizeof path, "%stests/matrices/%s", root, files[f]);
        ladder_size size = {.count = 1, .dim = {1}, .form = "file", .input = path};
        ladder_status status;
        void *state = spmv_case.create(&size, &status, err, sizeof err);
        EXPECTF(state != NULL, "%s", err);
        if (!state) continue;
        for (int i = 0; i < spmv_case.variant_count; ++i)
            for (uint64_t draw = 0; draw < 3; ++draw) {
                ladder_check c = ladder_validate_variant(&spmv_case, state, &spmv_case.variants[i], 100 * i + draw);
                printf("%s %-20s error %.2e (tolerance %.1e) %s\n", files[f], spmv_case.variants[i].name, c.rel_error,
                       c.tolerance, c.passed ? "ok" : "FAIL");
                EXPECT(c.passed);
            }
        ladder_check c = ladder_validate_variant(&spmv_case, state, &broken, 7);
        EXPECTF(!c.passed && c.nonfinite == 1, "%s: a skipped last row was not caught", files[f]);
        spmv_case.destroy(state);
    }
    ladder_size missing = {.count = 1, .dim = {1}, .form = "file", .input = "/nonexistent.mtx"};
    ladder_status status;
    EXPECT(spmv_case.create(&missing, &status, err, sizeof err) == NULL && status == LADDER_BAD_SIZE);
    return test_result("spmv_gpu_test");
}
