/* string.h for the m4k compile check only: the four functions the firmware
 * uses, implemented in libc_min.c. XC32 builds use the real one. */
#ifndef BOIDSGEN_M4K_STRING_H
#define BOIDSGEN_M4K_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#endif
