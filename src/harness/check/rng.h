/* Reproducible random inputs. Each element is a hash of (seed, index), so a
 * fill is the same whatever the thread count, and cheap to parallelize. */
#ifndef LADDER_RNG_H
#define LADDER_RNG_H

#include <stddef.h>
#include <stdint.h>

uint64_t ladder_hash64(uint64_t x);

/* Uniform in [lo, hi); lo < hi. Use a range that excludes 0 where a zero
 * would hide a bug (the harness never times zeros). */
void ladder_fill_uniform(float *x, size_t n, uint64_t seed, float lo, float hi);

/* Uniform integer in [0, bound). */
uint64_t ladder_random_below(uint64_t seed, uint64_t index, uint64_t bound);

#endif
