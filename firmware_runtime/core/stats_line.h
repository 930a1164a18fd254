/* stats_line.h - the status line, "T 12s B 100 F 30" in the top-left
 * corner: one definition for the firmware's timing thread (boids_app.c,
 * once a second: drawing text every frame would cost about 2 ms of SPI)
 * and the budget's image, which measures it for the frame's reserve
 * (codegen/drivers/pic32/budget/reserve.py). */
#ifndef BOIDSGEN_STATS_LINE_H
#define BOIDSGEN_STATS_LINE_H

#include <stdint.h>
#include <string.h>

#include "fxdecimal.h"
#include "platform.h"

static inline void stats_line_draw(uint32_t elapsed_s, int32_t boids, uint32_t fps)
{
    char line[48];
    size_t n = 0;
    memcpy(line + n, "T ", 2);
    n += 2;
    n += fxdec_format_int((int32_t)elapsed_s, line + n);
    memcpy(line + n, "s B ", 4);
    n += 4;
    n += fxdec_format_int(boids, line + n);
    memcpy(line + n, " F ", 3);
    n += 3;
    n += fxdec_format_int((int32_t)fps, line + n);
    memcpy(line + n, "  ", 3); /* trailing blanks erase a longer old line; copies the NUL */
    (void)plat_draw_text(0, 0, line, PLAT_GREEN, PLAT_BLACK);
}

#endif
