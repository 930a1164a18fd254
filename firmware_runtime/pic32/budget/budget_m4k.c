/* budget_m4k.c - the m4k half of `boidsgen budget` (codegen/drivers/pic32/budget/measure.py):
 * a freestanding image for qemu-mipsel that loads the warmed-up state
 * (linked in by .incbin) and runs exactly one boids_step between two calls
 * of budget_mark, whose executions bracket the instructions counted; then
 * the lockstep's digest of the result (what `watch on` adds to a frame),
 * bracketed by the next call; then, when built with -DBUDGET_DRAW, the
 * frame's drawing (flock_draw.h, as the firmware's animation: the frame
 * before already on the panel, erase, draw) through the ILI9340 driver onto
 * a stub SPI port (budget_tft_port.c), bracketed by a fourth call.
 * With -DBUDGET_RUN_FRAMES=F (and BUDGET_DRAW) the image runs instead a
 * whole run of F frames from the state given, as the firmware's animation
 * does them, each frame four segments: the erase, boids_step, the drawing,
 * the lockstep's digest (codegen/drivers/pic32/budget/runs.py counts them
 * with blocks_plugin.c, all frames in one qemu run); then, once, the
 * status line at its widest (stats_line.h), for the frame's reserve.
 * Exit status: 0 when the frame (the run's last) equals the host's, 1 when
 * it does not, 2 when the state file does not match this build. */
#include <string.h>

#include "boids_flock.h"
#include "budget_state.h"
#include "state_io.h"
#ifdef BUDGET_DRAW
#include "flock_draw.h"
#include "stats_line.h"
#endif

extern const unsigned char budget_state[];

static flock_t flock;
#ifdef BUDGET_DRAW
static flock_t before;
static flock_draw_t fdraw;
#endif
static volatile uint32_t digest_sink;

__attribute__((noinline)) void budget_mark(int k);
__attribute__((noinline)) void budget_mark(int k)
{
    __asm__ volatile("" : : "r"(k) : "memory");
}

int main(void);
int main(void)
{
    budget_header_t h;
    rng_t rng;
    const unsigned char *p = budget_state;
    memcpy(&h, p, sizeof h);
    if (h.magic != BUDGET_MAGIC || h.flock_size != sizeof(flock_t) || h.rng_size != sizeof(rng_t)
        || h.params_size != sizeof(boids_params_t))
        return 2;
    p += sizeof h;
    memcpy(&flock, p, sizeof flock);
    p += sizeof flock;
    memcpy(&rng, p, sizeof rng);
    p += sizeof rng;
    memcpy(&boids_params, p, sizeof boids_params);
#ifdef BUDGET_DRAW
    before = flock;
    flock_draw_init(&fdraw);
#ifndef BUDGET_RUN_FRAMES
    flock_draw_after(&fdraw, &before); /* the frame before, on the panel (not counted) */
#endif
#endif
#ifdef BUDGET_RUN_FRAMES
    { /* the panel shows the state's flock; then frame after frame */
        uint32_t k;
        flock_draw_after(&fdraw, &before);
        budget_mark(0);
        for (k = 1; k <= BUDGET_RUN_FRAMES; k++) {
            flock_draw_before(&fdraw, &flock);
            budget_mark(1);
            boids_step(&flock, &rng);
            budget_mark(2);
            flock_draw_after(&fdraw, &flock);
            budget_mark(3);
            digest_sink = state_digest(&flock, k, rng.s);
            budget_mark(4);
        }
        stats_line_draw(BUDGET_STATUS_SECONDS, flock.count, BOIDS_FRAME_RATE); /* the reserve's status line */
        budget_mark(5);
        return budget_hash(&flock, (uint32_t)sizeof flock) == h.after_hash ? 0 : 1;
    }
#endif
#ifdef BOIDS_GRID_BANDS
    { /* the grid's order as a board carries it into the frame: the flock one
       * step back (x - vx, y - vy), sorted by a step whose results go */
        static flock_t back;
        rng_t r = rng;
        int32_t k;
        back = flock;
        for (k = 0; k < back.count; k++) {
            back.b[k].x = fx_sub(back.b[k].x, back.b[k].vx);
            back.b[k].y = fx_sub(back.b[k].y, back.b[k].vy);
        }
        boids_step(&back, &r);
    }
#endif
    budget_mark(0);
    boids_step(&flock, &rng);
    budget_mark(1);
    digest_sink = state_digest(&flock, 1u, rng.s);
    budget_mark(2);
#ifdef BUDGET_DRAW
    flock_draw_before(&fdraw, &before);
    flock_draw_after(&fdraw, &flock);
    budget_mark(3);
#endif
    return budget_hash(&flock, (uint32_t)sizeof flock) == h.after_hash ? 0 : 1;
}
