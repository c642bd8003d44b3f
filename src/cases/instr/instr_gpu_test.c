/* GPU test of the instr case: its checks catch the mistakes the ladder is
 * about (an intrinsic where the accurate function was promised, shift and
 * mask where signed division was meant, the wrong function, nothing
 * written), and on the device -use_fast_math's sinf is __sinf bit for bit
 * while x >> 4 parts from x / 16 on negative x. Exits 77 without a GPU. */
#include <stdlib.h>
#include <string.h>

#include "harness/check/check.h"
#include "harness/device/device.h"
#include "harness/testing/gpu_test.h"
#include "harness/run/runner.h"
#include "harness/testing/test_util.h"
#include "harness/measure/timing.h"
#include "instr.h"

extern const ladder_case instr_case;

static const ladder_variant *rung(const char *name)
{
    int index = ladder_find_variant(&instr_case, name);
    if (index < 0) ladder_die("instr has no rung %s", name);
    return &instr_case.variants[index];
}

static void writes_nothing(const instr_buffers *b, cudaStream_t stream) { (void)b, (void)stream; }

/* A rung's output region after one run on the state's current inputs. */
static void *run_and_read(void *state, const ladder_variant *v)
{
    ladder_output out = instr_case.output(state, v);
    CUDA_CHECK(cudaMemset(out.ptr, out.poison, out.bytes));
    instr_case.run(state, v, ladder_stream());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    void *host = ladder_host_alloc(out.bytes);
    CUDA_CHECK(cudaMemcpy(host, out.ptr, out.bytes, cudaMemcpyDeviceToHost));
    return host;
}

/* A variant that claims `claimed`'s contract but runs `impl`. */
static ladder_variant impostor(const char *claimed, ladder_impl impl)
{
    ladder_variant v = *rung(claimed);
    v.impl = impl;
    return v;
}

int main(void)
{
    ladder_device device;
    open_device_or_skip(&device);
    char err[512];
    ladder_size size;
    ladder_status status;
    EXPECT(ladder_parse_size("4099", &size, err, sizeof err) == 0);
    void *state = instr_case.create(&size, &status, err, sizeof err);
    if (!state) ladder_die("%s", err);
    long long n = size.dim[0];

    const ladder_variant wrong[] = {
        impostor("sinf", (ladder_impl)instr_sinf_intrinsic),    /* 2^-21.41 absolute is not 2 ulp near 0 */
        impostor("sinf", (ladder_impl)instr_cosf),              /* the wrong function */
        impostor("divide", (ladder_impl)instr_divide_intrinsic),/* 2 ulp is not correctly rounded */
        impostor("sdiv_constant", (ladder_impl)instr_sshift_mask),
        impostor("sshift_mask", (ladder_impl)instr_sdiv_constant),
        impostor("udiv_constant", (ladder_impl)instr_sdiv_constant),
        impostor("expf", (ladder_impl)writes_nothing),
        impostor("sdiv_runtime", (ladder_impl)writes_nothing),
        impostor("dot_unrolled", (ladder_impl)writes_nothing),
    };
    for (int i = 0; i < (int)(sizeof wrong / sizeof wrong[0]); ++i) {
        ladder_check c = ladder_validate_variant(&instr_case, state, &wrong[i], 11 + (uint64_t)i);
        printf("claims %-14s error %.2e, %zu non-finite: %s\n", wrong[i].name, c.rel_error, c.nonfinite,
               c.passed ? "passed (wrong!)" : "caught");
        EXPECT(!c.passed);
    }
    /* The same state still validates the real rungs afterwards. */
    EXPECT(ladder_validate_variant(&instr_case, state, rung("sinf_intrinsic"), 30).passed);
    EXPECT(ladder_validate_variant(&instr_case, state, rung("sdiv_constant"), 31).passed);

    /* -use_fast_math: sinf and cosf become __sinf and __cosf, bit for bit,
     * and no longer agree with the accurate functions. */
    instr_case.fill_inputs(state, 40);
    const char *pairs[][3] = {{"sinf_fast_math", "sinf_intrinsic", "sinf"}, {"cosf_fast_math", "cosf_intrinsic", "cosf"}};
    for (int p = 0; p < 2; ++p) {
        float *fast = run_and_read(state, rung(pairs[p][0]));
        float *intrinsic = run_and_read(state, rung(pairs[p][1]));
        float *accurate = run_and_read(state, rung(pairs[p][2]));
        EXPECTF(memcmp(fast, intrinsic, (size_t)n * sizeof(float)) == 0, "%s differs from %s", pairs[p][0],
                pairs[p][1]);
        long long differ = 0;
        for (long long i = 0; i < n; ++i) differ += fast[i] != accurate[i];
        EXPECTF(differ > n / 10, "%s equals %s on all but %lld of %lld", pairs[p][0], pairs[p][2], n - differ, n);
        free(fast);
        free(intrinsic);
        free(accurate);
    }

    /* The signed pitfall on the device: where x >> 4 and x / 16 differ, the
     * shift is one less and its mask 16 more, and that is about half of all
     * inputs (the negative ones that are not multiples of 16). */
    int32_t *shifted = run_and_read(state, rung("sshift_mask"));
    int32_t *divided = run_and_read(state, rung("sdiv_constant"));
    long long differ = 0;
    for (long long i = 0; i < n; ++i) {
        if (shifted[i] == divided[i]) continue;
        ++differ;
        EXPECT(shifted[i] == divided[i] - 1 && shifted[n + i] == divided[n + i] + INSTR_DIVISOR);
    }
    EXPECTF(differ > n * 4 / 10 && differ < n * 55 / 100, "%lld of %lld quotients differ", differ, n);
    free(shifted);
    free(divided);

    instr_case.destroy(state);
    return test_result("instr_gpu_test");
}
