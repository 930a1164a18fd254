/* pixset_driver.c - a pixel set (draw.c) against erasing every old pixel
 * and drawing every new one, through the host's ILI9340 decoder:
 *   pixset_driver diff|full FRAMES SEED OUT.ppm
 * runs FRAMES frames of a random flock of single pixels (clusters, column
 * and row neighbours, duplicates, some off the panel) with other drawing in
 * between (rectangles and text over the pixels, now and then a cleared
 * screen) and prints a hash of the picture after each frame (`frame=`),
 * `spi_bytes=`, `errors=`; tests/test_draw_diff.py compares the two. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "platform.h"
#include "platform_host.h"

#define N 300

static uint32_t seed;
static int rnd(int n)
{
    seed = seed * 1664525u + 1013904223u;
    return (int)((seed >> 8) % (uint32_t)n);
}

static int px[N], py[N], ox[N], oy[N];

static void picture_hash(int frame)
{
    const uint16_t *fb = host_framebuffer();
    uint32_t h = 2166136261u;
    int i;
    for (i = 0; i < BOIDS_PANEL_WIDTH * BOIDS_PANEL_HEIGHT; i++) h = (h ^ fb[i]) * 16777619u;
    printf("frame%d=%" PRIu32 "\n", frame, h);
}
static uint16_t xs[2][N], ends[2][BOIDS_PANEL_HEIGHT];

int main(int argc, char **argv)
{
    pixset_t set;
    int full, frames, f, i;
    if (argc != 5) return 2;
    full = !strcmp(argv[1], "full");
    frames = atoi(argv[2]);
    seed = (uint32_t)strtoul(argv[3], NULL, 10);
    host_use_virtual_time();
    plat_init();
    if (!full) pixset_init(&set, xs[0], xs[1], ends[0], ends[1], PLAT_YELLOW);
    plat_fill_screen(PLAT_BLACK);
    for (i = 0; i < N; i++) { /* clusters: many shared rows, neighbours, duplicates */
        px[i] = i < 40 ? 100 + rnd(6) : rnd(BOIDS_PANEL_WIDTH + 20) - 10;
        py[i] = i < 40 ? 50 + rnd(4) : rnd(BOIDS_PANEL_HEIGHT + 20) - 10;
    }
    for (f = 0; f < frames; f++) {
        uint16_t *rows, *cols;
        if (f % 7 == 3) plat_fill_rect(rnd(300), rnd(220), 1 + rnd(30), 1 + rnd(20), PLAT_RED);
        if (f % 11 == 5) plat_draw_text(rnd(280), rnd(230), "T 12s", PLAT_GREEN, PLAT_BLACK);
        if (f == frames / 2) plat_fill_screen(PLAT_BLACK); /* the background the set erases to */
        for (i = 0; i < N; i++) {
            ox[i] = px[i];
            oy[i] = py[i];
            if (rnd(4)) { /* most move by up to 2 px; the rest stay */
                px[i] += rnd(5) - 2;
                py[i] += rnd(5) - 2;
            }
        }
        if (full) {
            if (f) /* nothing was drawn before the first frame */
                for (i = 0; i < N; i++) plat_draw_pixel(ox[i], oy[i], PLAT_BLACK);
            for (i = 0; i < N; i++) plat_draw_pixel(px[i], py[i], PLAT_YELLOW);
            picture_hash(f);
            continue;
        }
        rows = pixset_begin(&set);
        for (i = 0; i < N; i++)
            if ((unsigned)px[i] < BOIDS_PANEL_WIDTH && (unsigned)py[i] < BOIDS_PANEL_HEIGHT) rows[py[i]]++;
        cols = pixset_place(&set);
        for (i = 0; i < N; i++)
            if ((unsigned)px[i] < BOIDS_PANEL_WIDTH && (unsigned)py[i] < BOIDS_PANEL_HEIGHT)
                cols[rows[py[i]]++] = (uint16_t)px[i];
        pixset_show(&set);
        picture_hash(f);
    }
    printf("spi_bytes=%" PRIu64 "\nerrors=%" PRIu32 "\n", host_spi_bytes(), host_tft_errors());
    if (host_tft_errors()) fprintf(stderr, "%s\n", host_tft_first_error());
    return host_write_ppm(argv[4]) != 0;
}
