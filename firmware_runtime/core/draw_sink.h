/* draw_sink.h - where draw.c's pixels go: the ILI9340 driver over SPI
 * (tft_ili9340.h: the PIC32 and the host, whose layer decodes the bytes), or
 * with BOIDS_DRAW_FB4 a framebuffer the board scans out itself (fb4.h: the
 * RP2040's VGA). The same six calls either way, so draw.c stays the one
 * rasteriser. */
#ifndef BOIDSGEN_DRAW_SINK_H
#define BOIDSGEN_DRAW_SINK_H

#ifdef BOIDS_DRAW_FB4
#include "fb4.h"
typedef fb4_run_t sink_run_t;
#define sink_pixel fb4_pixel
#define sink_fill_rect fb4_fill_rect
#define sink_blit fb4_blit
#define sink_begin fb4_begin
#define sink_put fb4_put
#define sink_end fb4_end
#else
#include "tft_ili9340.h"
typedef tft_run_t sink_run_t;
#define sink_pixel tft_pixel
#define sink_fill_rect tft_fill_rect
#define sink_blit tft_blit
#define sink_begin tft_begin
#define sink_put tft_put
#define sink_end tft_end
#endif

#endif
