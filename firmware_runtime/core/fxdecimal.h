/* fxdecimal.h - decimal text <-> fixed point, with no floating point.
 *
 * The board must turn "0.0005" typed over the serial link into exactly the
 * raw value the generator and the Python client compute (pysim/fxdecimal.py).
 * Grammar: [+-]? digits [. digits] | [+-]? . digits   (no exponent).
 * Rounding: round(value * 2^F), halves away from zero.
 */
#ifndef BOIDSGEN_FXDECIMAL_H
#define BOIDSGEN_FXDECIMAL_H

#include <stddef.h>
#include "fixed.h"

/* Longest fraction accepted; longer input is an error, never truncated. */
#define FXDEC_MAX_FRAC_DIGITS 40
/* Digits printed after the point by fxdec_format (trailing zeros dropped). */
#define FXDEC_PRINT_DIGITS 6

typedef enum {
    FXDEC_OK = 0,
    FXDEC_EMPTY,      /* no digits */
    FXDEC_SYNTAX,     /* a character outside the grammar */
    FXDEC_TOO_LONG,   /* more fraction digits than FXDEC_MAX_FRAC_DIGITS */
    FXDEC_RANGE       /* does not fit the 32-bit fixed-point format */
} fxdec_status;

/* Parse s[0..len) into *out (raw fixed point, FX_FRAC_BITS fraction bits). */
fxdec_status fxdec_parse(const char *s, size_t len, int32_t *out);
/* Parse an integer: [+-]? digits, fitting in int32. */
fxdec_status fxdec_parse_int(const char *s, size_t len, int32_t *out);
/* Format raw as decimal with at most FXDEC_PRINT_DIGITS digits after the
 * point, rounded half up on the magnitude; returns the length written.
 * buf must hold at least 24 bytes. */
size_t fxdec_format(int32_t raw, char *buf);
/* Format a plain integer; returns the length written (buf >= 12 bytes). */
size_t fxdec_format_int(int32_t v, char *buf);
const char *fxdec_reason(fxdec_status st);

#endif
