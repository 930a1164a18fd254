/* host_ili9340.c - the host's ILI9340: the display end of tft_ili9340.c.
 *
 * The bytes the driver sends are counted (what SPI would carry) and decoded
 * as the controller would into the panel's framebuffer (BOIDS_PANEL_WIDTH x
 * BOIDS_PANEL_HEIGHT: CASET/PASET window, RAMWR pixels MSB first). Commands
 * it does not model (power, VCOM, gamma, ...) are accepted and ignored. What
 * the controller would not take is counted as an error, the first one kept
 * in words: a byte while CS is high or RST low, a byte that is no ILI9340
 * command, a parameter count the command does not take, a command sooner
 * after a reset or SLPOUT than the datasheet allows, a window off the panel,
 * RAMWR before CASET and PASET have set the window since the last reset
 * (the driver keeps the window and sends only the half that changed: the
 * registers hold their values until the next CASET/PASET, RAMWR only moves
 * the write pointer to the window's start), pixels before COLMOD selects 16
 * bits. Time is the driver's own waits
 * (tft_port_delay_ms), so the check is the same in virtual time. */
#include <stdio.h>
#include <string.h>

#include "boids_config.h"
#include "platform_host.h"
#include "tft_ili9340.h"

#define ANY_ARGS 0xFFu

/* The ILI9340's write commands (datasheet section 8) and their parameter
 * counts. Reads are not here: MISO is not connected. */
static const struct {
    uint8_t cmd, min, max;
} commands[] = {
    {ILI_NOP, 0, 0}, {ILI_SWRESET, 0, 0}, {ILI_SLPIN, 0, 0}, {ILI_SLPOUT, 0, 0},
    {0x12u, 0, 0}, {0x13u, 0, 0}, {0x20u, 0, 0}, {0x21u, 0, 0}, /* PTLON, NORON, INVOFF, INVON */
    {ILI_GAMSET, 1, 1}, {ILI_DISPOFF, 0, 0}, {ILI_DISPON, 0, 0},
    {ILI_CASET, 4, 4}, {ILI_PASET, 4, 4}, {ILI_RAMWR, 0, ANY_ARGS}, {ILI_MADCTL, 1, 1}, {ILI_COLMOD, 1, 1},
    {ILI_FRMCTR1, 2, 2}, {ILI_DFUNCTR, 3, 4}, {ILI_PWCTR1, 1, 1}, {ILI_PWCTR2, 1, 1},
    {ILI_VMCTR1, 2, 2}, {ILI_VMCTR2, 1, 1}, {ILI_GMCTRP1, 15, 15}, {ILI_GMCTRN1, 15, 15},
};

static uint16_t fb[BOIDS_PANEL_WIDTH * BOIDS_PANEL_HEIGHT];
static uint64_t spi_bytes;

static struct {
    int known;           /* the current command is in the table */
    uint8_t cmd, min, max;
    unsigned nargs;      /* data bytes received since it */
    uint8_t args[4];
    int xs, xe, ys, ye;  /* window */
    int cx, cy;          /* RAMWR cursor */
    int have_hi;
    uint8_t hi;
    int selected, in_reset, awake, on, colmod16;
    int window_set;      /* 1: CASET, 2: PASET received since the last reset */
    uint32_t ms;         /* the driver's waits so far */
    uint32_t reset_ms, wake_ms, last_reset, last_wake;
    int reset_seen, wake_seen;
    uint32_t errors;
    char first[160];
} lcd; /* zero: no window until CASET and PASET */

static void fail(const char *what)
{
    if (lcd.errors++ == 0)
        snprintf(lcd.first, sizeof lcd.first, "byte %llu (command 0x%02X): %s", (unsigned long long)spi_bytes,
                 (unsigned)lcd.cmd, what);
}

