/* CPU tests of the smem reverse case: the exact check accepts a reversal and
 * nothing else, and the kernels' index arithmetic (block windows, the last
 * partial block, the carved writer's slot order), replayed on the host,
 * reverses every length. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "smem.h"
#include "harness/testing/test_util.h"

static void test_check_accepts_only_a_reversal(void)
{
    printf("check: {1,2,3,4,5} -> {5,4,3,2,1} passes; a swap, a NaN, a copy fail\n");
    const float in[5] = {1, 2, 3, 4, 5};
    float out[5] = {5, 4, 3, 2, 1};
    ladder_check c = smem_reverse_check_host(in, out, 5);
    EXPECTF(c.passed && c.rel_error == 0, "exact reversal rejected (error %g)", c.rel_error);
    out[1] = 3, out[2] = 4;
    EXPECTF(!smem_reverse_check_host(in, out, 5).passed, "swapped pair accepted");
    out[1] = 4, out[2] = 3, out[4] = NAN;
    c = smem_reverse_check_host(in, out, 5);
    EXPECTF(!c.passed && c.nonfinite == 1, "NaN accepted");
    EXPECTF(!smem_reverse_check_host(in, in, 5).passed, "a copy accepted as a reversal");
    const float one = 7;
    EXPECTF(smem_reverse_check_host(&one, &one, 1).passed, "n = 1 is its own reversal");
}

/* The staged rungs: block b, thread t loads element b*B + t (if in range)
 * and stores staging[count - 1 - t] at n - first - count + t. */
static void replay_staged(const float *in, float *out, long long n, int block)
{
    for (long long first = 0; first < n; first += block) {
        int count = (int)(n - first < block ? n - first : block);
        float staging[512];
        for (int t = 0; t < count; ++t) staging[t] = in[first + t];
        for (int t = 0; t < count; ++t) out[n - first - count + t] = staging[count - 1 - t];
    }
}

/* The carved rung: slot t holds element first + t when in range; thread t
 * writes slot B - 1 - t to n - 1 - (first + source). */
static void replay_carved(const float *in, float *out, long long n, int block)
{
    for (long long first = 0; first < n; first += block) {
        double widened[512];
        int source[512];
        unsigned char in_range[512];
        for (int t = 0; t < block; ++t) {
            in_range[t] = first + t < n;
            if (in_range[t]) widened[t] = in[first + t], source[t] = t;
        }
        for (int t = 0; t < block; ++t) {
            int slot = block - 1 - t;
            if (in_range[slot]) out[n - 1 - (first + source[slot])] = (float)widened[slot];
        }
    }
}

static void test_index_arithmetic_reverses(void)
{
    printf("kernels' index arithmetic replayed on the host reverses n = 1..600 with blocks of 32 and 256\n");
    const int blocks[] = {32, 256};
    float *in = malloc(600 * sizeof(float)), *out = malloc(600 * sizeof(float));
    for (int b = 0; b < 2; ++b) {
        for (long long n = 1; n <= 600; ++n) {
            for (long long i = 0; i < n; ++i) in[i] = (float)(i + 1);
            for (long long i = 0; i < n; ++i) out[i] = NAN;
            replay_staged(in, out, n, blocks[b]);
            EXPECTF(smem_reverse_check_host(in, out, n).passed, "staged, n = %lld, block %d", n, blocks[b]);
            for (long long i = 0; i < n; ++i) out[i] = NAN;
            replay_carved(in, out, n, blocks[b]);
            EXPECTF(smem_reverse_check_host(in, out, n).passed, "carved, n = %lld, block %d", n, blocks[b]);
        }
    }
    free(in);
    free(out);
}

int main(void)
{
    test_check_accepts_only_a_reversal();
    test_index_arithmetic_reverses();
    printf(test_failures ? "smem_test: %d FAILED\n" : "smem_test: all passed\n", test_failures);
    return test_failures ? 1 : 0;
}
