/* Netpbm images as users have them: PPM (P6) and PAM (P7, DEPTH 3 RGB or 4
 * RGB_ALPHA), 8 or 16 bits per sample (16-bit samples big-endian in the file).
 * Plain C, no CUDA and no harness: the fuzz target links this file alone.
 *
 * Untrusted input: every header field is range-checked, the raster size is
 * computed without overflow and compared with the bytes actually present
 * before anything is allocated, and every failure is one line in err.
 * MAXVAL may be anything from 1 to 65535: samples keep the file's scale (a
 * mean of samples <= MAXVAL is <= MAXVAL), and a sample above MAXVAL is an
 * error. */
#ifndef LADDER_NETPBM_H
#define LADDER_NETPBM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Largest width or height accepted, and largest raster in bytes: a stated
 * limit, far above real photographs, far below what would exhaust memory. */
#define NETPBM_MAX_DIM (1 << 18)
#define NETPBM_MAX_RASTER_BYTES ((uint64_t)1 << 30)

typedef enum netpbm_format { NETPBM_PPM = 6, NETPBM_PAM = 7 } netpbm_format;

typedef struct netpbm_image {
    netpbm_format format;
    int width, height;
    int channels;     /* 3 (RGB) or 4 (RGB_ALPHA, PAM only) */
    int maxval;       /* 1..65535 */
    int sample_bytes; /* 1 when maxval < 256, else 2 (the Netpbm rule) */
    void *samples;    /* row-major, channels interleaved: uint8_t, or uint16_t in host order */
} netpbm_image;

/* Samples in the image: width * height * channels. */
size_t netpbm_sample_count(const netpbm_image *image);

/* Parse a whole file held in memory. Returns 0 and fills *image (free it with
 * netpbm_free), or -1 with a one-line reason in err and *image untouched. */
int netpbm_parse(const unsigned char *data, size_t size, netpbm_image *image, char *err, size_t err_len);

/* Read and parse a file; same contract. */
int netpbm_read(const char *path, netpbm_image *image, char *err, size_t err_len);

/* Write `image` (a const netpbm_image *) in its own format: the signature of
 * ladder_emit_fn, so that ladder_write_atomically can write it whole or not
 * at all. Returns 0, or -1 with a reason in err. */
int netpbm_emit(FILE *out, const void *image, char *err, size_t err_len);

void netpbm_free(netpbm_image *image);

#endif
