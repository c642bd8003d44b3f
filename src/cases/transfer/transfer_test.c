/* CPU tests of the transfer case: the closed form that checks the pipeline
 * kernel (the fit and the byte comparison are tested in
 * src/harness/sweep_test.c). */
#include <math.h>

#include "harness/testing/test_util.h"
#include "transfer.h"

static void test_fma_chain_reference(void)
{
    enum { N = 1000, FMAS = 2048 };
    const float step = 1.0f / 4096.0f;
    static float in[N], out[N];
    for (int i = 0; i < N; ++i) {
        in[i] = 1.0f + (float)i / N + ldexpf(1.0f, -23); /* odd low bits: the crossing of 2 rounds */
        float x = in[i];
        for (int k = 0; k < FMAS; ++k) x = fmaf(x, 1.0f, step);
        out[i] = x;
    }
    /* The chain as the kernel computes it passes the closed form. */
    ladder_check c = transfer_check_fma_chain(in, out, N, FMAS, step);
    EXPECTF(c.passed, "error %g, tolerance %g", c.rel_error, c.tolerance);

    /* One step short fails; so does a chunk taken from the wrong place. */
    for (int i = 0; i < N; ++i) out[i] -= step;
    EXPECT(!transfer_check_fma_chain(in, out, N, FMAS, step).passed);
    for (int i = 0; i < N; ++i) out[i] += step;
    float saved = out[10];
    out[10] = out[900];
    EXPECT(!transfer_check_fma_chain(in, out, N, FMAS, step).passed);
    out[10] = saved;

    /* An unwritten element fails and is counted. */
    out[N - 1] = NAN;
    c = transfer_check_fma_chain(in, out, N, FMAS, step);
    EXPECT(!c.passed && c.nonfinite == 1);
}

int main(void)
{
    test_fma_chain_reference();
    return test_result("transfer_test");
}
