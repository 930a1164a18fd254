/* fixed_index.h - an array index from its byte offset without a division:
 * part of fixed.h (include that). */
#ifndef BOIDSGEN_FIXED_INDEX_H
#define BOIDSGEN_FIXED_INDEX_H

#include <stdint.h>

/* bytes / size where bytes is a multiple of size (an array index from a byte
 * offset: the pair ring's slot, codegen/targets/c/ring.py), by no division:
 * with size = 2^t m (m odd), (bytes >> t) times m's inverse modulo 2^32
 * (Newton's steps from x = m, each doubling the bits right: 3, 6, 12, 24, 48)
 * is the quotient exactly. A constant size folds to a shift and one MULS; on
 * the Cortex-M0+ the inverse is hidden from GCC, whose Thumb-1 cost model
 * otherwise spells the multiply as a dozen shifts and adds. */
static inline uint32_t fx_exact_index(uint32_t bytes, uint32_t size)
{
    uint32_t t = 0, m = size, x;
    while (!(m & 1u)) m >>= 1, t++;
    x = m;
    x *= 2u - m * x;
    x *= 2u - m * x;
    x *= 2u - m * x;
    x *= 2u - m * x;
#if defined(__ARM_ARCH_6M__) && defined(__GNUC__)
    __asm__("" : "+l"(x));
#endif
    return (bytes >> t) * x;
}

#endif /* BOIDSGEN_FIXED_INDEX_H */
