/* fixed_draws.h - a PRNG draw (rng.h's rng_next, a raw uint32) as a rule's
 * value: random() and random_int(a, b) of the rule language. Included by
 * fixed.h. Twin: pysim/fxops.py (fx_random, fx_random_int). Which draw a
 * call reads: every boid draws all of its rules' draws at its turn, in
 * index order (docs/rules.md). */
#ifndef BOIDSGEN_FIXED_DRAWS_H
#define BOIDSGEN_FIXED_DRAWS_H

/* random(): the draw's top FX_FRAC_BITS bits as a fraction, in [0, 1). */
static inline fx fx_random(uint32_t d) { return (fx)(d >> (32 - FX_FRAC_BITS)); }

/* random_int(a, b): a + d % (b - a + 1), the span in 64 bits (b - a + 1 can
 * be 2^32); a when b <= a. In [a, b]. */
static inline int32_t fx_random_int(uint32_t d, int32_t a, int32_t b)
{
    uint64_t span;
    if (b <= a) return a;
    span = (uint64_t)((int64_t)b - (int64_t)a) + 1u;
    return (int32_t)((int64_t)a + (int64_t)((uint64_t)d % span));
}

#endif /* BOIDSGEN_FIXED_DRAWS_H */
