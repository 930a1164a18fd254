/* host_main.c - the host build's entry point: the same threads as the board,
 * driven either headless (virtual time, a trace, as fast as possible) or in
 * real time with the serial link on stdio or a pseudo-terminal.
 *
 *   boids_host --frames N [--seed S] [--trace FILE] [--boids N] [--set NAME=VALUE ...]
 *   boids_host [--pty] [--seconds T] [--seed S] [--boids N] [--set NAME=VALUE ...]
 *   [--speed N]     (real time) the board's clock N times as fast (1 to 16):
 *                   frames come N times as often, for tests and demos that
 *                   need the board's behaviour, not its pace
 *   [--perturb F]   (tests of the lockstep) whenever frame F completes, add
 *                   1 to boid 0's raw x without telling anyone: a deliberate
 *                   divergence `boidsgen watch` must pin to frame F + 1
 *   A BREAK on the pty (the bytes 0xFF 0x00 0x00: platform_host.h) restarts
 *   the program as MCLR restarts the board: it executes itself again with the
 *   same arguments and `--pty-fd M`, the pty's master kept open, so the port's
 *   path stays and everything else starts over (parameters, --set, the seed's
 *   flock, watch, telemetry and echo off, time and frames from 0).
 *   [--m4k-cost FILE [--adaptive on|off]]  (headless) the modelled M4K clock:
 *                   each frame takes the time `boidsgen budget --cost-table
 *                   FILE` modelled for its flock size, and the adaptive spawn
 *                   (on unless --adaptive off) decides from it as on the
 *                   board; at the end one line: frames, boids, last change
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boids_app.h"
#include "boids_flock.h"
#include "cmd_keep.h"
#include "fxdecimal.h"
#include "host_image.h"
#include "host_m4k_clock.h"
#include "platform.h"
#include "platform_host.h"
#include "serial_cmd.h"
#include "state_io.h"
#include "trace_out.h"

extern flock_t boids_flock;

static FILE *trace;
static uint32_t perturb_at;
static int perturb;
static uint32_t frames_wanted;
static volatile sig_atomic_t stop_flag;
/* the flock size frame by frame, for the modelled clock's summary */
static int32_t last_count = -1;
static uint32_t last_change, changes;

static void usage(void)
{
    fprintf(stderr,
            "usage: boids_host --frames N [--seed S] [--trace FILE] [--boids N] [--set NAME=VALUE ...]\n"
            "       boids_host [--pty] [--seconds T] [--seed S] [--boids N] [--set NAME=VALUE ...]\n"
            "       [--screenshot FILE.ppm]   write the framebuffer when the run ends\n"
            "       [--png FILE.png]          the same as PNG\n"
            "       [--speed N]               (real time) the board's clock N times as fast, 1 to 16\n"
            "       [--perturb F]             after frame F, add 1 to boid 0's raw x, unannounced (lockstep tests)\n"
            "       (with --pty, the bytes FF 00 00 are a BREAK: it restarts, as MCLR restarts the board)\n"
            "       [--gif FILE.gif [--gif-frames N]]  animated GIF of the first N frames (default 90);\n"
            "                                 without --frames/--seconds/--pty it runs N frames headless\n"
            "       [--m4k-cost FILE [--adaptive on|off]]  with --frames: frames take the PIC32 time\n"
            "                                 `boidsgen budget --cost-table FILE` modelled; adaptive spawn on\n");
}

/* The trace's text (trace_out.h) goes to the --trace file. */
static void trace_put(const char *s, size_t n) { fwrite(s, 1, n, trace); }

static gif_writer_t gif;
static uint32_t gif_frames = 90;
static int gif_failed;

static void on_frame(uint32_t frame)
{
    if (perturb && frame == perturb_at && boids_flock.count > 0) boids_flock.b[0].x += 1;
    if (boids_flock.count != last_count) {
        if (last_count >= 0) changes++, last_change = frame;
        last_count = boids_flock.count;
    }
    if (trace) trace_out_rows(trace_put, &boids_flock, frame);
    /* every frame the animation finished, at the spec's frame period */
    if (gif.f && gif.frames < gif_frames && image_gif_frame(&gif, host_framebuffer(), (100u + BOIDS_FRAME_RATE / 2u) / BOIDS_FRAME_RATE) != 0)
        gif_failed = 1;
}

/* --set NAME=VALUE goes through the serial command, so it gets the same
 * conversion and range check as a value typed on the link. */
