/* tft_ili9340.c - the ILI9340 command sequences (see tft_ili9340.h). */
#include "tft_ili9340.h"

static void cmd_data(uint8_t cmd, const uint8_t *d, size_t n)
{
    tft_port_command(cmd);
    if (n) tft_port_data(d, n);
}

void tft_init(void)
{
    static const uint8_t colmod = 0x55u; /* 16 bits per pixel on the MCU interface */
    static const uint8_t madctl = TFT_MADCTL;
    tft_port_select(0);
    /* Hardware reset: low pulse >= 10 us, then 120 ms before commands. */
    tft_port_reset(1);
    tft_port_delay_ms(5);
    tft_port_reset(0);
    tft_port_delay_ms(20);
    tft_port_reset(1);
    tft_port_delay_ms(150);
    tft_port_select(1);
    cmd_data(ILI_SWRESET, 0, 0);
    tft_port_select(0);
    tft_port_delay_ms(150); /* 120 ms before SLPOUT after a reset */
    tft_port_select(1);
    cmd_data(ILI_SLPOUT, 0, 0);
    tft_port_select(0);
    tft_port_delay_ms(150); /* 120 ms for the supply to settle after sleep out */
    tft_port_select(1);
    cmd_data(ILI_COLMOD, &colmod, 1);
    cmd_data(ILI_MADCTL, &madctl, 1);
    cmd_data(ILI_DISPON, 0, 0);
    tft_port_select(0);
}

void tft_window(int x0, int y0, int x1, int y1)
{
    uint8_t b[4];
    b[0] = (uint8_t)((unsigned)x0 >> 8);
    b[1] = (uint8_t)x0;
    b[2] = (uint8_t)((unsigned)x1 >> 8);
    b[3] = (uint8_t)x1;
    cmd_data(ILI_CASET, b, 4);
    b[0] = (uint8_t)((unsigned)y0 >> 8);
    b[1] = (uint8_t)y0;
    b[2] = (uint8_t)((unsigned)y1 >> 8);
    b[3] = (uint8_t)y1;
    cmd_data(ILI_PASET, b, 4);
    tft_port_command(ILI_RAMWR);
}

void tft_fill_rect(int x, int y, int w, int h, uint16_t color)
{
    if (w <= 0 || h <= 0) return;
    tft_port_select(1);
    tft_window(x, y, x + w - 1, y + h - 1);
    tft_port_fill(color, (uint32_t)w * (uint32_t)h);
    tft_port_select(0);
}

void tft_pixel(int x, int y, uint16_t color) { tft_fill_rect(x, y, 1, 1, color); }

void tft_blit(int x, int y, int w, int h, const uint16_t *px, int stride)
{
    int i, j;
    if (w <= 0 || h <= 0) return;
    tft_port_select(1);
    tft_window(x, y, x + w - 1, y + h - 1);
    for (j = 0; j < h; j++)
        for (i = 0; i < w; i++) tft_port_fill(px[j * stride + i], 1);
    tft_port_select(0);
}
