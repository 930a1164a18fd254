/* libc_min.c - the C library the firmware needs, for the m4k compile/link
 * check only (XC32 links its own libc; memcmp and strlen are libc_str.c). Plain byte loops: the check
 * measures size, not speed. GCC also emits memcpy/memset calls for
 * structure copies and zeroing, hence these even where no code calls them. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

/* 64-bit division, which MIPS32 lacks in hardware and GCC calls for the
 * fixed-point divide ((a << F) / b). Restoring shift-subtract: one quotient
 * bit per step, high bit first. Division by zero returns 0 (fx_div never asks for it). */
static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0, r = 0;
    int i;
    if (d == 0) {
        *rem = 0;
        return 0;
    }
    /* constant shifts only: variable 64-bit shifts would call libgcc */
    for (i = 0; i < 64; i++) {
        r = (r << 1) | (n >> 63);
        n <<= 1;
        q <<= 1;
        if (r >= d) {
            r -= d;
            q |= 1u;
        }
    }
    *rem = r;
    return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t a, int64_t b);
int64_t __moddi3(int64_t a, int64_t b);

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    return udivmod64(n, d, &r);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    (void)udivmod64(n, d, &r);
    return r;
}

/* Magnitudes in unsigned arithmetic, so INT64_MIN needs no special case;
 * C99 semantics: the quotient truncates toward zero, the remainder takes
 * the dividend's sign. */
int64_t __divdi3(int64_t a, int64_t b)
{
    uint64_t ua = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0u - (uint64_t)b : (uint64_t)b, r;
    uint64_t q = udivmod64(ua, ub, &r);
    return (int64_t)((a < 0) != (b < 0) ? 0u - q : q);
}

int64_t __moddi3(int64_t a, int64_t b)
{
    uint64_t ua = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0u - (uint64_t)b : (uint64_t)b, r;
    (void)udivmod64(ua, ub, &r);
    return (int64_t)(a < 0 ? 0u - r : r);
}
