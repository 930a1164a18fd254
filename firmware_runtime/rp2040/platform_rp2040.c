/* platform_rp2040.c - the platform layer (platform.h) for the RP2040 of the
 * course's VGA labs: time from the 1 MHz timer, UART0 at the spec's baud
 * with an interrupt-filled receive ring, drawing into the 4-bit framebuffer
 * (draw.c over fb4.h) that vga.c scans out. Pins: the CMake definitions
 * BOIDS_RP2040_* (the spec's board.rp2040). */
#include "hardware/gpio.h"
#include "hardware/irq.h"
#include "hardware/timer.h"
#include "hardware/uart.h"

#include "boids_config.h"
#include "platform.h"
#include "platform_rp2040.h"

#define RX_RING 256u /* a power of two: 22 ms of input at 115200 baud */

static volatile uint8_t rx_ring[RX_RING];
static volatile uint32_t rx_head, rx_tail; /* head: the interrupt's, tail: plat_serial_getc's */
static void (*frame_hook)(uint32_t frame);

#if BOIDS_RP2040_HEADLESS
static uint32_t virtual_us;
void rp2040_advance_ms(uint32_t ms) { virtual_us += ms * 1000u; }
uint32_t plat_micros(void) { return virtual_us; }
uint32_t plat_millis(void) { return virtual_us / 1000u; }
#else
void rp2040_advance_ms(uint32_t ms) { (void)ms; }
uint32_t plat_micros(void) { return time_us_32(); }
uint32_t plat_millis(void) { return (uint32_t)(time_us_64() / 1000u); }
#endif
uint32_t plat_work_us(void) { return time_us_32(); }

static void uart0_rx_irq(void)
{
    while (uart_is_readable(uart0)) {
        const uint8_t c = (uint8_t)uart_getc(uart0);
        if (rx_head - rx_tail < RX_RING) rx_ring[rx_head++ % RX_RING] = c; /* full: the byte is lost */
    }
}

void plat_init(void)
{
    uart_init(uart0, BOIDS_BAUD);
    gpio_set_function(BOIDS_RP2040_UART_TX, GPIO_FUNC_UART);
    gpio_set_function(BOIDS_RP2040_UART_RX, GPIO_FUNC_UART);
    uart_set_fifo_enabled(uart0, true);
    irq_set_exclusive_handler(UART0_IRQ, uart0_rx_irq);
    irq_set_enabled(UART0_IRQ, true);
    uart_set_irq_enables(uart0, true, false);
}

int plat_serial_getc(void)
{
    int c;
    if (rx_tail == rx_head) return -1;
    c = rx_ring[rx_tail % RX_RING];
    rx_tail++;
    return c;
}

/* Blocking on the transmit FIFO: replies are short; a dump waits for the wire. */
void plat_serial_write(const char *s, size_t n) { uart_write_blocking(uart0, (const uint8_t *)s, n); }

void rp2040_on_frame(void (*fn)(uint32_t frame)) { frame_hook = fn; }

void plat_frame_done(uint32_t frame)
{
    if (frame_hook) frame_hook(frame);
}

void plat_frame_cost(int32_t boids) { (void)boids; }
