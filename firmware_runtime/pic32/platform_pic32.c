/* platform_pic32.c - the platform layer for the PIC32MX250F128B on the
 * ECE 4760 board: a 1 ms Timer2 interrupt as the time base, UART2 with
 * interrupt-driven receive and transmit rings, and the ILI9340 TFT on SPI1
 * (the tft_port_* end of tft_ili9340.c; drawing itself is draw.c, shared
 * with the host). Pins and clocks: board_pins.h. */
#include <stddef.h>
#include <stdint.h>

#include "board_pins.h"
#include "platform.h"
#include "tft_ili9340.h"

#ifdef __XC32__
#include <sys/attribs.h>
#include <xc.h>
#define PIC32_ISR(vector, name) void __ISR(vector, IPL2SOFT) name(void)
#define PIC32_ENABLE_INTERRUPTS() __builtin_enable_interrupts()
#else
/* The compile/link check with a generic MIPS32 gcc (make m4k-check). */
#include "pic32mx250_compilecheck.h"
#define PIC32_ISR(vector, name) void __attribute__((interrupt, used)) name(void)
#define PIC32_ENABLE_INTERRUPTS() __asm__ volatile("ei" ::: "memory")
#endif

#if (BOARD_RX_BUF & (BOARD_RX_BUF - 1u)) || (BOARD_TX_BUF & (BOARD_TX_BUF - 1u))
#error "BOARD_RX_BUF and BOARD_TX_BUF must be powers of two"
#endif

void pic32_timer2_isr(void);
void pic32_uart2_isr(void);

/* ---- time base: Timer2 at PBCLK / 1, period 1 ms ---- */

static volatile uint32_t millis;

PIC32_ISR(_TIMER_2_VECTOR, pic32_timer2_isr)
{
    millis++;
    IFS0CLR = _IFS0_T2IF_MASK;
}

uint32_t plat_millis(void) { return millis; } /* one 32-bit load: atomic */

/* millis and Timer2's count (PBCLK ticks into the millisecond) read
 * together: again if the tick's interrupt ran between them; a tick pending
 * (flag set, interrupt not yet taken) when the count had already wrapped is
 * one more millisecond. */
#if BOARD_PBCLK_HZ % 1000000u
#error "plat_micros wants a whole number of PBCLK ticks per microsecond"
#endif
uint32_t plat_micros(void)
{
    uint32_t m, t, pending;
    do {
        m = millis;
        t = TMR2;
        pending = IFS0 & _IFS0_T2IF_MASK;
    } while (m != millis);
    if (pending && t < BOARD_PBCLK_HZ / 2000u) m++;
    return m * 1000u + t / (BOARD_PBCLK_HZ / 1000000u);
}
uint32_t plat_work_us(void) { return plat_micros(); }

static void timer_init(void)
{
    T2CON = 0; /* off, prescaler 1:1 */
    TMR2 = 0;
    PR2 = BOARD_PBCLK_HZ / 1000u - 1u; /* 39999 at 40 MHz: fits the 16-bit timer */
    IPC2CLR = _IPC2_T2IP_MASK | _IPC2_T2IS_MASK;
    IPC2SET = 2u << _IPC2_T2IP_POSITION;
    IFS0CLR = _IFS0_T2IF_MASK;
    IEC0SET = _IEC0_T2IE_MASK;
    T2CON = _T2CON_ON_MASK;
}

/* ---- UART2: rings filled/drained by the interrupt ---- */

static volatile uint8_t rx_buf[BOARD_RX_BUF], tx_buf[BOARD_TX_BUF];
static volatile uint16_t rx_head, rx_tail, tx_head, tx_tail; /* head: writer, tail: reader */
static volatile uint32_t rx_dropped;

