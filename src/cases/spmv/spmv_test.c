/* SpMV on the CPU: the adaptive plan covers every row once with bounded
 * work per block, the generators make what they promise (at the GPU test
 * sizes too), the reference matches a dense product, and the check catches
 * a lost entry, an unwritten row and a non-zero empty row. */
#include <stdlib.h>
#include <string.h>

#include "harness/testing/test_util.h"
#include "spmv.h"

static void check_plan(const int *row_ptr, int rows)
{
    long long count = spmv_plan_tasks(row_ptr, rows, NULL);
    spmv_task *tasks = malloc((size_t)count * sizeof *tasks);
    EXPECT(spmv_plan_tasks(row_ptr, rows, tasks) == count);
    int next_row = 0, next_entry = 0;
    for (long long t = 0; t < count; ++t) {
        spmv_task k = tasks[t];
        EXPECT(k.row_begin == next_row && k.row_end > k.row_begin);
        EXPECT(k.entry_begin == next_entry && k.entry_end >= k.entry_begin &&
               k.entry_end - SPMV_WINDOW_START(k.entry_begin) <= SPMV_BLOCK_NNZ);
        EXPECT(k.entry_begin >= row_ptr[k.row_begin] && k.entry_end <= row_ptr[k.row_end]);
        next_entry = k.entry_end;
        int window = row_ptr[k.row_end] - SPMV_WINDOW_START(row_ptr[k.row_begin]);
        if (k.chunks == 1) {
            EXPECT(k.chunk == 0 && window <= SPMV_BLOCK_NNZ && k.row_end - k.row_begin <= SPMV_THREADS);
            next_row = k.row_end;
        } else {
            EXPECT(k.row_end == k.row_begin + 1 && window > SPMV_BLOCK_NNZ);
            EXPECT(k.chunks == (window + SPMV_BLOCK_NNZ - 1) / SPMV_BLOCK_NNZ && k.chunk < k.chunks);
            EXPECT(k.chunk == 0 || k.entry_begin % SPMV_LINE_ENTRIES == 0);
            EXPECT(t - k.chunk >= 0 && tasks[t - k.chunk].chunk == 0 && tasks[t - k.chunk].row_begin == k.row_begin);
            if (k.chunk == k.chunks - 1) next_row = k.row_end;
        }
    }
    EXPECT(next_row == rows && next_entry == row_ptr[rows]);
    free(tasks);
}

static void test_plan(void)
{
    /* empty rows, a row of exactly a block's entries from a line's start,
     * one just over, a long one, 300 rows of 1 */
    int lengths[] = {0, 0, SPMV_LINE_ENTRIES, SPMV_BLOCK_NNZ, SPMV_BLOCK_NNZ + 1, 3, 4 * SPMV_BLOCK_NNZ + 1, 0};
    int rows = 8 + 300;
    int *row_ptr = malloc((size_t)(rows + 1) * sizeof *row_ptr);
    row_ptr[0] = 0;
    for (int r = 0; r < rows; ++r) row_ptr[r + 1] = row_ptr[r] + (r < 8 ? lengths[r] : 1);
    check_plan(row_ptr, rows);
    spmv_task tasks[64];
    long long count = spmv_plan_tasks(row_ptr, 8, tasks);
    EXPECT(count == 11); /* {0,1,2} {3} {4} in 2 chunks, {5}, {6} in 5 chunks, {7} */
    EXPECT(tasks[0].row_begin == 0 && tasks[0].row_end == 3); /* two empty rows and a line of entries */
    EXPECT(tasks[1].row_begin == 3 && tasks[1].row_end == 4); /* exactly a block: alone, not chunked */
    EXPECT(tasks[2].chunks == 2 && tasks[3].chunk == 1);
    /* row 6 starts 4 entries into a line: its window is 4 * SPMV_BLOCK_NNZ + 5 */
    EXPECT(tasks[5].row_begin == 6 && tasks[5].chunks == 5);
    EXPECT(tasks[9].row_begin == 6 && tasks[9].chunk == 4);
    free(row_ptr);
    EXPECT(spmv_plan_tasks((int[]){0, 0}, 1, tasks) == 1 && tasks[0].row_end == 1);
    /* a block's worth of entries starting one into a line does not fit one window */
    EXPECT(spmv_plan_tasks((int[]){0, 1, 1 + SPMV_BLOCK_NNZ}, 2, tasks) == 3);
    EXPECT(tasks[1].chunks == 2 && tasks[1].entry_begin == 1 && tasks[1].entry_end == SPMV_BLOCK_NNZ);
    EXPECT(tasks[2].entry_begin == SPMV_BLOCK_NNZ && tasks[2].entry_end == 1 + SPMV_BLOCK_NNZ);
}

