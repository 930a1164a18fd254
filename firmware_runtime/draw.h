/* draw.h - internals of draw.c shared with tests: the clipping rule. */
#ifndef BOIDSGEN_DRAW_H
#define BOIDSGEN_DRAW_H

/* Clip the rectangle (*x, *y, *w, *h) to [0, width) x [0, height).
 * Returns 0 when nothing is left. */
int draw_clip(int *x, int *y, int *w, int *h, int width, int height);

#endif
