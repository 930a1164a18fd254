/* budget_tft_port.c - the tft_port_* end of the ILI9340 driver for the
 * budget's m4k image (budget_m4k.c), so that `boidsgen budget --profile`
 * can count the CPU instructions of drawing a frame under qemu-mipsel.
 *
 * A twin of the SPI section of platform_pic32.c, statement for statement,
 * with the SPI1 and LAT registers replaced by volatile words in RAM: the
 * status reads say "idle, transmit FIFO empty and not full, receive FIFO empty",
 * so every wait loop runs its test once. On the board those loops spin
 * while the bytes shift out: the profile's SPI timeline
 * (codegen/drivers/pic32/budget/spi_timeline.py) finds this file's stores to SPI_BUF and its
 * status loads by their source lines and adds those waits. Each register
 * access is one load or store here as on the PIC32 (where it crosses the
 * peripheral bus). Not counted therefore: the board's idle waits also read
 * each received byte out of the receive FIFO (inside the waits' turns).
 * The bytes are not counted here (a counter would add instructions the
 * board does not run): the host driver counts them (budget_host.c). */
#include <stddef.h>
#include <stdint.h>

#include "tft_ili9340.h"

#define SPI_RBE 0x00000020u
#define SPI_TBE 0x00000008u
#define SPI_BUSY 0x00000800u
#define SPI_TBF 0x00000002u
#define SPI_IDLE_MASK (SPI_BUSY | SPI_TBE | SPI_RBE)
#define SPI_IDLE (SPI_TBE | SPI_RBE)
#define DC_MASK (1u << 0)

/* SPI1CON's register block and LATBCLR's, laid out as on the PIC32, held in
 * registers by pointer as platform_pic32.c holds them. */
enum { SPI_STAT = 0x10 / 4, SPI_STATCLR = 0x14 / 4, SPI_BUF = 0x20 / 4, LAT_CLR = 0, LAT_SET = 1 };
static volatile uint32_t spi1_block[SPI_BUF + 1] = {[SPI_STAT] = SPI_RBE | SPI_TBE}, latb_block[2];
#define PORT_HELD(p) __asm__("" : "+r"(p))
static inline volatile uint32_t *spi_regs(void)
{
    volatile uint32_t *p = spi1_block;
    PORT_HELD(p);
    return p;
}
static inline volatile uint32_t *dc_regs(void)
{
    volatile uint32_t *p = latb_block;
    PORT_HELD(p);
    return p;
}

/* An idle wait from a status the caller loaded: its own work between the
 * load and this test fills the load's delay. */
static inline void spi_idle_from(volatile uint32_t *spi, uint32_t st, uint32_t idle)
{
    while (TFT_RARELY((st & SPI_IDLE_MASK) != idle)) {
        if (!(st & SPI_RBE)) (void)spi[SPI_BUF];
        st = spi[SPI_STAT]; /* SPI idle wait */
    }
}
static inline void spi_wait_idle(volatile uint32_t *spi)
{
    spi_idle_from(spi, spi[SPI_STAT] /* SPI idle wait */, SPI_IDLE);
}

static inline void spi_put_waiting(volatile uint32_t *spi, uint8_t b)
{
    uint32_t st;
    while ((st = spi[SPI_STAT]) & SPI_TBF)
        if (!(st & SPI_RBE)) (void)spi[SPI_BUF];
    spi[SPI_BUF] = b;
}


/* A command byte with DC low, then DC high for its parameters. The command
 * byte goes once the bytes before it are out; spi_command_sent returns the
 * status loaded right after it, for spi_params, so that the caller's work
 * between the two fills the load's delay. k: the DC mask and the idle
 * word, held in registers (at -O1 GCC loaded each constant again for each
 * use), set while the first status load completes. */
