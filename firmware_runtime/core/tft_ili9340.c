/* tft_ili9340.c - the ILI9340 command sequences (see tft_ili9340.h). */
#include "tft_ili9340.h"

/* Commands wait in q and leave in one tft_port_commands call: [command,
 * count, parameters] back to back, up to p. The controller's window as
 * last set is tft_pen's (tft_ili9340.h). */
static struct {
    uint8_t q[192], *p;
} tq = {{0}, tq.q};
tft_pen_t tft_pen = {-1, 0, -1, 0};
uint16_t tft_span_colors[TFT_SPAN_MAX - 1];

static void flush(void)
{
    if (tq.p != tq.q) tft_port_commands(tq.q, (size_t)(tq.p - tq.q));
    tq.p = tq.q;
}

/* Room for n more bytes in the queue. */
static inline void room(size_t n)
{
    if ((size_t)(tq.q + sizeof tq.q - tq.p) < n) flush();
}

/* A command and its n parameters (n <= 32) into the queue. */
static void cmd_data(uint8_t cmd, const uint8_t *d, size_t n)
{
    uint8_t *p;
    room(2u + n);
    p = tq.p;
    p[0] = cmd;
    p[1] = (uint8_t)n;
    for (p += 2; n; n--) *p++ = *d++;
    tq.p = p;
}

/* CASET or PASET [a, b] at p; returns the end. */
static inline uint8_t *put_range(uint8_t *p, uint8_t cmd, int a, int b)
{
    p[0] = cmd;
    p[1] = 4;
    p[2] = (uint8_t)((unsigned)a >> 8);
    p[3] = (uint8_t)a;
    p[4] = (uint8_t)((unsigned)b >> 8);
    p[5] = (uint8_t)b;
    return p + 6;
}

/* The configuration sent after sleep out: command, parameter count,
 * parameters. Values and meanings from the ILI9340/ILI9341 datasheet
 * (section 8.3, level 2 commands); the values are those Adafruit's
 * ILI9340 driver sends for this panel (the lab's module). */
static const uint8_t init_seq[] = {
    /* GVDD, the grey-scale reference = 4.60 V (VRH[5:0] = 0x23) */
    ILI_PWCTR1, 1, 0x23,
    /* step-up factors (BT = 0): AVDD = 2 x VCI, VGH = 7 x VCI, VGL = -4 x VCI */
    ILI_PWCTR2, 1, 0x10,
    /* VCOMH = 4.250 V (VMH = 0x3E), VCOML = -1.500 V (VML = 0x28) */
    ILI_VMCTR1, 2, 0x3E, 0x28,
    /* nVM = 1: VCOM offset from VMF = 6, VCOMH = VMH - 58, VCOML = VML - 58 */
    ILI_VMCTR2, 1, 0x86,
    /* orientation and colour order: 0x28 = MV (rows and columns exchanged:
     * 320x240 landscape) | BGR (the glass's filter order) */
    ILI_MADCTL, 1, TFT_MADCTL,
    /* 16 bits per pixel (RGB565) on the MCU and RGB interfaces */
    ILI_COLMOD, 1, 0x55,
    /* DIVA = 0 (fosc / 1), RTNA = 0x18 (24 clocks a line): ~79 Hz refresh */
    ILI_FRMCTR1, 2, 0x00, 0x18,
    /* PTG = 2: interval scan in the non-display area, PT = 0: there sources at
     * V63/V0, VCOM at VCOML/VCOMH; REV = 1 (normally white glass), ISC = 2
     * (scan cycle 5 frames); NL = 0x27: (39 + 1) x 8 = 320 lines */
    ILI_DFUNCTR, 3, 0x08, 0x82, 0x27,
    /* gamma curve 1 (G2.2) */
    ILI_GAMSET, 1, 0x01,
    /* fine adjustment of the positive-polarity grey-scale voltages (15 steps) */
    ILI_GMCTRP1, 15, 0x0F, 0x31, 0x2B, 0x0C, 0x0E, 0x08, 0x4E, 0xF1, 0x37, 0x07, 0x10, 0x03, 0x0E, 0x09, 0x00,
    /* the same for the negative polarity */
    ILI_GMCTRN1, 15, 0x00, 0x0E, 0x14, 0x03, 0x11, 0x07, 0x31, 0xC1, 0x48, 0x08, 0x0F, 0x0C, 0x31, 0x36, 0x0F,
};

