/* GPU test: the harness's validation must catch kernels that are wrong in the
 * ways real kernels go wrong: one that skips the last row (the poison must
 * show through) and one that writes nothing. Exits 77 without a GPU. */
#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "transpose.h"

extern const ladder_case transpose_case;

static float *scratch;

/* Correct transpose into scratch, then all of it but the last output row. */
static void skips_last_row(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    transpose_tiled_padded(in, scratch, rows, cols, stream);
    CUDA_CHECK(cudaMemcpyAsync(out, scratch, (size_t)(cols - 1) * rows * sizeof(float), cudaMemcpyDeviceToDevice,
                               stream));
}

static void writes_nothing(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    (void)in, (void)out, (void)rows, (void)cols, (void)stream;
}

static void transposes_a_copy(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    transpose_copy(in, out, rows, cols, stream);
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    char err[512];
    const ladder_variant broken[] = {
        {"skips_last_row", "", (ladder_impl)skips_last_row, 0, 0},
        {"writes_nothing", "", (ladder_impl)writes_nothing, 0, 0},
        {"copy_not_transpose", "", (ladder_impl)transposes_a_copy, 0, 0},
    };
    const ladder_variant *correct = &transpose_case.variants[ladder_find_variant(&transpose_case, "tiled_padded")];
    const char *sizes[] = {"97x45", "64x64"};
    for (int s = 0; s < 2; ++s) {
        ladder_size size;
        ladder_status status;
        EXPECT(ladder_parse_size(sizes[s], &size, err, sizeof err) == 0);
        void *state = transpose_case.create(&size, &status, err, sizeof err);
        EXPECT(state != NULL);
        CUDA_CHECK(cudaMalloc((void **)&scratch, (size_t)size.dim[0] * size.dim[1] * sizeof(float)));
        for (int i = 0; i < 3; ++i) {
            ladder_check c = ladder_validate_variant(&transpose_case, state, &broken[i], 7);
            printf("%s %s: error %.2e, %zu non-finite: %s\n", sizes[s], broken[i].name, c.rel_error, c.nonfinite,
                   c.passed ? "passed (wrong!)" : "caught");
            EXPECT(!c.passed);
        }
        size_t last_row = (size_t)size.dim[0];
        ladder_check skipped = ladder_validate_variant(&transpose_case, state, &broken[0], 8);
        EXPECT(skipped.nonfinite == last_row); /* exactly the unwritten row shows as NaN */
        /* The same state still validates a correct kernel afterwards. */
        EXPECT(ladder_validate_variant(&transpose_case, state, correct, 9).passed);
        CUDA_CHECK(cudaFree(scratch));
        transpose_case.destroy(state);
    }
    return test_result("transpose_gpu_test");
}