typedef struct { uint32_t one, idle; } spi_k_t;
static inline uint32_t spi_command_sent(volatile uint32_t *spi, volatile uint32_t *dc, uint8_t cmd, spi_k_t *k)
{
    const uint32_t st = spi[SPI_STAT]; /* SPI idle wait */
    k->one = DC_MASK;
    k->idle = SPI_IDLE;
    PORT_HELD(k->one);
    PORT_HELD(k->idle);
    spi_idle_from(spi, st, k->idle);
    dc[LAT_CLR] = k->one; /* DC low: a command */
    spi[SPI_BUF] = cmd;
    return spi[SPI_STAT]; /* SPI idle wait */
}
/* DC high for the parameters, once the command byte is out. */
static inline void spi_params(volatile uint32_t *spi, volatile uint32_t *dc, uint32_t st, const spi_k_t *k)
{
    spi_idle_from(spi, st, k->idle);
    dc[LAT_SET] = k->one;
}
static inline void spi_command(volatile uint32_t *spi, volatile uint32_t *dc, uint8_t cmd)
{
    spi_k_t k;
    const uint32_t st = spi_command_sent(spi, dc, cmd, &k);
    spi_params(spi, dc, st, &k);
}

void tft_port_select(int on)
{
    volatile uint32_t *const dc = dc_regs();
    spi_wait_idle(spi_regs());
    if (on) dc[LAT_CLR] = 1u << 1; /* CS */
    else dc[LAT_SET] = 1u << 1;
}

void tft_port_commands(const uint8_t *seq, size_t len)
{
    volatile uint32_t *const spi = spi_regs(), *const dc = dc_regs();
    const uint8_t *end = seq + len;
    while (seq < end) {
        unsigned n = seq[1];
        spi_command(spi, dc, seq[0]);
        seq += 2;
        if (n <= TFT_PORT_BURST) {
            while (n--) spi[SPI_BUF] = *seq++;
        } else {
            while (n--) spi_put_waiting(spi, *seq++);
        }
    }
}

void tft_port_words(uint8_t cmd, uint16_t first, const uint16_t *rest, unsigned n)
{
    volatile uint32_t *const spi = spi_regs(), *const dc = dc_regs();
    spi_k_t k;
    const uint32_t st = spi_command_sent(spi, dc, cmd, &k);
    const uint32_t hi = (uint32_t)first >> 8, lo = first & 0xFFu; /* while the status load completes */
    spi_params(spi, dc, st, &k);
    spi[SPI_BUF] = hi; /* n >= 1; <= TFT_PORT_BURST bytes after an idle wait: a burst */
    spi[SPI_BUF] = lo;
    while (TFT_RARELY(--n)) { /* most spans are one pixel */
        const uint32_t c = *rest++;
        spi[SPI_BUF] = c >> 8;
        spi[SPI_BUF] = c & 0xFFu;
    }
}

void tft_port_range(uint8_t cmd, unsigned a, unsigned b)
{
    volatile uint32_t *const spi = spi_regs(), *const dc = dc_regs();
    spi_k_t k;
    const uint32_t st = spi_command_sent(spi, dc, cmd, &k);
    const uint32_t a1 = a >> 8, a0 = a & 0xFFu, b1 = b >> 8, b0 = b & 0xFFu; /* while the status load completes */
    spi_params(spi, dc, st, &k);
    spi[SPI_BUF] = a1;
    spi[SPI_BUF] = a0;
    spi[SPI_BUF] = b1;
    spi[SPI_BUF] = b0;
}

void tft_port_fill(uint16_t color, uint32_t n)
{
    volatile uint32_t *const spi = spi_regs();
    uint8_t hi = (uint8_t)(color >> 8), lo = (uint8_t)color;
    while (n--) {
        spi_put_waiting(spi, hi);
        spi_put_waiting(spi, lo);
    }
    spi[SPI_STATCLR] = 0x40u; /* SPIROV */
}

void tft_port_reset(int level)
{
    volatile uint32_t *const dc = dc_regs();
    if (level) dc[LAT_SET] = 1u << 2;
    else dc[LAT_CLR] = 1u << 2;
}

void tft_port_delay_ms(uint32_t ms) { (void)ms; }