PIC32_ISR(_UART_2_VECTOR, pic32_uart2_isr)
{
    if (U2STA & _U2STA_OERR_MASK) U2STACLR = _U2STA_OERR_MASK; /* clearing it resets the FIFO */
    while (U2STA & _U2STA_URXDA_MASK) {
        uint8_t c = (uint8_t)U2RXREG;
        uint16_t next = (uint16_t)((rx_head + 1u) & (BOARD_RX_BUF - 1u));
        if (next != rx_tail) {
            rx_buf[rx_head] = c;
            rx_head = next;
        } else {
            rx_dropped++; /* the serial thread fell behind: drop, keep the line protocol's framing */
        }
    }
    IFS1CLR = _IFS1_U2RXIF_MASK | _IFS1_U2EIF_MASK;
    if (IEC1 & _IEC1_U2TXIE_MASK) {
        while (tx_tail != tx_head && !(U2STA & _U2STA_UTXBF_MASK)) {
            U2TXREG = tx_buf[tx_tail];
            tx_tail = (uint16_t)((tx_tail + 1u) & (BOARD_TX_BUF - 1u));
        }
        if (tx_tail == tx_head) IEC1CLR = _IEC1_U2TXIE_MASK; /* nothing left: stop asking */
        IFS1CLR = _IFS1_U2TXIF_MASK;
    }
}

int plat_serial_getc(void)
{
    int c;
    if (rx_tail == rx_head) return -1;
    c = rx_buf[rx_tail];
    rx_tail = (uint16_t)((rx_tail + 1u) & (BOARD_RX_BUF - 1u));
    return c;
}

void plat_serial_write(const char *s, size_t n)
{
    while (n > 0) {
        uint16_t next = (uint16_t)((tx_head + 1u) & (BOARD_TX_BUF - 1u));
        if (next == tx_tail) {
            /* Ring full (a reply longer than the ring): let the interrupt
             * drain it; only a `list` of many parameters gets here. */
            IEC1SET = _IEC1_U2TXIE_MASK;
            continue;
        }
        tx_buf[tx_head] = (uint8_t)*s++;
        tx_head = next;
        n--;
    }
    IEC1SET = _IEC1_U2TXIE_MASK; /* the FIFO has room: the interrupt fires and drains */
}

static void uart_init(void)
{
    /* RX pin: digital input, mapped to U2RX; TX pin: output, mapped to U2TX. */
    BOARD_REG(ANSEL, BOARD_UART_RX_PORT, CLR) = BOARD_MASK(BOARD_UART_RX_BIT);
    BOARD_REG(TRIS, BOARD_UART_RX_PORT, SET) = BOARD_MASK(BOARD_UART_RX_BIT);
    BOARD_REG(ANSEL, BOARD_UART_TX_PORT, CLR) = BOARD_MASK(BOARD_UART_TX_BIT);
    BOARD_REG(TRIS, BOARD_UART_TX_PORT, CLR) = BOARD_MASK(BOARD_UART_TX_BIT);
    U2RXR = BOARD_UART_RX_PPS_CODE;
    BOARD_UART_TX_PPS_REG = BOARD_UART_TX_PPS_CODE;

    U2MODE = _U2MODE_BRGH_MASK; /* off, 8N1, x4 baud clock */
    /* BRGH = 1: baud = PBCLK / (4 * (BRG + 1)); round to nearest
     * (115200 at 40 MHz: BRG 86, 114943 baud, -0.2 %). */
    U2BRG = (BOARD_PBCLK_HZ + 2u * BOARD_UART_BAUD) / (4u * BOARD_UART_BAUD) - 1u;
    /* UTXISEL 00: interrupt while the TX FIFO has room; URXISEL 00: on each byte. */
    U2STA = _U2STA_URXEN_MASK | _U2STA_UTXEN_MASK;
    IPC9CLR = _IPC9_U2IP_MASK | _IPC9_U2IS_MASK;
    IPC9SET = 2u << _IPC9_U2IP_POSITION; /* same level as the timer: never nested */
    IFS1CLR = _IFS1_U2RXIF_MASK | _IFS1_U2TXIF_MASK | _IFS1_U2EIF_MASK;
    IEC1SET = _IEC1_U2RXIE_MASK;
    U2MODE = _U2MODE_ON_MASK | _U2MODE_BRGH_MASK;
}