static int apply_set(const char *arg)
{
    char line[160];
    const char *eq = strchr(arg, '=');
    if (!eq || strlen(arg) > 150) {
        fprintf(stderr, "boids_host: --set wants NAME=VALUE, got '%s'\n", arg);
        return 0;
    }
    snprintf(line, sizeof line, "set %.*s %s", (int)(eq - arg), arg, eq + 1);
    if (!cmd_exec_kept(line, strlen(line))) {
        fprintf(stderr, "boids_host: --set %s: %s", arg, cmd_kept);
        return 0;
    }
    return 1;
}

/* The host's MCLR: run this program again on the same pty (see the top). */
static void restart_after_break(int argc, char **argv, int master)
{
    static char fd_text[16];
    char **again = calloc((size_t)argc + 3, sizeof *again);
    int i, k = 0;
    if (!again) exit(1);
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--pty-fd") && i + 1 < argc) {
            i++; /* the previous restart's: replaced below */
            continue;
        }
        again[k++] = argv[i];
    }
    snprintf(fd_text, sizeof fd_text, "%d", master);
    again[k++] = "--pty-fd";
    again[k++] = fd_text;
    again[k] = NULL;
    printf("break: restarting\n");
    fflush(stdout);
    execv("/proc/self/exe", again);
    perror("boids_host: cannot restart after a BREAK");
    exit(1);
}

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static int parse_u32(const char *s, uint32_t *out)
{
    char *end;
    unsigned long v;
    if (!s || !*s) return 0;
    v = strtoul(s, &end, 10);
    if (*end || v > 0xFFFFFFFFul || s[0] == '-') return 0;
    *out = (uint32_t)v;
    return 1;
}

