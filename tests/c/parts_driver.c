/* parts_driver.c - fixed.h's 64-bit products for tests/test_fixed_parts.py:
 * built with -DFX_PARTIAL_PRODUCTS (the Cortex-M0+'s 16 x 16 partial
 * products, FX_M0_PARTS) or without (the portable C products). Reads lines
 * "a b r" (unsigned 32-bit words in hex), prints per line the unsigned and
 * signed products, mulhi, d2 and the squares, the zone tests and fx_mul. */
#include <inttypes.h>
#include <stdio.h>

#include "fixed.h"
#include "fixed_zones.h"

int main(void)
{
    uint32_t a, b, r;
    while (scanf("%" SCNx32 " %" SCNx32 " %" SCNx32, &a, &b, &r) == 3) {
        const fx sa = fx_from_u32(a), sb = fx_from_u32(b), sr = fx_from_u32(r);
        int32_t outer = 0, inner = 0, within = 0;
        if (fx_uabs(sa) < 0x40000000u && fx_uabs(sb) < 0x40000000u && fx_uabs(sr) < 0x8000u * 0x8000u) {
            inner = fx_d2_zones(sa, sb, sr, sr >> 1, sr >> 2, &outer); /* a b: r / 2 and r / 4 */
            within = fx_d2_within(sa, sb, sr);
        }
        printf("%" PRIu64 " %" PRId64 " %" PRIu32 " %" PRIu64 " %" PRIu64 " %d %d %d %" PRId32 "\n",
               fx_umul64(a, b), fx_smul64(sa, sb), fx_mulhi_u32(a, b), fx_d2(sa, sb), fx_sq64(sa), (int)inner,
               (int)outer, (int)within, fx_mul(sa, sb));
    }
#ifdef FX_M0_PARTS
    fputs("parts\n", stderr);
#endif
    return 0;
}
