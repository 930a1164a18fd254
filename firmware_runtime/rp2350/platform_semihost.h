/* platform_semihost.h - what trace_main.c asks of platform_semihost.c beyond platform.h. */
#ifndef BOIDSGEN_PLATFORM_SEMIHOST_H
#define BOIDSGEN_PLATFORM_SEMIHOST_H

#include <stdint.h>

void semihost_advance_ms(uint32_t ms);                /* virtual time moves only when told */
void semihost_on_frame(void (*fn)(uint32_t frame));   /* called after every frame (the trace) */

#endif
