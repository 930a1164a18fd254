/* rp2040_main.c - the RP2040 firmware's entry point.
 *
 * The board image: platform and VGA start-up, core 1 launched into its
 * wait for a part of the flock update (split_rp2040.c), then the lab's
 * round-robin scheduler over the generated threads on core 0, forever.
 *
 * The headless image (BOIDS_RP2040_HEADLESS; what `boidsgen parity --target
 * rp2040` runs in the emulator): lines on UART0 first, each a command
 * (`set NAME VALUE`, ...) executed as the host's --set, until
 *     run FRAMES SEED BOIDS      (BOIDS -1: the spec's flock size)
 * then FRAMES frames in virtual time exactly as `boids_host --frames` runs
 * them, the trace (trace_out.h) written to UART0, and a BKPT #0 instruction:
 * the emulator's signal that the run is over (on a board without a debugger
 * it would fault: this image is for the emulator). A refused line prints
 * "# error: ..." and stops the same way.
 *     bench FRAMES SEED BOIDS
 * runs the same frames without the trace: the budget's run, timed by the
 * emulator at the frame marks (BKPT #1..#4, flock_draw.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boids_app.h"
#include "boids_config.h"
#include "boids_flock.h"
#include "platform.h"
#include "platform_rp2040.h"
#include "split_rp2040.h"
#include "vga.h"

extern flock_t boids_flock;

#if BOIDS_RP2040_HEADLESS
#include "cmd_keep.h"
#include "serial_cmd.h"
#include "trace_out.h"

#define LINE_MAX_IN 160

static void stop(void)
{
    for (;;) __asm volatile("bkpt #0"); /* #0: the end (#1..#4 mark a frame's parts) */
}

static void put_uart(const char *s, size_t n) { plat_serial_write(s, n); }
static void on_frame(uint32_t frame) { trace_out_rows(put_uart, &boids_flock, frame); }

static size_t read_line(char *line)
{
    size_t n = 0;
    for (;;) {
        const int c = plat_serial_getc();
        if (c < 0) continue;
        if (c == '\n') break;
        if (c != '\r' && n < LINE_MAX_IN - 1) line[n++] = (char)c;
    }
    line[n] = '\0';
    return n;
}

int main(void)
{
    char line[LINE_MAX_IN];
    long frames = 0, boids = -1;
    uint32_t seed = BOIDS_SEED;
    int traced = 1;
    plat_init();
    for (;;) {
        const size_t n = read_line(line);
        if (!strncmp(line, "run ", 4) || !strncmp(line, "bench ", 6)) {
            char *p = strchr(line, ' ');
            traced = line[0] == 'r';
            frames = strtol(p, &p, 10);
            seed = (uint32_t)strtoul(p, &p, 10);
            boids = strtol(p, &p, 10);
            break;
        }
        if (!cmd_exec_kept(line, n)) {
            put_uart("# error: ", 9);
            put_uart(cmd_kept, cmd_kept_len);
            stop();
        }
    }
    if (boids > BOIDS_CAPACITY) boids = BOIDS_CAPACITY;
    boids_app_reset(seed, (int32_t)boids);
    boids_app_set_count(boids >= 0 ? (int32_t)boids : BOIDS_FLOCK_SIZE); /* the whole flock, whatever the spawn rate */
    boids_app_adaptive(0); /* virtual time measures nothing */
    if (traced) {
        rp2040_on_frame(on_frame);
        trace_out_header(put_uart, &boids_flock, seed);
        trace_out_rows(put_uart, &boids_flock, 0);
    }
    for (;;) {
        boids_stats_t st;
        boids_app_stats(&st);
        if ((long)st.frames >= frames) break;
        boids_app_run();
        rp2040_advance_ms(1);
    }
    stop();
}
#else
int main(void)
{
    plat_init();
    vga_init();
    rp2040_split_start(); /* core 1: its part of a synchronous update (split.h), nothing else */
    boids_app_reset(BOIDS_SEED, -1);
    for (;;) boids_app_run();
}
#endif
