/* budget_host.c - the host half of `boidsgen budget` (codegen/drivers/pic32/budget/measure.py):
 *
 *   budget_host N WARMUP SEED STATE_FILE [RUN_FRAMES SPI_FILE]
 *
 * spawns N boids, runs WARMUP frames of the generated boids_step, writes the
 * state for the m4k image (budget_state.h), then counts the SPI bytes one
 * animation frame sends to the ILI9340 -- erase, update, draw, as the
 * firmware's animation does (flock_draw.h) -- through the host platform
 * layer's counter, and prints `spi_bytes=B` and `pixels=P` (the boids'
 * pixels on the panel before and after the step: what erasing every old
 * pixel and drawing every new one would send); also what start-up sends
 * once: `startup_bytes=` (tft_init), `clear_bytes=` (the first black screen) and
 * `startup_ms=` (tft_init's waits). Built with -DBOIDS_PAIR_STATS (tests), also
 * how many frames visited each pair once and how many ran the full loop, how
 * many of the former had flagged boids (codegen/passes/pairs_once.py), those
 * boids in all, and how many of them their own band flagged too.
 * With RUN_FRAMES: the state after the warm-up is written for a whole run
 * (budget_m4k.c's BUDGET_RUN_FRAMES), whose hash after RUN_FRAMES frames
 * the header carries; each frame's SPI bytes (erase and draw, the panel
 * showing the frame before) go to SPI_FILE, one line a frame; then the
 * status line at its widest (stats_line.h): `status_spi_bytes=`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boids_flock.h"
#include "budget_state.h"
#include "flock_draw.h"
#include "platform.h"
#include "platform_host.h"
#include "stats_line.h"

static flock_t flock;
static flock_draw_t fdraw;
#ifdef BOIDS_PAIR_STATS
/* boids_flock.c: frames of each pair once, of the full loop, of them with flagged boids;
 * flagged boids in all, and those of them flagged by their own band too */
extern uint32_t boids_pair_stats[5];
#endif

/* Boids on the panel: the pixels the whole-flock way erases or draws. */
static long on_panel(const flock_t *f)
{
    long n = 0;
    int32_t i;
    for (i = 0; i < f->count; i++) {
        const int x = PANEL_PX(f->b[i].x), y = PANEL_PX(f->b[i].y);
        n += x >= 0 && y >= 0 && x < BOIDS_PANEL_WIDTH && y < BOIDS_PANEL_HEIGHT;
    }
    return n;
}

static void print_pair_stats(void)
{
#ifdef BOIDS_PAIR_STATS
    printf("pairs_once_frames=%lu\nfull_loop_frames=%lu\nflagged_frames=%lu\nflagged_boids=%lu\n"
           "flagged_by_own_band=%lu\n", (unsigned long)boids_pair_stats[0], (unsigned long)boids_pair_stats[1],
           (unsigned long)boids_pair_stats[2], (unsigned long)boids_pair_stats[3], (unsigned long)boids_pair_stats[4]);
#endif
}

