/* fixed.h - the one definition of boidsgen's fixed-point arithmetic in C.
 *
 * A value is a signed 32-bit integer holding round(v * 2^FX_FRAC_BITS).
 * FX_FRAC_BITS comes from the generated boids_config.h (15 for s16.15,
 * 16 for s15.16). The Python twin is pysim/fixed.py: every function here
 * has a numpy function there with the same name and the same rounding, and
 * tests/test_fixed_ops.py compares the two bit for bit.
 *
 * Rounding, defined once:
 *   add, sub, neg, abs  wrap modulo 2^32 (done in unsigned: no C overflow UB)
 *   mul                 64-bit product, arithmetic shift right (floor)
 *   div                 (a << F) / b in 64 bits, C truncation toward zero;
 *                       b == 0 yields 0 (callers guard; this only keeps the
 *                       board alive)
 *   idiv                a / n for an integer count n, truncation toward zero
 *   sqrt                floor(sqrt(a * 2^F)), exact; negative input yields 0
 * Every result is wrapped to 32 bits the same way in C and Python.
 */
#ifndef BOIDSGEN_FIXED_H
#define BOIDSGEN_FIXED_H

#include <stdint.h>

#define BOIDSRT_VERSION_MAJOR 1
#define BOIDSRT_VERSION_MINOR 0

#ifndef FX_FRAC_BITS
#include "boids_config.h" /* generated: defines FX_FRAC_BITS for the spec */
#endif
#ifndef FX_FRAC_BITS
#error "FX_FRAC_BITS must be defined (include the generated boids_config.h first)"
#endif
#if FX_FRAC_BITS < 1 || FX_FRAC_BITS > 30
#error "FX_FRAC_BITS must be between 1 and 30"
#endif

typedef int32_t fx;

#define FX_ONE ((fx)1 << FX_FRAC_BITS)
#define FX_MAX ((fx)INT32_MAX)
#define FX_MIN ((fx)INT32_MIN)

/* GCC (and so XC32) documents two implementation-defined behaviours we can
 * use: narrowing to a signed type reduces modulo 2^N, and >> of a negative
 * value shifts arithmetically. With them each operation below is one or two
 * instructions on the M4K. Other compilers (or -DFX_PORTABLE) get the
 * portable spelling of the very same functions; tests/test_fixed_ops.py
 * checks both against the Python twin. */
#if defined(__GNUC__) && !defined(FX_PORTABLE)
#define FX_GCC_SEMANTICS 1
#endif

/* A 32-bit pattern as a signed value (two's complement). */
static inline fx fx_from_u32(uint32_t u)
{
#ifdef FX_GCC_SEMANTICS
    return (fx)u;
#else
    return (u & 0x80000000u) ? -(fx)(~u) - 1 : (fx)u;
#endif
}

/* Wrap a 64-bit value to 32 bits, two's complement. */
static inline fx fx_wrap64(int64_t v) { return fx_from_u32((uint32_t)((uint64_t)v & 0xFFFFFFFFu)); }

static inline fx fx_from_int(int32_t i) { return fx_from_u32((uint32_t)i << FX_FRAC_BITS); }
static inline fx fx_add(fx a, fx b) { return fx_from_u32((uint32_t)a + (uint32_t)b); }
static inline fx fx_sub(fx a, fx b) { return fx_from_u32((uint32_t)a - (uint32_t)b); }
static inline fx fx_neg(fx a) { return fx_from_u32(0u - (uint32_t)a); }
/* |a| as an unsigned word (2^31 for FX_MIN, which fx_abs cannot hold). */
static inline uint32_t fx_uabs(fx a) { return a < 0 ? 0u - (uint32_t)a : (uint32_t)a; }
/* |a|, wrapping at INT32_MIN like fx_neg; without a branch: the pair loop's
 * box test takes two a candidate, and on the M4K a branch on the sign cost
 * a taken branch half the time (the candidate loop's profile, in BENCHMARKS.md's history). */
