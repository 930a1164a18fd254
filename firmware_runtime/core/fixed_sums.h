/* fixed_sums.h - a 32-bit term into a 64-bit neighbour sum: part of
 * fixed.h (include that). */
#ifndef BOIDSGEN_FIXED_SUMS_H
#define BOIDSGEN_FIXED_SUMS_H

#include <stdint.h>

/* s + v and s - v, v sign-extended, and fx_acc_add_to(&s, v): s += v. Every
 * fx_acc accumulate of the rules is one (codegen/targets/c/expr.py prints
 * the statements, codegen/targets/pic32/ring_sched.py the values): exact,
 * never overflowing (the range analysis bounds the sums). On the Cortex-M0+
 * GCC's Thumb-1 code builds the sign-extended term as an int64 of its own
 * and moves it through the stack (two stores, two loads) before its
 * ADDS/ADCS; FX_M0_SUMS gives the three instructions, ASRS for the sign word
 * and ADDS/ADCS (SUBS/SBCS) on the sum's halves, the same 64-bit sum (the
 * asm's operands are low registers, "l": Thumb-1's ADCS takes no other).
 * FX_NO_M0_SUMS turns it off. */
#if defined(__ARM_ARCH_6M__) && defined(FX_GCC_SEMANTICS) && !defined(FX_NO_M0_SUMS)
#define FX_M0_SUMS 1
#define FX_SUM_STEP(s, v, op, opc)                                                                  \
    do {                                                                                            \
        uint32_t lo_ = (uint32_t)(uint64_t)(s), hi_ = (uint32_t)((uint64_t)(s) >> 32), sign_;       \
        __asm__(".syntax unified\n\tasrs %2, %3, #31\n\t" op " %0, %0, %3\n\t" opc " %1, %1, %2\n\t" \
                ".syntax divided"                                                                   \
                : "+l"(lo_), "+l"(hi_), "=&l"(sign_) : "l"(v) : "cc");                              \
        (s) = (fx_acc)(((uint64_t)hi_ << 32) | lo_);                                                \
    } while (0)
static inline fx_acc fx_acc_add(fx_acc s, int32_t v)
{
    FX_SUM_STEP(s, v, "adds", "adcs");
    return s;
}
static inline fx_acc fx_acc_sub(fx_acc s, int32_t v)
{
    FX_SUM_STEP(s, v, "subs", "sbcs");
    return s;
}
#undef FX_SUM_STEP
static inline void fx_acc_add_to(fx_acc *p, int32_t v) { *p = fx_acc_add(*p, v); }
static inline void fx_acc_sub_to(fx_acc *p, int32_t v) { *p = fx_acc_sub(*p, v); }
#else
/* elsewhere the very C that `s + v` and `s += v` were (macros: the PIC32's
 * machine code stays what it was, byte for byte) */
#define fx_acc_add(s, v) ((s) + (int32_t)(v))
#define fx_acc_sub(s, v) ((s) - (int32_t)(v))
#define fx_acc_add_to(p, v) ((void)(*(p) += (int32_t)(v)))
#define fx_acc_sub_to(p, v) ((void)(*(p) -= (int32_t)(v)))
#endif

#endif /* BOIDSGEN_FIXED_SUMS_H */