/* The previous command got a parameter count it takes, and ended on a pixel. */
static void end_command(void)
{
    if (lcd.known && (lcd.nargs < lcd.min || (lcd.max != ANY_ARGS && lcd.nargs > lcd.max)))
        fail("parameter count outside what the command takes");
    if (lcd.cmd == ILI_RAMWR && lcd.have_hi) fail("RAMWR ended inside a 16-bit pixel");
    lcd.known = 0; /* checked once */
    lcd.have_hi = 0;
}

static int on_wire(void)
{
    spi_bytes++;
    if (!lcd.selected) fail("byte sent while CS is high (the controller ignores it)");
    if (lcd.in_reset) fail("byte sent while RST is low");
    return lcd.selected && !lcd.in_reset;
}

void tft_port_select(int on) { lcd.selected = on != 0; }
void tft_port_delay_ms(uint32_t ms) { lcd.ms += ms; }

void tft_port_reset(int level)
{
    if (!level) lcd.in_reset = 1;
    else if (lcd.in_reset) { /* the rising edge: registers to their defaults, asleep */
        lcd.in_reset = 0;
        lcd.awake = lcd.on = lcd.colmod16 = lcd.window_set = 0;
        lcd.reset_seen = 1;
        lcd.last_reset = lcd.ms;
    }
}

static void timing(uint8_t cmd)
{
    if (lcd.reset_seen && lcd.ms - lcd.last_reset < ILI_RESET_TO_CMD_MS)
        fail("command within 5 ms of a reset");
    if (cmd == ILI_SLPOUT && lcd.reset_seen && lcd.ms - lcd.last_reset < ILI_RESET_TO_SLPOUT_MS)
        fail("SLPOUT within 120 ms of a reset");
    if (lcd.wake_seen && lcd.ms - lcd.last_wake < ILI_SLPOUT_TO_CMD_MS) fail("command within 5 ms of SLPOUT");
}

static void lcd_command(uint8_t cmd)
{
    size_t i;
    end_command();
    lcd.cmd = cmd;
    lcd.nargs = 0;
    if (!on_wire()) return;
    timing(cmd);
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].cmd == cmd) {
            lcd.known = 1;
            lcd.min = commands[i].min;
            lcd.max = commands[i].max;
        }
    if (!lcd.known) fail("not an ILI9340 command");
    if (cmd == ILI_SWRESET) {
        lcd.awake = lcd.on = lcd.colmod16 = lcd.window_set = 0;
        lcd.reset_seen = 1;
        lcd.last_reset = lcd.ms;
    } else if (cmd == ILI_SLPOUT) {
        lcd.awake = 1;
        lcd.wake_seen = 1;
        lcd.last_wake = lcd.ms;
    } else if (cmd == ILI_SLPIN) {
        lcd.awake = 0;
    } else if (cmd == ILI_DISPON || cmd == ILI_DISPOFF) {
        lcd.on = cmd == ILI_DISPON;
    } else if (cmd == ILI_RAMWR) {
        if (lcd.window_set != 3) fail("RAMWR before CASET and PASET set the window (since the last reset)");
        lcd.cx = lcd.xs;
        lcd.cy = lcd.ys;
    }
}

static void lcd_put(uint16_t color)
{
    if (lcd.cx >= 0 && lcd.cy >= 0 && lcd.cx < BOIDS_PANEL_WIDTH && lcd.cy < BOIDS_PANEL_HEIGHT)
        fb[lcd.cy * BOIDS_PANEL_WIDTH + lcd.cx] = color;
    if (++lcd.cx > lcd.xe) {
        lcd.cx = lcd.xs;
        if (++lcd.cy > lcd.ye) lcd.cy = lcd.ys;
    }
}

