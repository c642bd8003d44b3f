#include "matrix_market.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct entry {
    int32_t row, col;
    float val;
} entry;

typedef struct cursor {
    const char *data;
    size_t len, pos;
    long line; /* number of the line last read, from 1 */
    char text[MATRIX_MARKET_MAX_LINE + 1];
} cursor;

static int fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(err, err_len, fmt, args);
    va_end(args);
    return -1;
}

/* Copies the next line into c->text without its terminator ("\n" or
 * "\r\n"). Returns 1 for a line, 0 at the end of the input, -1 for a line
 * too long or holding a NUL byte (the input is text). */
static int next_line(cursor *c)
{
    if (c->pos >= c->len) return 0;
    ++c->line;
    size_t n = 0;
    while (c->pos < c->len && c->data[c->pos] != '\n') {
        char ch = c->data[c->pos++];
        if (ch == '\0' || n == MATRIX_MARKET_MAX_LINE) return -1;
        c->text[n++] = ch;
    }
    if (c->pos < c->len) ++c->pos; /* the '\n' */
    if (n > 0 && c->text[n - 1] == '\r') --n;
    c->text[n] = '\0';
    return 1;
}

static int line_error(const cursor *c, char *err, size_t err_len)
{
    return fail(err, err_len, "line %ld: longer than %d characters or not text", c->line, MATRIX_MARKET_MAX_LINE);
}

static int is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t') ++s;
    return *s == '\0';
}

/* Splits s in place into at most max whitespace-separated fields; returns
 * how many there are (max + 1 when there are more). */
static int split_fields(char *s, char **fields, int max)
{
    int n = 0;
    char *rest;
    for (char *p = strtok_r(s, " \t", &rest); p; p = strtok_r(NULL, " \t", &rest)) {
        if (n == max) return max + 1;
        fields[n++] = p;
    }
    return n;
}

/* A count or index: decimal digits only, at most 10^15. */
static int parse_entry_count(const char *s, long long *value)
{
    if (!*s) return -1;
    long long v = 0;
    for (const char *p = s; *p; ++p) {
        if (!isdigit((unsigned char)*p) || v > 100000000000000LL) return -1;
        v = v * 10 + (*p - '0');
    }
    *value = v;
    return 0;
}

static int parse_value(const char *s, matrix_market_field field, float *value)
{
    char *end;
    errno = 0;
    double v;
    if (field == MATRIX_MARKET_INTEGER) {
        long long i = strtoll(s, &end, 10);
        v = (double)i;
    } else {
        v = strtod(s, &end);
    }
    /* Underflow is fine (it rounds to zero or a denormal), overflow is not. */
    int overflow = errno == ERANGE && fabs(v) > 1;
    if (end == s || *end || overflow || !isfinite(v) || fabs(v) > FLT_MAX) return -1;
    *value = (float)v;
    return 0;
}

static int parse_banner(cursor *c, matrix_market_csr *m, char *err, size_t err_len)
{
    int status = next_line(c);
    if (status == 0) return fail(err, err_len, "empty input: no %%%%MatrixMarket banner");
    if (status < 0) return line_error(c, err, err_len);
    char *f[6];
    int n = split_fields(c->text, f, 5);
    if (n < 1 || strcasecmp(f[0], "%%MatrixMarket") != 0)
        return fail(err, err_len, "line 1: not a Matrix Market file (no %%%%MatrixMarket banner)");
    if (n != 5) return fail(err, err_len, "line 1: the banner needs 4 words after %%%%MatrixMarket: matrix coordinate FIELD SYMMETRY");
    if (strcasecmp(f[1], "matrix") != 0) return fail(err, err_len, "line 1: object '%s' is not 'matrix'", f[1]);
    if (strcasecmp(f[2], "coordinate") != 0)
        return fail(err, err_len, "line 1: format '%s' is not supported (only coordinate, the sparse format)", f[2]);
    if (strcasecmp(f[3], "real") == 0) m->field = MATRIX_MARKET_REAL;
    else if (strcasecmp(f[3], "integer") == 0) m->field = MATRIX_MARKET_INTEGER;
    else if (strcasecmp(f[3], "pattern") == 0) m->field = MATRIX_MARKET_PATTERN;
    else return fail(err, err_len, "line 1: field '%s' is not supported (real, integer or pattern)", f[3]);
    if (strcasecmp(f[4], "general") == 0) m->symmetric = 0;
    else if (strcasecmp(f[4], "symmetric") == 0) m->symmetric = 1;
    else return fail(err, err_len, "line 1: symmetry '%s' is not supported (general or symmetric)", f[4]);
    return 0;
}

/* The size line after comments: ROWS COLS ENTRIES. An entry line needs at
 * least two bytes per field (a digit and a separator or newline), except
 * the last one's newline, so a declared count the remaining bytes cannot
 * hold is rejected before anything is allocated from it. */
