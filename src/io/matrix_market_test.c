/* Matrix Market reader: small inputs against their meaning, the shipped
 * files against a dense matrix built from their lines independently, and
 * every malformed file of the corpus rejected with a one-line reason. */
#include "matrix_market.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/testing/test_util.h"

static char source_root[4096];

/* The repository root, from this file's path as the build passed it. */
static void find_source_root(void)
{
    snprintf(source_root, sizeof source_root, "%s", __FILE__);
    char *cut = strstr(source_root, "src/io/matrix_market_test.c");
    if (cut) *cut = '\0';
    else snprintf(source_root, sizeof source_root, "./");
}

static int parse_text(const char *text, matrix_market_csr *m, char *err, size_t err_len)
{
    return matrix_market_parse(text, strlen(text), m, err, err_len);
}

static double csr_at(const matrix_market_csr *m, int r, int c)
{
    for (int32_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; ++k)
        if (m->col[k] == c) return m->val[k];
    return 0;
}

static void test_general_with_duplicates(void)
{
    matrix_market_csr m;
    char err[256];
    const char *text = "%%MatrixMarket matrix coordinate real general\r\n% comment\n\n3 4 4\n"
                       "3 4 -2.5e1\r\n1 3 1\n1 1 1\n  1\t1 2  \n";
    EXPECTF(parse_text(text, &m, err, sizeof err) == 0, "%s", err);
    EXPECT(m.rows == 3 && m.cols == 4 && m.nnz == 3 && m.field == MATRIX_MARKET_REAL && !m.symmetric);
    EXPECT(m.row_ptr[0] == 0 && m.row_ptr[1] == 2 && m.row_ptr[2] == 2 && m.row_ptr[3] == 3);
    EXPECT(m.col[0] == 0 && m.val[0] == 3.0f); /* duplicates summed, columns sorted */
    EXPECT(m.col[1] == 2 && m.val[1] == 1.0f);
    EXPECT(m.col[2] == 3 && m.val[2] == -25.0f);
    matrix_market_free(&m);
}

static void test_symmetric_integer_and_pattern(void)
{
    matrix_market_csr m;
    char err[256];
    EXPECTF(parse_text("%%MatrixMarket MATRIX Coordinate integer SYMMETRIC\n3 3 3\n1 1 5\n3 1 -7\n3 2 2\n", &m, err,
                       sizeof err) == 0, "%s", err);
    EXPECT(m.nnz == 5 && m.field == MATRIX_MARKET_INTEGER && m.symmetric);
    EXPECT(csr_at(&m, 0, 0) == 5 && csr_at(&m, 2, 0) == -7 && csr_at(&m, 0, 2) == -7);
    EXPECT(csr_at(&m, 2, 1) == 2 && csr_at(&m, 1, 2) == 2 && csr_at(&m, 1, 1) == 0);
    matrix_market_free(&m);

    EXPECTF(parse_text("%%MatrixMarket matrix coordinate pattern general\n2 3 3\n2 3\n2 3\n1 2", &m, err,
                       sizeof err) == 0, "%s", err);
    EXPECT(m.nnz == 2 && m.val[0] == 1.0f && m.val[1] == 1.0f && m.col[1] == 2); /* duplicate merged, stays 1 */
    matrix_market_free(&m);

    EXPECTF(parse_text("%%MatrixMarket matrix coordinate real general\n4 1 0\n", &m, err, sizeof err) == 0, "%s",
            err);
    EXPECT(m.nnz == 0 && m.rows == 4 && m.row_ptr[4] == 0);
    matrix_market_free(&m);
}

/* A dense copy of a shipped file built with sscanf, line by line. */
static double *dense_from_lines(const char *path, int *rows, int *cols)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char line[256], field[32], symmetry[32];
    double *dense = NULL;
    long long entries = 0;
    EXPECT(fgets(line, sizeof line, f) && sscanf(line, "%%%%MatrixMarket matrix coordinate %31s %31s", field,
                                                 symmetry) == 2);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '%') continue;
        if (!dense) {
            EXPECT(sscanf(line, "%d %d %lld", rows, cols, &entries) == 3);
            dense = calloc((size_t)*rows * *cols, sizeof *dense);
            continue;
        }
        int r, c;
        double v = 1;
        int got = sscanf(line, "%d %d %lf", &r, &c, &v);
        EXPECT(got >= 2);
        int pattern = strcmp(field, "pattern") == 0;
        double *at = &dense[(size_t)(r - 1) * *cols + (c - 1)];
        *at = pattern ? 1 : *at + v;
        if (strcmp(symmetry, "symmetric") == 0 && r != c) dense[(size_t)(c - 1) * *cols + (r - 1)] = *at;
    }
    fclose(f);
    return dense;
}

