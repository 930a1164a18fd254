/* Test driver for fixed.h's width-dependent spellings (tests/test_widths.py):
 * reads "op a b c" lines, prints the result as a decimal integer. Built
 * natively and for the M4K (mipsel-linux-gnu-gcc -march=m4k -O1, run under
 * qemu-mipsel), so the inline-assembly and 32-bit forms are checked against
 * pysim/fxops.py on the core they are written for (acc_mean_about: a is the
 * whole 64-bit sum; div: fx_div in words; *_by: the means by
 * a reciprocal, m computed here). -DFX_FRAC_BITS=F. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fixed.h"

int main(void)
{
    char op[24];
    long long a, b, c;
    while (scanf("%23s %lld %lld %lld", op, &a, &b, &c) == 4) {
        const fx x = (fx)a, y = (fx)b, z = (fx)c;
        if (!strcmp(op, "d2")) printf("%" PRIu64 "\n", fx_d2(x, y));
        else if (!strcmp(op, "sq64")) printf("%" PRIu64 "\n", fx_sq64(x));
        else if (!strcmp(op, "acc32_mean")) printf("%" PRId32 "\n", fx_acc32_mean(x, (int32_t)y));
        else if (!strcmp(op, "acc32_mean_about")) printf("%" PRId32 "\n", fx_acc32_mean_about(x, (int32_t)y, z));
        else if (!strcmp(op, "mul")) printf("%" PRId32 "\n", fx_mul(x, y));
        else if (!strcmp(op, "about")) printf("%" PRId32 "\n", fx_acc32_about(x, (int32_t)y, z));
        else if (!strcmp(op, "acc_mean_about")) printf("%" PRId32 "\n", fx_acc_mean_about((fx_acc)a, (int32_t)y, z));
        else if (!strcmp(op, "zones")) { /* c: r in the low word, r2 in the high */
            const fx r = (fx)(uint32_t)((unsigned long long)c & 0xFFFFFFFFu), r2 = (fx)(c >> 32);
            int32_t outer;
            const int32_t inner = fx_d2_zones(x, y, r, (fx)(r2 - r), (fx)(r2 + r), &outer);
            printf("%d\n", (inner < 0) + 2 * (outer < 0));
        } else if (!strcmp(op, "within")) printf("%d\n", fx_d2_within(x, y, z) < 0);
        else if (!strcmp(op, "d2hi")) printf("%" PRIu32 "\n", fx_d2_hi(x, y));
        else if (!strcmp(op, "below_hi")) {
            const int32_t e = (int32_t)(fx_d2_hi(x, y) - fx_sq_hi(z));
            printf("%d\n", FX_D2_BELOW_HI(e, x, y, z, fx_d2_pre(0, z)) ? 1 + (e == 0) : 0); /* 2: in, by the whole test */
        }
        else if (!strcmp(op, "acc32_sum")) printf("%" PRId32 "\n", fx_add(fx_add(x, y), z));
        else if (!strcmp(op, "div")) printf("%" PRId32 "\n", fx_div(x, y));
        else if (!strcmp(op, "mean_by")) printf("%" PRId32 "\n", fx_acc32_mean_by(x, (int32_t)y, 0xFFFFFFFFu / (uint32_t)y));
        else if (!strcmp(op, "mean_about_by"))
            printf("%" PRId32 "\n", fx_acc32_mean_about_by(x, (int32_t)y, z, 0xFFFFFFFFu / (uint32_t)y));
        else return 2;
        (void)z;
    }
    return 0;
}
