/* platform_semihost.c - the platform layer (platform.h) of trace_main.c on
 * QEMU's Cortex-M33: virtual time, no serial input, output through
 * semihosting's standard output, drawing into the 4-bit framebuffer (draw.c
 * over fb4.h) as the RP2040 and RP2350 images draw, though nothing scans it
 * out here. */
#include <stdio.h>

#include "platform.h"
#include "platform_semihost.h"

static uint32_t virtual_us;
static void (*frame_hook)(uint32_t frame);

void semihost_advance_ms(uint32_t ms) { virtual_us += ms * 1000u; }
void semihost_on_frame(void (*fn)(uint32_t frame)) { frame_hook = fn; }

void plat_init(void) {}
uint32_t plat_micros(void) { return virtual_us; }
uint32_t plat_millis(void) { return virtual_us / 1000u; }
/* a split update's parts (split.h) are timed with it: equal times keep the split where it is, and
 * where it falls changes no bit */
uint32_t plat_work_us(void) { return virtual_us; }
int plat_serial_getc(void) { return -1; }
void plat_serial_write(const char *s, size_t n) { fwrite(s, 1, n, stdout); }

void plat_frame_done(uint32_t frame)
{
    if (frame_hook) frame_hook(frame);
}

void plat_frame_cost(int32_t boids) { (void)boids; }
