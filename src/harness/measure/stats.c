#include "stats.h"

#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ladder_quantile_sorted(const double *sorted, size_t n, double q)
{
    if (n == 0) return 0.0;
    double position = q * (double)(n - 1);
    size_t below = (size_t)position;
    if (below + 1 >= n) return sorted[n - 1];
    double fraction = position - (double)below;
    return sorted[below] + fraction * (sorted[below + 1] - sorted[below]);
}

ladder_stats ladder_summarize(const double *samples, size_t n)
{
    ladder_stats s = {0};
    if (n == 0) return s;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted) abort();
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_doubles);
    s.count = n;
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = ladder_quantile_sorted(sorted, n, 0.5);
    s.q1 = ladder_quantile_sorted(sorted, n, 0.25);
    s.q3 = ladder_quantile_sorted(sorted, n, 0.75);
    s.rel_spread = s.median > 0 ? (s.q3 - s.q1) / s.median : 0.0;
    free(sorted);
    return s;
}
