#!/bin/sh
# hgemm's tensor-core kernels in machine code (harness/hardware/sass_check.sh): the
# wgmma kernels contain HGMMA, the mma.sync and WMMA kernels HMMA, none of
# them LDL or STL. Usage: hgemm_sass_test.sh path/to/ladder [path/to/cuobjdump]
. "$(dirname "$0")/../../harness/hardware/sass_check.sh"
require_sm90
expect sm_90 'wmma_(global|shared)_kernel' HMMA
expect sm_90 'mma_(ldmatrix|async_pipeline)_kernel' HMMA
expect sm_90 'gemv_mma_kernel' HMMA
expect sm_90 '^_Z[0-9]+mma_bf16_throughput' HMMA
if have_sm90a; then
    expect sm_90a 'tma_mma_kernel' HMMA
    expect sm_90a '(wgmma_kernel|warp_specialized_kernel|wgmma_bf16_throughput)' HGMMA
fi
sass_check_done hgemm_sass_test
