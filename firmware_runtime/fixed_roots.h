/* fixed_roots.h - exact square roots and magnitudes of boidsgen's fixed
 * point: part of fixed.h (include that), which defines the words, products
 * and squares these build on. */
#ifndef BOIDSGEN_FIXED_ROOTS_H
#define BOIDSGEN_FIXED_ROOTS_H

#include "fixed.h"

/* Exact integer square root of a 64-bit value: the largest r with r*r <= v.
 * In 32-bit words (the M4K's): v >> 2h, for the least h that fits it in a
 * word, has the root r >> h (floor(sqrt(floor(v / 4^h))) = floor(sqrt(v) /
 * 2^h)), taken digit by digit from its highest power of 4; then the h low
 * bits, each kept where the candidate's exact square is still <= v. A speed
 * (about 2^17 in s16.15) is one word of digits and a bit or two. */
static inline uint64_t fx_isqrt64(uint64_t v)
{
    const uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;
    const int h = hi ? (32 - fx_clz32(hi) + 1) >> 1 : 0; /* v >> 2h < 2^32 */
    uint32_t x, r = 0, bit;
    int k;
    /* v >> 2h from the words (a 64-bit shift by a variable is a libgcc call) */
    if (h == 0) x = lo;
    else if (h == 16) x = hi;
    else x = (hi << (32 - 2 * h)) | (lo >> (2 * h));
    if (x == 0) return 0;
    for (bit = 1u << ((31 - fx_clz32(x)) & ~1); bit != 0; bit >>= 2) {
        if (x >= r + bit) {
            x -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
    }
    for (k = h - 1; k >= 0; k--) {
        const uint32_t c = (r << 1) | 1u; /* the next bit set */
        r <<= 1;
        if (fx_umul64(c << k, c << k) <= v) r = c;
    }
    return r;
}

static inline fx fx_sqrt(fx a)
{
    if (a <= 0) return 0;
    return (fx)fx_isqrt64((uint64_t)a << FX_FRAC_BITS);
}

/* Exact magnitude of (x, y): floor(sqrt(x^2 + y^2)) in raw units, from the
 * 64-bit sum of squares, so no intermediate can overflow. */
static inline fx fx_hypot(fx x, fx y)
{
    uint64_t s = (uint64_t)((int64_t)x * x) + (uint64_t)((int64_t)y * y);
    return fx_wrap64((int64_t)fx_isqrt64(s));
}

/* Alpha-max-plus-beta-min estimate of the magnitude: alpha*max + beta*min
 * of |x| and |y| (constants chosen by the spec, converted by the generator). */
static inline fx fx_amb(fx x, fx y, fx alpha, fx beta)
{
    fx ax = fx_abs(x), ay = fx_abs(y);
    fx hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
    return fx_add(fx_mul(alpha, hi), fx_mul(beta, lo));
}

/* A magnitude compared without its root (codegen/lang/roots.py, issue 16).
 * fx_mag2 is the exact squared magnitude x^2 + y^2 (< 2^64, never wraps);
 * fx_mag_lt ... fx_mag_ne compare floor(sqrt(s)), the exact magnitude in raw
 * units, with a 32-bit m, for EVERY s and m, without the root:
 *   floor(sqrt(s)) <  m  <=>  m > 0 && s < m^2
 *   floor(sqrt(s)) >  m  <=>  m < 0 || s >= (m + 1)^2
 *   floor(sqrt(s)) == m  <=>  m >= 0 && m^2 <= s < (m + 1)^2
 * ((m + 1)^2 <= 2^62: fx_sq64 of (m + 1) as a uint32, which for m = INT32_MAX
 * is INT32_MIN as an fx, whose square is the same 2^62.) fx_mag_root is the
 * root itself, saturated at INT32_MAX: fx_hypot's value wherever fx_hypot
 * does not wrap (s < 2^62), and never a negative speed. Where the range
 * analysis bounds s below 2^62 a rule written over mag()/hypot() and its
 * compares is the very same program in these ops; the root is taken only on
 * the paths that read the magnitude itself (speed_limit: the clamped boids).
 * Twins: pysim/fx_mag.py (served by pysim/fxops.py); tests/test_roots.py. */
static inline uint64_t fx_mag2(fx x, fx y) { return fx_d2(x, y); }
static inline fx fx_mag_root(uint64_t s)
{
    const uint64_t r = fx_isqrt64(s);
    return r > (uint64_t)INT32_MAX ? FX_MAX : (fx)r;
}
static inline uint64_t fx_mag_next2(fx m) { return fx_sq64(fx_from_u32((uint32_t)m + 1u)); } /* (m+1)^2, m >= 0 */
static inline int fx_mag_lt(uint64_t s, fx m) { return m > 0 && s < fx_sq64(m); }
static inline int fx_mag_gt(uint64_t s, fx m) { return m < 0 || s >= fx_mag_next2(m); }
static inline int fx_mag_le(uint64_t s, fx m) { return !fx_mag_gt(s, m); }
static inline int fx_mag_ge(uint64_t s, fx m) { return !fx_mag_lt(s, m); }
static inline int fx_mag_eq(uint64_t s, fx m) { return m >= 0 && s >= fx_sq64(m) && s < fx_mag_next2(m); }
static inline int fx_mag_ne(uint64_t s, fx m) { return !fx_mag_eq(s, m); }

#endif /* BOIDSGEN_FIXED_ROOTS_H */
