#include "tensor_map.h"

#include <cudaTypedefs.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

int ladder_tensor_map(CUtensorMap *map, CUtensorMapDataType type, int rank, const void *base, const uint64_t *dims,
                      const uint64_t *strides_bytes, const uint32_t *box, CUtensorMapSwizzle swizzle,
                      CUtensorMapL2promotion promotion, char *err, size_t err_len)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode;
    if (rank < 1 || rank > 5) {
        snprintf(err, err_len, "a tensor map has 1 to 5 dimensions, not %d", rank);
        return -1;
    }
    if (!encode) {
        void *entry = NULL;
        enum cudaDriverEntryPointQueryResult found;
        cudaError_t e =
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &found);
        if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !entry) {
            snprintf(err, err_len, "the driver has no cuTensorMapEncodeTiled (%s)", cudaGetErrorString(e));
            return -1;
        }
        encode = (PFN_cuTensorMapEncodeTiled_v12000)entry;
    }
    cuuint64_t map_dims[5], map_strides[4];
    cuuint32_t map_box[5], element_strides[5];
    for (int i = 0; i < rank; ++i) {
        map_dims[i] = dims[i];
        map_box[i] = box[i];
        element_strides[i] = 1;
        if (i + 1 < rank) map_strides[i] = strides_bytes[i];
    }
    CUresult r = encode(map, type, (cuuint32_t)rank, (void *)base, map_dims, map_strides, map_box, element_strides,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, promotion,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        int n = snprintf(err, err_len, "cuTensorMapEncodeTiled failed (CUresult %d) for a", (int)r);
        for (int i = rank - 1; i >= 0 && n > 0 && (size_t)n < err_len; --i)
            n += snprintf(err + n, err_len - (size_t)n, "%s%llu", i == rank - 1 ? " " : " x ",
                          (unsigned long long)dims[i]);
        if (n > 0 && (size_t)n < err_len) snprintf(err + n, err_len - (size_t)n, " tensor, box %u", box[0]);
        return -1;
    }
    return 0;
}
