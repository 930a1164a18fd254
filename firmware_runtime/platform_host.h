/* platform_host.h - host-only controls of the Linux platform layer. */
#ifndef BOIDSGEN_PLATFORM_HOST_H
#define BOIDSGEN_PLATFORM_HOST_H

#include <stdint.h>
#include <stdio.h>

/* Virtual time: plat_millis() returns a counter the caller advances, so a
 * headless run is deterministic and as fast as the CPU allows. */
void host_use_virtual_time(void);
void host_advance_ms(uint32_t ms);
/* Serial over these descriptors (default: stdin/stdout). */
void host_serial_fds(int in_fd, int out_fd);
/* Open a pseudo-terminal for the serial link; returns its path or NULL. */
const char *host_open_pty(void);
/* Bytes that a pixel-addressed SPI display would have been sent. */
uint64_t host_spi_bytes(void);
/* The RGB565 framebuffer, BOIDS_WIDTH x BOIDS_HEIGHT, row-major. */
const uint16_t *host_framebuffer(void);
/* Write the framebuffer as a binary PPM. Returns 0 on success. */
int host_write_ppm(const char *path);
/* Frame callback set by host_main (trace writing). */
void host_on_frame(void (*cb)(uint32_t frame));
/* True once the serial input reached end of file. */
int host_serial_eof(void);

#endif
