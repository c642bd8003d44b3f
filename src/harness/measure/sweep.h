/* Size sweeps of copies (transfer, p2p): the latency + bandwidth model
 * fitted to a sweep's medians, and the byte-exact comparison of a copy. */
#ifndef LADDER_SWEEP_H
#define LADDER_SWEEP_H

#include <stddef.h>

#include "harness/case.h"

/* A sweep's rungs: one per power of two of bytes, named ROUTE_4KiB ..
 * ROUTE_1GiB, each with param PARAM(k) for 2^k bytes: LADDER_SWEEP_LOG2 (k)
 * or LADDER_SWEEP_BYTES (2^k, so that a test can run a rung at any byte count). */
#define LADDER_SWEEP_LOG2(k) (k)
#define LADDER_SWEEP_BYTES(k) (1 << (k))
#define LADDER_SWEEP_8B_TO_2KIB(route, story, launcher, PARAM)                                                    \
    LADDER_RUNG(route "_8B", story, launcher, PARAM(3)), LADDER_RUNG(route "_16B", story, launcher, PARAM(4)),     \
    LADDER_RUNG(route "_32B", story, launcher, PARAM(5)), LADDER_RUNG(route "_64B", story, launcher, PARAM(6)),    \
    LADDER_RUNG(route "_128B", story, launcher, PARAM(7)), LADDER_RUNG(route "_256B", story, launcher, PARAM(8)),  \
    LADDER_RUNG(route "_512B", story, launcher, PARAM(9)), LADDER_RUNG(route "_1KiB", story, launcher, PARAM(10)), \
    LADDER_RUNG(route "_2KiB", story, launcher, PARAM(11))
#define LADDER_SWEEP_4KIB_TO_1GIB(route, story, launcher, PARAM)                                                    \
    LADDER_RUNG(route "_4KiB", story, launcher, PARAM(12)), LADDER_RUNG(route "_8KiB", story, launcher, PARAM(13)),   \
    LADDER_RUNG(route "_16KiB", story, launcher, PARAM(14)), LADDER_RUNG(route "_32KiB", story, launcher, PARAM(15)), \
    LADDER_RUNG(route "_64KiB", story, launcher, PARAM(16)),                                                          \
    LADDER_RUNG(route "_128KiB", story, launcher, PARAM(17)),                                                         \
    LADDER_RUNG(route "_256KiB", story, launcher, PARAM(18)),                                                         \
    LADDER_RUNG(route "_512KiB", story, launcher, PARAM(19)), LADDER_RUNG(route "_1MiB", story, launcher, PARAM(20)), \
    LADDER_RUNG(route "_2MiB", story, launcher, PARAM(21)), LADDER_RUNG(route "_4MiB", story, launcher, PARAM(22)),   \
    LADDER_RUNG(route "_8MiB", story, launcher, PARAM(23)), LADDER_RUNG(route "_16MiB", story, launcher, PARAM(24)),  \
    LADDER_RUNG(route "_32MiB", story, launcher, PARAM(25)), LADDER_RUNG(route "_64MiB", story, launcher, PARAM(26)), \
    LADDER_RUNG(route "_128MiB", story, launcher, PARAM(27)),                                                         \
    LADDER_RUNG(route "_256MiB", story, launcher, PARAM(28)),                                                         \
    LADDER_RUNG(route "_512MiB", story, launcher, PARAM(29)), LADDER_RUNG(route "_1GiB", story, launcher, PARAM(30))

/* time = latency + bytes / bandwidth, fitted by weighted least squares on the
 * relative residuals: weights 1 / (time^2 (spread^2 + LADDER_FIT_SPREAD_FLOOR^2)).
 * The 1 / time^2 makes every size count alike, so the microsecond latency is
 * not swamped by the millisecond noise of the largest copies; the spread
 * (each point's interquartile range / median, as measured) makes a point
 * count by how well it was measured: on the lent H100 and H200 the pinned
 * host-to-device copies of 1-16 MiB scatter by 20-30 % from sample to sample
 * while the others hold within a few percent, and equal weights let those
 * few points set the slope (fitted bandwidth 0.86-0.90 of the best copy's,
 * against 0.99 with the spread). The floor keeps a point measured within a
 * fraction of a percent from outweighing the rest without bound. */
#define LADDER_FIT_SPREAD_FLOOR 0.01
typedef struct ladder_fit {
    double latency_s;        /* the intercept; may come out <= 0 on noisy data */
    double bandwidth_bps;    /* bytes per second: 1 / slope */
    double half_peak_bytes;  /* latency x bandwidth: where bytes / time is half the bandwidth; NaN if latency <= 0 */
    size_t points;
} ladder_fit;

/* Fit n points (bytes[i], seconds[i], rel_spread[i]; rel_spread NULL: every
 * point at the floor); every field NaN when the points cannot fix a line
 * (fewer than two distinct sizes, or a slope that is not positive). */
ladder_fit ladder_fit_latency_bandwidth(const double *bytes, const double *seconds, const double *rel_spread,
                                       size_t n);

/* A copy is right when every byte matches: rel_error is the fraction of bytes
 * that differ, tolerance 0. */
ladder_check ladder_compare_bytes(const void *got, const void *want, size_t bytes);

#endif
