#!/bin/sh
# sgemm's tensor-core kernels in machine code (harness/hardware/sass_check.sh):
# the mma.sync rungs (tf32, 3xtf32) contain HMMA, the Hopper rungs
# (tf32_wgmma, 3xtf32_wgmma) HGMMA on TF32 operands; none of them LDL or STL.
# Usage: sgemm_sass_test.sh path/to/ladder [path/to/cuobjdump]
. "$(dirname "$0")/../../harness/hardware/sass_check.sh"
require_sm90
expect sm_90 '^_Z13tensor_kernel' 'HMMA\.1688\.F32\.TF32'
if have_sm90a; then
    expect sm_90a 'tf32_wgmma_kernel' 'HGMMA\.64x(128|256)x8\.F32\.TF32'
fi
sass_check_done sgemm_sass_test
