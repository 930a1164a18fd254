/* split_rp2040.c - core 1 of the board image: it waits on the inter-core
 * FIFO for a part of the flock update (split.h), runs it and answers. Core
 * 0 runs the other part meanwhile, then waits for the answer: the frame's
 * update takes the longer part, not both. Drawing, serial and the threads
 * stay on core 0.
 *
 * Every wait is bounded. Core 1 is started by the boot ROM's FIFO handshake
 * (the pico-sdk's multicore_launch_core1_raw sequence) with a timeout on
 * each word: where no core 1 answers (rp2040js, which emulates one core:
 * `boidsgen emulate` runs this image) the launch gives up after LAUNCH_US
 * and every frame runs both parts on core 0, one after the other: the same
 * bits. A part that core 1 has not finished after PART_US (a fault on core
 * 1) is run again on core 0 from then on: a part reads only the previous
 * frame, so running it again gives the same boids.
 *
 * Not in the headless image (the emulator's parity and budget): that image
 * runs both parts on core 0 by split.h's one-after-the-other. */
#include "hardware/structs/scb.h"
#include "hardware/structs/sio.h"
#include "hardware/sync.h"
#include "pico/multicore.h"

#include "split.h"
#include "split_rp2040.h"

#define LAUNCH_US 2000u   /* a word of the launch handshake: core 1 answers within microseconds */
#define PART_US 1000000u  /* a part: far above any frame */

static volatile boids_split_fn core1_part;
static void *volatile core1_ctx;
static volatile uint32_t *volatile core1_took;
static int core1_up; /* core 1 launched and answering */

static void core1_main(void)
{
    for (;;) {
        (void)multicore_fifo_pop_blocking(); /* a part is ready */
        boids_split_timed(core1_part, core1_ctx, 1, core1_took);
        multicore_fifo_push_blocking(1u); /* done */
    }
}

void rp2040_split_start(void)
{
    extern uint32_t __StackOneTop; /* scratch X: core 1's stack (the pico-sdk's linker script) */
    const uint32_t seq[] = {0, 0, 1, scb_hw->vtor, (uint32_t)(uintptr_t)&__StackOneTop,
                            (uint32_t)(uintptr_t)core1_main};
    unsigned k = 0, tries = 0;
    while (k < sizeof seq / sizeof seq[0]) {
        uint32_t back;
        if (seq[k] == 0) { /* drain what core 1 sent: at most the FIFO's 8 words (an emulator's may never empty) */
            unsigned n;
            for (n = 0; n < 8u && multicore_fifo_rvalid(); n++) (void)sio_hw->fifo_rd;
            __sev();
        }
        if (!multicore_fifo_push_timeout_us(seq[k], LAUNCH_US) || !multicore_fifo_pop_timeout_us(LAUNCH_US, &back))
            return; /* no core 1 answers: core 0 runs both parts */
        if (back == seq[k]) {
            k++;
        } else {
            k = 0; /* the ROM restarts the sequence */
            if (++tries > 8) return;
        }
    }
    core1_up = 1;
}

void plat_split_run(boids_split_fn part, void *ctx, volatile uint32_t *took)
{
    uint32_t done;
    if (!core1_up) {
        boids_split_here(part, ctx, took);
        return;
    }
    core1_part = part;
    core1_ctx = ctx;
    core1_took = took;
    __dmb(); /* the part and everything the frame wrote before it, seen by core 1 first */
    if (!multicore_fifo_push_timeout_us(0u, PART_US)) {
        core1_up = 0;
        boids_split_here(part, ctx, took);
        return;
    }
    boids_split_timed(part, ctx, 0, took);
    if (!multicore_fifo_pop_timeout_us(PART_US, &done)) {
        core1_up = 0; /* core 1 is lost: its part again, here */
        boids_split_timed(part, ctx, 1, took);
    }
    __dmb();
}
