/* rng.h - the PRNG shared by firmware and simulator: xorshift32
 * (Marsaglia 2003, shifts 13, 17, 5). Twin: pysim/rng.py.
 * A zero seed would stick at zero, so it is replaced by RNG_ZERO_SEED. */
#ifndef BOIDSGEN_RNG_H
#define BOIDSGEN_RNG_H

#include <stdint.h>

#define RNG_ZERO_SEED 0x9E3779B9u

typedef struct { uint32_t s; } rng_t;

static inline void rng_seed(rng_t *r, uint32_t seed) { r->s = seed ? seed : RNG_ZERO_SEED; }

static inline uint32_t rng_next(rng_t *r)
{
    uint32_t x = r->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}

/* Uniform-ish integer in [lo, hi): lo + next % (hi - lo); lo when hi <= lo. */
static inline int32_t rng_range(rng_t *r, int32_t lo, int32_t hi)
{
    uint32_t span, v = rng_next(r);
    if (hi <= lo) return lo;
    span = (uint32_t)((int64_t)hi - (int64_t)lo);
    return (int32_t)((int64_t)lo + (int64_t)(v % span));
}

#endif
