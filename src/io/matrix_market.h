/* Matrix Market reader (coordinate format), for sparse matrices from files
 * users have (SuiteSparse and friends). Plain C, no CUDA: it only parses.
 *
 * Accepted: "%%MatrixMarket matrix coordinate FIELD SYMMETRY" with FIELD one
 * of real, integer, pattern and SYMMETRY general or symmetric (keywords in
 * any case); '%' comment lines and blank lines before the size line; one
 * entry per line, 1-based indices. Symmetric files list the lower triangle
 * (row >= column) and are expanded to both triangles. Duplicate entries are
 * summed (the usual COO-to-CSR convention: scipy, MATLAB's sparse); duplicate
 * pattern entries merge into one. Pattern entries get the value 1.
 *
 * Everything else is an error with a one-line reason naming the line: a bad
 * banner, array or complex or hermitian or skew-symmetric files, indices out
 * of range (0 included), a wrong field count, fewer or more entries than
 * declared, non-finite values or values beyond float, trailing junk. Nothing
 * is allocated from a declared count that the input could not back: a
 * declared entry count larger than the remaining bytes could hold is an
 * error before any allocation, and rows and columns are capped at
 * MATRIX_MARKET_MAX_DIM (32-bit indices, row pointers of at most 1 GB). */
#ifndef LADDER_MATRIX_MARKET_H
#define LADDER_MATRIX_MARKET_H

#include <stddef.h>
#include <stdint.h>

#define MATRIX_MARKET_MAX_DIM (1 << 28)
/* Entries after symmetric expansion: row pointers are 32-bit. */
#define MATRIX_MARKET_MAX_NNZ 0x7fffffffLL
/* Longest line accepted, in characters (entry lines are ~60 at most). */
#define MATRIX_MARKET_MAX_LINE 1024

typedef enum matrix_market_field {
    MATRIX_MARKET_REAL,
    MATRIX_MARKET_INTEGER,
    MATRIX_MARKET_PATTERN,
} matrix_market_field;

/* A matrix in CSR: columns sorted and distinct within each row. */
typedef struct matrix_market_csr {
    int32_t rows, cols;
    int32_t nnz;
    int32_t *row_ptr; /* rows + 1 */
    int32_t *col;     /* nnz (NULL when nnz is 0) */
    float *val;       /* nnz (NULL when nnz is 0) */
    matrix_market_field field;
    int symmetric;
} matrix_market_csr;

/* Parse `len` bytes (not NUL-terminated). 0 on success; else -1, *out
 * zeroed and a one-line reason ("line 7: ...") in err. */
int matrix_market_parse(const char *data, size_t len, matrix_market_csr *out, char *err, size_t err_len);

/* Read and parse a file; reasons start with the path. */
int matrix_market_load(const char *path, matrix_market_csr *out, char *err, size_t err_len);

void matrix_market_free(matrix_market_csr *m);

#endif
