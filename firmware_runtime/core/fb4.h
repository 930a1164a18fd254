/* fb4.h - a 4-bit framebuffer as draw.c's pixel sink (draw_sink.h), for a
 * board that scans its own memory out (the RP2040's VGA: firmware_runtime/rp2040/vga.c).
 *
 * BOIDS_PANEL_WIDTH x BOIDS_PANEL_HEIGHT pixels, two a byte: the even column
 * in the low nibble, the odd one in the high nibble (the VGA's PIO shifts a
 * 32-bit word out right, 4 bits a pixel, so the low nibble leaves first).
 * A pixel is the course's 16 colours: bit 3 red, bit 2 blue, bits 1..0
 * green (the lab's resistor DAC: one bit red, one blue, two green), RGB565
 * reduced by fb4_color. The calls mirror tft_ili9340.h's, so draw.c draws
 * the same pixels into either. */
#ifndef BOIDSGEN_FB4_H
#define BOIDSGEN_FB4_H

#include <stdint.h>

#include "boids_config.h"

#if BOIDS_PANEL_WIDTH % 8
#error "fb4 wants a panel width that is a multiple of 8 (whole 32-bit words a row)"
#endif
#define FB4_STRIDE (BOIDS_PANEL_WIDTH / 2) /* bytes a row */
#define FB4_BYTES (FB4_STRIDE * BOIDS_PANEL_HEIGHT)

extern uint8_t fb4_pixels[FB4_BYTES]; /* fb4.c, word-aligned (DMA reads words) */

/* RGB565 -> the course's colour: red and blue from their top bit, green
 * from its top two. */
static inline uint8_t fb4_color(uint16_t c)
{
    return (uint8_t)(((c >> 12) & 8u) | ((c >> 2) & 4u) | ((c >> 9) & 3u));
}

static inline void fb4_set(int x, int y, uint8_t c4)
{
    uint8_t *const p = &fb4_pixels[y * FB4_STRIDE + (x >> 1)];
    *p = (x & 1) ? (uint8_t)((*p & 0x0Fu) | (c4 << 4)) : (uint8_t)((*p & 0xF0u) | c4);
}

/* Callers clip (draw.c), as for the TFT driver. */
static inline void fb4_pixel(int x, int y, uint16_t color) { fb4_set(x, y, fb4_color(color)); }

void fb4_fill_rect(int x, int y, int w, int h, uint16_t color);
void fb4_blit(int x, int y, int w, int h, const uint16_t *px, int stride);

/* Scattered pixels (draw.c's pixel sets): memory needs no windows. */
typedef struct {
    int unused;
} fb4_run_t;
static inline void fb4_begin(fb4_run_t *s) { (void)s; }
static inline void fb4_put(fb4_run_t *s, int x, int y, uint16_t color)
{
    (void)s;
    fb4_pixel(x, y, color);
}
static inline void fb4_end(fb4_run_t *s) { (void)s; }

#endif
