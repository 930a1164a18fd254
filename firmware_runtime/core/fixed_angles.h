/* fixed_angles.h - angles (in TURNS: 1.0 is a full circle) and vectors for
 * the rules: sin, cos, atan2, unit, rotate. Included by fixed.h, after
 * fixed_roots.h (fx_hypot). Twin: pysim/fx_angles.py; both read the tables
 * of pysim/angle_tables.py (fixed_angles_table.h is printed from them), and
 * tests/test_angles.py compares the two bit for bit, host and M4K.
 *
 * sin/cos: a's fraction of a turn as a 16-bit phase (its low FX_FRAC_BITS
 * bits, floored to 16 when there are more), mirrored into the table's
 * quarter, a linear step between entries (floor), rounded to FX_FRAC_BITS
 * (halves up), negated in the lower half. atan2: turns in [-1/2, 1/2], from
 * floor(min(|x|,|y|) * 2^16 / max) in the atan table, mirrored into the
 * octant, rounded, negated when y < 0; (0, 0) gives 0. */
#ifndef BOIDSGEN_FIXED_ANGLES_H
#define BOIDSGEN_FIXED_ANGLES_H

#include "fixed_angles_table.h"

static inline uint32_t fx_phase16(fx a)
{
    const uint32_t p = (uint32_t)a & ((1u << FX_FRAC_BITS) - 1u);
#if FX_FRAC_BITS >= 16
    return p >> (FX_FRAC_BITS - 16);
#else
    return p << (16 - FX_FRAC_BITS);
#endif
}

static inline fx fx_sin16(uint32_t q)
{
    const uint32_t quad = q >> 14;
    uint32_t r = q & 16383u, idx, fr;
    int64_t v;
    if (quad & 1u) r = 16384u - r;
    idx = r >> 6;
    fr = r & 63u;
    v = fx_sin_q30[idx];
    if (fr != 0) v += (((int64_t)fx_sin_q30[idx + 1] - v) * (int64_t)fr) >> 6;
    v = (v + (1 << (29 - FX_FRAC_BITS))) >> (30 - FX_FRAC_BITS);
    return (fx)(quad >= 2 ? -v : v);
}

static inline fx fx_sin(fx a) { return fx_sin16(fx_phase16(a)); }
static inline fx fx_cos(fx a) { return fx_sin16((fx_phase16(a) + 16384u) & 65535u); }

static inline fx fx_atan2(fx y, fx x)
{
    const uint64_t ax = fx_uabs(x), ay = fx_uabs(y);
    const int steep = ay > ax;
    uint64_t mn, mx, t, idx, fr;
    int64_t v;
    if (ax == 0 && ay == 0) return 0;
    mn = steep ? ax : ay;
    mx = steep ? ay : ax;
    t = (mn << 16) / mx;
    idx = t >> 8;
    fr = t & 255u;
    v = fx_atan_q30[idx];
    if (fr != 0) v += (((int64_t)fx_atan_q30[idx + 1] - v) * (int64_t)fr) >> 8;
    if (steep) v = ((int64_t)1 << 28) - v;
    if (x < 0) v = ((int64_t)1 << 29) - v;
    v = (v + (1 << (29 - FX_FRAC_BITS))) >> (30 - FX_FRAC_BITS);
    return (fx)(y < 0 ? -v : v);
}

/* unit(x, y): (x, y) scaled by 2^s so that max(|x|, |y|) lies in
 * [2^29, 2^30) (s < 0 floors), then each over its exact hypot (fx_div,
 * truncating): in [-1, 1], as precise for (1, 1) raw as for (1000, 1000);
 * (0, 0) gives (0, 0). `first`: x's component, else y's. */
/* floor(v / 2^k), k in 1..2: 32-bit (a variable 64-bit shift is a libgcc call on the M4K) */
static inline fx fx_floor_shr(fx v, int k)
{
    if (v >= 0) return v >> k;
    return fx_from_u32(0u - ((0u - (uint32_t)v + ((1u << k) - 1u)) >> k));
}

static inline fx fx_unit_part(fx x, fx y, int first)
{
    uint32_t m = fx_uabs(x) > fx_uabs(y) ? fx_uabs(x) : fx_uabs(y);
    int s = 0;
    fx xs, ys;
    if (m == 0) return 0;
    while (m < (1u << 29)) { m <<= 1; s++; }
    while (m >= (1u << 30)) { m >>= 1; s--; }
    xs = s >= 0 ? fx_from_u32((uint32_t)x << s) : fx_floor_shr(x, -s);
    ys = s >= 0 ? fx_from_u32((uint32_t)y << s) : fx_floor_shr(y, -s);
    return fx_div(first ? xs : ys, fx_hypot(xs, ys));
}
static inline fx fx_unit_x(fx x, fx y) { return fx_unit_part(x, y, 1); }
static inline fx fx_unit_y(fx x, fx y) { return fx_unit_part(x, y, 0); }

/* rotate(x, y, a): (x cos a - y sin a, x sin a + y cos a), a in turns. */
static inline fx fx_rotate_x(fx x, fx y, fx a) { return fx_sub(fx_mul(x, fx_cos(a)), fx_mul(y, fx_sin(a))); }
static inline fx fx_rotate_y(fx x, fx y, fx a) { return fx_add(fx_mul(x, fx_sin(a)), fx_mul(y, fx_cos(a))); }

#endif /* BOIDSGEN_FIXED_ANGLES_H */
