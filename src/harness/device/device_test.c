/* The FP32 lane table behind the theoretical peak: one entry per generation. */
#include <string.h>

#include "device.h"
#include "harness/testing/test_util.h"

int main(void)
{
    EXPECT(ladder_fp32_lanes_per_sm(7, 5) == 64);  /* Turing */
    EXPECT(ladder_fp32_lanes_per_sm(8, 0) == 64);  /* A100 */
    EXPECT(ladder_fp32_lanes_per_sm(8, 6) == 128); /* GA10x */
    EXPECT(ladder_fp32_lanes_per_sm(8, 9) == 128); /* Ada */
    EXPECT(ladder_fp32_lanes_per_sm(9, 0) == 128); /* Hopper */
    EXPECT(ladder_fp32_lanes_per_sm(12, 0) == 128);
    EXPECT(ladder_fp32_lanes_per_sm(3, 5) == 0);   /* unknown: no made-up peak */

    /* Dense BF16 tensor FLOP per clock per SM: H100 SXM, 132 SMs at
     * 1.98 GHz, is 1070 TFLOP/s; no BF16 before 8.0. */
    EXPECT(ladder_bf16_tensor_flops_per_clock(9, 0) == 4096);
    EXPECT_NEAR(132 * 4096 * 1.98e9 / 1e12, 1070.5, 0.1);
    EXPECT(ladder_bf16_tensor_flops_per_clock(8, 0) == 2048);
    EXPECT(ladder_bf16_tensor_flops_per_clock(8, 9) == 1024);
    EXPECT(ladder_bf16_tensor_flops_per_clock(7, 5) == 0);

    /* cuBLAS BF16 is measured before the tensor kernel heats the card, in
     * each of several rounds (each ceiling the best of its rounds). */
    EXPECT(LADDER_TENSOR_CEILINGS == 2 && LADDER_TENSOR_ROUNDS >= 2);
    EXPECT(strcmp(ladder_tensor_ceiling_order[0], "cublas_bf16_gflops") == 0);
    EXPECT(strcmp(ladder_tensor_ceiling_order[1], "tensor_bf16_gflops") == 0);

    /* The ridge point is FMA rate over the better bandwidth ceiling. */
    ladder_device d = {0};
    d.ceilings.memcpy_gbps = 3000;
    d.ceilings.copy_kernel_gbps = 2500;
    d.ceilings.fma_gflops = 60000;
    EXPECT_NEAR(ladder_bandwidth_ceiling(&d), 3000, 0);
    EXPECT_NEAR(ladder_ridge_point(&d), 20, 1e-12);
    return test_result("device_test");
}
