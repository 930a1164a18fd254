/* flock_draw.h - the flock on the panel: one definition for the firmware's
 * animation (boids_app.c's draw_flock) and the budget's frame
 * (budget/budget_host.c counts its SPI bytes, budget/budget_m4k.c its
 * instructions).
 *
 * A frame: flock_draw_before (erase what is drawn as a whole: predators,
 * food, boids drawn as squares or circles), boids_step, flock_draw_after
 * (draw them at the new positions). Boids drawn as single pixels (shape 0)
 * are a pixel set (draw.h): after the step only the pixels that changed
 * are sent, row by row. The picture is the one erasing everything before
 * the step and drawing everything after it gives (tests/test_draw_diff.py
 * compares the two; -DBOIDS_DRAW_FULL builds that one). */
#ifndef BOIDSGEN_FLOCK_DRAW_H
#define BOIDSGEN_FLOCK_DRAW_H

#include "boids_flock.h"
#include "draw.h"
#include "panel_view.h"
#include "platform.h"

/* BOIDS_FRAME_MARKS: a BKPT #n at the frame's four seams (1 before the erase,
 * 2 before the step, 3 after it, 4 after the drawing), which the RP2040's
 * emulator runner turns into cycle counts (codegen/drivers/rp2040/budget.py);
 * the RP2040's headless image only. Nothing otherwise. */
#if defined(BOIDS_FRAME_MARKS) && BOIDS_FRAME_MARKS
#define FLOCK_FRAME_MARK(n) __asm volatile("bkpt #" #n)
#else
#define FLOCK_FRAME_MARK(n) ((void)0)
#endif

#if BOIDS_BOID_SHAPE == 0 && !defined(BOIDS_DRAW_FULL)
#define FLOCK_DRAW_PIXSET 1
#else
#define FLOCK_DRAW_PIXSET 0
#endif

typedef struct {
#if FLOCK_DRAW_PIXSET
    pixset_t px;
    uint16_t x[2][BOIDS_CAPACITY];
    uint16_t end[2][BOIDS_PANEL_HEIGHT];
#else
    int unused;
#endif
} flock_draw_t;

static inline void flock_draw_init(flock_draw_t *d)
{
#if FLOCK_DRAW_PIXSET
    pixset_init(&d->px, d->x[0], d->x[1], d->end[0], d->end[1], BOIDS_BOID_COLOR);
#else
    (void)d;
#endif
}

/* Predators red, food green, in black to erase. */
static inline void flock_draw_movers(const flock_t *f, int erase)
{
    int32_t i;
#ifdef BOIDS_PREDATOR_CAPACITY
    for (i = 0; i < f->predator_count; i++)
        plat_fill_rect(PANEL_PX(f->predator[i].x) - 1, PANEL_PX(f->predator[i].y) - 1, 3, 3,
                       erase ? PLAT_BLACK : PLAT_RED);
#endif
#ifdef BOIDS_FOOD_CAPACITY
    for (i = 0; i < f->food_count; i++)
        plat_fill_rect(PANEL_PX(f->food[i].x) - 1, PANEL_PX(f->food[i].y) - 1, 2, 2, erase ? PLAT_BLACK : PLAT_GREEN);
#endif
    (void)f;
    (void)erase;
    (void)i;
}

/* The boids one by one in the spec's shape (the whole-flock way). */
static inline void flock_draw_shapes(const flock_t *f, uint16_t color)
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
}

/* Before boids_step: erase what is redrawn whole. */
static inline void flock_draw_before(flock_draw_t *d, const flock_t *f)
{
    (void)d;
    FLOCK_FRAME_MARK(1);
#if !FLOCK_DRAW_PIXSET
    flock_draw_shapes(f, PLAT_BLACK);
#endif
    flock_draw_movers(f, 1);
    FLOCK_FRAME_MARK(2);
}

/* After boids_step: the boids (pixels: what changed), then the movers over them. */
static inline void flock_draw_after(flock_draw_t *d, const flock_t *f)
{
    FLOCK_FRAME_MARK(3);
#if FLOCK_DRAW_PIXSET
    const boid_t *b, *const end = f->b + f->count;
    uint16_t *const rows = pixset_begin(&d->px), *cols;
    for (b = f->b; b != end; b++) { /* a counting sort by row: count, place, fill */
        const unsigned x = (unsigned)PANEL_PX(b->x), y = (unsigned)PANEL_PX(b->y);
        if (FX_LIKELY((x < BOIDS_PANEL_WIDTH) & (y < BOIDS_PANEL_HEIGHT))) rows[y]++; /* on the panel: the fall-through */
    }
    cols = pixset_place(&d->px);
    for (b = f->b; b != end; b++) {
        const unsigned x = (unsigned)PANEL_PX(b->x), y = (unsigned)PANEL_PX(b->y);
        if (FX_LIKELY((x < BOIDS_PANEL_WIDTH) & (y < BOIDS_PANEL_HEIGHT))) cols[rows[y]++] = (uint16_t)x;
    }
    pixset_show(&d->px);
#else
    (void)d;
    flock_draw_shapes(f, BOIDS_BOID_COLOR);
#endif
    flock_draw_movers(f, 0);
    FLOCK_FRAME_MARK(4);
}

/* Everything black (before the flock changes other than by a step). */
static inline void flock_draw_erase(flock_draw_t *d, const flock_t *f)
{
#if FLOCK_DRAW_PIXSET
    pixset_erase(&d->px);
#else
    (void)d;
    flock_draw_shapes(f, PLAT_BLACK);
#endif
    flock_draw_movers(f, 1);
}

#endif
