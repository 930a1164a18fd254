/* adaptive_spawn.c - see adaptive_spawn.h. Integer arithmetic only. */
#include "adaptive_spawn.h"

#define NO_CEILING INT32_MAX

void aspawn_init(aspawn_t *a, uint32_t period_us, int32_t min_count, int32_t max_count)
{
    a->period_us = period_us;
    a->window = ASPAWN_WINDOW;
    a->budget_pm = ASPAWN_BUDGET_PM;
    a->margin_pm = ASPAWN_MARGIN_PM;
    a->min_count = min_count;
    a->max_count = max_count;
    aspawn_restart(a);
}

void aspawn_restart(aspawn_t *a)
{
    a->sum_us = 0;
    a->frames = 0;
    a->ceiling = NO_CEILING;
    a->ref_sum = 0;
}

int aspawn_frame(aspawn_t *a, uint32_t frame_us, int32_t count)
{
    uint64_t budget; /* for the whole window, in us x 1000 (per-mille units) */
    uint64_t used;
    int decision = ASPAWN_HOLD;
    a->sum_us += frame_us;
    if (++a->frames < (a->window ? a->window : 1)) return ASPAWN_HOLD;

    budget = (uint64_t)a->period_us * a->frames * a->budget_pm;
    used = a->sum_us * 1000u;
    if (used > budget) {
        if (count > a->min_count) {
            decision = ASPAWN_REMOVE;
            a->ceiling = count; /* this many did not fit */
            a->ref_sum = 0;     /* measure count - 1 next window */
        }
    } else if (a->ceiling != NO_CEILING && count + 1 >= a->ceiling) {
        /* At the ceiling: note what count - 1 costs now; retry only when it
         * has become clearly cheaper than that (params changed, flock spread). */
        uint64_t margin = (uint64_t)a->period_us * a->frames * a->margin_pm;
        if (a->ref_sum == 0) a->ref_sum = used;
        else if (used + margin < a->ref_sum) a->ceiling = NO_CEILING;
    } else if (count < a->max_count) {
        decision = ASPAWN_ADD;
    }
    if (a->ceiling == NO_CEILING && decision == ASPAWN_HOLD && used <= budget && count < a->max_count)
        decision = ASPAWN_ADD; /* the ceiling was just forgotten */
    a->sum_us = 0;
    a->frames = 0;
    return decision;
}
