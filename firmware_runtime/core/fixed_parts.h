/* fixed_parts.h - 64-bit products on a core without a 32 x 32 -> 64
 * multiply, for fixed.h (included from it, after FX_GCC_SEMANTICS and
 * FX_MIPS_MADD are known; nothing else includes it).
 *
 * The Cortex-M0+ (ARMv6-M: the RP2040) multiplies 32 x 32 -> 32 bits only
 * (MULS, one cycle); GCC builds every 64-bit product as a call to
 * __aeabi_lmul, a 64 x 64 product (the pico-sdk's: four MULS and their
 * carries, plus the call, the sign words and the return: 17 % of a frame's
 * update at 400 boids). FX_M0_PARTS: fx_umul64, fx_smul64, fx_d2, fx_sq64
 * (and fx_mulhi_u32, fx_mul, the zone tests over them) from 16 x 16 partial
 * products inline: four MULS for a product, three for a square, the same
 * 64-bit numbers. FX_PARTIAL_PRODUCTS selects them on any GCC (the unit test
 * on the host, tests/test_fixed_parts.py), FX_NO_PARTIAL_PRODUCTS never. */
#ifndef BOIDSGEN_FIXED_PARTS_H
#define BOIDSGEN_FIXED_PARTS_H

#include <stdint.h>

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

#endif /* BOIDSGEN_FIXED_PARTS_H */
