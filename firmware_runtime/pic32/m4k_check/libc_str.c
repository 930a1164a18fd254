/* libc_str.c - memcmp and strlen for the freestanding M4K images: the
 * board's size check (libc_min.c beside it) and the budget's images
 * (../budget/libc_budget.c), which link no libc. */
#include <stddef.h>
#include <string.h>

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (; n--; p++, q++)
        if (*p != *q) return *p < *q ? -1 : 1;
    return 0;
}

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p) p++;
    return (size_t)(p - s);
}
