/* boids_app.h - the application the generated boids_app.c implements: the
 * three protothreads of the lab (serial, timing, animation) and the hooks
 * the serial command handler and the host main need. */
#ifndef BOIDSGEN_APP_H
#define BOIDSGEN_APP_H

#include <stdint.h>

typedef struct {
    uint32_t elapsed_s;  /* seconds since reset */
    uint32_t frames;     /* frames since reset */
    uint32_t fps;        /* frames in the last full second */
    uint32_t frame_ms;   /* time the last frame's update and drawing took */
    uint32_t period_ms;  /* the frame period the spec asks for (rounded) */
    int32_t boids;       /* boids alive */
    int32_t target;      /* boids the timing thread spawns up to */
    uint8_t paused;
} boids_stats_t;

/* Reset the flock: reseed the PRNG, spawn, restart the threads. count < 0
 * keeps the spec's flock size. */
void boids_app_reset(uint32_t seed, int32_t count);
/* Run each thread once (one round of the round-robin scheduler). */
void boids_app_run(void);
void boids_app_stats(boids_stats_t *out);
/* Grow (spawning now, from the same PRNG stream) or shrink (newest boids
 * first) the flock to n boids, clamped to [0, BOIDS_CAPACITY]. */
int32_t boids_app_set_count(int32_t n);
void boids_app_pause(int paused);
/* Adaptive spawn on or off (default: the spec's flock.adaptive_spawn).
 * Headless and traced runs turn it off: their frame times are not real. */
void boids_app_adaptive(int on);
int boids_app_adaptive_on(void);
uint32_t boids_app_seed(void);
/* Frames computed since the reset, and the next one: the frame a change
 * made now takes effect in (the `frame=F` of replies and `ev` lines). */
uint32_t boids_app_frame(void);
uint32_t boids_app_next_frame(void);
/* The PRNG's state now (the trace's rng row: a draw too many or too few shows
 * the frame it happens). */
uint32_t boids_app_rng_state(void);

#endif
