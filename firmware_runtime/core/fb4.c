/* fb4.c - the 4-bit framebuffer (fb4.h): its memory, rectangles a byte at a
 * time between the odd edges. */
#include <string.h>

#include "fb4.h"

uint8_t fb4_pixels[FB4_BYTES] __attribute__((aligned(4)));

void fb4_fill_rect(int x, int y, int w, int h, uint16_t color)
{
    const uint8_t c4 = fb4_color(color);
    const int x_end = x + w;
    int r;
    for (r = y; r < y + h; r++) {
        int c = x;
        if (c & 1) fb4_set(c++, r, c4);
        if (x_end - c >= 2) { /* whole bytes: two pixels each */
            memset(&fb4_pixels[r * FB4_STRIDE + (c >> 1)], c4 | (c4 << 4), (size_t)((x_end - c) >> 1));
            c += (x_end - c) & ~1;
        }
        if (c < x_end) fb4_set(c, r, c4);
    }
}

void fb4_blit(int x, int y, int w, int h, const uint16_t *px, int stride)
{
    int i, j;
    for (j = 0; j < h; j++)
        for (i = 0; i < w; i++) fb4_pixel(x + i, y + j, px[j * stride + i]);
}
