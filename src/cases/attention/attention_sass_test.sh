#!/bin/sh
# attention's kernels in machine code (harness/hardware/sass_check.sh): the mma.sync
# rungs contain HMMA, the wgmma rungs (every instance of wgmma_ws_kernel)
# HGMMA, the fused FP32 rung FFMA, and none of them LDL or STL: the online
# softmax's score and accumulator arrays must stay in registers.
# Usage: attention_sass_test.sh path/to/ladder [path/to/cuobjdump]
. "$(dirname "$0")/../../harness/hardware/sass_check.sh"
require_sm90
expect sm_90 '^_Z[0-9]+mma(_async)?_kernelILi(64|128)EE' HMMA
expect sm_90 '^_Z[0-9]+fused_fp32_kernel' FFMA
if have_sm90a; then
    expect sm_90a 'wgmma_ws_kernel' HGMMA
fi
sass_check_done attention_sass_test
