/* adaptive_spawn.h - hold the largest flock the board can animate at its
 * frame rate (the lab's final requirement). Pure logic, no platform calls:
 * feed it each frame's measured time, act on its answer.
 *
 * Per window of `window` frames it compares the summed frame time with the
 * budget (period x budget_pm / 1000):
 *   - over budget            -> REMOVE the newest boid, and remember that
 *                               count as a ceiling;
 *   - within budget          -> ADD one, unless that would reach the ceiling;
 *   - at the ceiling, HOLD; the ceiling is forgotten only when the frames
 *     got clearly cheaper (by `margin_pm` of the budget) than they were
 *     when it was set, so a steady load never oscillates N <-> N+1.
 * Each decision starts a new window, so a window measures one count. */
#ifndef BOIDSGEN_ADAPTIVE_SPAWN_H
#define BOIDSGEN_ADAPTIVE_SPAWN_H

#include <stdint.h>

enum { ASPAWN_REMOVE = -1, ASPAWN_HOLD = 0, ASPAWN_ADD = 1 };

/* The defaults. ASPAWN_BUDGET_PM is the one definition of the share of the
 * frame period the flock may use: `boidsgen budget` reads it from here to
 * predict the flock the adaptive spawn holds (codegen/drivers/pic32/budget/cost.py). */
#define ASPAWN_BUDGET_PM 900 /* per mille; the rest is for the serial and timing threads */
#define ASPAWN_WINDOW 8      /* frames per decision */
#define ASPAWN_MARGIN_PM 60  /* how much cheaper frames must get to retry the ceiling */

typedef struct {
    /* settings (aspawn_init fills defaults; change before the first frame) */
    uint32_t period_us;  /* the frame period */
    uint16_t window;     /* frames per decision (ASPAWN_WINDOW) */
    uint16_t budget_pm;  /* usable share of the period, per mille (ASPAWN_BUDGET_PM) */
    uint16_t margin_pm;  /* how much cheaper frames must get to retry the ceiling (ASPAWN_MARGIN_PM) */
    int32_t min_count, max_count;
    /* state */
    uint64_t sum_us;     /* frame time summed over the current window */
    uint16_t frames;     /* frames in the current window */
    int32_t ceiling;     /* smallest count seen over budget; INT32_MAX: none */
    uint64_t ref_sum;    /* window sum at ceiling - 1 right after setting it; 0: not yet */
} aspawn_t;

void aspawn_init(aspawn_t *a, uint32_t period_us, int32_t min_count, int32_t max_count);
/* One frame took frame_us with `count` boids alive. Returns ASPAWN_ADD,
 * ASPAWN_HOLD or ASPAWN_REMOVE (at most one boid per window). */
int aspawn_frame(aspawn_t *a, uint32_t frame_us, int32_t count);
/* Forget the measurements and the ceiling (after a reset or a parameter
 * change that alters the cost per boid). */
void aspawn_restart(aspawn_t *a);

#endif
