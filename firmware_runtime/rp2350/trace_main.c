/* trace_main.c - the RP2350 target's flock code as a program for QEMU's
 * Cortex-M33 (machine mps2-an505): what `boidsgen parity --target rp2350`
 * runs. The generated firmware and the portable runtime, compiled for the
 * RP2350's core with the pico-sdk's flags for it, run headless exactly as
 * the RP2040's headless image does (rp2040_main.c): the whole flock, virtual
 * time, a frame each millisecond step until FRAMES have run, the trace
 * (trace_out.h) after every frame. The arguments arrive by semihosting
 * (newlib's rdimon), the trace leaves on its standard output, and the exit
 * status says how the run ended (2: bad arguments, 3: a --set refused).
 *
 *   trace_main --frames N [--seed S] [--boids N] [--set NAME=VALUE ...]
 *
 * What runs here is the M33's arithmetic (its 32x32->64 multiply and divide
 * instructions) on our code; the RP2350's peripherals (VGA, UART, core 1)
 * are not modelled, so the synchronous update's two parts run one after
 * the other, as in the RP2040's headless image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boids_app.h"
#include "boids_config.h"
#include "boids_flock.h"
#include "cmd_keep.h"
#include "platform.h"
#include "platform_semihost.h"
#include "trace_out.h"

extern flock_t boids_flock;

static void put_out(const char *s, size_t n) { fwrite(s, 1, n, stdout); }
static void on_frame(uint32_t frame) { trace_out_rows(put_out, &boids_flock, frame); }

/* --set NAME=VALUE through the serial command, as the host's --set */
static int apply_set(const char *arg)
{
    char line[160];
    const char *eq = strchr(arg, '=');
    if (!eq || strlen(arg) > 150) return 0;
    snprintf(line, sizeof line, "set %.*s %s", (int)(eq - arg), arg, eq + 1);
    if (!cmd_exec_kept(line, strlen(line))) {
        fprintf(stderr, "trace_main: --set %s: %s", arg, cmd_kept);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    long frames = -1, boids = -1;
    uint32_t seed = BOIDS_SEED;
    int i;
    plat_init();
    for (i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--frames")) frames = strtol(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--seed")) seed = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--boids")) boids = strtol(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--set")) {
            if (!apply_set(argv[i + 1])) return 3;
        } else break;
    }
    if (i != argc || frames < 0) {
        fprintf(stderr, "usage: trace_main --frames N [--seed S] [--boids N] [--set NAME=VALUE ...]\n");
        return 2;
    }
    if (boids > BOIDS_CAPACITY) boids = BOIDS_CAPACITY;
    boids_app_reset(seed, (int32_t)boids);
    boids_app_set_count(boids >= 0 ? (int32_t)boids : BOIDS_FLOCK_SIZE); /* the whole flock, whatever the spawn rate */
    boids_app_adaptive(0); /* virtual time measures nothing */
    semihost_on_frame(on_frame);
    trace_out_header(put_out, &boids_flock, seed);
    trace_out_rows(put_out, &boids_flock, 0);
    for (;;) {
        boids_stats_t st;
        boids_app_stats(&st);
        if ((long)st.frames >= frames) break;
        boids_app_run();
        semihost_advance_ms(1);
    }
    fflush(stdout);
    return 0;
}