static void test_generators(void)
{
    char err[256];
    spmv_host_csr m;
    EXPECTF(spmv_generate("banded", 997, &m, err, sizeof err) == 0, "%s", err);
    EXPECT(m.rows == 997 && m.row_ptr[1] == SPMV_BAND / 2 + 1 && m.row_ptr[500] - m.row_ptr[499] == SPMV_BAND);
    EXPECT(m.col[m.row_ptr[500]] == 500 - SPMV_BAND / 2);
    spmv_host_csr_free(&m);
    EXPECT(spmv_generate("banded", 1, &m, err, sizeof err) == 0 && m.nnz == 1 && m.col[0] == 0);
    spmv_host_csr_free(&m);

    /* powerlaw:20011 is a GPU test size: it must hold empty rows and rows longer than a block. */
    EXPECTF(spmv_generate("powerlaw", 20011, &m, err, sizeof err) == 0, "%s", err);
    int empty = 0, longer_than_block = 0, longest = 0, sorted = 1;
    for (int r = 0; r < m.rows; ++r) {
        int length = m.row_ptr[r + 1] - m.row_ptr[r];
        empty += length == 0;
        longer_than_block += length > SPMV_BLOCK_NNZ;
        longest = length > longest ? length : longest;
        for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k)
            sorted &= m.col[k] >= 0 && m.col[k] < m.cols && (k == m.row_ptr[r] || m.col[k] > m.col[k - 1]);
    }
    printf("powerlaw:20011: %d entries, %d empty rows, %d rows longer than %d, longest %d\n", m.nnz, empty,
           longer_than_block, SPMV_BLOCK_NNZ, longest);
    EXPECT(sorted && empty > 1000 && longer_than_block >= 2 && longest <= SPMV_POWERLAW_LONGEST);
    EXPECT(m.nnz > 10 * m.rows && m.nnz < 25 * m.rows);
    spmv_host_csr_free(&m);
    EXPECT(spmv_generate("powerlaw", 1, &m, err, sizeof err) == 0 && m.nnz <= 1);
    spmv_host_csr_free(&m);
    EXPECT(spmv_generate("banded", 100000000, &m, err, sizeof err) != 0 && strstr(err, "32-bit"));
}

static void test_reference_and_check(void)
{
    char err[256];
    spmv_host_csr m;
    EXPECT(spmv_generate("powerlaw", 301, &m, err, sizeof err) == 0);
    for (int k = 0; k < m.nnz; ++k) m.val[k] = (float)((k % 7) - 3) * 0.25f + 0.1f;
    float x[301];
    for (int j = 0; j < 301; ++j) x[j] = (float)((j * 37) % 11) - 5.5f;
    double *dense = calloc(301 * 301, sizeof *dense);
    for (int r = 0; r < 301; ++r)
        for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) dense[r * 301 + m.col[k]] = m.val[k];
    double ref[301], bound[301];
    float y[301];
    spmv_reference(&m, x, ref, bound);
    int longest = 0, victim = -1;
    for (int r = 0; r < 301; ++r) {
        double want = 0;
        for (int c = 0; c < 301; ++c) want += dense[r * 301 + c] * x[c];
        EXPECT_NEAR(ref[r], want, 1e-9 * (1 + bound[r]));
        y[r] = (float)ref[r];
        int length = m.row_ptr[r + 1] - m.row_ptr[r];
        longest = length > longest ? length : longest;
        if (length >= 5 && length <= 30 && victim < 0) victim = r;
    }
    EXPECT(spmv_check_rows(y, ref, bound, 301, longest).passed);
    EXPECT(victim >= 0);
    int k = m.row_ptr[victim + 1] - 1; /* the row's last entry lost */
    y[victim] = (float)(ref[victim] - (double)m.val[k] * x[m.col[k]]);
    ladder_check lost = spmv_check_rows(y, ref, bound, 301, longest);
    EXPECTF(!lost.passed, "a lost entry passed: error %.2e, tolerance %.2e", lost.rel_error, lost.tolerance);
    y[victim] = (float)ref[victim];
    y[300] = 0.0f / 0.0f;
    EXPECT(!spmv_check_rows(y, ref, bound, 301, longest).passed);
    y[300] = (float)ref[300];
    int empty = -1;
    for (int r = 0; r < 301 && empty < 0; ++r)
        if (m.row_ptr[r + 1] == m.row_ptr[r]) empty = r;
    EXPECT(empty >= 0);
    y[empty] = 1e-30f; /* an empty row must be exactly 0 */
    EXPECT(!spmv_check_rows(y, ref, bound, 301, longest).passed);
    free(dense);
    spmv_host_csr_free(&m);
}

int main(void)
{
    test_plan();
    test_generators();
    test_reference_and_check();
    return test_result("spmv_test");
}
