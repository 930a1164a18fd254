/* split_rp2040.c - core 1 of the board image: it waits on the inter-core
 * FIFO for a part of the flock update (split.h), runs it and answers. Core
 * 0 runs the other part meanwhile, then waits for the answer: the frame's
 * update takes the longer part, not both. rp2040_split_start is called
 * once from main before the scheduler starts; core 1 does nothing else
 * (drawing, serial and the threads stay on core 0).
 *
 * Not in the headless image (the emulator's): rp2040js runs one core, so
 * that image runs both parts on core 0 (split.h's one-after-the-other). */
#include "hardware/sync.h"
#include "pico/multicore.h"

#include "split.h"
#include "split_rp2040.h"

static volatile boids_split_fn core1_part;
static void *volatile core1_ctx;

static void core1_main(void)
{
    for (;;) {
        (void)multicore_fifo_pop_blocking(); /* a part is ready */
        core1_part(core1_ctx, 1);
        multicore_fifo_push_blocking(1u); /* done */
    }
}

void rp2040_split_start(void) { multicore_launch_core1(core1_main); }

void rp2040_split_run(boids_split_fn part, void *ctx)
{
    core1_part = part;
    core1_ctx = ctx;
    __dmb(); /* the part and everything the frame wrote before it, seen by core 1 first */
    multicore_fifo_push_blocking(0u);
    part(ctx, 0);
    (void)multicore_fifo_pop_blocking();
    __dmb();
}
