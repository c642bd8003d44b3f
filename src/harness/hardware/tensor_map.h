/* Tensor maps for the tensor copy engine (TMA): the one place that finds the
 * driver's cuTensorMapEncodeTiled (through the runtime, so no -lcuda) and
 * fills a map. Every TMA rung's case (sgemm, hgemm, attention) encodes its
 * maps here, once per problem, when the buffers exist. */
#ifndef LADDER_TENSOR_MAP_H
#define LADDER_TENSOR_MAP_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A tiled map of a `rank`-dimensional tensor at `base` (device memory,
 * 16-byte aligned): dims[0] is the contiguous dimension, strides_bytes[i]
 * the distance between consecutive indices of dimension i + 1 (a multiple
 * of 16), box[i] the elements a copy moves along dimension i. Elements
 * outside dims arrive as zeros. `promotion`: how much L2 fetches around
 * each request (CU_TENSOR_MAP_L2_PROMOTION_L2_256B: the neighbouring line
 * too). Returns 0, or -1 with a one-line reason in err (no such driver
 * entry point, or a layout the engine refuses). */
int ladder_tensor_map(CUtensorMap *map, CUtensorMapDataType type, int rank, const void *base, const uint64_t *dims,
                      const uint64_t *strides_bytes, const uint32_t *box, CUtensorMapSwizzle swizzle,
                      CUtensorMapL2promotion promotion, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
