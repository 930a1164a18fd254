/* tft_ili9340.h - our driver for the ILI9340 (320x240, RGB565, 4-wire SPI).
 *
 * The driver only builds command/data byte sequences; the bytes leave
 * through the tft_port_* functions the platform layer provides:
 * platform_pic32.c drives SPI1 and the DC/CS/RST pins, platform_host.c
 * decodes the same bytes into its framebuffer (and counts them). So both
 * builds draw through exactly this code. Coordinates are already clipped by
 * the caller (draw.c / the platform layer). */
#ifndef BOIDSGEN_TFT_ILI9340_H
#define BOIDSGEN_TFT_ILI9340_H

#include <stddef.h>
#include <stdint.h>

/* ILI9340 commands we use (datasheet section 8: level 1 and level 2 command
 * lists; the same codes as the ILI9341's). */
#define ILI_NOP 0x00u
#define ILI_SWRESET 0x01u
#define ILI_SLPIN 0x10u
#define ILI_SLPOUT 0x11u
#define ILI_GAMSET 0x26u  /* gamma set */
#define ILI_DISPOFF 0x28u
#define ILI_DISPON 0x29u
#define ILI_CASET 0x2Au
#define ILI_PASET 0x2Bu
#define ILI_RAMWR 0x2Cu
#define ILI_MADCTL 0x36u
#define ILI_COLMOD 0x3Au
#define ILI_FRMCTR1 0xB1u /* frame rate control, normal mode */
#define ILI_DFUNCTR 0xB6u /* display function control */
#define ILI_PWCTR1 0xC0u  /* power control 1 */
#define ILI_PWCTR2 0xC1u  /* power control 2 */
#define ILI_VMCTR1 0xC5u  /* VCOM control 1 */
#define ILI_VMCTR2 0xC7u  /* VCOM control 2 */
#define ILI_GMCTRP1 0xE0u /* positive gamma correction */
#define ILI_GMCTRN1 0xE1u /* negative gamma correction */

/* Waits the datasheet asks for (SWRESET 01h, SLPOUT 11h): 5 ms before the
 * next command after either; 120 ms from a reset to SLPOUT. */
#define ILI_RESET_TO_CMD_MS 5u
#define ILI_RESET_TO_SLPOUT_MS 120u
#define ILI_SLPOUT_TO_CMD_MS 5u

/* MADCTL for landscape 320x240: MV (swap rows/columns) | BGR panel order.
 * Override if the picture comes out mirrored on a given module. */
#ifndef TFT_MADCTL
#define TFT_MADCTL 0x28u
#endif

/* SPI bytes a window costs when both halves change: CASET + 4, PASET + 4,
 * RAMWR. The driver keeps the controller's window: a half that did not
 * change is not sent again (the column and page registers hold their values
 * until the next CASET/PASET; RAMWR only moves the write pointer back to the
 * window's start). Then 2 bytes per pixel. */
#define TFT_WINDOW_BYTES 11u
#define TFT_PIXEL_BYTES 2u
/* SPI bytes of tft_init, sent once at start-up (not per frame). */
#define TFT_INIT_BYTES 57u

/* Parameters a command of a tft_port_commands batch may carry: no more than
 * the PIC32's SPI transmit FIFO takes after an idle wait (enhanced buffer,
 * 8-bit frames; 8 is the safe depth), so the port stores them without
 * testing the status. */
#define TFT_PORT_BURST 8u
/* The panel's last column in landscape: tft_put's windows end there. */
#define TFT_LAST_COLUMN 319
/* Pixels of one window of tft_put: its RAMWR parameters fit one burst. */
#define TFT_SPAN_MAX ((int)(TFT_PORT_BURST / TFT_PIXEL_BYTES))

/* Branch hints, so that GCC lays out the usual side as the fall-through (the
 * budget's model, like the M4K's prefetch: a taken branch costs a cycle):
 * the ports' SPI waits (most find the port idle at once) and tft_put's
 * cases (most pixels start a span of their own, in a column of their own). */
#if defined(__GNUC__)
#define TFT_RARELY(c) __builtin_expect(!!(c), 0)
#define TFT_USUALLY(c) __builtin_expect(!!(c), 1)
#else
#define TFT_RARELY(c) (c)
#define TFT_USUALLY(c) (c)
#endif

/* --- provided by the platform layer --- */
void tft_port_select(int on); /* CS low (on) / high; waits for SPI idle first */
/* A batch of commands: seq holds, back to back, [command, count, count
 * parameter bytes] (count <= TFT_PORT_BURST except at start-up); each
 * command byte goes with DC low, its parameters with DC high, in order. The
 * count bytes are not sent. DC is left high. */
