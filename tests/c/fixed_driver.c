/* Test driver: reads "op a b" lines, prints the runtime's result, so the
 * Python twin can be compared bit for bit. Build with -DFX_FRAC_BITS=F. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fixed.h"

int main(void)
{
    char op[16];
    long long a, b;
    while (scanf("%15s %lld %lld", op, &a, &b) == 3) {
        fx x = (fx)a, y = (fx)b, r = 0;
        if (!strcmp(op, "add")) r = fx_add(x, y);
        else if (!strcmp(op, "sub")) r = fx_sub(x, y);
        else if (!strcmp(op, "mul")) r = fx_mul(x, y);
        else if (!strcmp(op, "div")) r = fx_div(x, y);
        else if (!strcmp(op, "idiv")) r = fx_idiv(x, (int32_t)y);
        else if (!strcmp(op, "sqrt")) r = fx_sqrt(x);
        else if (!strcmp(op, "abs")) r = fx_abs(x);
        else if (!strcmp(op, "neg")) r = fx_neg(x);
        else if (!strcmp(op, "from_int")) r = fx_from_int((int32_t)a);
        else return 2;
        printf("%" PRId32 "\n", r);
    }
    return 0;
}
