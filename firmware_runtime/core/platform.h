/* platform.h - what the firmware needs from a board. Two implementations:
 * platform_host.c (Linux: OS clock or virtual time, framebuffer, stdio or a
 * pseudo-terminal) and platform_pic32.c (PIC32MX250: timer ISR, UART2, TFT). */
#ifndef BOIDSGEN_PLATFORM_H
#define BOIDSGEN_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* RGB565 colours used by the animation. */
#define PLAT_BLACK 0x0000u
#define PLAT_WHITE 0xFFFFu
#define PLAT_RED 0xF800u
#define PLAT_GREEN 0x07E0u
#define PLAT_YELLOW 0xFFE0u
#define PLAT_BLUE 0x001Fu
#define PLAT_CYAN 0x07FFu
#define PLAT_MAGENTA 0xF81Fu
#define PLAT_GREY 0x8410u
#define PLAT_RGB565(r, g, b) ((uint16_t)((((r) & 0xF8u) << 8) | (((g) & 0xFCu) << 3) | ((b) >> 3)))

/* A character cell of plat_draw_text: the 5x7 glyph plus one blank column
 * and one blank row, all painted (fg on bg). */
#define PLAT_TEXT_CELL_W 6
#define PLAT_TEXT_CELL_H 8

void plat_init(void);
/* Milliseconds since start; wraps after 49 days (compare with differences). */
uint32_t plat_millis(void);
/* Microseconds since start, modulo 2^32 (wraps after 71 minutes: take
 * differences); what the animation times a frame with. */
uint32_t plat_micros(void);
/* Microseconds of work, modulo 2^32, for balancing the split update
 * (split.h): a real clock even where plat_micros is virtual (the host's and
 * the RP2040 headless image's runs; rp2040js advances the RP2040's timer by
 * the cycles it runs). 0 forever where there is none: the split then stays
 * at half the boids. */
uint32_t plat_work_us(void);
/* Next received serial byte, or -1 when none is waiting (never blocks). */
int plat_serial_getc(void);
void plat_serial_write(const char *s, size_t n);

/* Drawing, in draw.c for both layers (see below). */
void plat_draw_pixel(int x, int y, uint16_t color);
void plat_fill_rect(int x, int y, int w, int h, uint16_t color);
void plat_fill_screen(uint16_t color);

/* Drawing shared by both layers (draw.c, over the ILI9340 driver and the
 * layer's tft_port_*): clipped to the display, so any coordinates are safe.
 * The host and the board draw the same pixels with the same SPI bytes. */
void plat_draw_line(int x0, int y0, int x1, int y1, uint16_t color);
void plat_draw_circle(int cx, int cy, int r, uint16_t color); /* outline */
void plat_fill_circle(int cx, int cy, int r, uint16_t color);
/* w x h RGB565 pixels, row-major, in one SPI window. */
void plat_blit(int x, int y, int w, int h, const uint16_t *px);
/* Text in the 5x7 font, each cell painted fg on bg; '\n' starts a new line
 * at x. Returns the x after the last character. */
int plat_draw_text(int x, int y, const char *s, uint16_t fg, uint16_t bg);

/* Called by the animation thread after every frame (the host writes its
 * trace here; the board does nothing). */
void plat_frame_done(uint32_t frame);
/* Called inside the timed part of every frame, after the drawing, with the
 * flock size. The board does nothing: its frame took the time it took. The
 * host's modelled M4K clock (boids_host --m4k-cost) advances its virtual
 * time here by the frame time `boidsgen budget` modelled for that many
 * boids, so the frame's timing sees what the board's would. */
void plat_frame_cost(int32_t boids);

#endif
