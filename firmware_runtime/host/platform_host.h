/* platform_host.h - host-only controls of the Linux platform layer. */
#ifndef BOIDSGEN_PLATFORM_HOST_H
#define BOIDSGEN_PLATFORM_HOST_H

#include <stdint.h>
#include <stdio.h>

/* Virtual time: plat_millis() and plat_micros() read a clock the caller
 * advances, so a headless run is deterministic and as fast as the CPU allows. */
void host_use_virtual_time(void);
void host_clock_speed(uint32_t n); /* real time, n times as fast (--speed) */
void host_advance_ms(uint32_t ms);
/* In virtual time, every frame also advances the clock by cost_ns(its
 * flock size), inside the frame's timing (plat_frame_cost): the modelled
 * M4K clock (host_m4k_clock.h). NULL: frames take no time. */
void host_frame_cost(uint64_t (*cost_ns)(int32_t boids));
/* Serial over these descriptors (default: stdin/stdout). */
void host_serial_fds(int in_fd, int out_fd);
/* Open a pseudo-terminal for the serial link; returns its path or NULL. */
const char *host_open_pty(void);
/* Serve the pty whose master is already open (after a restart); its path or NULL. */
const char *host_adopt_pty(int master);
/* A BREAK on the pty: the bytes 0xFF 0x00 0x00, what a Linux serial port
 * reports for a BREAK with PARMRK set (termios(3)), since a pty carries no
 * BREAK itself (tcsendbreak on either side is a no-op). The board's BREAK
 * pulls MCLR low: it restarts. True once seen; nothing more is read, so the
 * bytes after it are the restarted firmware's (host_main.c re-executes). */
int host_serial_break(void);
int host_pty_master(void); /* the pty's master descriptor, -1 when not on a pty */
/* The panel (host_ili9340.c): the SPI bytes the ILI9340 driver sent, the
 * framebuffer they decode to (RGB565, BOIDS_PANEL_WIDTH x BOIDS_PANEL_HEIGHT,
 * row-major: what the board's panel shows), whether the controller is out of
 * sleep with the display on, and the bytes it would not have accepted: how
 * many, and the first in words (NULL when none). */
uint64_t host_spi_bytes(void);
const uint16_t *host_framebuffer(void);
int host_tft_showing(void);
uint32_t host_tft_waited_ms(void); /* the driver's waits (tft_port_delay_ms) so far */
uint32_t host_tft_errors(void);
const char *host_tft_first_error(void);
/* Write the framebuffer as a binary PPM. Returns 0 on success. */
int host_write_ppm(const char *path);
/* Frame callback set by host_main (trace writing). */
void host_on_frame(void (*cb)(uint32_t frame));
/* True once the serial input reached end of file (on stdio, also after a
 * line `quit` or `exit`: a terminal user's way out, which no board has). */
int host_serial_eof(void);

#endif
