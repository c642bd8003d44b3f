/* Problem sizes from the command line: "8192x8192", "4096x1024x333", "2^28-3". */
#ifndef LADDER_SIZE_H
#define LADDER_SIZE_H

#include <stddef.h>

#define LADDER_MAX_DIMS 4

typedef struct ladder_size {
    int count;                      /* number of dimensions given */
    long long dim[LADDER_MAX_DIMS]; /* each >= 1 */
} ladder_size;

/* Parse SPEC: dimensions separated by 'x'; each dimension is a sum of terms
 * ("+" or "-"), a term being a decimal number or a power "B^E". Returns 0 on
 * success; on failure returns -1 and writes a one-line reason into err. */
int ladder_parse_size(const char *spec, ladder_size *out, char *err, size_t err_len);

/* Canonical text: "8192x8192". */
void ladder_format_size(const ladder_size *size, char *buf, size_t len);

#endif
