/* libFuzzer target for the Matrix Market reader: any input either fails
 * with a reason or gives a CSR matrix whose invariants hold (row pointers
 * non-decreasing from 0 to nnz, columns in range and strictly increasing
 * within each row, values finite); a broken invariant aborts. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "matrix_market.h"

static void check_csr(const matrix_market_csr *m)
{
    if (m->rows < 1 || m->cols < 1 || m->row_ptr[0] != 0 || m->row_ptr[m->rows] != m->nnz) abort();
    for (int32_t r = 0; r < m->rows; ++r) {
        if (m->row_ptr[r + 1] < m->row_ptr[r]) abort();
        for (int32_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; ++k) {
            if (m->col[k] < 0 || m->col[k] >= m->cols || !isfinite(m->val[k])) abort();
            if (k > m->row_ptr[r] && m->col[k] <= m->col[k - 1]) abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    matrix_market_csr m;
    char err[256];
    if (matrix_market_parse((const char *)data, size, &m, err, sizeof err) == 0) {
        check_csr(&m);
        matrix_market_free(&m);
    } else if (!err[0]) {
        abort(); /* a failure always says why */
    }
    return 0;
}
