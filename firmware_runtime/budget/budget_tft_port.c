/* budget_tft_port.c - the tft_port_* end of the ILI9340 driver for the
 * budget's m4k image (budget_m4k.c), so that `boidsgen budget --profile`
 * can count the CPU instructions of drawing a frame under qemu-mipsel.
 *
 * A twin of the SPI section of platform_pic32.c, statement for statement,
 * with the SPI1 and LAT registers replaced by volatile words in RAM: the
 * status reads say "idle, transmit FIFO empty and not full, receive FIFO empty",
 * so every wait loop runs its test once. On the board those loops spin
 * while the bytes shift out: the profile's SPI timeline
 * (codegen/spi_timeline.py) finds this file's stores to spi1buf and its
 * status loads by their source lines and adds those waits. Each register
 * access is one load or store here as on the PIC32 (where it crosses the
 * peripheral bus). Not counted therefore: the board's idle waits also read
 * each received byte out of the receive FIFO (inside the waits' turns).
 * The bytes are not counted here (a counter would add instructions the
 * board does not run): the host driver counts them (budget_host.c). */
#include <stddef.h>
#include <stdint.h>

#include "tft_ili9340.h"

#define SPIRBE 0x00000020u
#define SPITBE 0x00000008u
#define SPIBUSY 0x00000800u
#define SPITBF 0x00000002u

static volatile uint32_t spi1stat = SPIRBE | SPITBE, spi1buf, spi1statclr, lat_set, lat_clr;

#define SPI_IDLE_MASK (SPIBUSY | SPITBE | SPIRBE)
#define SPI_IDLE (SPITBE | SPIRBE)
static inline void spi_wait_idle(void)
{
    uint32_t st;
    while (((st = spi1stat) & SPI_IDLE_MASK) != SPI_IDLE)
        if (!(st & SPIRBE)) (void)spi1buf;
}

static inline void spi_put_waiting(uint8_t b)
{
    uint32_t st;
    while ((st = spi1stat) & SPITBF)
        if (!(st & SPIRBE)) (void)spi1buf;
    spi1buf = b;
}

static inline void spi_command(uint8_t cmd)
{
    spi_wait_idle();
    lat_clr = 1u << 0; /* DC low: a command */
    spi1buf = cmd;
    spi_wait_idle();
    lat_set = 1u << 0;
}

void tft_port_select(int on)
{
    spi_wait_idle();
    if (on) lat_clr = 1u << 1; /* CS */
    else lat_set = 1u << 1;
}

void tft_port_commands(const uint8_t *seq, size_t len)
{
    const uint8_t *end = seq + len;
    while (seq < end) {
        unsigned n = seq[1];
        spi_command(seq[0]);
        seq += 2;
        if (n <= TFT_PORT_BURST) {
            while (n--) spi1buf = *seq++;
        } else {
            while (n--) spi_put_waiting(*seq++);
        }
    }
}

void tft_port_words(uint8_t cmd, const uint16_t *w, unsigned n)
{
    spi_command(cmd);
    for (; n; n--, w++) {
        spi1buf = *w >> 8;
        spi1buf = *w & 0xFFu;
    }
}

void tft_port_range(uint8_t cmd, unsigned a, unsigned b)
{
    spi_command(cmd);
    spi1buf = a >> 8;
    spi1buf = a & 0xFFu;
    spi1buf = b >> 8;
    spi1buf = b & 0xFFu;
}

void tft_port_fill(uint16_t color, uint32_t n)
{
    uint8_t hi = (uint8_t)(color >> 8), lo = (uint8_t)color;
    while (n--) {
        spi_put_waiting(hi);
        spi_put_waiting(lo);
    }
    spi1statclr = 0x40u; /* SPIROV */
}

void tft_port_reset(int level)
{
    if (level) lat_set = 1u << 2;
    else lat_clr = 1u << 2;
}

void tft_port_delay_ms(uint32_t ms) { (void)ms; }
