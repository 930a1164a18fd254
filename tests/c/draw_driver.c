/* draw_driver.c - the shared drawing (draw.c -> tft_ili9340.c -> the host's
 * ILI9340 decoder) on a known scene; prints the SPI bytes each call cost and
 * writes the framebuffer as PNG and PPM for tests/test_host_image.py. */
#include <inttypes.h>
#include <stdio.h>

#include "host_image.h"
#include "platform.h"
#include "platform_host.h"

static uint64_t last;
static void cost(const char *what)
{
    uint64_t now = host_spi_bytes();
    printf("%s=%" PRIu64 "\n", what, now - last);
    last = now;
}

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    plat_init();
    cost("init");
    plat_fill_screen(PLAT_BLACK);
    cost("fill_screen");
    plat_draw_pixel(5, 6, PLAT_RED);
    cost("pixel");
    plat_draw_pixel(-1, 6, PLAT_RED); /* clipped: nothing sent */
    cost("pixel_off");
    plat_fill_rect(300, 230, 40, 40, PLAT_GREEN); /* clipped to 20 x 10 */
    cost("rect_clipped");
    plat_draw_circle(100, 100, 20, PLAT_WHITE);
    cost("circle");
    plat_fill_circle(200, 60, 10, PLAT_YELLOW);
    cost("fill_circle");
    plat_draw_line(10, 200, 60, 180, PLAT_CYAN);
    cost("line");
    printf("text_end=%d\n", plat_draw_text(10, 10, "Hi 42!", PLAT_WHITE, PLAT_BLUE));
    cost("text");
    plat_draw_text(316, 100, "AB", PLAT_WHITE, PLAT_BLUE); /* 'A' cut to 4 columns, 'B' off screen */
    cost("text_clipped");
    printf("tft_errors=%" PRIu32 "\ntft_showing=%d\n", host_tft_errors(), host_tft_showing());
    if (host_tft_errors()) fprintf(stderr, "%s\n", host_tft_first_error());
    if (image_write_png(argv[1], host_framebuffer(), 320, 240) != 0 || host_write_ppm(argv[2]) != 0) return 1;
    return 0;
}
