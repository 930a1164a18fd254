/* platform_rp2040.h - what rp2040_main.c needs from platform_rp2040.c beyond
 * platform.h. */
#ifndef BOIDSGEN_PLATFORM_RP2040_H
#define BOIDSGEN_PLATFORM_RP2040_H

#include <stdint.h>

/* The headless build (BOIDS_RP2040_HEADLESS, the emulator's parity image)
 * runs in virtual time, as the host's --frames does: plat_millis and
 * plat_micros read a clock the main loop advances, so a frame's deadline
 * passes when the loop says so, not when the emulated timer does. */
void rp2040_advance_ms(uint32_t ms);
/* Called from plat_frame_done (NULL: nothing). */
void rp2040_on_frame(void (*fn)(uint32_t frame));

#endif