/* ---- TFT on SPI1 (8-bit frames, enhanced buffer: FIFOs of at least
 * TFT_PORT_BURST bytes) ----
 * The status is tested where it matters: before DC moves (the byte on the
 * wire must be complete) and before a parameter beyond the burst. Between,
 * a command's parameters are one store each. The receive FIFO (nothing is
 * read from the panel) is emptied at each idle wait; a burst after an idle
 * wait cannot overflow it. (DISSDI leaves the pin to the port; the module
 * still fills the receive FIFO.) */

#define PIN_HI(p, b) (BOARD_REG(LAT, p, SET) = BOARD_MASK(b))
#define PIN_LO(p, b) (BOARD_REG(LAT, p, CLR) = BOARD_MASK(b))

/* Idle: every byte out of the FIFO (SPITBE) and the shift register
 * (SPIBUSY), and every received byte read (SPIRBE), tested in one status
 * read (a byte stored just before counts even if SPIBUSY has not caught up
 * with it). On the board the loop reads one received byte per byte sent. */
#define SPI_IDLE_MASK (_SPI1STAT_SPIBUSY_MASK | _SPI1STAT_SPITBE_MASK | _SPI1STAT_SPIRBE_MASK)
#define SPI_IDLE (_SPI1STAT_SPITBE_MASK | _SPI1STAT_SPIRBE_MASK)
#define SPI_TBF _SPI1STAT_SPITBF_MASK
#define SPI_RBE _SPI1STAT_SPIRBE_MASK
#define DC_MASK BOARD_MASK(BOARD_TFT_DC_BIT)

/* The pixel path's registers by two base pointers held in registers: at -O1
 * GCC rebuilds a constant address at every access (and the idle test's
 * constant at every wait), two instructions a command paid for each. The
 * offsets are the register map's (DS60001168: SPIxSTAT, SPIxSTATCLR and
 * SPIxBUF 0x10, 0x14 and 0x20 bytes after SPIxCON; LATxSET 4 after
 * LATxCLR). PORT_HELD: an empty asm, which hides the pointer's value. */
enum { SPI_STAT = 0x10 / 4, SPI_STATCLR = 0x14 / 4, SPI_BUF = 0x20 / 4, LAT_CLR = 0, LAT_SET = 1 };
#define PORT_HELD(p) __asm__("" : "+r"(p))
static inline volatile uint32_t *spi_regs(void)
{
    volatile uint32_t *p = &SPI1CON;
    PORT_HELD(p);
    return p;
}
static inline volatile uint32_t *dc_regs(void)
{
    volatile uint32_t *p = &BOARD_REG(LAT, BOARD_TFT_DC_PORT, CLR);
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

/* One byte when the FIFO may be full (runs longer than a burst), reading
 * what arrives meanwhile. */
static inline void spi_put_waiting(volatile uint32_t *spi, uint8_t b)
{
    uint32_t st;
    while ((st = spi[SPI_STAT]) & SPI_TBF)
        if (!(st & SPI_RBE)) (void)spi[SPI_BUF];
    spi[SPI_BUF] = b;
}

void tft_port_select(int on)
{
    spi_wait_idle(spi_regs()); /* CS must not move while a byte is still shifting out */
    if (on) PIN_LO(BOARD_TFT_CS_PORT, BOARD_TFT_CS_BIT);
    else PIN_HI(BOARD_TFT_CS_PORT, BOARD_TFT_CS_BIT);
}

/* A command byte with DC low, then DC high for its parameters. DC applies
 * to the byte on the wire: it switches between bytes only. The command
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
    dc[LAT_CLR] = k->one;
    spi[SPI_BUF] = cmd;
    return spi[SPI_STAT]; /* SPI idle wait */
}
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

