/* CPU test of the transpose reference check against the definition
 * out[c][r] = in[r][c], on a small odd-shaped matrix. */
#include <math.h>

#include "harness/testing/test_util.h"
#include "transpose.h"

#define ROWS 3
#define COLS 5

int main(void)
{
    float in[ROWS * COLS], out[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; ++i) in[i] = 1.0f + (float)i;
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c) out[c * ROWS + r] = in[r * COLS + c];

    ladder_check check = transpose_check_host(in, out, ROWS, COLS, 0);
    EXPECT(check.passed);
    EXPECT_NEAR(check.rel_error, 0, 0);

    /* The input itself is a correct copy but not a correct transpose. */
    EXPECT(transpose_check_host(in, in, ROWS, COLS, 1).passed);
    EXPECT(!transpose_check_host(in, in, ROWS, COLS, 0).passed);

    /* One element off by one ulp fails: the reference is exact. */
    out[7] = nextafterf(out[7], 100.0f);
    EXPECT(!transpose_check_host(in, out, ROWS, COLS, 0).passed);
    out[7] = in[(7 % ROWS) * COLS + 7 / ROWS];
    EXPECT(transpose_check_host(in, out, ROWS, COLS, 0).passed);

    /* An unwritten (poisoned) element fails and is counted. */
    out[ROWS * COLS - 1] = NAN;
    check = transpose_check_host(in, out, ROWS, COLS, 0);
    EXPECT(!check.passed);
    EXPECT(check.nonfinite == 1);

    /* A 1 x N matrix transposes to N x 1 with the same memory. */
    EXPECT(transpose_check_host(in, in, 1, ROWS * COLS, 0).passed);
    return test_result("transpose_test");
}
