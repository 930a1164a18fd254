/* platform_host.c - the platform layer for Linux: the same firmware, with an
 * OS clock (or virtual time), the serial link on stdio or a pseudo-terminal,
 * and the panel's framebuffer decoded from the ILI9340 bytes (host_ili9340.c). */
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
#include "tft_ili9340.h"

static int virtual_time;
static uint64_t virtual_ns;
static struct timespec t_start;
static int in_fd = 0, out_fd = 1, in_eof;
/* The host's BREAK (a pty cannot carry one): see platform_host.h. */
static int on_pty, break_run, break_seen;
static void (*frame_cb)(uint32_t);

void plat_init(void)
{
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    tft_init(); /* same bytes as the board's start-up (decoded by host_ili9340.c) */
}

/* --speed N: the board's clock runs N times as fast as the OS's, so the frames
 * (paced by plat_millis) come N times as often; plat_work_us stays real. */
static uint64_t clock_speed = 1;
void host_clock_speed(uint32_t n) { clock_speed = n ? n : 1; }

void host_use_virtual_time(void) { virtual_time = 1; }
void host_advance_ms(uint32_t ms) { virtual_ns += (uint64_t)ms * 1000000u; }

static uint64_t real_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)(now.tv_sec - t_start.tv_sec) * 1000000000u + (uint64_t)now.tv_nsec - (uint64_t)t_start.tv_nsec;
}
static uint64_t now_ns(void) { return virtual_time ? virtual_ns : real_ns() * clock_speed; }
uint32_t plat_millis(void) { return (uint32_t)(now_ns() / 1000000u); }
uint32_t plat_micros(void) { return (uint32_t)(now_ns() / 1000u); }
uint32_t plat_work_us(void) { return (uint32_t)(real_ns() / 1000u); }

static uint64_t (*frame_cost)(int32_t boids);

void host_frame_cost(uint64_t (*cost_ns)(int32_t boids)) { frame_cost = cost_ns; }

void plat_frame_cost(int32_t boids)
{
    if (virtual_time && frame_cost) virtual_ns += frame_cost(boids);
}

void host_serial_fds(int in, int out)
{
    in_fd = in;
    out_fd = out;
    if (in_fd >= 0) (void)fcntl(in_fd, F_SETFL, fcntl(in_fd, F_GETFL) | O_NONBLOCK);
}

int host_serial_eof(void) { return in_eof; }

/* On stdio, someone at a terminal: a line `quit` or `exit` ends the input
 * as Ctrl-D does. Only the host has them (a board cannot leave); on a pty
 * they are ordinary, unknown commands. */
static char typed[4];
static size_t typed_n; /* how many characters the line has so far */

static int typed_leave(unsigned char c)
{
    int leave;
    if (c != '\n' && c != '\r') {
        if (typed_n < sizeof typed) typed[typed_n] = (char)c;
        typed_n += typed_n <= sizeof typed; /* stops one past: too long for either word */
        return 0;
    }
    leave = typed_n == sizeof typed && (!memcmp(typed, "quit", 4) || !memcmp(typed, "exit", 4));
    typed_n = 0;
    return leave;
}

int plat_serial_getc(void)
{
    unsigned char c;
    ssize_t n;
    if (in_fd < 0 || in_eof || break_seen) return -1; /* in reset: the rest is the next start's */
    n = read(in_fd, &c, 1);
    if (n == 1 && !on_pty && typed_leave(c)) {
        in_eof = 1;
        return -1;
    }
    if (n == 1) {
        /* the bytes still reach the parser (0xFF and NUL make a bad line, as on the board) */
        break_run = (c == 0xFF) ? 1 : (c == 0 && break_run) ? break_run + 1 : 0;
        if (on_pty && break_run == 3) break_seen = 1;
        return c;
    }
    if (n == 0) in_eof = 1;
    return -1;
}

int host_serial_break(void) { return break_seen; }
int host_pty_master(void) { return on_pty ? in_fd : -1; }

/* A UART sends whether or not anyone listens. When the reader stops reading
 * (a pty whose client went away fills up), wait a little once, then drop
 * output until it reads again rather than stall the flock; a line cut short
 * is ended before the next output, so the next reader starts on a new line. */
#define SERIAL_WRITE_PATIENCE_MS 20
static int out_stalled, out_mid_line;

void plat_serial_write(const char *s, size_t n)
{
    int waited = 0;
    if (out_stalled && out_mid_line) {
        if (out_fd < 0 || write(out_fd, "\n", 1) != 1) return;
        out_mid_line = 0;
    }
    while (n > 0 && out_fd >= 0) {
        ssize_t w = write(out_fd, s, n);
        if (w <= 0) {
            if (w < 0 && errno == EINTR) continue;
            if (w < 0 && errno == EAGAIN && !out_stalled && waited++ < SERIAL_WRITE_PATIENCE_MS) {
                usleep(1000);
                continue;
            }
            if (w < 0 && errno == EAGAIN) out_stalled = 1;
            return; /* peer gone or not reading: drop, as a UART would */
        }
        out_stalled = 0;
        out_mid_line = (s[w - 1] != '\n');
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
    return host_adopt_pty(m);
}

const char *host_adopt_pty(int master)
{
    const char *path = ptsname(master);
    if (!path || fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK) != 0) return NULL;
    in_fd = master;
    out_fd = master;
    on_pty = 1;
    return path;
}

void host_on_frame(void (*cb)(uint32_t)) { frame_cb = cb; }
void plat_frame_done(uint32_t frame)
{
    if (frame_cb) frame_cb(frame);
}

int host_write_ppm(const char *path)
{
    const uint16_t *fb = host_framebuffer();
    FILE *f = fopen(path, "wb");
    int i;
    if (!f) return -1;
    fprintf(f, "P6\n%d %d\n255\n", BOIDS_PANEL_WIDTH, BOIDS_PANEL_HEIGHT);
    for (i = 0; i < BOIDS_PANEL_WIDTH * BOIDS_PANEL_HEIGHT; i++) {
        unsigned char px[3];
        uint16_t c = fb[i];
        px[0] = (unsigned char)(((c >> 11) & 0x1F) * 255 / 31);
        px[1] = (unsigned char)(((c >> 5) & 0x3F) * 255 / 63);
        px[2] = (unsigned char)((c & 0x1F) * 255 / 31);
        fwrite(px, 1, 3, f);
    }
    return fclose(f);
}
