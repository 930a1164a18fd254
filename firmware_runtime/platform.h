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

void plat_init(void);
/* Milliseconds since start; wraps after 49 days (compare with differences). */
uint32_t plat_millis(void);
/* Next received serial byte, or -1 when none is waiting (never blocks). */
int plat_serial_getc(void);
void plat_serial_write(const char *s, size_t n);

void plat_draw_pixel(int x, int y, uint16_t color);
void plat_fill_rect(int x, int y, int w, int h, uint16_t color);
void plat_fill_screen(uint16_t color);

/* Called by the animation thread after every frame (the host writes its
 * trace here; the board does nothing). */
void plat_frame_done(uint32_t frame);

#endif
