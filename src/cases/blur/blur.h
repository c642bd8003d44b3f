/* Image smoothing (SPEC §9): each output sample is the mean of the 3x3
 * neighbourhood of its pixel, per channel, with the border replicated
 * (coordinates clamped into the image), rounded half up in integers:
 *     out = (sum of the 9 samples + 4) / 9
 * (sum/9 is never exactly half-way, so this is also round-to-nearest). Every
 * kernel and the CPU reference use that rule: results match exactly.
 *
 * Images are row-major, channels interleaved, rows `pitch` bytes apart; the
 * layout a rung reads (packed RGB, RGB padded to 4 bytes, pitched rows) is
 * the case's to convert to, outside the timed region. */
#ifndef LADDER_BLUR_H
#define LADDER_BLUR_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest width or height: the 2D grids cover it (naive: height / 8 blocks). */
#define BLUR_MAX_DIM (1 << 18)

/* The ladder's rungs, on 8-bit samples with `channels` (3 packed, 4 padded)
 * per pixel. */
typedef void blur_launcher(const void *in, size_t in_pitch, void *out, size_t out_pitch, int width, int height,
                           int channels, cudaStream_t stream);

blur_launcher blur_naive;          /* channels 3 or 4 */
blur_launcher blur_shared_tile;    /* channels 3 or 4 */
blur_launcher blur_window_4byte;   /* channels 3, in_pitch and out_pitch multiples of 16 */
blur_launcher blur_window_16byte;  /* the same */
blur_launcher blur_window_lean;    /* the same */

/* Any supported file format: 8- or 16-bit samples (sample_bytes 1 or 2, uint16_t
 * in host order), 3 or 4 channels, packed rows: the naive kernel for that type. */
void blur_generic(const void *in, void *out, int width, int height, int channels, int sample_bytes,
                  cudaStream_t stream);

/* 8-bit layout conversion on the device: copies min(in, out) channels of each
 * pixel and writes 0 into any extra output channel. */
void blur_repack(const uint8_t *in, size_t in_pitch, int in_channels, uint8_t *out, size_t out_pitch,
                 int out_channels, int width, int height, cudaStream_t stream);

/* The CPU reference (OpenMP over rows), any format, packed rows. */
void blur_reference(const void *in, void *out, int width, int height, int channels, int sample_bytes);

#ifndef __CUDACC__
#include "harness/case.h"

extern const ladder_case blur_case;
extern const char *const blur_default_variant; /* what `ladder blur` runs: the best rung */

/* The case's buffers, for the GPU test and `ladder blur`: an image in every
 * layout the rungs read, with its conversions. */
typedef struct blur_state blur_state;
blur_state *blur_state_create(int width, int height, char *err, size_t err_len); /* NULL: no memory */
void blur_state_destroy(blur_state *s);
/* Packed 8-bit RGB in; converted to every layout on the device. */
void blur_state_upload(blur_state *s, const uint8_t *packed_rgb);
void blur_state_run(blur_state *s, const ladder_variant *v, cudaStream_t stream);
/* The variant's output, back as packed 8-bit RGB. */
void blur_state_download(blur_state *s, const ladder_variant *v, uint8_t *packed_rgb);

/* Exact comparison of 8-bit samples: passed only when every byte is equal. */
ladder_check blur_compare(const uint8_t *out, const uint8_t *ref, size_t bytes);

/* Smooth an image's samples (blur_reference's format) on the current GPU with
 * rung `v`. 8-bit RGB runs the rung itself; other formats run the naive
 * kernel for their sample type, which every rung's result equals. Returns
 * the name of what ran, or NULL with a reason in err (no device memory). */
const char *blur_samples_on_gpu(const void *in, void *out, int width, int height, int channels, int sample_bytes,
                                const ladder_variant *v, char *err, size_t err_len);
#endif

#ifdef __cplusplus
}
#endif

#endif
