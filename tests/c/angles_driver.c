/* tests/test_angles.py's driver: fixed_angles.h's and fixed_draws.h's
 * functions on the cases it reads, one a line ("op a b c"), one result a line. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fixed.h"

int main(void)
{
    char op[16];
    long long a, b, c;
    while (scanf("%15s %lld %lld %lld", op, &a, &b, &c) == 4) {
        const fx x = (fx)a, y = (fx)b, t = (fx)c;
        long long r = 0;
        if (!strcmp(op, "sin")) r = fx_sin(x);
        else if (!strcmp(op, "cos")) r = fx_cos(x);
        else if (!strcmp(op, "atan2")) r = fx_atan2(x, y);
        else if (!strcmp(op, "unit_x")) r = fx_unit_x(x, y);
        else if (!strcmp(op, "unit_y")) r = fx_unit_y(x, y);
        else if (!strcmp(op, "rotate_x")) r = fx_rotate_x(x, y, t);
        else if (!strcmp(op, "rotate_y")) r = fx_rotate_y(x, y, t);
        else if (!strcmp(op, "random")) r = fx_random((uint32_t)a);
        else if (!strcmp(op, "random_int")) r = fx_random_int((uint32_t)a, (int32_t)b, (int32_t)c);
        else return 2;
        printf("%lld\n", r);
    }
    return 0;
}
