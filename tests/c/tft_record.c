/* tft_record.c - tft_init over a recording port: prints what reaches the
 * ILI9340's pins, one line each (tests/test_tft_start.py reads it):
 *   C xx   a command byte        D xx   a data byte
 *   S n    CS low (1) / high (0)  R n    the RST pin    W ms   a wait */
#include <stdio.h>

#include "tft_ili9340.h"

void tft_port_select(int on) { printf("S %d\n", on != 0); }
void tft_port_commands(const uint8_t *seq, size_t len)
{
    size_t i = 0, k;
    while (i < len) {
        printf("C %02X\n", (unsigned)seq[i]);
        for (k = 0; k < seq[i + 1]; k++) printf("D %02X\n", (unsigned)seq[i + 2 + k]);
        i += 2u + seq[i + 1];
    }
}
void tft_port_words(uint8_t cmd, uint16_t first, const uint16_t *rest, unsigned n)
{
    printf("C %02X\nD %02X\nD %02X\n", (unsigned)cmd, (unsigned)(first >> 8), (unsigned)(first & 0xFFu));
    for (; --n; rest++) printf("D %02X\nD %02X\n", (unsigned)(*rest >> 8), (unsigned)(*rest & 0xFFu));
}
void tft_port_range(uint8_t cmd, unsigned a, unsigned b)
{
    printf("C %02X\nD %02X\nD %02X\nD %02X\nD %02X\n", (unsigned)cmd, (a >> 8) & 0xFFu, a & 0xFFu, (b >> 8) & 0xFFu,
           b & 0xFFu);
}
void tft_port_fill(uint16_t color, uint32_t n)
{
    while (n--) printf("D %02X\nD %02X\n", (unsigned)(color >> 8), (unsigned)(color & 0xFFu));
}
void tft_port_reset(int level) { printf("R %d\n", level != 0); }
void tft_port_delay_ms(uint32_t ms) { printf("W %lu\n", (unsigned long)ms); }

/* `tft_record put`: after the start-up, scattered pixels through tft_put. */
static void puts_script(void)
{
    static const int px[][3] = {{10, 5, 0xA1A2}, {11, 5, 0xB1B2}, {12, 5, 0xC1C2}, {13, 5, 0xD1D2},
                                {14, 5, 0xE1E2}, {20, 5, 0xF1F2}, {20, 6, 0x1112}, {3, 6, 0x2122}};
    unsigned k;
    tft_run_t run;
    tft_begin(&run);
    for (k = 0; k < sizeof px / sizeof px[0]; k++) tft_put(&run, px[k][0], px[k][1], (uint16_t)px[k][2]);
    tft_end(&run);
}

/* `tft_record handoff`: a run, rectangles, a run: the window the driver
 * last set passes from a run to the rectangles and back (tft_end, tft_begin). */
static void handoff_script(void)
{
    tft_run_t run;
    tft_begin(&run);
    tft_put(&run, 3, 6, 0x0101);
    tft_end(&run);
    tft_fill_rect(3, 6, 317, 1, 0x0202); /* the run's window: columns 3 .. 319 of row 6 */
    tft_fill_rect(5, 0, 2, 2, 0x0303); /* columns 5 .. 6: the next run starts at column 5 */
    tft_begin(&run);
    tft_put(&run, 5, 0, 0x0404);
    tft_put(&run, 5, 1, 0x0505);
    tft_end(&run);
}

int main(int argc, char **argv)
{
    tft_init();
    if (argc > 1 && (argv[1][0] == 'p' || argv[1][0] == 'h')) {
        printf("X 0\n"); /* the start-up ends here */
        if (argv[1][0] == 'p')
            puts_script();
        else
            handoff_script();
    }
    return 0;
}
