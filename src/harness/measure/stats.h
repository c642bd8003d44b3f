/* Summary statistics of timing samples. */
#ifndef LADDER_STATS_H
#define LADDER_STATS_H

#include <stddef.h>

typedef struct ladder_stats {
    size_t count;
    double median;
    double min;
    double max;
    double q1, q3;      /* quartiles, linear interpolation between order statistics */
    double rel_spread;  /* (q3 - q1) / median: robust to a single outlier sample */
} ladder_stats;

/* Quantile q in [0,1] of n sorted values, interpolating linearly. */
double ladder_quantile_sorted(const double *sorted, size_t n, double q);

/* Statistics of n samples (n >= 1); the input is not modified. */
ladder_stats ladder_summarize(const double *samples, size_t n);

#endif
