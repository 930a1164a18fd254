/* draw.h - draw.c beyond platform.h: the clipping rule (shared with tests)
 * and pixel sets, single pixels of one colour kept on the panel by
 * difference (the flock's pixel boids: flock_draw.h). */
#ifndef BOIDSGEN_DRAW_H
#define BOIDSGEN_DRAW_H

#include <stdint.h>

#include "boids_config.h"

/* Clip the rectangle (*x, *y, *w, *h) to [0, width) x [0, height).
 * Returns 0 when nothing is left. */
int draw_clip(int *x, int *y, int *w, int *h, int width, int height);

/* A pixel set: the pixels on the panel now (`shown`) and the next frame's,
 * each as columns grouped by row (a counting sort by row), so that a frame
 * sends, row by row in one pass: black where a pixel left, the colour where
 * one arrived, nothing where one stayed -- unless other drawing covered it
 * meanwhile (draw.c marks such pixels PIXSET_OVER and redraws them).
 * One window's page half (PASET) serves the whole row, adjacent pixels share
 * a window. The picture is the one erasing every old pixel and drawing
 * every new one would leave. Storage is the caller's: x[k] holds cap
 * columns, end[k] one entry per panel row; row r of half k is
 * x[k][r ? end[k][r - 1] : 0 .. end[k][r]). */
#define PIXSET_OVER 0x8000u
#define PIXSET_X 0x7FFFu
typedef struct {
    uint16_t *x[2], *end[2];
    uint16_t color;
    uint8_t shown; /* the half on the panel; the other is being built */
} pixset_t;

/* Empty, and the one set other drawing is checked against. */
void pixset_init(pixset_t *s, uint16_t *x0, uint16_t *x1, uint16_t *end0, uint16_t *end1, uint16_t color);
/* Build the next frame's set in two passes over the same pixels (at most
 * cap; the caller skips those off the panel): rows = pixset_begin(s), then
 * rows[y]++ for each; cols = pixset_place(s), then cols[rows[y]++] = x for
 * each, in the same order; then pixset_show. */
uint16_t *pixset_begin(pixset_t *s);
uint16_t *pixset_place(pixset_t *s);
/* Send the difference; the new set is now the shown one. */
void pixset_show(pixset_t *s);
/* Every shown pixel black; the set empty. */
void pixset_erase(pixset_t *s);

#endif