static int parse_size_line(cursor *c, matrix_market_csr *m, long long *declared, char *err, size_t err_len)
{
    int status;
    while ((status = next_line(c)) > 0 && (c->text[0] == '%' || is_blank(c->text))) {
    }
    if (status == 0) return fail(err, err_len, "input ends before the size line (ROWS COLUMNS ENTRIES)");
    if (status < 0) return line_error(c, err, err_len);
    char *f[4];
    int n = split_fields(c->text, f, 3);
    long long rows, cols, nnz;
    if (n != 3) return fail(err, err_len, "line %ld: the size line needs 3 numbers: ROWS COLUMNS ENTRIES", c->line);
    for (int i = 0; i < 3; ++i)
        if (f[i][0] == '-') return fail(err, err_len, "line %ld: negative size '%s'", c->line, f[i]);
    if (parse_entry_count(f[0], &rows) || parse_entry_count(f[1], &cols) || parse_entry_count(f[2], &nnz))
        return fail(err, err_len, "line %ld: the size line needs 3 whole numbers: ROWS COLUMNS ENTRIES", c->line);
    if (rows < 1 || cols < 1) return fail(err, err_len, "line %ld: a matrix needs at least 1 row and 1 column", c->line);
    if (rows > MATRIX_MARKET_MAX_DIM || cols > MATRIX_MARKET_MAX_DIM)
        return fail(err, err_len, "line %ld: %lld x %lld is larger than the %d rows or columns this reader takes",
                    c->line, rows, cols, MATRIX_MARKET_MAX_DIM);
    if (m->symmetric && rows != cols)
        return fail(err, err_len, "line %ld: a symmetric matrix must be square, not %lld x %lld", c->line, rows, cols);
    long long most = m->symmetric ? rows * (rows + 1) / 2 : rows * cols;
    if (nnz > most)
        return fail(err, err_len, "line %ld: %lld entries declared, more than the %lld places of a %s%lld x %lld matrix",
                    c->line, nnz, most, m->symmetric ? "symmetric " : "", rows, cols);
    long long bytes_per_entry = m->field == MATRIX_MARKET_PATTERN ? 4 : 6;
    if (nnz > 0 && (unsigned long long)(nnz - 1) * bytes_per_entry + bytes_per_entry - 1 > c->len - c->pos)
        return fail(err, err_len, "line %ld: %lld entries declared, but only %zu bytes follow", c->line, nnz,
                    c->len - c->pos);
    if ((m->symmetric ? 2 * nnz : nnz) > MATRIX_MARKET_MAX_NNZ)
        return fail(err, err_len, "line %ld: %lld entries do not fit 32-bit row pointers", c->line, nnz);
    m->rows = (int32_t)rows;
    m->cols = (int32_t)cols;
    *declared = nnz;
    return 0;
}

/* Reads exactly `declared` entry lines (blank lines skipped) into e, the
 * mirror of each off-diagonal symmetric entry after it; *count gets how
 * many entries that makes. Only blank lines may follow. */
static int parse_entries(cursor *c, const matrix_market_csr *m, long long declared, entry *e, long long *count,
                         char *err, size_t err_len)
{
    int fields_wanted = m->field == MATRIX_MARKET_PATTERN ? 2 : 3;
    long long n = 0;
    for (long long read = 0; read < declared;) {
        int status = next_line(c);
        if (status == 0)
            return fail(err, err_len, "input ends after %lld of the %lld declared entries", read, declared);
        if (status < 0) return line_error(c, err, err_len);
        if (is_blank(c->text)) continue;
        char *f[4];
        int got = split_fields(c->text, f, 3);
        if (got != fields_wanted)
            return fail(err, err_len, "line %ld: expected %d fields (%s), found %s%d", c->line, fields_wanted,
                        fields_wanted == 2 ? "row column: a pattern file has no values" : "row column value",
                        got > 3 ? "more than " : "", got > 3 ? 3 : got);
        long long row, col;
        if (parse_entry_count(f[0], &row) || parse_entry_count(f[1], &col))
            return fail(err, err_len, "line %ld: indices '%s %s' are not whole numbers", c->line, f[0], f[1]);
        if (row < 1 || row > m->rows || col < 1 || col > m->cols)
            return fail(err, err_len, "line %ld: entry (%lld, %lld) is outside the 1-based %d x %d matrix", c->line,
                        row, col, m->rows, m->cols);
        if (m->symmetric && col > row)
            return fail(err, err_len, "line %ld: entry (%lld, %lld) is above the diagonal; a symmetric file lists "
                        "the lower triangle", c->line, row, col);
        float value = 1.0f;
        if (fields_wanted == 3 && parse_value(f[2], m->field, &value))
            return fail(err, err_len, "line %ld: value '%s' is not a finite %s within float range", c->line, f[2],
                        m->field == MATRIX_MARKET_INTEGER ? "integer" : "number");
        e[n++] = (entry){(int32_t)(row - 1), (int32_t)(col - 1), value};
        if (m->symmetric && row != col) e[n++] = (entry){(int32_t)(col - 1), (int32_t)(row - 1), value};
        ++read;
    }
    int status;
    while ((status = next_line(c)) > 0)
        if (!is_blank(c->text))
            return fail(err, err_len, "line %ld: more than the %lld declared entries (or trailing junk)", c->line,
                        declared);
    if (status < 0) return line_error(c, err, err_len);
    *count = n;
    return 0;
}

