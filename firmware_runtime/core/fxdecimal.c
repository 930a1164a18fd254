/* fxdecimal.c - see fxdecimal.h. Twin: pysim/fxdecimal.py. */
#include "fxdecimal.h"

fxdec_status fxdec_parse(const char *s, size_t len, int32_t *out)
{
    size_t i = 0, int_start, int_end, frac_start = 0, frac_end = 0, k;
    int neg = 0, b, round_bit = 0;
    uint64_t ipart = 0, mag, fbits = 0;
    unsigned char frac[FXDEC_MAX_FRAC_DIGITS];
    int nfrac;

    /* Syntax first, so every malformed line gets the same reason as in Python. */
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        neg = (s[i] == '-');
        i++;
    }
    int_start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    int_end = i;
    if (i < len && s[i] == '.') {
        i++;
        frac_start = i;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
        frac_end = i;
    }
    if (i != len) {
        return FXDEC_SYNTAX;
    }
    if (int_end == int_start && frac_end == frac_start) return FXDEC_EMPTY;
    if (frac_end - frac_start > FXDEC_MAX_FRAC_DIGITS) return FXDEC_TOO_LONG;

    for (k = int_start; k < int_end; k++) {
        ipart = ipart * 10u + (uint64_t)(s[k] - '0');
        if (ipart > 0xFFFFFFFFull) return FXDEC_RANGE;
    }
    nfrac = (int)(frac_end - frac_start);
    for (k = 0; k < (size_t)nfrac; k++) frac[k] = (unsigned char)(s[frac_start + k] - '0');

    /* Binary digits of the decimal fraction: double the digit string and
     * take the carry out, FX_FRAC_BITS times, then once more for rounding. */
    for (b = 0; b <= FX_FRAC_BITS; b++) {
        int d, carry = 0;
        for (d = nfrac - 1; d >= 0; d--) {
            int t = frac[d] * 2 + carry;
            frac[d] = (unsigned char)(t % 10);
            carry = t / 10;
        }
        if (b < FX_FRAC_BITS) fbits = (fbits << 1) | (uint64_t)carry;
        else round_bit = carry;
    }
    mag = (ipart << FX_FRAC_BITS) + fbits + (uint64_t)round_bit;
    if (neg) {
        if (mag > 0x80000000ull) return FXDEC_RANGE;
        *out = (int32_t)(-(int64_t)mag);
    } else {
        if (mag > 0x7FFFFFFFull) return FXDEC_RANGE;
        *out = (int32_t)mag;
    }
    return FXDEC_OK;
}

fxdec_status fxdec_parse_int(const char *s, size_t len, int32_t *out)
{
    size_t i = 0, start;
    int neg = 0;
    uint64_t mag = 0;
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        neg = (s[i] == '-');
        i++;
    }
    start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    if (i != len) return FXDEC_SYNTAX;
    if (i == start) return FXDEC_EMPTY;
    for (i = start; i < len; i++) {
        mag = mag * 10u + (uint64_t)(s[i] - '0');
        if (mag > 0x80000000ull) return FXDEC_RANGE;
    }
    if (!neg && mag > 0x7FFFFFFFull) return FXDEC_RANGE;
    *out = neg ? (int32_t)(-(int64_t)mag) : (int32_t)mag;
    return FXDEC_OK;
}

static size_t put_u64(uint64_t v, char *buf)
{
    char tmp[21];
    size_t n = 0, k;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    for (k = 0; k < n; k++) buf[k] = tmp[n - 1 - k];
    return n;
}

size_t fxdec_format(int32_t raw, char *buf)
{
    uint64_t mag = raw < 0 ? (uint64_t)(-(int64_t)raw) : (uint64_t)raw;
    uint64_t ip = mag >> FX_FRAC_BITS;
    uint64_t fr = mag & ((1ull << FX_FRAC_BITS) - 1u);
    uint64_t scale = 1, dec;
    size_t n = 0;
    int d;
    for (d = 0; d < FXDEC_PRINT_DIGITS; d++) scale *= 10u;
    /* round half up on the magnitude */
    dec = (fr * scale * 2u + (1ull << FX_FRAC_BITS)) >> (FX_FRAC_BITS + 1);
    if (dec >= scale) {
        ip += 1u;
        dec -= scale;
    }
    if (raw < 0 && (ip != 0 || dec != 0)) buf[n++] = '-';
    n += put_u64(ip, buf + n);
    if (dec != 0) {
        char digits[FXDEC_PRINT_DIGITS];
        int last = FXDEC_PRINT_DIGITS - 1;
        for (d = FXDEC_PRINT_DIGITS - 1; d >= 0; d--) {
            digits[d] = (char)('0' + (int)(dec % 10u));
            dec /= 10u;
        }
        while (last > 0 && digits[last] == '0') last--;
        buf[n++] = '.';
        for (d = 0; d <= last; d++) buf[n++] = digits[d];
    }
    buf[n] = '\0';
    return n;
}

size_t fxdec_format_int(int32_t v, char *buf)
{
    size_t n = 0;
    uint64_t mag = v < 0 ? (uint64_t)(-(int64_t)v) : (uint64_t)v;
    if (v < 0) buf[n++] = '-';
    n += put_u64(mag, buf + n);
    buf[n] = '\0';
    return n;
}

const char *fxdec_reason(fxdec_status st)
{
    switch (st) {
    case FXDEC_OK: return "ok";
    case FXDEC_EMPTY: return "no number";
    case FXDEC_SYNTAX: return "not a decimal number";
    case FXDEC_TOO_LONG: return "too many digits";
    case FXDEC_RANGE: return "out of fixed-point range";
    }
    return "?";
}
