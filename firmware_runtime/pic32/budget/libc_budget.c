/* libc_budget.c - memcpy and memset for the budget's m4k image: word-wide
 * when aligned, as XC32's library is (the m4k_check ones are byte loops,
 * fine for a size check but not for counting instructions). 64-bit
 * division comes from libgcc. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
        uint32_t *dw = (uint32_t *)dst;
        const uint32_t *sw = (const uint32_t *)src;
        for (; n >= 16; n -= 16, dw += 4, sw += 4) {
            dw[0] = sw[0];
            dw[1] = sw[1];
            dw[2] = sw[2];
            dw[3] = sw[3];
        }
        for (; n >= 4; n -= 4) *dw++ = *sw++;
        d = (unsigned char *)dw;
        s = (const unsigned char *)sw;
    }
    while (n--) *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if (((uintptr_t)d & 3u) == 0) {
        const uint32_t w = 0x01010101u * (unsigned char)c;
        uint32_t *dw = (uint32_t *)dst;
        for (; n >= 4; n -= 4) *dw++ = w;
        d = (unsigned char *)dw;
    }
    while (n--) *d++ = (unsigned char)c;
    return dst;
}
