/* Matrix transpose (SPEC §4): out (cols x rows) = transpose of in (rows x cols),
 * both row-major floats. Every launcher takes any rows and cols >= 1. */
#ifndef LADDER_TRANSPOSE_H
#define LADDER_TRANSPOSE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void transpose_launcher(const float *in, float *out, int rows, int cols, cudaStream_t stream);

/* The copy rungs write out = in (rows x cols): the bandwidth of the same access
 * shape without the transposition. */
transpose_launcher transpose_copy;
transpose_launcher transpose_copy_shared;
transpose_launcher transpose_naive;
transpose_launcher transpose_tiled;
transpose_launcher transpose_tiled_padded;
transpose_launcher transpose_diagonal;
transpose_launcher transpose_column_order;
transpose_launcher transpose_wide_tile;
transpose_launcher transpose_wide_rows;

#ifndef __CUDACC__
#include "harness/case.h"
/* Compare out with in: transposed (out is cols x rows) or, for the copy
 * rungs, copied. Exact: any difference fails. */
ladder_check transpose_check_host(const float *in, const float *out, long long rows, long long cols, int copied);
#endif

/* Largest rows (or cols) the 2D grids can cover. */
#define TRANSPOSE_MAX_DIM (65535 * 32)

#ifdef __cplusplus
}
#endif

#endif
