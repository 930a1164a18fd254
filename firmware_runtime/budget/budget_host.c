/* budget_host.c - the host half of `boidsgen budget` (codegen/budget.py):
 *
 *   budget_host N WARMUP SEED STATE_FILE
 *
 * spawns N boids, runs WARMUP frames of the generated boids_step, writes the
 * state for the m4k image (budget_state.h), then counts the SPI bytes one
 * animation frame sends to the ILI9340 -- erase at the old positions, update,
 * draw at the new ones, as draw_flock in boids_app.c does -- through the host
 * platform layer's counter, and prints `spi_bytes=B`; also what start-up sends
 * once: `startup_bytes=` (tft_init), `clear_bytes=` (the first black screen) and
 * `startup_ms=` (tft_init's waits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boids_flock.h"
#include "budget_state.h"
#include "panel_view.h"
#include "platform.h"
#include "platform_host.h"

static flock_t flock;

/* Twin of draw_flock in the generated boids_app.c. */
static void draw(const flock_t *f, uint16_t color)
{
    int32_t i;
    for (i = 0; i < f->count; i++) {
        const int bx = PANEL_PX(f->b[i].x), by = PANEL_PX(f->b[i].y);
#if BOIDS_BOID_SHAPE == 0
        plat_draw_pixel(bx, by, color);
#elif BOIDS_BOID_SHAPE == 1
        plat_fill_rect(bx - BOIDS_BOID_SIZE / 2, by - BOIDS_BOID_SIZE / 2, BOIDS_BOID_SIZE, BOIDS_BOID_SIZE, color);
#else
        plat_fill_circle(bx, by, BOIDS_BOID_SIZE / 2, color);
#endif
    }
#ifdef BOIDS_PREDATOR_CAPACITY
    for (i = 0; i < f->predator_count; i++)
        plat_fill_rect(PANEL_PX(f->predator[i].x) - 1, PANEL_PX(f->predator[i].y) - 1, 3, 3,
                       color == PLAT_BLACK ? PLAT_BLACK : PLAT_RED);
#endif
#ifdef BOIDS_FOOD_CAPACITY
    for (i = 0; i < f->food_count; i++)
        plat_fill_rect(PANEL_PX(f->food[i].x) - 1, PANEL_PX(f->food[i].y) - 1, 2, 2,
                       color == PLAT_BLACK ? PLAT_BLACK : PLAT_GREEN);
#endif
}

int main(int argc, char **argv)
{
    static flock_t after;
    budget_header_t h;
    rng_t rng, rng_after;
    long n, warm, k;
    uint64_t spi0, startup, clear;
    FILE *out;
    if (argc != 5) {
        fprintf(stderr, "usage: budget_host N WARMUP SEED STATE_FILE\n");
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
    startup = host_spi_bytes(); /* tft_init: once, not part of any frame */
    plat_fill_screen(PLAT_BLACK);
    clear = host_spi_bytes() - startup;
    boids_spawn(&flock, &rng, (int32_t)n);
    boids_world_reset(&flock, &rng);
    for (k = 0; k < warm; k++) boids_step(&flock, &rng);

    after = flock;
    rng_after = rng;
    boids_step(&after, &rng_after);
    h.magic = BUDGET_MAGIC;
    h.flock_size = (uint32_t)sizeof(flock_t);
    h.rng_size = (uint32_t)sizeof(rng_t);
    h.params_size = (uint32_t)sizeof(boids_params_t);
    h.after_hash = budget_hash(&after, (uint32_t)sizeof after);
    out = fopen(argv[4], "wb");
    if (!out || fwrite(&h, sizeof h, 1, out) != 1 || fwrite(&flock, sizeof flock, 1, out) != 1
        || fwrite(&rng, sizeof rng, 1, out) != 1 || fwrite(&boids_params, sizeof boids_params, 1, out) != 1
        || fclose(out) != 0) {
        fprintf(stderr, "budget_host: cannot write %s\n", argv[4]);
        return 1;
    }

    draw(&flock, PLAT_BLACK); /* the frame before was drawn: show it, then time one frame */
    draw(&flock, BOIDS_BOID_COLOR);
    spi0 = host_spi_bytes();
    draw(&flock, PLAT_BLACK);
    boids_step(&flock, &rng);
    draw(&flock, BOIDS_BOID_COLOR);
    printf("spi_bytes=%llu\nstartup_bytes=%llu\nclear_bytes=%llu\nstartup_ms=%lu\n",
           (unsigned long long)(host_spi_bytes() - spi0), (unsigned long long)startup, (unsigned long long)clear,
           (unsigned long)host_tft_waited_ms());
    if (host_tft_errors()) {
        fprintf(stderr, "budget_host: ILI9340 stream error: %s\n", host_tft_first_error());
        return 1;
    }
    return 0;
}
