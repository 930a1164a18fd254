/* vga.h - VGA 640x480 at 60 Hz from the framebuffer (fb4.h): three PIO
 * state machines (vga.pio) fed by two DMA channels, no CPU time once
 * started. */
#ifndef BOIDSGEN_VGA_H
#define BOIDSGEN_VGA_H

void vga_init(void);

#endif