void tft_port_commands(const uint8_t *seq, size_t len);
/* One command and its n 16-bit parameters, each MSB first (1 <= n <=
 * TFT_PORT_BURST / 2): first, then rest[0 .. n - 2]. The pixel path's
 * colours (RAMWR), without a batch to build; most spans are one pixel,
 * whose colour comes in a register. */
void tft_port_words(uint8_t cmd, uint16_t first, const uint16_t *rest, unsigned n);
/* CASET or PASET [a, b]: the command and its two 16-bit parameters, MSB
 * first; the pixel path's windows. */
void tft_port_range(uint8_t cmd, unsigned a, unsigned b);
void tft_port_fill(uint16_t color, uint32_t n); /* the colour n times (DC high, MSB first) */
void tft_port_reset(int level);                 /* the RST pin */
void tft_port_delay_ms(uint32_t ms);            /* init only */

/* --- the driver --- */
void tft_init(void);
void tft_fill_rect(int x, int y, int w, int h, uint16_t color);
void tft_pixel(int x, int y, uint16_t color);
/* w x h pixels from px (row stride `stride` pixels), one window. */
void tft_blit(int x, int y, int w, int h, const uint16_t *px, int stride);
/* Scattered pixels, CS held low from tft_begin to tft_end: tft_put sends
 * pixel (x, y), rows in any order, a row's columns ascending and distinct;
 * adjacent ones share a window (up to TFT_SPAN_MAX). Each call sends what
 * an earlier pixel still needs and returns while its bytes shift out, so
 * the caller's search for the next pixel overlaps the SPI (the budget's
 * timeline: codegen/drivers/pic32/budget/spi_timeline.py). Nothing else may draw in between.
 * The run's state is the caller's local (tft_run_t), its colours one
 * static buffer: all inline, so that GCC keeps the state in the caller's
 * registers (most calls only compare and append). */
typedef struct {
    int n, x, y; /* the span: n pixels from column x - n of row y, window sent, RAMWR not yet */
    uint16_t c0; /* its first pixel's colour; the others in tft_span_colors */
    int x0, y0;  /* the controller's window: columns x0 .. TFT_LAST_COLUMN of row y0 (-1: other) */
} tft_run_t;
static inline void tft_begin(tft_run_t *s);
static inline void tft_put(tft_run_t *s, int x, int y, uint16_t color);
static inline void tft_end(tft_run_t *s);

/* The controller's window as last set, [x0, x1] x [y0, y1] (x0 < 0, y0 < 0:
 * not known; after a reset both return to their defaults, which we never
 * use); tft_end writes a run's last window back. A run's window ends at the
 * panel's last column: a span is known to start before it is known how long
 * it runs, so its window goes out at its first pixel and shifts while the
 * caller finds the next one; RAMWR writes only the span's pixels. */
typedef struct {
    int x0, x1, y0, y1;
} tft_pen_t;
extern tft_pen_t tft_pen;
extern uint16_t tft_span_colors[TFT_SPAN_MAX - 1];

static inline void tft_begin(tft_run_t *s)
{
    tft_port_select(1);
    s->n = 0;
    s->c0 = 0;
    s->x = s->y = -1;
    s->x0 = tft_pen.x1 == TFT_LAST_COLUMN ? tft_pen.x0 : -1;
    s->y0 = tft_pen.y0 == tft_pen.y1 ? tft_pen.y0 : -1;
}

static inline void tft_put(tft_run_t *s, int x, int y, uint16_t color)
{
    if (TFT_RARELY(x == s->x && y == s->y && s->n < TFT_SPAN_MAX)) { /* adjacent: the same window */
        tft_span_colors[s->n++ - 1] = color;
        s->x = x + 1;
        return;
    }
    if (TFT_USUALLY(s->n)) tft_port_words(ILI_RAMWR, s->c0, tft_span_colors, (unsigned)s->n); /* the span before: RAMWR resets the pointer */
    if (y != s->y0) {
        tft_port_range(ILI_PASET, (unsigned)y, (unsigned)y);
        s->y0 = y;
    }
    if (TFT_USUALLY(x != s->x0)) {
        tft_port_range(ILI_CASET, (unsigned)x, TFT_LAST_COLUMN);
        s->x0 = x;
    }
    s->c0 = color;
    s->n = 1;
    s->x = x + 1;
    s->y = y;
}

static inline void tft_end(tft_run_t *s)
{
    if (s->n) tft_port_words(ILI_RAMWR, s->c0, tft_span_colors, (unsigned)s->n);
    if (s->x0 >= 0) {
        tft_pen.x0 = s->x0;
        tft_pen.x1 = TFT_LAST_COLUMN;
    }
    if (s->y0 >= 0) tft_pen.y0 = tft_pen.y1 = s->y0;
    tft_port_select(0);
}

#endif
