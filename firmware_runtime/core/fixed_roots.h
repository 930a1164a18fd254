/* fixed_roots.h - exact square roots and magnitudes of boidsgen's fixed
 * point: part of fixed.h (include that), which defines the words, products
 * and squares these build on. */
#ifndef BOIDSGEN_FIXED_ROOTS_H
#define BOIDSGEN_FIXED_ROOTS_H

#include "fixed.h"

/* A word's root from its top 8 bits: fx_isqrt_est[t - 64] = ceil(sqrt((t +
 * 1) * 2^24)) - 1 for t = 64 .. 255, the root of the top of x's interval
 * [t * 2^24, (t + 1) * 2^24) less one (so it fits 16 bits): within 1/128 of
 * the root of any x there. tests/test_roots.py recomputes it. */
static const uint16_t fx_isqrt_est[192] = {
    33023, 33276, 33527, 33776, 34023, 34269, 34513, 34755, 34996, 35235, 35472, 35708,
    35942, 36174, 36406, 36635, 36863, 37090, 37316, 37540, 37763, 37984, 38204, 38423,
    38641, 38858, 39073, 39287, 39500, 39712, 39922, 40132, 40340, 40548, 40754, 40959,
    41164, 41367, 41569, 41771, 41971, 42170, 42369, 42566, 42763, 42959, 43154, 43347,
    43541, 43733, 43924, 44115, 44305, 44493, 44682, 44869, 45055, 45241, 45426, 45611,
    45794, 45977, 46159, 46340, 46521, 46701, 46880, 47059, 47237, 47414, 47591, 47767,
    47942, 48117, 48291, 48464, 48637, 48809, 48981, 49151, 49322, 49492, 49661, 49829,
    49998, 50165, 50332, 50498, 50664, 50830, 50994, 51159, 51322, 51485, 51648, 51810,
    51972, 52133, 52294, 52454, 52614, 52773, 52931, 53090, 53247, 53405, 53562, 53718,
    53874, 54029, 54184, 54339, 54493, 54647, 54800, 54953, 55106, 55258, 55409, 55560,
    55711, 55861, 56011, 56161, 56310, 56459, 56607, 56755, 56903, 57050, 57197, 57343,
    57490, 57635, 57781, 57926, 58070, 58215, 58359, 58502, 58645, 58788, 58931, 59073,
    59215, 59356, 59497, 59638, 59779, 59919, 60059, 60198, 60337, 60476, 60615, 60753,
    60891, 61029, 61166, 61303, 61439, 61576, 61712, 61848, 61983, 62118, 62253, 62388,
    62522, 62656, 62790, 62923, 63057, 63190, 63322, 63454, 63587, 63718, 63850, 63981,
    64112, 64243, 64373, 64503, 64633, 64763, 64892, 65021, 65150, 65279, 65407, 65535,
};

/* The Newton step's divisor's reciprocal: fx_isqrt_rec[i] = floor((2^32 - 1) /
 * (fx_isqrt_est[i] + 1)), so the step divides by fx_udiv_by (two `multu`s
 * and a correction, exact for any word) where `divu` took about 35 cycles.
 * tests/test_roots.py recomputes it. */
