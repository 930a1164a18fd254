/* Test driver for fixed.h's magnitude compares (codegen/passes/roots.py;
 * tests/test_roots.py): reads "op a b" lines, prints the result as a decimal
 * integer. For mag2 a and b are x and y; for the others a is the squared
 * magnitude s (uint64) and b the 32-bit m. Built natively (GCC's spellings
 * and FX_PORTABLE's) and for the M4K (mipsel-linux-gnu-gcc -march=m4k -O1,
 * where fx_sq64 is a `mult` into HI:LO), run under qemu-mipsel. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed.h"

int main(void)
{
    char op[24], ta[32], tb[32];
    while (scanf("%23s %31s %31s", op, ta, tb) == 3) {
        const uint64_t s = strtoull(ta, NULL, 10);
        const fx x = (fx)strtoll(ta, NULL, 10), m = (fx)strtoll(tb, NULL, 10);
        if (!strcmp(op, "mag2")) printf("%" PRIu64 "\n", fx_mag2(x, m));
        else if (!strcmp(op, "mag_root")) printf("%" PRId32 "\n", fx_mag_root(s));
        else if (!strcmp(op, "isqrt64")) printf("%" PRIu64 "\n", fx_isqrt64(s));
        else if (!strcmp(op, "mag_lt")) printf("%d\n", fx_mag_lt(s, m));
        else if (!strcmp(op, "mag_le")) printf("%d\n", fx_mag_le(s, m));
        else if (!strcmp(op, "mag_gt")) printf("%d\n", fx_mag_gt(s, m));
        else if (!strcmp(op, "mag_ge")) printf("%d\n", fx_mag_ge(s, m));
        else if (!strcmp(op, "mag_eq")) printf("%d\n", fx_mag_eq(s, m));
        else if (!strcmp(op, "mag_ne")) printf("%d\n", fx_mag_ne(s, m));
        else return 2;
    }
    return 0;
}
