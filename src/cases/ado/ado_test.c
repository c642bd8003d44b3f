/* CPU tests of the ADO case: the reference on a hand-checked example and
 * against the definition, serial against OpenMP, and the tolerance against a
 * float computation in the GPU rungs' order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ado.h"
#include "harness/check/rng.h"
#include "harness/check/validate.h"
#include "harness/testing/test_util.h"

static void test_hand_example(void)
{
    /* Rows (1, 2, 3) and (4, 5, 6): means 2 and 5; [[1, 2], [3, 4]] times
     * (2, 5) is (12, 26). */
    const float dataset[] = {1, 2, 3, 4, 5, 6};
    const float matrix[] = {1, 2, 3, 4};
    double means[2], out[4] = {-1, -1, -1, -1};
    ado_reference_dataset(dataset, matrix, 2, 3, means, out, 2);
    expect(means[0] == 2 && means[1] == 5, "reference: row means of (1,2,3), (4,5,6) are 2, 5");
    expect(out[0] == 12 && out[2] == 26 && out[1] == -1 && out[3] == -1,
           "reference: [[1,2],[3,4]] (2,5) = (12, 26), written with stride 2");
}

/* The workload straight from its definition, every index spelled out. */
static double definition(const float *input, const float *matrix, int L, int M, int k, int i)
{
    double total = 0;
    for (int j = 0; j < L; ++j) {
        double mean = 0;
        for (int c = 0; c < M; ++c) mean += input[(size_t)k * M * L + (size_t)j * M + c];
        total += matrix[(size_t)i * L + j] * (mean / M);
    }
    return total;
}

static void test_against_definition(void)
{
    const int L = 5, M = 7, N = 3;
    float input[5 * 7 * 3], matrix[5 * 5], serial[5 * 3], parallel[5 * 3];
    ladder_fill_uniform(input, sizeof input / sizeof input[0], 3, 1.0f, 2.0f);
    ladder_fill_uniform(matrix, sizeof matrix / sizeof matrix[0], 4, 0.5f, 1.5f);
    ado_cpu(input, matrix, L, M, N, serial, 1);
    ado_cpu(input, matrix, L, M, N, parallel, 0);
    double worst = 0;
    for (int i = 0; i < L; ++i)
        for (int k = 0; k < N; ++k) {
            double want = definition(input, matrix, L, M, k, i);
            worst = fmax(worst, fabs(serial[i * N + k] - want) / want);
        }
    expect(worst < 1e-7, "cpu: out[i*N + k] matches the definition for L=5, M=7, N=3 (float rounding)");
    expect(memcmp(serial, parallel, sizeof serial) == 0, "cpu: serial and OpenMP give the same bits");
}

/* The GPU rungs compute in float: row sums in 32 lanes then a shuffle tree,
 * products in 1024 strided shares then a tree. The same order on the CPU, at
 * L = M = 1024, must sit well inside ladder_fp32_tolerance(M + L). */
static void test_tolerance(void)
{
    const int L = 1024, M = 1024, N = 2;
    float *input = malloc((size_t)L * M * N * sizeof(float)), *matrix = malloc((size_t)L * L * sizeof(float));
    float *out = malloc((size_t)L * N * sizeof(float)), means[1024];
    double *reference = malloc((size_t)L * N * sizeof(double)), scratch[1024];
    ladder_fill_uniform(input, (size_t)L * M * N, 5, 1.0f, 2.0f);
    ladder_fill_uniform(matrix, (size_t)L * L, 6, 0.5f, 1.5f);
    for (int k = 0; k < N; ++k) {
        ado_reference_dataset(input + (size_t)k * L * M, matrix, L, M, scratch, reference + k, N);
        for (int j = 0; j < L; ++j) {
            float lanes[32] = {0};
            for (int i = 0; i < M; ++i) lanes[i % 32] += input[(size_t)k * L * M + (size_t)j * M + i];
            for (int width = 16; width > 0; width /= 2)
                for (int lane = 0; lane < width; ++lane) lanes[lane] += lanes[lane + width];
            means[j] = lanes[0] / M;
        }
        for (int i = 0; i < L; ++i) {
            float share[1024];
            for (int j = 0; j < L; ++j) share[j] = matrix[(size_t)i * L + j] * means[j];
            for (int width = 512; width > 0; width /= 2)
                for (int t = 0; t < width; ++t) share[t] += share[t + width];
            out[(size_t)i * N + k] = share[0];
        }
    }
    double tolerance = ladder_fp32_tolerance(M + L);
    ladder_check c = ladder_compare_f32_f64(out, reference, (size_t)L * N, tolerance);
    printf("  float model at 1024x1024x2: relative error %.2e, tolerance %.2e\n", c.rel_error, tolerance);
    expect(c.passed && c.rel_error < tolerance / 4, "tolerance: the GPU summation order in float is well inside it");

    out[(size_t)3 * N + 1] *= 1.0f + 1.0f / L; /* one product term too many in one output */
    out[(size_t)7 * N + 0] *= 1.0f - 1.0f / L;
    c = ladder_compare_f32_f64(out, reference, (size_t)L * N, tolerance);
    expect(!c.passed, "tolerance: two outputs off by one term in 1024 are caught");
    free(input), free(matrix), free(out), free(reference);
}

int main(void)
{
    test_hand_example();
    test_against_definition();
    test_tolerance();
    printf("ado_test: %d failed\n", test_failures);
    return test_failures ? 1 : 0;
}