int main(int argc, char **argv)
{
    uint32_t seed = BOIDS_SEED, seconds = 0, boids = 0, fd = 0, speed = 1;
    int headless = 0, use_pty = 0, have_boids = 0, i, pty_fd = -1;
    const char *trace_path = NULL, *shot = NULL, *png = NULL, *gif_path = NULL, *cost_path = NULL;
    int adaptive = 1;
    const char *sets[64];
    int nsets = 0;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (!strcmp(a, "--frames") && parse_u32(v, &frames_wanted)) headless = 1, i++;
        else if (!strcmp(a, "--seed") && parse_u32(v, &seed)) i++;
        else if (!strcmp(a, "--boids") && parse_u32(v, &boids)) have_boids = 1, i++;
        else if (!strcmp(a, "--seconds") && parse_u32(v, &seconds)) i++;
        else if (!strcmp(a, "--trace") && v) trace_path = v, i++;
        else if (!strcmp(a, "--screenshot") && v) shot = v, i++;
        else if (!strcmp(a, "--png") && v) png = v, i++;
        else if (!strcmp(a, "--gif") && v) gif_path = v, i++;
        else if (!strcmp(a, "--gif-frames") && parse_u32(v, &gif_frames) && gif_frames > 0) i++;
        else if (!strcmp(a, "--set") && v && nsets < 64) sets[nsets++] = v, i++;
        else if (!strcmp(a, "--pty")) use_pty = 1;
        else if (!strcmp(a, "--pty-fd") && parse_u32(v, &fd) && fd < 1024) pty_fd = (int)fd, use_pty = 1, i++;
        else if (!strcmp(a, "--perturb") && parse_u32(v, &perturb_at)) perturb = 1, i++;
        else if (!strcmp(a, "--m4k-cost") && v) cost_path = v, i++;
        else if (!strcmp(a, "--speed") && parse_u32(v, &speed) && speed >= 1 && speed <= 16) i++;
        else if (!strcmp(a, "--adaptive") && v && (!strcmp(v, "on") || !strcmp(v, "off"))) adaptive = !strcmp(v, "on"), i++;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            return 0;
        } else {
            fprintf(stderr, "boids_host: bad argument '%s'%s\n", a, v ? "" : " (missing value?)");
            usage();
            return 2;
        }
    }
    if (have_boids && boids > BOIDS_CAPACITY) {
        fprintf(stderr, "boids_host: --boids %" PRIu32 " exceeds the capacity %d\n", boids, BOIDS_CAPACITY);
        return 2;
    }

    if (cost_path && !headless) {
        fprintf(stderr, "boids_host: --m4k-cost models the board's clock in virtual time: use it with --frames\n");
        return 2;
    }
    if (gif_path && !headless && !use_pty && !seconds) {
        /* a GIF alone: record its frames headless, deterministic */
        headless = 1;
        frames_wanted = gif_frames;
    }

    plat_init();
    if (gif_path && image_gif_begin(&gif, gif_path, BOIDS_PANEL_WIDTH, BOIDS_PANEL_HEIGHT) != 0) {
        perror(gif_path);
        return 1;
    }
    for (i = 0; i < nsets; i++)
        if (!apply_set(sets[i])) return 2;

    if (cost_path) {
        char err[300];
        if (host_m4k_cost_load(cost_path, err, sizeof err) != 0) {
            fprintf(stderr, "boids_host: --m4k-cost %s\n", err);
            return 2;
        }
    }
    host_clock_speed(speed);
    if (headless) {
        host_use_virtual_time();
        host_serial_fds(-1, -1);
        if (trace_path) {
            trace = strcmp(trace_path, "-") ? fopen(trace_path, "w") : stdout;
            if (!trace) {
                perror(trace_path);
                return 1;
            }
        }
        boids_app_reset(seed, have_boids ? (int32_t)boids : -1);
        /* a trace starts from the whole flock, whatever the spawn rate */
        boids_app_set_count(have_boids ? (int32_t)boids : BOIDS_FLOCK_SIZE);
        /* virtual time measures nothing; the modelled clock measures the board */
        boids_app_adaptive(cost_path && adaptive);
        host_on_frame(on_frame);
        if (trace) {
            trace_out_header(trace_put, &boids_flock, seed);
            trace_out_rows(trace_put, &boids_flock, 0);
        }
        for (;;) {
            boids_stats_t st;
            boids_app_stats(&st);
            if (st.frames >= frames_wanted) break;
            boids_app_run();
            host_advance_ms(1);
        }
        if (cost_path) {
            boids_stats_t st;
            boids_app_stats(&st);
            fprintf(trace == stdout ? stderr : stdout,
                    "m4k-cost: frames=%" PRIu32 " boids=%" PRId32 " last_change=%" PRIu32 " changes=%" PRIu32
                    " frame_us=%" PRIu64 " fps=%" PRIu32 "\n",
                    st.frames, boids_flock.count, last_change, changes,
                    (host_m4k_frame_ns(boids_flock.count) + 500u) / 1000u, st.fps);
        }
        if (trace && trace != stdout && fclose(trace) != 0) {
            perror(trace_path);
            return 1;
        }
    } else {
        struct timespec nap = {0, 200000};
        time_t t_end;
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGPIPE, SIG_IGN);
        if (use_pty) {
            const char *p = pty_fd >= 0 ? host_adopt_pty(pty_fd) : host_open_pty();
            if (!p) {
                perror("boids_host: cannot open a pseudo-terminal");
                return 1;
            }
            if (pty_fd < 0) {
                printf("pty: %s\n", p);
                fflush(stdout);
                fprintf(stderr, "boids_host: spec %s (hash %s): the serial link is %s; connect boids-gui or a "
                        "terminal to it ('help' lists the commands); Ctrl-C stops\n", BOIDS_SPEC_NAME, BOIDS_SPEC_HASH, p);
            }
        } else {
            host_serial_fds(0, 1);
            /* stderr: stdout is the serial link, read by programs as well as people */
            fprintf(stderr, "boids_host: spec %s (hash %s): the serial link is this terminal; type 'help' for "
                    "the commands, 'quit' or Ctrl-D to leave\n", BOIDS_SPEC_NAME, BOIDS_SPEC_HASH);
        }
        boids_app_reset(seed, have_boids ? (int32_t)boids : -1);
        host_on_frame(on_frame);
        t_end = time(NULL) + (time_t)seconds;
        while (!stop_flag && !(seconds && time(NULL) >= t_end) && !(!use_pty && host_serial_eof())) {
            boids_app_run();
            if (host_serial_break()) restart_after_break(argc, argv, host_pty_master());
            nanosleep(&nap, NULL);
        }
    }
    if (shot && host_write_ppm(shot) != 0) {
        perror(shot);
        return 1;
    }
    if (png && image_write_png(png, host_framebuffer(), BOIDS_PANEL_WIDTH, BOIDS_PANEL_HEIGHT) != 0) {
        perror(png);
        return 1;
    }
    if (gif.f && (image_gif_end(&gif) != 0 || gif_failed)) {
        perror(gif_path);
        return 1;
    }
    if (host_tft_errors()) { /* the board's panel would not show what the images do */
        fprintf(stderr, "boids_host: %" PRIu32 " ILI9340 stream errors; first: %s\n", host_tft_errors(),
                host_tft_first_error());
        return 1;
    }
    return 0;
}
