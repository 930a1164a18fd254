/* platform_host.c - the platform layer for Linux: the same firmware, with an
 * OS clock (or virtual time), an in-memory RGB565 framebuffer and the serial
 * link on stdio or a pseudo-terminal. */
#define _DEFAULT_SOURCE /* cfmakeraw */
#define _XOPEN_SOURCE 600
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "boids_config.h"
#include "platform.h"
#include "platform_host.h"

static uint16_t fb[BOIDS_WIDTH * BOIDS_HEIGHT];
static uint64_t spi_bytes;
static int virtual_time;
static uint32_t virtual_ms;
static struct timespec t_start;
static int in_fd = 0, out_fd = 1, in_eof;
static void (*frame_cb)(uint32_t);

void plat_init(void)
{
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    memset(fb, 0, sizeof fb);
}

void host_use_virtual_time(void) { virtual_time = 1; }
void host_advance_ms(uint32_t ms) { virtual_ms += ms; }

uint32_t plat_millis(void)
{
    struct timespec now;
    if (virtual_time) return virtual_ms;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)((now.tv_sec - t_start.tv_sec) * 1000 + (now.tv_nsec - t_start.tv_nsec) / 1000000);
}

void host_serial_fds(int in, int out)
{
    in_fd = in;
    out_fd = out;
    if (in_fd >= 0) (void)fcntl(in_fd, F_SETFL, fcntl(in_fd, F_GETFL) | O_NONBLOCK);
}

int host_serial_eof(void) { return in_eof; }

int plat_serial_getc(void)
{
    unsigned char c;
    ssize_t n;
    if (in_fd < 0 || in_eof) return -1;
    n = read(in_fd, &c, 1);
    if (n == 1) return c;
    if (n == 0) in_eof = 1;
    return -1;
}

/* A UART sends whether or not anyone listens: when the reader falls behind
 * (a pty nobody has open fills up), wait a little, then drop the rest rather
 * than stall the flock. */
#define SERIAL_WRITE_PATIENCE_MS 20
void plat_serial_write(const char *s, size_t n)
{
    int waited = 0;
    while (n > 0 && out_fd >= 0) {
        ssize_t w = write(out_fd, s, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN && waited++ < SERIAL_WRITE_PATIENCE_MS) {
                usleep(1000);
                continue;
            }
            return; /* peer gone or not reading: drop, as a UART would */
        }
        s += w;
        n -= (size_t)w;
    }
}

const char *host_open_pty(void)
{
    static char path[128];
    struct termios tio;
    int slave;
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0) return NULL;
    strncpy(path, ptsname(m), sizeof path - 1);
    /* Keep a slave descriptor open in raw mode: the line discipline must not
     * echo or cook, and the master must not see EOF between client sessions. */
    slave = open(path, O_RDWR | O_NOCTTY);
    if (slave >= 0 && tcgetattr(slave, &tio) == 0) {
        cfmakeraw(&tio);
        tcsetattr(slave, TCSANOW, &tio);
    }
    (void)fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
    in_fd = m;
    out_fd = m;
    return path;
}

/* An ILI9340-style pixel write: column/page windows (2 x 5 bytes with
 * command bytes), memory-write command (1), colour (2). */
#define SPI_BYTES_PER_PIXEL 13u

void plat_draw_pixel(int x, int y, uint16_t color)
{
    if (x < 0 || y < 0 || x >= BOIDS_WIDTH || y >= BOIDS_HEIGHT) return;
    fb[y * BOIDS_WIDTH + x] = color;
    spi_bytes += SPI_BYTES_PER_PIXEL;
}

void plat_fill_rect(int x, int y, int w, int h, uint16_t color)
{
    int i, j, x1 = x + w, y1 = y + h;
    if (x < 0) x = 0;
    if (y < 0) y = 0;
    if (x1 > BOIDS_WIDTH) x1 = BOIDS_WIDTH;
    if (y1 > BOIDS_HEIGHT) y1 = BOIDS_HEIGHT;
    if (x1 <= x || y1 <= y) return;
    for (j = y; j < y1; j++)
        for (i = x; i < x1; i++) fb[j * BOIDS_WIDTH + i] = color;
    spi_bytes += 11u + 2u * (uint64_t)(x1 - x) * (uint64_t)(y1 - y);
}

void plat_fill_screen(uint16_t color) { plat_fill_rect(0, 0, BOIDS_WIDTH, BOIDS_HEIGHT, color); }

void host_on_frame(void (*cb)(uint32_t)) { frame_cb = cb; }
void plat_frame_done(uint32_t frame)
{
    if (frame_cb) frame_cb(frame);
}

uint64_t host_spi_bytes(void) { return spi_bytes; }
const uint16_t *host_framebuffer(void) { return fb; }

int host_write_ppm(const char *path)
{
    FILE *f = fopen(path, "wb");
    int i;
    if (!f) return -1;
    fprintf(f, "P6\n%d %d\n255\n", BOIDS_WIDTH, BOIDS_HEIGHT);
    for (i = 0; i < BOIDS_WIDTH * BOIDS_HEIGHT; i++) {
        unsigned char px[3];
        uint16_t c = fb[i];
        px[0] = (unsigned char)(((c >> 11) & 0x1F) * 255 / 31);
        px[1] = (unsigned char)(((c >> 5) & 0x3F) * 255 / 63);
        px[2] = (unsigned char)((c & 0x1F) * 255 / 31);
        fwrite(px, 1, 3, f);
    }
    return fclose(f);
}
