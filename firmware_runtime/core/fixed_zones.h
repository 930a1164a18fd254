/* fixed_zones.h - the pair loop's zone tests on d2 = dx^2 + dy^2 (codegen/
 * codegen/targets/c/pairs.py prints them): part of fixed.h (include that), which
 * defines fx_d2, fx_sq64 and FX_LIKELY. Each is the exact compare d2 <
 * r^2 of the rules, spelled for the M4K's HI:LO. */
#ifndef BOIDSGEN_FIXED_ZONES_H
#define BOIDSGEN_FIXED_ZONES_H

#include "fixed.h"

/* The seed's two zones at once (the pair loop's "d2 < protected^2, else
 * d2 < visual^2"; codegen/targets/c/pairs.py): with d2 = dx^2 + dy^2, a
 * word negative exactly when d2 < r^2 is returned, and one negative exactly
 * when d2 < r^2 + a*b stored in *outer (a = r2 - r, b = r2 + r: r2^2; the
 * generator proves both fit a word). The differences d2 - r^2 and
 * d2 - r2^2 are exact in HI:LO modulo 2^64 and lie in [-2^62, 2^63) unless
 * dx = dy = -2^31 (the box test before it rules that out), so the high
 * word's sign is theirs. On the M4K: mult, madd, msub, mfhi, msub, mfhi --
 * no 64-bit compares, no registers for two 64-bit squares. */
static inline int32_t fx_d2_zones(fx dx, fx dy, fx r, fx a, fx b, int32_t *outer)
{
#ifdef FX_MIPS_MADD
    int32_t inner, out;
    __asm__("mult\t%2, %2\n\tmadd\t%3, %3\n\tmsub\t%4, %4\n\tmfhi\t%0\n\tmsub\t%5, %6\n\tmfhi\t%1"
            : "=&d"(inner), "=d"(out)
            : "d"(dx), "d"(dy), "d"(r), "d"(a), "d"(b)
            : "hi", "lo");
    *outer = out;
    return inner;
#else
    const int64_t e = (int64_t)fx_d2(dx, dy) - (int64_t)fx_sq64(r); /* r^2 <= 2^62 */
    *outer = e - fx_smul64(a, b) < 0 ? -1 : 0;
    return e < 0 ? -1 : 0;
#endif
}
/* The outer zone alone, where the pair loop knows the pair is outside the
 * inner one (codegen/targets/c/pairs.py, apart: |dx| or |dy| >= the
 * protected range): a word negative exactly when d2 < r^2, exact on the
 * same terms as fx_d2_zones. On the M4K: mult, madd, msub, mfhi. */
static inline int32_t fx_d2_within(fx dx, fx dy, fx r)
{
#ifdef FX_MIPS_MADD
    int32_t e;
    __asm__("mult\t%1, %1\n\tmadd\t%2, %2\n\tmsub\t%3, %3\n\tmfhi\t%0" : "=d"(e) : "d"(dx), "d"(dy), "d"(r) : "hi", "lo");
    return e;
#else
    return (int64_t)fx_d2(dx, dy) - (int64_t)fx_sq64(r) < 0 ? -1 : 0;
#endif
}
/* d2's high word (mult, madd, mfhi), and r^2's. Against r^2, the word
 * e = fx_d2_hi(dx, dy) - fx_sq_hi(r) is negative only when d2 < r^2 and
 * positive only when not; equal high words (d2 within 2^32 of r^2: at a
 * 40 px range about one pair in 3,200) take the whole test, so
 * FX_D2_BELOW_HI(e, dx, dy, r) is d2 < r^2 exactly, on fx_d2_within's terms
 * (d2 < 2^63: not dx = dy = -2^31; then e cannot wrap, as the high words
 * are below 2^31 and 2^30). Where most pairs pass (the own band's window,
 * pairs apart from the protected zone) a compare takes the place of
 * fx_d2_within's `msub`, and the pass falls through (FX_LIKELY). */
static inline uint32_t fx_d2_hi(fx dx, fx dy)
{
#ifdef FX_MIPS_MADD
    uint32_t hi;
    __asm__("mult\t%1, %1\n\tmadd\t%2, %2\n\tmfhi\t%0" : "=d"(hi) : "d"(dx), "d"(dy) : "hi", "lo");
    return hi;
#else
    return (uint32_t)(fx_d2(dx, dy) >> 32);
#endif
}
static inline uint32_t fx_sq_hi(fx r) { return (uint32_t)(fx_sq64(r) >> 32); }
#define FX_D2_BELOW_HI(e, dx, dy, r) (FX_LIKELY((e) < 0) || ((e) == 0 && fx_d2_within((dx), (dy), (r)) < 0))

#endif /* BOIDSGEN_FIXED_ZONES_H */
