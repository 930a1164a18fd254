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
 * FX_D2_BELOW_HI(e, dx, dy, r, pre) is d2 < r^2 exactly, on fx_d2_within's terms
 * (d2 < 2^63: not dx = dy = -2^31; then e cannot wrap, as the high words
 * are below 2^31 and 2^30). Where most pairs pass (the own band's window,
 * pairs apart from the protected zone) a compare takes the place of
 * fx_d2_within's `msub`, and the pass falls through (FX_LIKELY). On the
 * Cortex-M0+ the high word is two 64-bit squares: there FX_D2_BELOW_HI is
 * the prefilter's test (pre: fx_d2_pre's words, below), and e, unread, is
 * not computed. */
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

/* The zone tests with the Cortex-M0+'s prefilter (FX_M0_D2_PREFILTER: with
 * FX_M0_PARTS, unless -DFX_NO_D2_PREFILTER=1). There the exact compare
 * d2 < r^2 costs two 64-bit squares in partial products (six MULS and
 * their carries: a quarter of a 1,000-boid grid frame), and most candidate
 * pairs lie far from a zone's edge. With |dx|, |dy| below 2^22 (64 px in
 * s15.16: every candidate of a box of at most 64 px), a = |dx| >> 8 and
 * b = |dy| >> 8 bound d2 in 32 bits:
 *     (a^2 + b^2) 2^16  <=  d2  <  (a^2 + b^2 + 2a + 2b + 2) 2^16,
 * as a 2^8 <= |dx| < (a + 1) 2^8. Against r^2's words in 2^16 units, rounded
 * down and up (fx_d2_pre, once a step), that decides the compare unless
 * r^2 lies inside the interval; then the exact test decides. So the answer
 * is fx_d2_zones's and fx_d2_within's always, for two MULS a candidate.
 * Elsewhere fx_d2_pre_t is empty and the _pre tests are the exact ones. */
#if defined(FX_M0_PARTS) && !defined(FX_NO_D2_PREFILTER)
#define FX_M0_D2_PREFILTER 1
typedef struct {
    uint32_t in_down, in_up, out_down, out_up; /* protected^2, visual^2 in 2^16 units, saturated */
} fx_d2_pre_t;
/* r2 in 2^16 units, rounded down (up = 0) or up, saturated to a word */
static inline uint32_t fx_d2_pre_word(uint64_t r2, int up)
{
    const uint64_t w = (r2 >> 16) + (uint64_t)(up && (r2 & 0xFFFFu) != 0);
    return w > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)w;
}
/* r: the inner (protected) range, v: the outer (visual) */
static inline fx_d2_pre_t fx_d2_pre(fx r, fx v)
{
    const uint64_t r2 = fx_sq64(r), v2 = fx_sq64(v);
    const fx_d2_pre_t p = {fx_d2_pre_word(r2, 0), fx_d2_pre_word(r2, 1), fx_d2_pre_word(v2, 0), fx_d2_pre_word(v2, 1)};
    return p;
}
/* -1: d2 < the range^2 surely, 0: surely not, 1: undecided. lo, hi: d2's
 * interval (below 2^30); down, up: the range^2 rounded (a saturated word is
 * above every hi: the range^2 is then at least 2^48 > d2). */
static inline int32_t fx_d2_side(uint32_t lo, uint32_t hi, uint32_t down, uint32_t up)
{
    return hi <= down ? -1 : (lo >= up ? 0 : 1);
}
/* d2's interval [lo 2^16, hi 2^16); lo = FX_D2_FAR: |dx| or |dy| is 2^22 or more */
#define FX_D2_FAR 0xFFFFFFFFu
typedef struct {
    uint32_t lo, hi;
} fx_d2_near_t;
static inline fx_d2_near_t fx_d2_near(fx dx, fx dy)
{
    const uint32_t u = fx_uabs(dx), v = fx_uabs(dy), a = u >> 8, b = v >> 8, lo = a * a + b * b;
    const fx_d2_near_t n = {(u | v) < (1u << 22) ? lo : FX_D2_FAR, lo + 2u * (a + b) + 2u};
    return n;
}
static inline int32_t fx_d2_zones_pre(fx dx, fx dy, fx r, fx a, fx b, fx_d2_pre_t p, int32_t *outer)
{
    const fx_d2_near_t n = fx_d2_near(dx, dy);
    if (n.lo != FX_D2_FAR) {
        const int32_t in = fx_d2_side(n.lo, n.hi, p.in_down, p.in_up), out = fx_d2_side(n.lo, n.hi, p.out_down, p.out_up);
        if (in != 1 && out != 1) {
            *outer = out;
            return in;
        }
    }
    return fx_d2_zones(dx, dy, r, a, b, outer);
}
static inline int32_t fx_d2_within_pre(fx dx, fx dy, fx v, fx_d2_pre_t p)
{
    const fx_d2_near_t n = fx_d2_near(dx, dy);
    if (n.lo != FX_D2_FAR) {
        const int32_t out = fx_d2_side(n.lo, n.hi, p.out_down, p.out_up);
        if (out != 1) return out;
    }
    return fx_d2_within(dx, dy, v);
}
#define FX_D2_BELOW_HI(e, dx, dy, r, pre) ((void)(e), FX_LIKELY(fx_d2_within_pre((dx), (dy), (r), (pre)) < 0))
#else
typedef struct {
    char none; /* no prefilter on this target */
} fx_d2_pre_t;
static inline fx_d2_pre_t fx_d2_pre(fx r, fx v)
{
    const fx_d2_pre_t p = {0};
    (void)r;
    (void)v;
    return p;
}
static inline int32_t fx_d2_zones_pre(fx dx, fx dy, fx r, fx a, fx b, fx_d2_pre_t p, int32_t *outer)
{
    (void)p;
    return fx_d2_zones(dx, dy, r, a, b, outer);
}
static inline int32_t fx_d2_within_pre(fx dx, fx dy, fx v, fx_d2_pre_t p)
{
    (void)p;
    return fx_d2_within(dx, dy, v);
}
#define FX_D2_BELOW_HI(e, dx, dy, r, pre) (FX_LIKELY((e) < 0) || ((e) == 0 && fx_d2_within((dx), (dy), (r)) < 0))
#endif

#endif /* BOIDSGEN_FIXED_ZONES_H */