static inline fx fx_abs(fx a)
{
#ifdef FX_GCC_SEMANTICS
    const fx m = a >> 31; /* GCC: arithmetic shift */
    return fx_from_u32(((uint32_t)a ^ (uint32_t)m) - (uint32_t)m);
#else
    const uint32_t m = 0u - ((uint32_t)a >> 31);
    return fx_from_u32(((uint32_t)a ^ m) - m);
#endif
}

/* The pair loop's box test, |d| >= box, in integers (no wrap at INT32_MIN;
 * every d is outside when box <= 0), as one add and one unsigned compare:
 * with bias = box - 1 and lim = 2 box - 1 (0 when box <= 0), d is inside
 * exactly when d + bias, mod 2^32, is below lim (the 2 box - 1 values from
 * -(box - 1) to box - 1 map to 0 .. 2 box - 2, and no other int32 does).
 * bias and lim once a frame; pysim/fxops.py's fx_outside_box is the twin. */
static inline uint32_t fx_box_bias(fx box) { return (uint32_t)box - 1u; }
static inline uint32_t fx_box_lim(fx box) { return box > 0 ? 2u * (uint32_t)box - 1u : 0u; }
static inline int fx_outside_box(fx d, uint32_t bias, uint32_t lim) { return (uint32_t)d + bias >= lim; }

/* Floor division by 2^s of a 64-bit value (an arithmetic shift right). */
static inline int64_t fx_asr64(int64_t v, int s)
{
#ifdef FX_GCC_SEMANTICS
    return v >> s;
#else
    return v >= 0 ? (v >> s) : -(int64_t)((((uint64_t)-v) + ((1ull << s) - 1)) >> s);
#endif
}

/* The MIPS32 HI:LO products (fx_umul64, fx_smul64, fx_d2, fx_sq64) where the core has
 * them; FX_NO_MIPS_ASM turns them off. */
#if defined(FX_GCC_SEMANTICS) && defined(__mips__) && !defined(__mips64) && !defined(FX_NO_MIPS_ASM) \
    && defined(__mips_isa_rev) && __mips_isa_rev < 6
#define FX_MIPS_MADD 1
#endif

/* The Cortex-M0+ (ARMv6-M: the RP2040) multiplies 32 x 32 -> 32 bits only
 * (MULS, one cycle); GCC builds every 64-bit product as a call to
 * __aeabi_lmul, a 64 x 64 product (the pico-sdk's: four MULS and their
 * carries, plus the call, the sign words and the return: 17 % of a frame's
 * update at 400 boids). FX_M0_PARTS: fx_umul64, fx_smul64, fx_d2, fx_sq64
 * (and fx_mulhi_u32, fx_mul, the zone tests over them) from 16 x 16 partial
 * products inline: four MULS for a product, three for a square, the same
 * 64-bit numbers. FX_PARTIAL_PRODUCTS selects them on any GCC (the unit test
 * on the host, tests/test_fixed_parts.py), FX_NO_PARTIAL_PRODUCTS never. */
#if (defined(__ARM_ARCH_6M__) || defined(FX_PARTIAL_PRODUCTS)) && defined(FX_GCC_SEMANTICS) \
    && !defined(FX_NO_PARTIAL_PRODUCTS) && !defined(FX_MIPS_MADD)
#define FX_M0_PARTS 1
/* a b = (ah 2^16 + al)(bh 2^16 + bl): each 16 x 16 product below 2^32; the
 * middle two summed carry into bit 48 at most once */
