/* libFuzzer target for the Netpbm parser: any input either parses or fails
 * with a message; an image that parses must survive a write and a re-read
 * unchanged. `make fuzz` runs it under libFuzzer, and the corpus in
 * tests/corpus/netpbm runs as a CPU test under ASan and UBSan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netpbm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    netpbm_image image;
    char err[256];
    if (netpbm_parse(data, size, &image, err, sizeof err) != 0) {
        if (!err[0]) abort(); /* every failure says why */
        return 0;
    }
    char *written = NULL;
    size_t written_size = 0;
    FILE *out = open_memstream(&written, &written_size);
    if (!out) abort();
    if (netpbm_emit(out, &image, err, sizeof err) != 0) abort();
    fclose(out);
    netpbm_image again;
    if (netpbm_parse((const unsigned char *)written, written_size, &again, err, sizeof err) != 0) abort();
    size_t bytes = netpbm_sample_count(&image) * (size_t)image.sample_bytes;
    if (again.format != image.format || again.width != image.width || again.height != image.height ||
        again.channels != image.channels || again.maxval != image.maxval ||
        memcmp(again.samples, image.samples, bytes) != 0)
        abort();
    netpbm_free(&again);
    netpbm_free(&image);
    free(written);
    return 0;
}
