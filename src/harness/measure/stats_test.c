#include "stats.h"
#include "harness/testing/test_util.h"

int main(void)
{
    /* Odd count, unsorted input: the median is the middle order statistic. */
    double odd[] = {5, 1, 3, 2, 4};
    ladder_stats s = ladder_summarize(odd, 5);
    EXPECT(s.count == 5);
    EXPECT_NEAR(s.median, 3, 0);
    EXPECT_NEAR(s.min, 1, 0);
    EXPECT_NEAR(s.max, 5, 0);
    EXPECT_NEAR(s.q1, 2, 0);
    EXPECT_NEAR(s.q3, 4, 0);
    EXPECT_NEAR(s.rel_spread, 2.0 / 3.0, 1e-15);
    EXPECT_NEAR(odd[0], 5, 0); /* the input is left as it was */

    /* Even count: the median interpolates between the two middle values. */
    double even[] = {4, 1, 3, 2};
    s = ladder_summarize(even, 4);
    EXPECT_NEAR(s.median, 2.5, 0);
    EXPECT_NEAR(s.q1, 1.75, 1e-15);
    EXPECT_NEAR(s.q3, 3.25, 1e-15);

    /* One outlier moves max but not the median or the interquartile spread. */
    double outlier[] = {10, 10, 10, 10, 10, 10, 10, 10, 10, 1000};
    s = ladder_summarize(outlier, 10);
    EXPECT_NEAR(s.median, 10, 0);
    EXPECT_NEAR(s.max, 1000, 0);
    EXPECT_NEAR(s.rel_spread, 0, 0);

    /* A single sample: everything is that sample, no spread. */
    double one[] = {7};
    s = ladder_summarize(one, 1);
    EXPECT_NEAR(s.median, 7, 0);
    EXPECT_NEAR(s.rel_spread, 0, 0);

    double sorted[] = {0, 10};
    EXPECT_NEAR(ladder_quantile_sorted(sorted, 2, 0.3), 3, 1e-12);
    EXPECT_NEAR(ladder_quantile_sorted(sorted, 2, 1.0), 10, 0);
    return test_result("stats_test");
}