static int by_column(const void *a, const void *b)
{
    int32_t x = ((const entry *)a)->col, y = ((const entry *)b)->col;
    return (x > y) - (x < y);
}

/* COO to CSR: a counting sort by row, a sort by column within each row,
 * then duplicates summed (pattern duplicates stay 1). */
static int build_csr(const entry *e, long long count, matrix_market_csr *m, char *err, size_t err_len)
{
    m->row_ptr = calloc((size_t)m->rows + 1, sizeof *m->row_ptr);
    entry *sorted = malloc((size_t)(count > 0 ? count : 1) * sizeof *sorted);
    if (!m->row_ptr || !sorted) {
        free(sorted);
        return fail(err, err_len, "out of memory for a %d-row matrix of %lld entries", m->rows, count);
    }
    for (long long i = 0; i < count; ++i) ++m->row_ptr[e[i].row + 1];
    for (int32_t r = 0; r < m->rows; ++r) m->row_ptr[r + 1] += m->row_ptr[r];
    for (long long i = 0; i < count; ++i) sorted[m->row_ptr[e[i].row]++] = e[i];
    for (int32_t r = m->rows; r > 0; --r) m->row_ptr[r] = m->row_ptr[r - 1]; /* undo the placement shifts */
    m->row_ptr[0] = 0;

    int32_t kept = 0;
    for (int32_t r = 0; r < m->rows; ++r) {
        int32_t begin = m->row_ptr[r], end = m->row_ptr[r + 1];
        qsort(sorted + begin, (size_t)(end - begin), sizeof *sorted, by_column);
        m->row_ptr[r] = kept;
        for (int32_t k = begin; k < end; ++k) {
            if (k > begin && sorted[k].col == sorted[k - 1].col) {
                if (m->field != MATRIX_MARKET_PATTERN) sorted[kept - 1].val += sorted[k].val;
                if (!isfinite(sorted[kept - 1].val)) {
                    fail(err, err_len, "duplicate entries of (%d, %d) sum beyond float range", r + 1,
                         sorted[k].col + 1);
                    free(sorted);
                    return -1;
                }
                continue;
            }
            sorted[kept++] = sorted[k];
        }
    }
    m->row_ptr[m->rows] = kept;
    m->nnz = kept;
    if (kept > 0) {
        m->col = malloc((size_t)kept * sizeof *m->col);
        m->val = malloc((size_t)kept * sizeof *m->val);
        if (!m->col || !m->val) {
            free(sorted);
            return fail(err, err_len, "out of memory for %d entries", kept);
        }
        for (int32_t k = 0; k < kept; ++k) {
            m->col[k] = sorted[k].col;
            m->val[k] = sorted[k].val;
        }
    }
    free(sorted);
    return 0;
}

int matrix_market_parse(const char *data, size_t len, matrix_market_csr *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    cursor *c = malloc(sizeof *c);
    if (!c) return fail(err, err_len, "out of memory");
    *c = (cursor){.data = data, .len = len};
    long long declared = 0, count = 0;
    entry *entries = NULL;
    int status = parse_banner(c, out, err, err_len);
    if (status == 0) status = parse_size_line(c, out, &declared, err, err_len);
    if (status == 0) {
        long long capacity = (out->symmetric ? 2 : 1) * declared;
        entries = malloc((size_t)(capacity > 0 ? capacity : 1) * sizeof *entries);
        if (!entries) status = fail(err, err_len, "out of memory for %lld entries", declared);
    }
    if (status == 0) status = parse_entries(c, out, declared, entries, &count, err, err_len);
    if (status == 0) status = build_csr(entries, count, out, err, err_len);
    free(entries);
    free(c);
    if (status != 0) matrix_market_free(out);
    return status;
}

int matrix_market_load(const char *path, matrix_market_csr *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) return fail(err, err_len, "%s: %s", path, strerror(errno));
    size_t capacity = 1 << 16, used = 0, got;
    char *data = malloc(capacity);
    while (data && (got = fread(data + used, 1, capacity - used, f)) > 0) {
        used += got;
        if (used == capacity) {
            char *grown = realloc(data, capacity *= 2);
            if (!grown) free(data);
            data = grown;
        }
    }
    int read_error = ferror(f);
    fclose(f);
    if (!data) return fail(err, err_len, "%s: out of memory reading the file", path);
    if (read_error) {
        free(data);
        return fail(err, err_len, "%s: read error", path);
    }
    char reason[512];
    int status = matrix_market_parse(data, used, out, reason, sizeof reason);
    free(data);
    if (status != 0) fail(err, err_len, "%s: %s", path, reason);
    return status;
}

void matrix_market_free(matrix_market_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}