/* TFT_INIT_BYTES is what goes on the wire: the table less its 11 count
 * bytes, plus SWRESET, SLPOUT and DISPON. A compile error if they drift. */
#define INIT_SEQ_COMMANDS 11u
typedef char tft_init_bytes_match[(sizeof init_seq - INIT_SEQ_COMMANDS + 3u == TFT_INIT_BYTES) ? 1 : -1];

void tft_init(void)
{
    size_t i = 0;
    tft_pen.x0 = tft_pen.y0 = -1;
    tq.p = tq.q;
    tft_port_select(0);
    /* Hardware reset: low pulse >= 10 us, then 120 ms before commands. */
    tft_port_reset(1);
    tft_port_delay_ms(5);
    tft_port_reset(0);
    tft_port_delay_ms(20);
    tft_port_reset(1);
    tft_port_delay_ms(150);
    tft_port_select(1);
    cmd_data(ILI_SWRESET, 0, 0); /* registers to their defaults */
    flush();
    tft_port_select(0);
    tft_port_delay_ms(150); /* >= 5 ms before a command, >= 120 ms before SLPOUT */
    tft_port_select(1);
    cmd_data(ILI_SLPOUT, 0, 0); /* start the supplies and the oscillator */
    flush();
    tft_port_select(0);
    tft_port_delay_ms(120); /* >= 5 ms before a command; the supplies settle */
    tft_port_select(1);
    while (i < sizeof init_seq) {
        const uint8_t n = init_seq[i + 1];
        cmd_data(init_seq[i], &init_seq[i + 2], n);
        i += 2u + n;
    }
    cmd_data(ILI_DISPON, 0, 0); /* show the frame memory */
    flush();
    tft_port_select(0);
}

/* The window [x0,x1] x [y0,y1] (only the halves that changed) and RAMWR,
 * sent: the pixels follow through tft_port_fill. */
static void window(int x0, int y0, int x1, int y1)
{
    uint8_t *p;
    room(6u + 6u + 2u);
    p = tq.p;
    if (x0 != tft_pen.x0 || x1 != tft_pen.x1) {
        p = put_range(p, ILI_CASET, x0, x1);
        tft_pen.x0 = x0;
        tft_pen.x1 = x1;
    }
    if (y0 != tft_pen.y0 || y1 != tft_pen.y1) {
        p = put_range(p, ILI_PASET, y0, y1);
        tft_pen.y0 = y0;
        tft_pen.y1 = y1;
    }
    p[0] = ILI_RAMWR;
    p[1] = 0;
    tq.p = p + 2;
    flush();
}

void tft_fill_rect(int x, int y, int w, int h, uint16_t color)
{
    if (w <= 0 || h <= 0) return;
    tft_port_select(1);
    window(x, y, x + w - 1, y + h - 1);
    tft_port_fill(color, (uint32_t)w * (uint32_t)h);
    tft_port_select(0);
}

void tft_pixel(int x, int y, uint16_t color) { tft_fill_rect(x, y, 1, 1, color); }

void tft_blit(int x, int y, int w, int h, const uint16_t *px, int stride)
{
    int i, j;
    if (w <= 0 || h <= 0) return;
    tft_port_select(1);
    window(x, y, x + w - 1, y + h - 1);
    for (j = 0; j < h; j++)
        for (i = 0; i < w; i++) tft_port_fill(px[j * stride + i], 1);
    tft_port_select(0);
}
