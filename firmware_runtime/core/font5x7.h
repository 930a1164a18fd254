/* font5x7.h - the 5x7 bitmap font used for text on the TFT (host and board
 * draw text from this same table, so they produce the same pixels). */
#ifndef BOIDSGEN_FONT5X7_H
#define BOIDSGEN_FONT5X7_H

#include <stdint.h>

#define FONT5X7_W 5
#define FONT5X7_H 7
#define FONT5X7_FIRST 32
#define FONT5X7_COUNT 95

extern const uint8_t font5x7_rows[FONT5X7_COUNT][FONT5X7_H];
/* The rows of c; characters outside 32..126 draw as '?'. */
const uint8_t *font5x7_glyph(char c);

#endif
