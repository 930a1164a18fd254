/* draw_sink.h - where draw.c's pixels go: the ILI9340 driver over SPI
 * (tft_ili9340.h: the PIC32 and the host, whose layer decodes the bytes), or
 * with BOIDS_DRAW_FB4 a framebuffer the board scans out itself (fb4.h: the
 * RP2040's VGA). The same six calls either way, so draw.c stays the one
 * rasteriser. (Upper case: a lower-case macro could collide with a spec's
 * names, tests/test_reserved_names.py.) */
#ifndef BOIDSGEN_DRAW_SINK_H
#define BOIDSGEN_DRAW_SINK_H

#ifdef BOIDS_DRAW_FB4
#include "fb4.h"
typedef fb4_run_t sink_run_t;
#define SINK_PIXEL fb4_pixel
#define SINK_FILL_RECT fb4_fill_rect
#define SINK_BLIT fb4_blit
#define SINK_BEGIN fb4_begin
#define SINK_PUT fb4_put
#define SINK_END fb4_end
#else
#include "tft_ili9340.h"
typedef tft_run_t sink_run_t;
#define SINK_PIXEL tft_pixel
#define SINK_FILL_RECT tft_fill_rect
#define SINK_BLIT tft_blit
#define SINK_BEGIN tft_begin
#define SINK_PUT tft_put
#define SINK_END tft_end
#endif

#endif