static const uint32_t fx_isqrt_rec[192] = {
    130055u, 129067u, 128100u, 127156u, 126233u, 125327u, 124441u, 123574u, 122723u, 121891u,
    121077u, 120276u, 119493u, 118727u, 117970u, 117233u, 116508u, 115795u, 115094u, 114407u,
    113731u, 113070u, 112418u, 111778u, 111147u, 110526u, 109918u, 109320u, 108730u, 108150u,
    107581u, 107018u, 106466u, 105920u, 105385u, 104857u, 104335u, 103823u, 103318u, 102819u,
    102329u, 101846u, 101368u, 100898u, 100434u, 99975u, 99524u, 99081u, 98639u, 98206u,
    97779u, 97356u, 96938u, 96529u, 96120u, 95720u, 95325u, 94933u, 94546u, 94163u,
    93786u, 93413u, 93045u, 92681u, 92321u, 91965u, 91614u, 91265u, 90921u, 90582u,
    90245u, 89913u, 89584u, 89259u, 88937u, 88619u, 88304u, 87993u, 87684u, 87381u,
    87078u, 86779u, 86483u, 86192u, 85901u, 85615u, 85331u, 85050u, 84771u, 84495u,
    84223u, 83951u, 83685u, 83420u, 83156u, 82896u, 82638u, 82383u, 82129u, 81879u,
    81630u, 81384u, 81141u, 80898u, 80659u, 80421u, 80185u, 79952u, 79720u, 79492u,
    79264u, 79038u, 78815u, 78593u, 78373u, 78155u, 77938u, 77724u, 77512u, 77301u,
    77092u, 76885u, 76679u, 76474u, 76272u, 76070u, 75872u, 75674u, 75477u, 75282u,
    75089u, 74898u, 74706u, 74518u, 74330u, 74144u, 73960u, 73776u, 73594u, 73414u,
    73235u, 73057u, 72880u, 72704u, 72530u, 72358u, 72186u, 72016u, 71846u, 71678u,
    71511u, 71346u, 71181u, 71018u, 70855u, 70694u, 70534u, 70374u, 70217u, 70060u,
    69905u, 69749u, 69595u, 69442u, 69291u, 69140u, 68991u, 68841u, 68694u, 68547u,
    68401u, 68256u, 68111u, 67968u, 67826u, 67685u, 67543u, 67404u, 67265u, 67127u,
    66990u, 66853u, 66718u, 66584u, 66450u, 66317u, 66185u, 66054u, 65923u, 65793u,
    65664u, 65535u,
};

/* floor(sqrt(x)) of a word x >= 2^30: the table's estimate, one Newton step
 * (its quotient by the estimate's reciprocal, exact), then down while the
 * square exceeds x. For any r >= 1,
 * floor((r + floor(x / r)) / 2) = floor((r + x / r) / 2) >= floor(sqrt(x))
 * (the mean of r and x / r is at least their geometric mean), so the step
 * never lands below the root; from an estimate within 1/128 it lands at
 * most 1 above it. The estimate is not below the root either, so x / r is
 * at most the root and the step stays below 2^16: its square is a word.
 * (At 500 boids the roots took 14.7 k cycles a frame with a `divu` here,
 * 10.3 k so; digit by digit they had taken 31.8 k.) */
static inline uint32_t fx_isqrt_word(uint32_t x)
{
    const uint32_t i = (x >> 24) - 64u, r0 = (uint32_t)fx_isqrt_est[i] + 1u;
    uint32_t rem, r = (r0 + fx_udiv_by(x, r0, fx_isqrt_rec[i], &rem)) >> 1;
    while (r * r > x) r--;
    return r;
}

/* Exact integer square root of a 64-bit value: the largest r with r*r <= v.
 * In 32-bit words (the M4K's): v >> 2h, for the least h that fits it in a
 * word, has the root r >> h (floor(sqrt(floor(v / 4^h))) = floor(sqrt(v) /
 * 2^h)); that word, shifted left by an even s to at least 2^30, has the
 * root of it times 2^(s/2), the same identity (fx_isqrt_word); then the h
 * low bits, each kept where the candidate's exact square is still <= v. A
 * speed (about 2^17 in s16.15) is one word and a bit or two. */
static inline uint64_t fx_isqrt64(uint64_t v)
{
    const uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;
    const int h = hi ? (32 - fx_clz32(hi) + 1) >> 1 : 0; /* v >> 2h < 2^32 */
    uint32_t x, r;
    int k, s;
    /* v >> 2h from the words (a 64-bit shift by a variable is a libgcc call) */
    if (h == 0) x = lo;
    else if (h == 16) x = hi;
    else x = (hi << (32 - 2 * h)) | (lo >> (2 * h));
    if (x == 0) return 0;
    s = fx_clz32(x) & ~1;
    r = fx_isqrt_word(x << s) >> (s >> 1);
    for (k = h - 1; k >= 0; k--) {
        const uint32_t c = (r << 1) | 1u; /* the next bit set */
        r <<= 1;
        if (fx_umul64(c << k, c << k) <= v) r = c;
    }
    return r;
}