static void test_shipped_file(const char *name, int longest_row_wanted)
{
    char path[4200], err[512];
    snprintf(path, sizeof path, "%stests/matrices/%s", source_root, name);
    matrix_market_csr m;
    EXPECTF(matrix_market_load(path, &m, err, sizeof err) == 0, "%s", err);
    int rows = 0, cols = 0;
    double *dense = dense_from_lines(path, &rows, &cols);
    EXPECT(dense && rows == m.rows && cols == m.cols);
    if (!dense || rows != m.rows || cols != m.cols) return;
    long long nonzeros = 0;
    int longest = 0, empty = 0;
    for (int r = 0; r < rows; ++r) {
        int length = m.row_ptr[r + 1] - m.row_ptr[r];
        longest = length > longest ? length : longest;
        empty += length == 0;
        for (int c = 0; c < cols; ++c) {
            double want = dense[(size_t)r * cols + c];
            nonzeros += want != 0;
            EXPECT_NEAR(csr_at(&m, r, c), want, 1e-5 * (1 + fabs(want)));
        }
    }
    EXPECTF(nonzeros == m.nnz, "%s: %lld nonzeros in the dense copy, %d in the CSR", name, nonzeros, m.nnz);
    EXPECTF(longest == longest_row_wanted, "%s: longest row %d, wanted %d", name, longest, longest_row_wanted);
    printf("%s: %d x %d, %d entries, longest row %d, %d empty rows\n", name, m.rows, m.cols, m.nnz, longest, empty);
    free(dense);
    matrix_market_free(&m);
}

/* Every file of the corpus but valid_* must fail, with one line that says
 * why; the reader leaves nothing allocated. */
static void test_corpus_rejected(void)
{
    char dir_path[4200];
    snprintf(dir_path, sizeof dir_path, "%stests/corpus/matrix_market", source_root);
    DIR *dir = opendir(dir_path);
    EXPECTF(dir != NULL, "no corpus at %s", dir_path);
    if (!dir) return;
    int rejected = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        char path[8600], err[512];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        matrix_market_csr m;
        int status = matrix_market_load(path, &m, err, sizeof err);
        if (strncmp(e->d_name, "valid_", 6) == 0) {
            EXPECTF(status == 0, "%s: %s", e->d_name, err);
            matrix_market_free(&m);
            continue;
        }
        EXPECTF(status != 0, "%s was accepted", e->d_name);
        EXPECTF(status != 0 && err[0] && !strchr(err, '\n'), "%s: reason '%s'", e->d_name, err);
        EXPECT(m.row_ptr == NULL && m.col == NULL && m.val == NULL);
        printf("%-28s %s\n", e->d_name, strrchr(err, '/') ? strrchr(err, '/') + 1 : err);
        ++rejected;
    }
    closedir(dir);
    EXPECTF(rejected >= 30, "only %d malformed files in the corpus", rejected);
}

static void test_specific_reasons(void)
{
    matrix_market_csr m;
    char err[256];
    EXPECT(parse_text("%%MatrixMarket matrix coordinate real general\n2 2 9000000000\n1 1 1\n", &m, err,
                      sizeof err) != 0);
    EXPECTF(strstr(err, "more than the 4 places") != NULL, "%s", err);
    EXPECT(parse_text("%%MatrixMarket matrix coordinate real general\n100000 100000 1000\n1 1 1\n", &m, err,
                      sizeof err) != 0);
    EXPECTF(strstr(err, "only 6 bytes follow") != NULL, "%s", err);
    EXPECT(parse_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.000000\n", &m, err, sizeof err) != 0);
    EXPECTF(strstr(err, "after 1 of the 2 declared") != NULL, "%s", err);
    EXPECT(parse_text("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n\n  \n2 2 1\n", &m, err,
                      sizeof err) != 0);
    EXPECTF(strstr(err, "line 6: more than the 1 declared") != NULL, "%s", err);
    EXPECT(parse_text("%%MatrixMarket matrix coordinate real general\n3 3 1\n0 2 1\n", &m, err, sizeof err) != 0);
    EXPECTF(strstr(err, "line 3: entry (0, 2) is outside") != NULL, "%s", err);
    EXPECT(matrix_market_load("/nonexistent/m.mtx", &m, err, sizeof err) != 0);
    EXPECTF(strncmp(err, "/nonexistent/m.mtx: ", 20) == 0, "%s", err);
}

int main(void)
{
    find_source_root();
    test_general_with_duplicates();
    test_symmetric_integer_and_pattern();
    test_shipped_file("general_real_97x89.mtx", 89);
    test_shipped_file("symmetric_pattern_1500.mtx", 1202);
    test_corpus_rejected();
    test_specific_reasons();
    return test_result("matrix_market_test");
}