static inline uint64_t fx_umul64_parts(uint32_t a, uint32_t b)
{
    const uint32_t al = a & 0xFFFFu, ah = a >> 16, bl = b & 0xFFFFu, bh = b >> 16;
    const uint32_t ll = al * bl, lh = al * bh, mid = lh + ah * bl;
    const uint32_t lo = ll + (mid << 16);
    const uint32_t hi = ah * bh + (mid >> 16) + ((uint32_t)(mid < lh) << 16) + (uint32_t)(lo < ll);
    return ((uint64_t)hi << 32) | lo;
}
/* a^2 = ah^2 2^32 + (al ah) 2^17 + al^2: three products */
static inline uint64_t fx_usq64_parts(uint32_t a)
{
    const uint32_t al = a & 0xFFFFu, ah = a >> 16, ll = al * al, m = al * ah;
    const uint32_t lo = ll + (m << 17);
    const uint32_t hi = ah * ah + (m >> 15) + (uint32_t)(lo < ll);
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* FX_LOADED(v): v is in a register from here on, so its load issues before
 * this point. A hint for the M4K's load-use cycle, which no pass at -O1
 * hides: GCC keeps source order there (no scheduler) and sinks a load used
 * once to its use, so `s += o->vx` waits a cycle. The generated pair loop
 * puts two loads ahead of their adds this way. An empty asm with v as input:
 * no instruction, no change to any value. */
#ifdef FX_MIPS_MADD
#define FX_LOADED(v) __asm__("" : : "r"(v))
#else
#define FX_LOADED(v) ((void)0)
#endif

/* FX_LIKELY(c): c is expected true, so GCC lays out its true side as the
 * fall-through (its block order honours the hint from -O1). The window's
 * zone test (codegen/passes/window_sums.py): most pairs of the own band are in
 * the zone, and their visit ends there. */
#if defined(__GNUC__)
#define FX_LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define FX_LIKELY(c) (c)
#endif

/* The 64-bit product of two words: one `multu` on the M4K (at -O1 GCC
 * builds it in software, as for fx_d2 below). */
static inline uint64_t fx_umul64(uint32_t a, uint32_t b)
{
#ifdef FX_MIPS_MADD
    uint64_t hilo;
    __asm__("multu\t%1, %2" : "=x"(hilo) : "d"(a), "d"(b));
    return hilo;
#elif defined(FX_M0_PARTS)
    return fx_umul64_parts(a, b);
#else
    return (uint64_t)a * b;
#endif
}

/* The signed 64-bit product of two words: one `mult` on the M4K (GCC's
 * widening multiply is an -O2 pass: at -O1 it multiplies 64 by 64 bits,
 * three products and their carries, in every fx_mul). */
static inline int64_t fx_smul64(int32_t a, int32_t b)
{
#ifdef FX_MIPS_MADD
    int64_t hilo;
    __asm__("mult\t%1, %2" : "=x"(hilo) : "d"(a), "d"(b));
    return hilo;
#elif defined(FX_M0_PARTS)
    /* the unsigned product less 2^32 b for a < 0 and 2^32 a for b < 0, modulo 2^64 */
    const uint64_t p = fx_umul64_parts((uint32_t)a, (uint32_t)b);
    const uint32_t hi = (uint32_t)(p >> 32) - (a < 0 ? (uint32_t)b : 0u) - (b < 0 ? (uint32_t)a : 0u);
    return (int64_t)(((uint64_t)hi << 32) | (uint32_t)p);
#else
    return (int64_t)a * b;
#endif
}

static inline fx fx_mul(fx a, fx b)
{
    return fx_wrap64(fx_asr64(fx_smul64(a, b), FX_FRAC_BITS));
}

static inline fx fx_idiv(fx a, int32_t n)
{
    if (n == 0) return 0;
    return fx_wrap64((int64_t)a / (int64_t)n);
}

/* The number of leading zero bits of v != 0 (`clz` on MIPS32). */
static inline int fx_clz32(uint32_t v)
{
#if defined(__GNUC__)
    return __builtin_clz(v);
#else
    int n = 0;
    while (!(v & 0x80000000u)) {
        v <<= 1;
        n++;
    }
    return n;
#endif
}

/* Squared distances in 64 bits (2F fraction bits): exact, never wrap
 * (dx^2 + dy^2 <= 2^63 < 2^64).
 *
 * On the M4K (MIPS32, GCC) this is one `mult` and one `madd` into HI:LO:
 * GCC recognises a 32x32->64 product only at -O2 (its widening-multiply
 * pass is -fexpensive-optimizations); at -O1, XC32's free level, it builds
 * each product from a `mul`, a `multu` and shifts (about 20 instructions
 * for d2). HI:LO += rs * rt is the signed 64-bit product summed modulo
 * 2^64, and the exact sum is below 2^64, so HI:LO read as unsigned is the
 * same number as the portable spelling (tests/test_widths.py runs both
 * under qemu-mipsel against pysim/fxops.py's fx_d2). FX_NO_MIPS_ASM turns
 * it off (FX_MIPS_MADD: above fx_umul64). */
static inline uint64_t fx_d2(fx dx, fx dy)
{
#ifdef FX_MIPS_MADD
    uint64_t hilo;
    __asm__("mult\t%1, %1\n\tmadd\t%2, %2" : "=x"(hilo) : "d"(dx), "d"(dy));
    return hilo;
#elif defined(FX_M0_PARTS)
    return fx_usq64_parts(fx_uabs(dx)) + fx_usq64_parts(fx_uabs(dy));
#else
    return (uint64_t)((int64_t)dx * dx) + (uint64_t)((int64_t)dy * dy);
#endif
}
/* The high word of the 64-bit product of two words (`multu`, `mfhi`). */
static inline uint32_t fx_mulhi_u32(uint32_t a, uint32_t b) { return (uint32_t)(fx_umul64(a, b) >> 32); }
static inline uint64_t fx_sq64(fx r)
{
#ifdef FX_MIPS_MADD
    uint64_t hilo;
    __asm__("mult\t%1, %1" : "=x"(hilo) : "d"(r));
    return hilo;
#elif defined(FX_M0_PARTS)
    return fx_usq64_parts(fx_uabs(r));
#else
    return (uint64_t)((int64_t)r * r);
#endif
}

/* Neighbour sums accumulate in 64 bits, exactly, whatever the flock size;
 * they come back to 32 bits as a mean (truncating) or wrapped. */
typedef int64_t fx_acc;
static inline fx fx_acc_mean(fx_acc sum, int32_t n) { return n == 0 ? 0 : fx_wrap64(sum / n); }
static inline fx fx_acc_fx(fx_acc sum) { return fx_wrap64(sum); }

/* A neighbour sum the range analysis proves within int32 (codegen/passes/widths.py):
 * accumulated by fx_add / fx_sub (wrapping, one instruction each) and divided
 * 32/32 (the M4K's `div`, about 35 cycles, against libgcc's __divdi3). The
 * simulator keeps the exact 64-bit sum and wraps it to 32 bits where it is
 * read: wrapping addition is associative, so both hold the same bits always,
 * and where the bound holds they are the exact sum. The quotient truncates
 * toward zero as fx_acc_mean; n == 0 gives 0; INT32_MIN / -1 wraps to
 * INT32_MIN as fx_acc_mean's 64-bit quotient does (never C's overflow). */
typedef int32_t fx_acc32;
static inline fx fx_acc32_mean(fx_acc32 sum, int32_t n)
{
    if (n == 0) return 0;
    if (n == -1) return fx_neg(sum);
    return sum / n;
}

/* The 32-bit sum of n offsets from base, from the sum p of the n positions
 * (codegen/passes/c_positions.py): p - n * base modulo 2^32, which is the
 * offsets' sum modulo 2^32 for any p, n, base, as the sums wrap. */
static inline fx_acc32 fx_acc32_about(fx_acc32 p, int32_t n, fx base)
{
    return fx_from_u32((uint32_t)p - (uint32_t)n * (uint32_t)base);
}

/* A mean of positions from the sum d of their offsets from base
 * (codegen/passes/offsets.py): trunc((d + n * base) / n), wrapped; n == 0
 * gives 0. It is fx_acc_mean of the positions' own sum, exactly. The 32-bit
 * form divides 32/32 (one `div`): with f = floor(d / n) the true quotient is
 * f + base when n divides d, else inside (f + base, f + base + 1), which
 * truncates toward zero; f + base is formed in 64 bits so that the result
 * wraps as the 64-bit form's does. */
static inline fx fx_acc_mean_about(fx_acc d, int32_t n, fx base)
{
    return n == 0 ? 0 : fx_wrap64((d + (int64_t)n * base) / n);
}
static inline fx fx_acc32_mean_about(fx_acc32 d, int32_t n, fx base)
{
    int32_t q, r;
    int64_t v;
    if (n == 0) return 0;
    if (n == -1) return fx_wrap64((int64_t)base - d); /* d / -1 overflows at INT32_MIN */
    q = d / n;
    r = d % n;
    if (r != 0 && ((r < 0) != (n < 0))) q--; /* floor(d / n) */
    v = (int64_t)q + base;
    if (r != 0 && v < 0) v++;
    return fx_wrap64(v);
}

/* The 32-bit means with the divisor as a multiply, for 1 <= n, from m =
 * floor((2^32 - 1) / n) (a table in the generated code: boids_flock.c's
 * boids_recip). For any word v, v * m / 2^32 lies in (v / n - 1, v / n]
 * (m >= (2^32 - n) / n), so its floor is floor(v / n) or one less, and one
 * compare of the remainder corrects it: two `multu`s (the remainder's
 * product from LO: a `mul` would wait on its result) and a few ALU
 * instructions where `div` takes about 35 cycles on the M4K. Equal to
 * fx_acc32_mean and fx_acc32_mean_about for every sum and n >= 1
 * (tests/test_widths.py). */
static inline uint32_t fx_udiv_by(uint32_t v, uint32_t n, uint32_t m, uint32_t *rem)
{
    uint32_t q = fx_mulhi_u32(v, m), r = v - (uint32_t)fx_umul64(q, n);
    if (r >= n) {
        q++;
        r -= n;
    }
    *rem = r;
    return q;
}
static inline fx fx_acc32_mean_by(fx_acc32 sum, int32_t n, uint32_t m)
{
    uint32_t r;
    const uint32_t q = fx_udiv_by(fx_uabs(sum), (uint32_t)n, m, &r);
    return fx_from_u32(sum < 0 ? 0u - q : q);
}
/* In words: s = floor(d / n) + base wraps where the exact sum leaves int32;
 * the exact sum is negative when s is, unless the add overflowed (both
 * terms of one sign, s of the other), which flips it. */
static inline fx fx_acc32_mean_about_by(fx_acc32 d, int32_t n, fx base, uint32_t m)
{
    uint32_t r;
    const uint32_t q = fx_udiv_by(fx_uabs(d), (uint32_t)n, m, &r);
    const uint32_t f = d < 0 ? 0u - q - (r != 0) : q, s = f + (uint32_t)base; /* floor(d / n) + base */
    const int negative = (int32_t)(s ^ ((f ^ s) & ((uint32_t)base ^ s))) < 0;
    return fx_from_u32(s + (uint32_t)(r != 0 && negative));
}

/* trunc(a * 2^FX_FRAC_BITS / b), wrapped; b == 0 gives 0. For |b| < 2^24
 * in words: |a| / |b|, then the fraction's bits as many at a time as a
 * word holds beside the remainder (r < |b|, so r << clz(|b|) fits), each
 * digit and remainder by |b|'s reciprocal (fx_udiv_by: a `multu` and one
 * correction, exact for any word). The reciprocal is one `divu`, and two
 * divisions by the same b (a vector by its length) share it once inlined;
 * the 64-bit quotient would be a libgcc __divdi3 call. The quotient is kept
 * modulo 2^32, the bits fx_wrap64 keeps of the 64-bit one. */
static inline fx fx_div(fx a, fx b)
{
    const uint32_t ua = fx_uabs(a), ub = fx_uabs(b);
    const uint32_t m = UINT32_MAX / (ub | (ub == 0)); /* before any branch: two divisions by one b share it */
    uint32_t q, r;
    int k, w;
    if (b == 0) return 0;
    if (ub >= (1u << 24)) return fx_wrap64(((int64_t)a * FX_ONE) / (int64_t)b);
    w = fx_clz32(ub);
    if (ua < ub) { /* a quotient below 1 (a vector's part by its length): no step for its integer part */
        q = 0;
        r = ua;
    } else {
        q = fx_udiv_by(ua, ub, m, &r);
    }
    for (k = FX_FRAC_BITS; k > 0; k -= w) { /* q = floor(|a| 2^j / |b|), r its remainder, j bits done */
        uint32_t d;
        if (w > k) w = k;
        d = fx_udiv_by(r << w, ub, m, &r);
        q = (q << w) + d;
    }
    return fx_from_u32((a < 0) != (b < 0) ? 0u - q : q);
}

/* The rule language's remaining named ops (codegen/lang/ops.py), each one
 * function so the C emitter (codegen/targets/c/expr.py) prints one call
 * per op and never evaluates an argument twice. Twins: pysim/fxops.py. */

/* int (int32_t) arithmetic wraps modulo 2^32 like the fixed ops: never C's
 * signed overflow. fx_imul is also fixed * int (the same low 32 bits). */
static inline int32_t fx_iadd(int32_t a, int32_t b) { return fx_from_u32((uint32_t)a + (uint32_t)b); }
static inline int32_t fx_isub(int32_t a, int32_t b) { return fx_from_u32((uint32_t)a - (uint32_t)b); }
static inline int32_t fx_ineg(int32_t a) { return fx_from_u32(0u - (uint32_t)a); }
static inline int32_t fx_imul(int32_t a, int32_t b) { return fx_from_u32((uint32_t)a * (uint32_t)b); }

/* int(a): the integer part, truncated toward zero (as C's cast of a real). */
static inline int32_t fx_trunc(fx a) { return a / FX_ONE; }

/* -1, 0 or 1; of a neighbour sum, the sign of its exact 64-bit value. */
static inline int32_t fx_sign(fx a) { return (a > 0) - (a < 0); }
static inline int32_t fx_acc_sign(fx_acc s) { return (s > 0) - (s < 0); }

/* min and max give the first on ties (the same value); clamp(v, lo, hi) is
 * v < lo ? lo : (v > hi ? hi : v), so lo wins when lo > hi. Also for int. */
static inline fx fx_min(fx a, fx b) { return b < a ? b : a; }
static inline fx fx_max(fx a, fx b) { return b > a ? b : a; }
static inline fx fx_clamp(fx v, fx lo, fx hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* Exact square roots and magnitudes (fx_isqrt64, fx_sqrt, fx_hypot, fx_amb,
 * fx_mag_*), and the pair loop's zone tests on d2 (fx_d2_zones,
 * fx_d2_within, fx_d2_hi): one concept a file. */
#include "fixed_roots.h"
#include "fixed_zones.h"
/* A PRNG draw as random() and random_int(a, b) of the rules. */
#include "fixed_draws.h"
/* Angles in turns and vectors: sin, cos, atan2, unit, rotate (a table). */
#include "fixed_angles.h"
/* An array index from a byte offset by a multiply (the pair ring's slot). */
#include "fixed_index.h"
/* A 32-bit term into a 64-bit sum (three instructions on the Cortex-M0+). */
#include "fixed_sums.h"

#endif /* BOIDSGEN_FIXED_H */
