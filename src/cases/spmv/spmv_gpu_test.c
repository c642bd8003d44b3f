/* GPU test: the shipped Matrix Market files through the case (every
 * variant, several draws: the adaptive rung's arrival counters must be
 * reset by each launch for the next), the check catches a kernel that
 * leaves the last row unwritten, and a block's window never adds the
 * entries before its task (with x[0] infinite, they would make NaN). Exits
 * 77 without a GPU. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "spmv.h"

extern const ladder_case spmv_case;

/* The vector rung, then the last row poisoned again. */
static void skips_last_row(const spmv_matrix *a, const spmv_plan *plan, const float *x, float *y, int param,
                           cudaStream_t stream)
{
    spmv_vector(a, plan, x, y, param, stream);
    CUDA_CHECK(cudaMemsetAsync(y + a->rows - 1, 0xFF, sizeof(float), stream));
}

/* Row 0: SHORT entries; row 1: LONG entries starting mid-line, so its
 * first chunk's window begins with row 0's entries. No entry is in column
 * 0, and x[0] is infinite: rung 3 gathers x[0] (times 0) for the entries
 * before the task, and they must stay out of row 1's sum. */
static void test_window_before_long_row(void)
{
    enum { SHORT = 5, LONG = SPMV_BLOCK_NNZ + 52, ROWS = 2, COLS = LONG + 1, NNZ = SHORT + LONG };
    const int row_ptr[ROWS + 1] = {0, SHORT, NNZ};
    static int col[NNZ];
    static float val[NNZ], x[COLS];
    for (int e = 0; e < NNZ; ++e) col[e] = 1 + (e < SHORT ? e : e - SHORT), val[e] = 1.0f;
    for (int c = 0; c < COLS; ++c) x[c] = c == 0 ? INFINITY : 1.0f;
    long long task_count = spmv_plan_tasks(row_ptr, ROWS, NULL);
    spmv_task tasks[8];
    EXPECT(task_count == 3 && spmv_plan_tasks(row_ptr, ROWS, tasks) == 3 && tasks[1].entry_begin == SHORT);

    int *d_row_ptr, *d_col;
    float *d_val, *d_x, *d_y, *partials;
    spmv_task *d_tasks;
    unsigned *arrivals;
    CUDA_CHECK(cudaMalloc((void **)&d_row_ptr, sizeof row_ptr));
    CUDA_CHECK(cudaMalloc((void **)&d_col, sizeof col));
    CUDA_CHECK(cudaMalloc((void **)&d_val, sizeof val));
    CUDA_CHECK(cudaMalloc((void **)&d_x, sizeof x));
    CUDA_CHECK(cudaMalloc((void **)&d_y, ROWS * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&d_tasks, sizeof tasks));
    CUDA_CHECK(cudaMalloc((void **)&partials, task_count * sizeof *partials));
    CUDA_CHECK(cudaMalloc((void **)&arrivals, task_count * sizeof *arrivals));
    CUDA_CHECK(cudaMemcpy(d_row_ptr, row_ptr, sizeof row_ptr, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_col, col, sizeof col, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_val, val, sizeof val, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_tasks, tasks, sizeof tasks, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(arrivals, 0, task_count * sizeof *arrivals));
    const spmv_matrix m = {ROWS, COLS, NNZ, d_row_ptr, d_col, d_val};
    const spmv_plan plan = {d_tasks, (int)task_count, partials, arrivals, NULL};
    for (int loads_first = 0; loads_first < 2; ++loads_first) {
        float y[ROWS];
        CUDA_CHECK(cudaMemset(d_y, 0xFF, sizeof y));
        spmv_adaptive(&m, &plan, d_x, d_y, loads_first, 0);
        CUDA_CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
        EXPECTF(y[0] == SHORT && y[1] == LONG, "adaptive (loads first %d): y = {%g, %g}, expected {%d, %d}",
                loads_first, y[0], y[1], SHORT, LONG);
    }
    void *allocations[] = {d_row_ptr, d_col, d_val, d_x, d_y, d_tasks, partials, arrivals};
    for (int i = 0; i < 8; ++i) CUDA_CHECK(cudaFree(allocations[i]));
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    char err[512];
    char root[4096];
    snprintf(root, sizeof root, "%s", __FILE__);
    char *cut = strstr(root, "src/cases/spmv/spmv_gpu_test.c");
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
    test_window_before_long_row();
    return test_result("spmv_gpu_test");
}