void tft_port_commands(const uint8_t *seq, size_t len)
{
    volatile uint32_t *const spi = spi_regs(), *const dc = dc_regs();
    const uint8_t *end = seq + len;
    while (seq < end) {
        unsigned n = seq[1];
        spi_command(spi, dc, seq[0]);
        seq += 2;
        if (n <= TFT_PORT_BURST) {
            while (n--) spi[SPI_BUF] = *seq++; /* the FIFO is empty: room for a burst */
        } else {
            while (n--) spi_put_waiting(spi, *seq++); /* start-up's long parameter lists */
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
    spi[SPI_BUF] = a1; /* four bytes after an idle wait: a burst */
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
    spi[SPI_STATCLR] = _SPI1STAT_SPIROV_MASK; /* if the receive FIFO overflowed meanwhile */
}

void tft_port_reset(int level)
{
    if (level) PIN_HI(BOARD_TFT_RST_PORT, BOARD_TFT_RST_BIT);
    else PIN_LO(BOARD_TFT_RST_PORT, BOARD_TFT_RST_BIT);
}

void tft_port_delay_ms(uint32_t ms)
{
    /* Start-up only; paced by the timer interrupt, not by counting cycles. */
    uint32_t t0 = millis;
    while ((uint32_t)(millis - t0) < ms + 1u) {
    }
}

/* SPI clock: PBCLK / (2 * (BRG + 1)), the fastest not above BOARD_SPI_HZ. */
#define SPI_BRG ((BOARD_PBCLK_HZ + 2u * BOARD_SPI_HZ - 1u) / (2u * BOARD_SPI_HZ) - 1u)

static void spi_init(void)
{
    BOARD_REG(ANSEL, BOARD_TFT_DC_PORT, CLR) = BOARD_MASK(BOARD_TFT_DC_BIT);
    BOARD_REG(ANSEL, BOARD_TFT_CS_PORT, CLR) = BOARD_MASK(BOARD_TFT_CS_BIT);
    BOARD_REG(ANSEL, BOARD_TFT_RST_PORT, CLR) = BOARD_MASK(BOARD_TFT_RST_BIT);
    BOARD_REG(ANSEL, BOARD_TFT_SCK_PORT, CLR) = BOARD_MASK(BOARD_TFT_SCK_BIT);
    BOARD_REG(ANSEL, BOARD_TFT_SDO_PORT, CLR) = BOARD_MASK(BOARD_TFT_SDO_BIT);
    PIN_HI(BOARD_TFT_CS_PORT, BOARD_TFT_CS_BIT);
    PIN_HI(BOARD_TFT_DC_PORT, BOARD_TFT_DC_BIT);
    PIN_HI(BOARD_TFT_RST_PORT, BOARD_TFT_RST_BIT);
    BOARD_REG(TRIS, BOARD_TFT_DC_PORT, CLR) = BOARD_MASK(BOARD_TFT_DC_BIT);
    BOARD_REG(TRIS, BOARD_TFT_CS_PORT, CLR) = BOARD_MASK(BOARD_TFT_CS_BIT);
    BOARD_REG(TRIS, BOARD_TFT_RST_PORT, CLR) = BOARD_MASK(BOARD_TFT_RST_BIT);
    BOARD_REG(TRIS, BOARD_TFT_SCK_PORT, CLR) = BOARD_MASK(BOARD_TFT_SCK_BIT);
    BOARD_REG(TRIS, BOARD_TFT_SDO_PORT, CLR) = BOARD_MASK(BOARD_TFT_SDO_BIT);
    BOARD_TFT_SDO_PPS_REG = BOARD_TFT_SDO_PPS_CODE;

    SPI1CON = 0;
    while (!(SPI1STAT & _SPI1STAT_SPIRBE_MASK)) (void)SPI1BUF;
    SPI1STATCLR = _SPI1STAT_SPIROV_MASK;
    SPI1BRG = SPI_BRG;
    /* master, mode 0 (CKP 0, CKE 1: data valid on the rising edge, as the
     * ILI9340 samples), 8-bit, enhanced buffer, SDI unused */
    SPI1CON = _SPI1CON_MSTEN_MASK | _SPI1CON_CKE_MASK | _SPI1CON_ENHBUF_MASK | _SPI1CON_DISSDI_MASK;
    SPI1CON |= _SPI1CON_ON_MASK;
}

void plat_init(void)
{
    INTCONSET = _INTCON_MVEC_MASK; /* one vector per source */
    timer_init();
    uart_init();
    spi_init();
    PIC32_ENABLE_INTERRUPTS();
    tft_init(); /* needs the timer running for its delays */
    plat_fill_screen(PLAT_BLACK);
}

void plat_frame_done(uint32_t frame) { (void)frame; }
void plat_frame_cost(int32_t boids) { (void)boids; }