static void window_arg(uint8_t b)
{
    lcd.args[lcd.nargs - 1] = b;
    if (lcd.nargs == 4) {
        const int lo = (lcd.args[0] << 8) | lcd.args[1], hi = (lcd.args[2] << 8) | lcd.args[3];
        const int size = lcd.cmd == ILI_CASET ? BOIDS_PANEL_WIDTH : BOIDS_PANEL_HEIGHT;
        if (lo > hi || hi >= size) fail("window off the panel (start after end, or end past the last pixel)");
        if (lcd.cmd == ILI_CASET) lcd.xs = lo, lcd.xe = hi, lcd.window_set |= 1;
        else lcd.ys = lo, lcd.ye = hi, lcd.window_set |= 2;
    }
}

static void lcd_data(uint8_t b)
{
    if (!on_wire()) return;
    lcd.nargs++;
    if (lcd.cmd == ILI_RAMWR) {
        if (!lcd.colmod16 && lcd.nargs == 1) fail("pixels before COLMOD selects 16 bits per pixel");
        if (!lcd.have_hi) {
            lcd.hi = b;
            lcd.have_hi = 1;
        } else {
            lcd.have_hi = 0;
            lcd_put((uint16_t)((lcd.hi << 8) | b));
        }
        return;
    }
    if ((lcd.cmd == ILI_CASET || lcd.cmd == ILI_PASET) && lcd.nargs <= 4) window_arg(b);
    if (lcd.cmd == ILI_COLMOD && lcd.nargs == 1) lcd.colmod16 = (b & 0x07u) == 0x05u; /* DBI[2:0] = 101: 16 bits */
}

void tft_port_commands(const uint8_t *seq, size_t len)
{
    size_t i = 0;
    while (i + 2u <= len) {
        size_t n = seq[i + 1], k;
        lcd_command(seq[i]);
        for (k = 0; k < n && i + 2u + k < len; k++) lcd_data(seq[i + 2u + k]);
        i += 2u + n;
    }
    if (i != len) fail("a command batch cut short (driver bug)");
}

void tft_port_words(uint8_t cmd, uint16_t first, const uint16_t *rest, unsigned n)
{
    if (n < 1 || n > TFT_PORT_BURST / 2u) fail("no word, or more words than a burst (driver bug)");
    lcd_command(cmd);
    lcd_data((uint8_t)(first >> 8));
    lcd_data((uint8_t)first);
    for (; --n; rest++) {
        lcd_data((uint8_t)(*rest >> 8));
        lcd_data((uint8_t)*rest);
    }
}

void tft_port_range(uint8_t cmd, unsigned a, unsigned b)
{
    if (a > 0xFFFFu || b > 0xFFFFu) fail("a range past 16 bits (driver bug)");
    lcd_command(cmd);
    lcd_data((uint8_t)(a >> 8));
    lcd_data((uint8_t)a);
    lcd_data((uint8_t)(b >> 8));
    lcd_data((uint8_t)b);
}

void tft_port_fill(uint16_t color, uint32_t n)
{
    /* The common case in one step: whole pixels of RAMWR on a good stream. */
    if (lcd.cmd == ILI_RAMWR && !lcd.have_hi && lcd.selected && !lcd.in_reset && lcd.colmod16 && n > 0) {
        spi_bytes += 2u * (uint64_t)n;
        lcd.nargs += 2u * n;
        while (n--) lcd_put(color);
        return;
    }
    while (n--) {
        lcd_data((uint8_t)(color >> 8));
        lcd_data((uint8_t)color);
    }
}

uint64_t host_spi_bytes(void) { return spi_bytes; }
const uint16_t *host_framebuffer(void) { return fb; }
int host_tft_showing(void) { return lcd.awake && lcd.on; }
uint32_t host_tft_waited_ms(void) { return lcd.ms; }

uint32_t host_tft_errors(void)
{
    /* the last command's parameter count too, as if another followed */
    if (lcd.known && (lcd.nargs < lcd.min || (lcd.max != ANY_ARGS && lcd.nargs > lcd.max))) {
        fail("parameter count outside what the command takes");
        lcd.known = 0;
    }
    return lcd.errors;
}

const char *host_tft_first_error(void) { return host_tft_errors() ? lcd.first : NULL; }
