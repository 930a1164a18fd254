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
void tft_port_words(uint8_t cmd, const uint16_t *w, unsigned n)
{
    printf("C %02X\n", (unsigned)cmd);
    for (; n; n--, w++) printf("D %02X\nD %02X\n", (unsigned)(*w >> 8), (unsigned)(*w & 0xFFu));
}
void tft_port_fill(uint16_t color, uint32_t n)
{
    while (n--) printf("D %02X\nD %02X\n", (unsigned)(color >> 8), (unsigned)(color & 0xFFu));
}
void tft_port_reset(int level) { printf("R %d\n", level != 0); }
void tft_port_delay_ms(uint32_t ms) { printf("W %lu\n", (unsigned long)ms); }

int main(void)
{
    tft_init();
    return 0;
}
