/* Problem sizes from the command line: "8192x8192", "4096x1024x333", "2^28-3",
 * with an optional leading form that a case reads as the kind of input
 * ("banded:2^20", "powerlaw:2^20"), and lists of them ("664x1024,7680x4320"):
 * a case runs its ladder once per size in the list. */
#ifndef LADDER_SIZE_H
#define LADDER_SIZE_H

#include <stddef.h>

#define LADDER_MAX_DIMS 4
#define LADDER_MAX_SIZE_LIST 12

typedef struct ladder_size {
    int count;                      /* number of dimensions given */
    long long dim[LADDER_MAX_DIMS]; /* each >= 1 */
    char form[16];                  /* "banded" for "banded:2^20"; "" when none was given */
    const char *input;              /* the file a "file" form reads (ladder run --matrix); NULL otherwise, not owned */
} ladder_size;

typedef struct ladder_size_list {
    int count;
    ladder_size size[LADDER_MAX_SIZE_LIST];
} ladder_size_list;

/* Parse SPEC: dimensions separated by 'x'; each dimension is a sum of terms
 * ("+" or "-"), a term being a decimal number or a power "B^E". Returns 0 on
 * success; on failure returns -1 and writes a one-line reason into err. */
int ladder_parse_size(const char *spec, ladder_size *out, char *err, size_t err_len);

/* SPEC as comma-separated sizes, each parsed as above. */
int ladder_parse_size_list(const char *spec, ladder_size_list *out, char *err, size_t err_len);

/* Canonical text: "8192x8192", "banded:1048576". */
void ladder_format_size(const ladder_size *size, char *buf, size_t len);

#endif
