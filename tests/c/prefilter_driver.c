/* prefilter_driver.c - fixed_zones.h's zone tests with the Cortex-M0+'s
 * prefilter (fx_d2_zones_pre, fx_d2_within_pre) for tests/test_fixed_parts.py.
 * Reads lines "dx dy r v" (signed decimal words: r the protected range, v
 * the visual), prints "inner outer within" as the prefiltered tests answer
 * them, then the same three from the exact tests (fx_d2_zones, fx_d2_within). */
#include <inttypes.h>
#include <stdio.h>

#include "fixed.h"
#include "fixed_zones.h"

int main(void)
{
    int32_t dx, dy, r, v;
    while (scanf("%" SCNd32 " %" SCNd32 " %" SCNd32 " %" SCNd32, &dx, &dy, &r, &v) == 4) {
        const fx a = fx_sub(v, r), b = fx_add(v, r);
        const fx_d2_pre_t pre = fx_d2_pre(r, v);
        int32_t outer, outer_exact;
        const int32_t inner = fx_d2_zones_pre(dx, dy, r, a, b, pre, &outer);
        const int32_t inner_exact = fx_d2_zones(dx, dy, r, a, b, &outer_exact);
        printf("%d %d %d %d %d %d\n", (int)inner, (int)outer, (int)fx_d2_within_pre(dx, dy, v, pre),
               (int)inner_exact, (int)outer_exact, (int)fx_d2_within(dx, dy, v));
    }
#ifdef FX_M0_D2_PREFILTER
    fputs("prefilter\n", stderr);
#endif
    return 0;
}
