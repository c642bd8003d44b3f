#include "rng.h"

/* splitmix64's finalizer: a bijection with good avalanche. */
uint64_t ladder_hash64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void ladder_fill_uniform(float *x, size_t n, uint64_t seed, float lo, float hi)
{
    uint64_t key = ladder_hash64(seed);
    float scale = hi - lo;
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)n; ++i) {
        /* 24 random bits: every value exactly representable in a float. */
        float unit = (float)(ladder_hash64(key ^ (uint64_t)i) >> 40) * (1.0f / 16777216.0f);
        x[i] = lo + scale * unit;
    }
}

uint64_t ladder_random_below(uint64_t seed, uint64_t index, uint64_t bound)
{
    return ladder_hash64(ladder_hash64(seed) ^ index) % bound;
}
