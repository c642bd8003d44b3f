/* SHA-256 (FIPS 180-4), for the record of a tried source file: which bytes
 * were measured. Small and self-contained: no library for one hash. */
#ifndef LADDER_SHA256_H
#define LADDER_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct ladder_sha256 {
    uint32_t state[8];
    uint64_t length;     /* bytes hashed so far */
    unsigned char block[64];
    size_t used;         /* bytes waiting in block */
} ladder_sha256;

void ladder_sha256_init(ladder_sha256 *h);
void ladder_sha256_update(ladder_sha256 *h, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a terminating zero. */
void ladder_sha256_hex(ladder_sha256 *h, char hex[65]);

/* The digest of a whole file; 0, or -1 with the reason in err. */
int ladder_sha256_file(const char *path, char hex[65], char *err, size_t err_len);

#endif