static inline fx fx_sqrt(fx a)
{
    if (a <= 0) return 0;
    return (fx)fx_isqrt64((uint64_t)a << FX_FRAC_BITS);
}

/* Exact magnitude of (x, y): floor(sqrt(x^2 + y^2)) in raw units, from the
 * 64-bit sum of squares, so no intermediate can overflow. */
static inline fx fx_hypot(fx x, fx y)
{
    uint64_t s = (uint64_t)((int64_t)x * x) + (uint64_t)((int64_t)y * y);
    return fx_wrap64((int64_t)fx_isqrt64(s));
}

/* Alpha-max-plus-beta-min estimate of the magnitude: alpha*max + beta*min
 * of |x| and |y| (constants chosen by the spec, converted by the generator). */
static inline fx fx_amb(fx x, fx y, fx alpha, fx beta)
{
    fx ax = fx_abs(x), ay = fx_abs(y);
    fx hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
    return fx_add(fx_mul(alpha, hi), fx_mul(beta, lo));
}

/* A magnitude compared without its root (codegen/passes/roots.py, issue 16).
 * fx_mag2 is the exact squared magnitude x^2 + y^2 (< 2^64, never wraps);
 * fx_mag_lt ... fx_mag_ne compare floor(sqrt(s)), the exact magnitude in raw
 * units, with a 32-bit m, for EVERY s and m, without the root:
 *   floor(sqrt(s)) <  m  <=>  m > 0 && s < m^2
 *   floor(sqrt(s)) >  m  <=>  m < 0 || s >= (m + 1)^2
 *   floor(sqrt(s)) == m  <=>  m >= 0 && m^2 <= s < (m + 1)^2
 * ((m + 1)^2 <= 2^62: fx_sq64 of (m + 1) as a uint32, which for m = INT32_MAX
 * is INT32_MIN as an fx, whose square is the same 2^62.) fx_mag_root is the
 * root itself, saturated at INT32_MAX: fx_hypot's value wherever fx_hypot
 * does not wrap (s < 2^62), and never a negative speed. Where the range
 * analysis bounds s below 2^62 a rule written over mag()/hypot() and its
 * compares is the very same program in these ops; the root is taken only on
 * the paths that read the magnitude itself (speed_limit: the clamped boids).
 * Twins: pysim/fx_mag.py (served by pysim/fxops.py); tests/test_roots.py. */
static inline uint64_t fx_mag2(fx x, fx y) { return fx_d2(x, y); }
static inline fx fx_mag_root(uint64_t s)
{
    const uint64_t r = fx_isqrt64(s);
    return r > (uint64_t)INT32_MAX ? FX_MAX : (fx)r;
}
static inline uint64_t fx_mag_next2(fx m) { return fx_sq64(fx_from_u32((uint32_t)m + 1u)); } /* (m+1)^2, m >= 0 */
static inline int fx_mag_lt(uint64_t s, fx m) { return m > 0 && s < fx_sq64(m); }
static inline int fx_mag_gt(uint64_t s, fx m) { return m < 0 || s >= fx_mag_next2(m); }
static inline int fx_mag_le(uint64_t s, fx m) { return !fx_mag_gt(s, m); }
static inline int fx_mag_ge(uint64_t s, fx m) { return !fx_mag_lt(s, m); }
static inline int fx_mag_eq(uint64_t s, fx m) { return m >= 0 && s >= fx_sq64(m) && s < fx_mag_next2(m); }
static inline int fx_mag_ne(uint64_t s, fx m) { return !fx_mag_eq(s, m); }

#endif /* BOIDSGEN_FIXED_ROOTS_H */