static int write_state(const char *path, const flock_t *f, const rng_t *rng, const flock_t *after)
{
    budget_header_t h;
    FILE *out;
    h.magic = BUDGET_MAGIC;
    h.flock_size = (uint32_t)sizeof(flock_t);
    h.rng_size = (uint32_t)sizeof(rng_t);
    h.params_size = (uint32_t)sizeof(boids_params_t);
    h.after_hash = budget_hash(after, (uint32_t)sizeof *after);
    out = fopen(path, "wb");
    if (!out || fwrite(&h, sizeof h, 1, out) != 1 || fwrite(f, sizeof *f, 1, out) != 1
        || fwrite(rng, sizeof *rng, 1, out) != 1 || fwrite(&boids_params, sizeof boids_params, 1, out) != 1
        || fclose(out) != 0) {
        fprintf(stderr, "budget_host: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

/* A whole run from the warmed-up flock: every frame's SPI bytes, then the
 * state with the hash of the run's end. */
static int run_frames(long frames, const char *state_path, const char *spi_path, const rng_t *rng0)
{
    static flock_t start;
    rng_t rng = *rng0;
    FILE *spi = fopen(spi_path, "w");
    long k;
    start = flock;
    if (!spi) {
        fprintf(stderr, "budget_host: cannot write %s\n", spi_path);
        return 1;
    }
    flock_draw_after(&fdraw, &flock);
    for (k = 0; k < frames; k++) {
        const uint64_t spi0 = host_spi_bytes();
        flock_draw_before(&fdraw, &flock);
        boids_step(&flock, &rng);
        flock_draw_after(&fdraw, &flock);
        fprintf(spi, "%llu\n", (unsigned long long)(host_spi_bytes() - spi0));
    }
    {
        const uint64_t spi0 = host_spi_bytes();
        stats_line_draw(BUDGET_STATUS_SECONDS, flock.count, BOIDS_FRAME_RATE);
        printf("status_spi_bytes=%llu\n", (unsigned long long)(host_spi_bytes() - spi0));
    }
    print_pair_stats();
    if (fclose(spi) != 0 || host_tft_errors()) {
        fprintf(stderr, "budget_host: %s\n", host_tft_errors() ? host_tft_first_error() : "cannot write the SPI file");
        return 1;
    }
    return write_state(state_path, &start, rng0, &flock);
}

int main(int argc, char **argv)
{
    static flock_t after;
    rng_t rng, rng_after;
    long n, warm, k, pixels;
    uint64_t spi0, startup, clear;
    if (argc != 5 && argc != 7) {
        fprintf(stderr, "usage: budget_host N WARMUP SEED STATE_FILE [RUN_FRAMES SPI_FILE]\n");
        return 2;
    }
    n = strtol(argv[1], NULL, 10);
    warm = strtol(argv[2], NULL, 10);
    if (n < 0 || n > BOIDS_CAPACITY || warm < 0) {
        fprintf(stderr, "budget_host: N must be in [0, %d], WARMUP >= 0\n", BOIDS_CAPACITY);
        return 2;
    }
    rng_seed(&rng, (uint32_t)strtoul(argv[3], NULL, 10));
    host_use_virtual_time();
    plat_init();
    flock_draw_init(&fdraw);
    startup = host_spi_bytes(); /* tft_init: once, not part of any frame */
    plat_fill_screen(PLAT_BLACK);
    clear = host_spi_bytes() - startup;
    boids_spawn(&flock, &rng, (int32_t)n);
    boids_world_reset(&flock, &rng);
    for (k = 0; k < warm; k++) boids_step(&flock, &rng);
    if (argc == 7) return run_frames(strtol(argv[5], NULL, 10), argv[4], argv[6], &rng);

    after = flock;
    rng_after = rng;
    boids_step(&after, &rng_after);
    if (write_state(argv[4], &flock, &rng, &after)) return 1;

    flock_draw_after(&fdraw, &flock); /* the frame before was drawn: show it, then time one frame */
    pixels = on_panel(&flock);
    spi0 = host_spi_bytes();
    flock_draw_before(&fdraw, &flock);
    boids_step(&flock, &rng);
    flock_draw_after(&fdraw, &flock);
    pixels += on_panel(&flock);
    printf("spi_bytes=%llu\npixels=%ld\nstartup_bytes=%llu\nclear_bytes=%llu\nstartup_ms=%lu\n",
           (unsigned long long)(host_spi_bytes() - spi0), pixels, (unsigned long long)startup,
           (unsigned long long)clear, (unsigned long)host_tft_waited_ms());
    print_pair_stats();
    if (host_tft_errors()) {
        fprintf(stderr, "budget_host: ILI9340 stream error: %s\n", host_tft_first_error());
        return 1;
    }
    return 0;
}
