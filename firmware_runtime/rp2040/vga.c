/* vga.c - the VGA signal of the course's RP2040 labs: PIO0's state machines
 * 0 (hsync), 1 (vsync), 2 (rgb) running vga.pio, and two DMA channels: one
 * streams the whole framebuffer (fb4.h) into the rgb machine's FIFO as its
 * pace asks, then starts the other, which writes the framebuffer's address
 * back into the first and starts it again: a frame after every frame,
 * forever. Pins: BOIDS_RP2040_HSYNC, _VSYNC, _RGB_BASE (4 pins: green low,
 * green high, blue, red). */
#include "hardware/clocks.h"
#include "hardware/dma.h"
#include "hardware/pio.h"

#include "boids_config.h"
#include "fb4.h"
#include "vga.h"
#include "vga.pio.h"

#if BOIDS_PANEL_WIDTH != 640 || BOIDS_PANEL_HEIGHT != 480
#error "vga.pio sends 640x480: the RP2040 build's panel must be that (its CMakeLists.txt)"
#endif

#define VGA_PIXEL_HZ 25000000u /* the pixel clock: the sync machines count it, rgb runs five cycles a pixel */
#define VGA_H_COUNT (640 + 16 - 2) /* hsync: visible + front porch high = mov (1) + jmp x-- (x + 1) */
#define VGA_V_COUNT (480 - 1)
#define VGA_PIXEL_COUNT (640 - 1)

/* What the re-arming channel copies into the streaming channel's read address. */
static const uint8_t *const fb_address = fb4_pixels;

/* The divider that runs a machine at hz from clk_sys, in the PIO's 16.8 format, rounded to nearest:
 * clk_sys is read, not assumed (125 MHz by default on the RP2040, 150 MHz on the RP2350, or what a
 * program set): 5 and 1 at 125 MHz, 6 and 1.2 at 150 MHz for the sync and rgb machines. */
static void set_rate(pio_sm_config *c, uint32_t hz)
{
    const uint32_t div256 = (uint32_t)(((uint64_t)clock_get_hz(clk_sys) * 256u + hz / 2u) / hz);
    sm_config_set_clkdiv_int_frac8(c, div256 >> 8, (uint8_t)(div256 & 0xFFu));
}

static void sync_machine(PIO pio, uint sm, uint offset, pio_sm_config c, uint pin)
{
    set_rate(&c, VGA_PIXEL_HZ);
    pio_gpio_init(pio, pin);
    pio_sm_set_pins_with_mask(pio, sm, 1u << pin, 1u << pin); /* idle high */
    pio_sm_set_consecutive_pindirs(pio, sm, pin, 1, true);
    pio_sm_init(pio, sm, offset, &c);
}

void vga_init(void)
{
    const PIO pio = pio0;
    const uint hs = pio_add_program(pio, &vga_hsync_program);
    const uint vs = pio_add_program(pio, &vga_vsync_program);
    const uint px = pio_add_program(pio, &vga_rgb_program);
    pio_sm_config c;
    dma_channel_config dc;
    int stream, rearm, i;

    c = vga_hsync_program_get_default_config(hs);
    sm_config_set_set_pins(&c, BOIDS_RP2040_HSYNC, 1);
    sync_machine(pio, 0, hs, c, BOIDS_RP2040_HSYNC);

    c = vga_vsync_program_get_default_config(vs);
    sm_config_set_sideset_pins(&c, BOIDS_RP2040_VSYNC);
    sync_machine(pio, 1, vs, c, BOIDS_RP2040_VSYNC);

    c = vga_rgb_program_get_default_config(px);
    sm_config_set_out_pins(&c, BOIDS_RP2040_RGB_BASE, 4);
    sm_config_set_set_pins(&c, BOIDS_RP2040_RGB_BASE, 4);
    sm_config_set_out_shift(&c, true, true, 32); /* right: the low nibble (even column) first; autopull */
    set_rate(&c, 5u * VGA_PIXEL_HZ);
    for (i = 0; i < 4; i++) pio_gpio_init(pio, BOIDS_RP2040_RGB_BASE + (uint)i);
    pio_sm_set_consecutive_pindirs(pio, 2, BOIDS_RP2040_RGB_BASE, 4, true);
    pio_sm_init(pio, 2, px, &c);

    pio_sm_put_blocking(pio, 0, VGA_H_COUNT);
    pio_sm_put_blocking(pio, 1, VGA_V_COUNT);
    pio_sm_put_blocking(pio, 2, VGA_PIXEL_COUNT); /* before any pixel: the DMA starts below */

    stream = dma_claim_unused_channel(true);
    rearm = dma_claim_unused_channel(true);
    dc = dma_channel_get_default_config((uint)stream);
    channel_config_set_transfer_data_size(&dc, DMA_SIZE_32);
    channel_config_set_read_increment(&dc, true);
    channel_config_set_write_increment(&dc, false);
    channel_config_set_dreq(&dc, pio_get_dreq(pio, 2, true));
    channel_config_set_chain_to(&dc, (uint)rearm);
    dma_channel_configure((uint)stream, &dc, &pio->txf[2], fb4_pixels, FB4_BYTES / 4, false);

    dc = dma_channel_get_default_config((uint)rearm);
    channel_config_set_transfer_data_size(&dc, DMA_SIZE_32);
    channel_config_set_read_increment(&dc, false);
    channel_config_set_write_increment(&dc, false);
    channel_config_set_chain_to(&dc, (uint)stream);
    dma_channel_configure((uint)rearm, &dc, &dma_hw->ch[stream].read_addr, &fb_address, 1, false);

    pio_enable_sm_mask_in_sync(pio, 7u);
    dma_start_channel_mask(1u << (uint)stream);
}
