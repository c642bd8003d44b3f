/* The coalescing study (SPEC §2), one table of sweeps: (a) copies shifted by
 * 0..32 elements, (b) copies reading every stride-th element, both in float
 * and double; (c) the classic add-one with its four G80 access patterns, on
 * DRAM and on an L2-resident window; (d) three layouts of float3 points.
 * Every row moves n floats' worth of useful bytes (read once, written once),
 * so GB/s is useful bandwidth and "speedup" is relative to the aligned float
 * copy, row 0: below 1 for every shape that wastes sectors. Baseline:
 * cudaMemcpy D2D of the same bytes. */
#include "coalescing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../harness/case.h"
#include "../harness/check.h"
#include "../harness/rng.h"
#include "../harness/validate.h"

static void memcpy_baseline(const float *in, float *out, long long n, int unused, cudaStream_t stream)
{
    (void)unused;
    CUDA_CHECK(cudaMemcpyAsync(out, in, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

#define SWEEP_POINT(name, fn, param, story) LADDER_RUNG(name, story, fn, param)
#define RUNG(name, fn, param, story) LADDER_RUNG(name, story, fn, param)

static const ladder_variant coalescing_variants[] = {
    /* (a) offsets, float then double; (b) strides, float then double. */
    SWEEP_POINT("offset_f32_0", coalescing_copy_offset_f32, 0,
                "reference: each warp reads and writes 128 aligned bytes, the 4 sectors of one line"),
    SWEEP_POINT("offset_f32_1", coalescing_copy_offset_f32, 1,
                "shifted 4 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_2", coalescing_copy_offset_f32, 2,
                "shifted 8 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_3", coalescing_copy_offset_f32, 3,
                "shifted 12 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_4", coalescing_copy_offset_f32, 4,
                "shifted 16 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_5", coalescing_copy_offset_f32, 5,
                "shifted 20 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_6", coalescing_copy_offset_f32, 6,
                "shifted 24 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_7", coalescing_copy_offset_f32, 7,
                "shifted 28 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_8", coalescing_copy_offset_f32, 8,
                "shifted 32 B, whole sectors: 4 sectors over 2 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f32_9", coalescing_copy_offset_f32, 9,
                "shifted 36 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_10", coalescing_copy_offset_f32, 10,
                "shifted 40 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_11", coalescing_copy_offset_f32, 11,
                "shifted 44 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_12", coalescing_copy_offset_f32, 12,
                "shifted 48 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_13", coalescing_copy_offset_f32, 13,
                "shifted 52 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_14", coalescing_copy_offset_f32, 14,
                "shifted 56 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_15", coalescing_copy_offset_f32, 15,
                "shifted 60 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_16", coalescing_copy_offset_f32, 16,
                "shifted 64 B, whole sectors: 4 sectors over 2 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f32_17", coalescing_copy_offset_f32, 17,
                "shifted 68 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_18", coalescing_copy_offset_f32, 18,
                "shifted 72 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_19", coalescing_copy_offset_f32, 19,
                "shifted 76 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_20", coalescing_copy_offset_f32, 20,
                "shifted 80 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_21", coalescing_copy_offset_f32, 21,
                "shifted 84 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_22", coalescing_copy_offset_f32, 22,
                "shifted 88 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_23", coalescing_copy_offset_f32, 23,
                "shifted 92 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_24", coalescing_copy_offset_f32, 24,
                "shifted 96 B, whole sectors: 4 sectors over 2 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f32_25", coalescing_copy_offset_f32, 25,
                "shifted 100 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_26", coalescing_copy_offset_f32, 26,
                "shifted 104 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_27", coalescing_copy_offset_f32, 27,
                "shifted 108 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_28", coalescing_copy_offset_f32, 28,
                "shifted 112 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_29", coalescing_copy_offset_f32, 29,
                "shifted 116 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_30", coalescing_copy_offset_f32, 30,
                "shifted 120 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_31", coalescing_copy_offset_f32, 31,
                "shifted 124 B: 5 sectors over 2 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f32_32", coalescing_copy_offset_f32, 32,
                "shifted 128 B, a whole line: the same access shape as offset 0"),
    SWEEP_POINT("offset_f64_0", coalescing_copy_offset_f64, 0,
                "8-byte elements: each warp moves 256 aligned bytes, 8 sectors of 2 lines: expected as offset_f32_0"),
    SWEEP_POINT("offset_f64_1", coalescing_copy_offset_f64, 1,
                "shifted 8 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_2", coalescing_copy_offset_f64, 2,
                "shifted 16 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_3", coalescing_copy_offset_f64, 3,
                "shifted 24 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_4", coalescing_copy_offset_f64, 4,
                "shifted 32 B, whole sectors: 8 sectors over 3 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f64_5", coalescing_copy_offset_f64, 5,
                "shifted 40 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_6", coalescing_copy_offset_f64, 6,
                "shifted 48 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_7", coalescing_copy_offset_f64, 7,
                "shifted 56 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_8", coalescing_copy_offset_f64, 8,
                "shifted 64 B, whole sectors: 8 sectors over 3 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f64_9", coalescing_copy_offset_f64, 9,
                "shifted 72 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_10", coalescing_copy_offset_f64, 10,
                "shifted 80 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_11", coalescing_copy_offset_f64, 11,
                "shifted 88 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_12", coalescing_copy_offset_f64, 12,
                "shifted 96 B, whole sectors: 8 sectors over 3 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f64_13", coalescing_copy_offset_f64, 13,
                "shifted 104 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_14", coalescing_copy_offset_f64, 14,
                "shifted 112 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_15", coalescing_copy_offset_f64, 15,
                "shifted 120 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_16", coalescing_copy_offset_f64, 16,
                "shifted 128 B, whole lines: the same access shape as offset 0"),
    SWEEP_POINT("offset_f64_17", coalescing_copy_offset_f64, 17,
                "shifted 136 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_18", coalescing_copy_offset_f64, 18,
                "shifted 144 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_19", coalescing_copy_offset_f64, 19,
                "shifted 152 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_20", coalescing_copy_offset_f64, 20,
                "shifted 160 B, whole sectors: 8 sectors over 3 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f64_21", coalescing_copy_offset_f64, 21,
                "shifted 168 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_22", coalescing_copy_offset_f64, 22,
                "shifted 176 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_23", coalescing_copy_offset_f64, 23,
                "shifted 184 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_24", coalescing_copy_offset_f64, 24,
                "shifted 192 B, whole sectors: 8 sectors over 3 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f64_25", coalescing_copy_offset_f64, 25,
                "shifted 200 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_26", coalescing_copy_offset_f64, 26,
                "shifted 208 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_27", coalescing_copy_offset_f64, 27,
                "shifted 216 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_28", coalescing_copy_offset_f64, 28,
                "shifted 224 B, whole sectors: 8 sectors over 3 lines per request, expected as offset 0"),
    SWEEP_POINT("offset_f64_29", coalescing_copy_offset_f64, 29,
                "shifted 232 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_30", coalescing_copy_offset_f64, 30,
                "shifted 240 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_31", coalescing_copy_offset_f64, 31,
                "shifted 248 B: 9 sectors over 3 lines per request, the extra one the next warp's: expected near offset 0"),
    SWEEP_POINT("offset_f64_32", coalescing_copy_offset_f64, 32,
                "shifted 256 B, whole lines: the same access shape as offset 0"),
    SWEEP_POINT("stride_f32_1", coalescing_copy_stride_f32, 1,
                "stride 1: the coalesced copy, reference of the stride sweep"),
    SWEEP_POINT("stride_f32_2", coalescing_copy_stride_f32, 2,
                "a warp's reads span 8 sectors for 4 of data: reads cost 2x, expected ~0.67x of stride 1"),
    SWEEP_POINT("stride_f32_3", coalescing_copy_stride_f32, 3,
                "a warp's reads span 12 sectors for 4 of data: reads cost 3x, expected ~0.50x of stride 1"),
    SWEEP_POINT("stride_f32_4", coalescing_copy_stride_f32, 4,
                "a warp's reads span 16 sectors for 4 of data: reads cost 4x, expected ~0.40x of stride 1"),
    SWEEP_POINT("stride_f32_5", coalescing_copy_stride_f32, 5,
                "a warp's reads span 20 sectors for 4 of data: reads cost 5x, expected ~0.33x of stride 1"),
    SWEEP_POINT("stride_f32_6", coalescing_copy_stride_f32, 6,
                "a warp's reads span 24 sectors for 4 of data: reads cost 6x, expected ~0.29x of stride 1"),
    SWEEP_POINT("stride_f32_7", coalescing_copy_stride_f32, 7,
                "a warp's reads span 28 sectors for 4 of data: reads cost 7x, expected ~0.25x of stride 1"),
    SWEEP_POINT("stride_f32_8", coalescing_copy_stride_f32, 8,
                "from here each float drags in its own sector (32 per warp): reads cost 8x, expected ~0.22x, then flat"),
    SWEEP_POINT("stride_f32_9", coalescing_copy_stride_f32, 9,
                "each float in its own sector, 36 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_10", coalescing_copy_stride_f32, 10,
                "each float in its own sector, 40 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_11", coalescing_copy_stride_f32, 11,
                "each float in its own sector, 44 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_12", coalescing_copy_stride_f32, 12,
                "each float in its own sector, 48 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_13", coalescing_copy_stride_f32, 13,
                "each float in its own sector, 52 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_14", coalescing_copy_stride_f32, 14,
                "each float in its own sector, 56 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_15", coalescing_copy_stride_f32, 15,
                "each float in its own sector, 60 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_16", coalescing_copy_stride_f32, 16,
                "each float in its own sector, 64 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_17", coalescing_copy_stride_f32, 17,
                "each float in its own sector, 68 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_18", coalescing_copy_stride_f32, 18,
                "each float in its own sector, 72 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_19", coalescing_copy_stride_f32, 19,
                "each float in its own sector, 76 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_20", coalescing_copy_stride_f32, 20,
                "each float in its own sector, 80 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_21", coalescing_copy_stride_f32, 21,
                "each float in its own sector, 84 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_22", coalescing_copy_stride_f32, 22,
                "each float in its own sector, 88 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_23", coalescing_copy_stride_f32, 23,
                "each float in its own sector, 92 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_24", coalescing_copy_stride_f32, 24,
                "each float in its own sector, 96 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_25", coalescing_copy_stride_f32, 25,
                "each float in its own sector, 100 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_26", coalescing_copy_stride_f32, 26,
                "each float in its own sector, 104 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_27", coalescing_copy_stride_f32, 27,
                "each float in its own sector, 108 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_28", coalescing_copy_stride_f32, 28,
                "each float in its own sector, 112 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_29", coalescing_copy_stride_f32, 29,
                "each float in its own sector, 116 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_30", coalescing_copy_stride_f32, 30,
                "each float in its own sector, 120 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_31", coalescing_copy_stride_f32, 31,
                "each float in its own sector, 124 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f32_32", coalescing_copy_stride_f32, 32,
                "each float in its own sector, 128 B apart: expected flat at ~0.22x of stride 1"),
    SWEEP_POINT("stride_f64_1", coalescing_copy_stride_f64, 1,
                "stride 1 double: coalesced, 256 B per warp; same useful bytes as the float copy"),
    SWEEP_POINT("stride_f64_2", coalescing_copy_stride_f64, 2,
                "a warp's reads span 16 sectors for 8 of data: reads cost 2x, expected ~0.67x of stride 1"),
    SWEEP_POINT("stride_f64_3", coalescing_copy_stride_f64, 3,
                "a warp's reads span 24 sectors for 8 of data: reads cost 3x, expected ~0.50x of stride 1"),
    SWEEP_POINT("stride_f64_4", coalescing_copy_stride_f64, 4,
                "from here each double drags in its own sector (32 per warp): reads cost 4x, expected ~0.40x, then flat"),
    SWEEP_POINT("stride_f64_5", coalescing_copy_stride_f64, 5,
                "each double in its own sector, 40 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_6", coalescing_copy_stride_f64, 6,
                "each double in its own sector, 48 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_7", coalescing_copy_stride_f64, 7,
                "each double in its own sector, 56 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_8", coalescing_copy_stride_f64, 8,
                "each double in its own sector, 64 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_9", coalescing_copy_stride_f64, 9,
                "each double in its own sector, 72 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_10", coalescing_copy_stride_f64, 10,
                "each double in its own sector, 80 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_11", coalescing_copy_stride_f64, 11,
                "each double in its own sector, 88 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_12", coalescing_copy_stride_f64, 12,
                "each double in its own sector, 96 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_13", coalescing_copy_stride_f64, 13,
                "each double in its own sector, 104 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_14", coalescing_copy_stride_f64, 14,
                "each double in its own sector, 112 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_15", coalescing_copy_stride_f64, 15,
                "each double in its own sector, 120 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_16", coalescing_copy_stride_f64, 16,
                "each double in its own sector, 128 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_17", coalescing_copy_stride_f64, 17,
                "each double in its own sector, 136 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_18", coalescing_copy_stride_f64, 18,
                "each double in its own sector, 144 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_19", coalescing_copy_stride_f64, 19,
                "each double in its own sector, 152 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_20", coalescing_copy_stride_f64, 20,
                "each double in its own sector, 160 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_21", coalescing_copy_stride_f64, 21,
                "each double in its own sector, 168 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_22", coalescing_copy_stride_f64, 22,
                "each double in its own sector, 176 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_23", coalescing_copy_stride_f64, 23,
                "each double in its own sector, 184 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_24", coalescing_copy_stride_f64, 24,
                "each double in its own sector, 192 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_25", coalescing_copy_stride_f64, 25,
                "each double in its own sector, 200 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_26", coalescing_copy_stride_f64, 26,
                "each double in its own sector, 208 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_27", coalescing_copy_stride_f64, 27,
                "each double in its own sector, 216 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_28", coalescing_copy_stride_f64, 28,
                "each double in its own sector, 224 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_29", coalescing_copy_stride_f64, 29,
                "each double in its own sector, 232 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_30", coalescing_copy_stride_f64, 30,
                "each double in its own sector, 240 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_31", coalescing_copy_stride_f64, 31,
                "each double in its own sector, 248 B apart: expected flat at ~0.40x of stride 1"),
    SWEEP_POINT("stride_f64_32", coalescing_copy_stride_f64, 32,
                "each double in its own sector, 256 B apart: expected flat at ~0.40x of stride 1"),
    /* (c) the classic add-one: G80 took 356 us coalesced, 357 us with idle
     * threads, about 3,500 us permuted or misaligned, on 3M floats. */
    RUNG("addone_coalesced", coalescing_add_one_coalesced, 1,
         "out[i] = in[i] + 1 (the G80 example, out of place): lane k on word k, 4 sectors per warp"),
    RUNG("addone_idle_lanes", coalescing_add_one_idle_lanes, 1,
         "lanes 24-31 idle, the rest contiguous: 96 B, 3 whole sectors per warp; only lanes wasted: expected as coalesced"),
    RUNG("addone_permuted", coalescing_add_one_permuted, 1,
         "lane k on word 13k mod 32: the same 4 sectors in another order; coalesced since Fermi: expected as coalesced"),
    RUNG("addone_misaligned", coalescing_add_one_misaligned, 1,
         "every access one float late: 5 sectors per warp, the extra one the next warp's: expected within a few %"),
    RUNG("l2_addone_coalesced", coalescing_add_one_coalesced, COALESCING_L2_PASSES,
         "L2-resident: add-one over n/8 floats (3M at the default size) 8 times in one launch: passes 2-8 hit L2"),
    RUNG("l2_addone_idle_lanes", coalescing_add_one_idle_lanes, COALESCING_L2_PASSES,
         "L2-resident, lanes 24-31 idle: 4/3 the warps for the same sectors"),
    RUNG("l2_addone_permuted", coalescing_add_one_permuted, COALESCING_L2_PASSES,
         "L2-resident, permuted within each warp: the same sectors per request"),
    RUNG("l2_addone_misaligned", coalescing_add_one_misaligned, COALESCING_L2_PASSES,
         "L2-resident, one float late: 5 sectors per 4 of data; with no DRAM to hide behind, expected to show"),
    /* (d) float3 points, one added to each component. */
    RUNG("aos_direct", coalescing_aos_direct, 0,
         "float3 array of structures: 3 loads 12 B apart per warp, each spanning 12 sectors; L1 serves the 2nd and 3rd"),
    RUNG("aos_staged", coalescing_aos_staged, 0,
         "the block's floats in as 3 coalesced scalar loads per thread, updated in shared memory, out the same way"),
    RUNG("soa", coalescing_soa, 0,
         "structure of arrays: x, y, z in three arrays, three coalesced loads and stores per thread"),
    RUNG("aos_float4_padded", coalescing_aos_float4, 0,
         "padded to float4: one 16-byte load and store per point, but 4/3 the bytes: expected ~0.75x of soa"),
    {"memcpy", "cudaMemcpy device to device of the same bytes", (ladder_impl)memcpy_baseline, 0, LADDER_BASELINE},
};

typedef struct coalescing_state {
    long long n;                /* floats per variant */
    size_t in_words, out_words; /* sized for the widest shape */
    uint64_t key;               /* the current draw */
    float *device_in, *device_out;
    float *host_out;            /* pinned: the check reads the whole output back */
} coalescing_state;

coalescing_word_map coalescing_expected_words(const ladder_variant *v, long long n)
{
    long long k = v->param;
    coalescing_launcher *f = (coalescing_launcher *)v->impl;
    if (f == coalescing_copy_offset_f32) return (coalescing_word_map){n, 1, k, 1, k, 1, 0.0f};
    if (f == coalescing_copy_offset_f64) return (coalescing_word_map){n / 2, 2, 2 * k, 2, 2 * k, 2, 0.0f};
    if (f == coalescing_copy_stride_f32) return (coalescing_word_map){n, 1, 0, 1, 0, k, 0.0f};
    if (f == coalescing_copy_stride_f64) return (coalescing_word_map){n / 2, 2, 0, 2, 0, 2 * k, 0.0f};
    if (f == coalescing_add_one_misaligned) return (coalescing_word_map){n / k, 1, 1, 1, 1, 1, 1.0f};
    if (f == coalescing_add_one_coalesced || f == coalescing_add_one_idle_lanes || f == coalescing_add_one_permuted)
        return (coalescing_word_map){n / k, 1, 0, 1, 0, 1, 1.0f};
    /* AoS and SoA both cover words [0, n): the layout decides which words are
     * x, y or z, not what each must hold. */
    if (f == coalescing_aos_direct || f == coalescing_aos_staged || f == coalescing_soa)
        return (coalescing_word_map){n, 1, 0, 1, 0, 1, 1.0f};
    if (f == coalescing_aos_float4) return (coalescing_word_map){n / 3, 3, 0, 4, 0, 4, 1.0f};
    return (coalescing_word_map){n, 1, 0, 1, 0, 1, 0.0f}; /* the memcpy baseline */
}

static void destroy(void *opaque)
{
    coalescing_state *s = opaque;
    if (!s) return;
    cudaFree(s->device_in);
    cudaFree(s->device_out);
    cudaFreeHost(s->host_out);
    free(s);
}

static void *create(const ladder_size *size, ladder_status *status, char *err, size_t err_len)
{
    long long n = size->dim[0];
    if (size->count != 1 || n % 24 != 0 || n > (1LL << 31)) {
        *status = LADDER_BAD_SIZE;
        snprintf(err, err_len, "coalescing takes N floats, a multiple of 24 (n/2 doubles, n/3 float3s, n/8 "
                               "for the L2 rungs) up to 2^31");
        return NULL;
    }
    coalescing_state *s = calloc(1, sizeof *s);
    if (!s) ladder_die("out of host memory");
    s->n = n;
    /* Stride 32 reads up to word 32n; shifted doubles up to n + 64; float4s 4n/3. */
    s->in_words = (size_t)(32 * n > n + 2 * COALESCING_MAX_SHIFT ? 32 * n : n + 2 * COALESCING_MAX_SHIFT);
    s->out_words = (size_t)(n + 2 * COALESCING_MAX_SHIFT > 4 * n / 3 ? n + 2 * COALESCING_MAX_SHIFT : 4 * n / 3);
    if (ladder_try_cuda_malloc((void **)&s->device_in, s->in_words * sizeof(float)) ||
        ladder_try_cuda_malloc((void **)&s->device_out, s->out_words * sizeof(float)) ||
        cudaMallocHost((void **)&s->host_out, s->out_words * sizeof(float)) != cudaSuccess) {
        cudaGetLastError();
        *status = LADDER_NO_MEMORY;
        snprintf(err, err_len, "n = %lld needs %.2f GB on the device (stride 32 reads 32n floats) and %.2f GB of "
                               "pinned host memory; not available", n,
                 (double)(s->in_words + s->out_words) * sizeof(float) / 1e9,
                 (double)s->out_words * sizeof(float) / 1e9);
        destroy(s);
        return NULL;
    }
    return s;
}

static void fill_inputs(void *opaque, uint64_t seed)
{
    coalescing_state *s = opaque;
    s->key = ladder_hash64(seed);
    coalescing_fill(s->device_in, s->in_words, s->key, 0);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

static void run(void *opaque, const ladder_variant *v, cudaStream_t stream)
{
    coalescing_state *s = opaque;
    ((coalescing_launcher *)v->impl)(s->device_in, s->device_out, s->n, v->param, stream);
}

static ladder_output output(void *opaque, const ladder_variant *v)
{
    (void)v;
    coalescing_state *s = opaque;
    return (ladder_output){s->device_out, s->out_words * sizeof(float), 0xFF};
}

static ladder_check check(void *opaque, const ladder_variant *v)
{
    coalescing_state *s = opaque;
    CUDA_CHECK(cudaMemcpy(s->host_out, s->device_out, s->out_words * sizeof(float), cudaMemcpyDeviceToHost));
    coalescing_word_map map = coalescing_expected_words(v, s->n);
    double diff_squared = 0, ref_squared = 0;
    size_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff_squared, ref_squared, nonfinite)
    for (long long e = 0; e < map.elements; ++e) {
        for (int c = 0; c < map.words_used; ++c) {
            double ref = coalescing_input_word(s->key, (uint64_t)(map.in_first + e * map.in_step + c)) + map.add;
            double got = s->host_out[map.out_first + e * map.out_step + c];
            ref_squared += ref * ref;
            if (!isfinite(got)) ++nonfinite;
            else diff_squared += (got - ref) * (got - ref);
        }
    }
    return ladder_error_finish((ladder_error_sum){diff_squared, ref_squared, nonfinite}, 0.0);
}

static ladder_work work(void *opaque)
{
    coalescing_state *s = opaque;
    return (ladder_work){2.0 * (double)s->n * sizeof(float), 0.0};
}

const ladder_case coalescing_case = {
    .name = "coalescing",
    .title = "global memory access shapes: offsets, strides, the G80 add-one, float3 layouts",
    .size_help = "N floats moved per variant, a multiple of 24; the stride rungs read 32N",
    .default_size = "2^24+2^23",
    .quick_size = "2^21+2^20",
    .test_sizes = {"24", "984", "10392", NULL},
    .ceiling = LADDER_CEILING_BANDWIDTH,
    .variants = coalescing_variants,
    .variant_count = (int)(sizeof coalescing_variants / sizeof coalescing_variants[0]),
    .create = create,
    .destroy = destroy,
    .fill_inputs = fill_inputs,
    .unsupported = NULL, /* every variant takes every multiple of 24 */
    .run = run,
    .output = output,
    .check = check,
    .work = work,
};
