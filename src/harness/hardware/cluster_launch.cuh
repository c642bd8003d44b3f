/* Host side of the launchers (.cu files) whose kernels run in thread-block
 * clusters (sm_90): blocks side by side in x, `cluster` at a time, that can
 * write each other's shared memory and barriers (tensor_ptx.cuh: multicast
 * TMA, arrivals on a peer's mbarrier). A cluster's blocks must all fit in one
 * GPC, so fewer blocks may be resident than one per SM. */
#ifndef LADDER_CLUSTER_LAUNCH_CUH
#define LADDER_CLUSTER_LAUNCH_CUH

#include <cuda_runtime.h>

#include "harness/check/check.h"

/* `blocks` blocks of `threads` threads in clusters of `cluster`, for
 * cudaLaunchKernelEx; the attribute it points at is the caller's, and must
 * outlive the launch. cluster = 1: plain blocks, no attribute. A cluster
 * dimension of 1 is a cluster launch all the same, and costs: on an H200,
 * hgemm's split_k took 35.1 us at 256 x 256 x 65536 with it, 29.4 without;
 * persistent at 4095 x 4097 x 4093, 305 us against 285. */
static inline cudaLaunchConfig_t cluster_config(unsigned blocks, unsigned threads, size_t shared_bytes, int cluster,
                                                cudaLaunchAttribute *attribute, cudaStream_t stream)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = shared_bytes;
    config.stream = stream;
    attribute->id = cudaLaunchAttributeClusterDimension;
    attribute->val.clusterDim.x = cluster;
    attribute->val.clusterDim.y = attribute->val.clusterDim.z = 1;
    config.attrs = attribute;
    config.numAttrs = cluster > 1 ? 1 : 0;
    return config;
}

/* Blocks of KERNEL, launched as `config` (cluster > 1) says, that can be
 * resident at once in whole clusters (132 on an H200 in clusters of two,
 * 120 in clusters of four); 0 where not one cluster fits. The kernel's
 * shared memory must be allowed first (allow_shared_bytes). */
template <auto KERNEL>
static int resident_cluster_blocks(cudaLaunchConfig_t config)
{
    int clusters = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, KERNEL, &config));
    return clusters * (int)config.attrs[0].val.clusterDim.x;
}

#endif
