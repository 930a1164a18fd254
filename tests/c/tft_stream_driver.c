/* tft_stream_driver.c - streams the host's ILI9340 decoder (host_ili9340.c)
 * must refuse, one per run: `tft_stream_driver NAME` sends it and prints
 * `errors=N` and the first error (tests/test_tft_start.py). `good` is the
 * driver's own start-up and a fill, which must decode clean. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "platform_host.h"
#include "tft_ili9340.h"

static void cmd(uint8_t c, const uint8_t *d, size_t n)
{
    uint8_t seq[2 + 16];
    seq[0] = c;
    seq[1] = (uint8_t)n;
    if (n) memcpy(seq + 2, d, n);
    tft_port_commands(seq, 2 + n);
}

/* Reset, SWRESET, SLPOUT with the datasheet's waits, 16-bit pixels or not. */
static void wake(int colmod)
{
    static const uint8_t c16 = 0x55u;
    tft_port_reset(0);
    tft_port_delay_ms(1);
    tft_port_reset(1);
    tft_port_delay_ms(ILI_RESET_TO_SLPOUT_MS);
    tft_port_select(1);
    cmd(ILI_SWRESET, 0, 0);
    tft_port_delay_ms(ILI_RESET_TO_SLPOUT_MS);
    cmd(ILI_SLPOUT, 0, 0);
    tft_port_delay_ms(ILI_SLPOUT_TO_CMD_MS);
    if (colmod) cmd(ILI_COLMOD, &c16, 1);
}

int main(int argc, char **argv)
{
    static const uint8_t two[2] = {0x28u, 0x00u}, wide[4] = {0x00u, 0x00u, 0x02u, 0x7Fu}, px[3] = {0xF8u, 0, 0},
                         win[4] = {0, 0, 0, 1};
    const char *s = argc == 2 ? argv[1] : "";
    if (!strcmp(s, "good")) {
        static const uint16_t xs[4] = {10, 11, 30, 319}, c[4] = {0x001Fu, 0x07E0u, 0x001Fu, 0x07E0u};
        tft_init();
        tft_fill_rect(0, 0, 320, 240, 0xF800u);
        int i;
        tft_run_t run;
        tft_begin(&run); /* rows reuse the window's halves */
        for (i = 0; i < 4; i++) tft_put(&run, xs[i], 20, c[i]);
        tft_put(&run, xs[2], 21, c[1]);
        tft_end(&run);
    } else if (!strcmp(s, "no_wait")) { /* SLPOUT straight after SWRESET */
        tft_port_select(1);
        cmd(ILI_SWRESET, 0, 0);
        cmd(ILI_SLPOUT, 0, 0);
    } else if (!strcmp(s, "early_slpout")) { /* 10 ms: enough for a command, not for SLPOUT */
        tft_port_select(1);
        cmd(ILI_SWRESET, 0, 0);
        tft_port_delay_ms(10);
        cmd(ILI_SLPOUT, 0, 0);
    } else if (!strcmp(s, "cs_high")) {
        cmd(ILI_NOP, 0, 0);
    } else if (!strcmp(s, "no_colmod")) {
        wake(0);
        tft_fill_rect(0, 0, 2, 2, 0xF800u);
    } else if (!strcmp(s, "args")) { /* MADCTL takes one parameter */
        wake(1);
        cmd(ILI_MADCTL, two, 2);
        cmd(ILI_NOP, 0, 0);
    } else if (!strcmp(s, "unknown")) {
        wake(1);
        cmd(0xFFu, 0, 0);
    } else if (!strcmp(s, "off_panel")) { /* columns 0..639 on a 320-wide panel */
        wake(1);
        cmd(ILI_CASET, wide, 4);
    } else if (!strcmp(s, "mid_pixel")) {
        wake(1);
        cmd(ILI_CASET, win, 4);
        cmd(ILI_PASET, win, 4);
        cmd(ILI_RAMWR, px, 3);
        cmd(ILI_NOP, 0, 0);
    } else if (!strcmp(s, "no_window")) { /* the driver keeps the window; it must set one after a reset */
        wake(1);
        cmd(ILI_CASET, win, 4);
        cmd(ILI_RAMWR, px, 2);
    } else {
        fprintf(stderr, "tft_stream_driver: unknown stream '%s'\n", s);
        return 2;
    }
    tft_port_select(0);
    printf("errors=%" PRIu32 "\nshowing=%d\nfirst=%s\n", host_tft_errors(), host_tft_showing(),
           host_tft_errors() ? host_tft_first_error() : "");
    return 0;
}
