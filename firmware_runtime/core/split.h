/* split.h - the synchronous flock update in two parts (the RP2040's two
 * cores). Every boid reads the previous frame (the sorted copy), so the
 * grid's boids split into two runs (where last frame's parts took equal
 * time, or at a band's edge: flock_grid.j2's split_at), each written by one
 * part only: the result is the one-part update's, bit for bit, whoever runs
 * a part, in whatever order, wherever the split falls. The generated step
 * (boids_flock.c, printed when codegen/targets/c/split.py says so) calls
 *     boids_split_run(part, ctx, took)
 * which runs part(ctx, 0) and part(ctx, 1), returns once both are done, and
 * leaves in took[k] the microseconds part k took (plat_work_us):
 *
 * - BOIDS_SPLIT_CORE1 (the RP2040's board image): part 1 on core 1
 *   (firmware_runtime/rp2040/split_rp2040.c, the inter-core FIFO), part 0
 *   on the calling core 0;
 * - BOIDS_SPLIT_THREADS (the host's two-thread build, -pthread): part 1 on
 *   a second thread;
 * - otherwise (the emulator's headless image: rp2040js runs one core; the
 *   host's default build; the PIC32): one after the other. With
 *   BOIDS_FRAME_MARKS a BKPT #5, #6, #7 before part 0, between the parts and
 *   after part 1, for the RP2040 budget's two-core figure. */
#ifndef BOIDSGEN_SPLIT_H
#define BOIDSGEN_SPLIT_H

#include <stdint.h>

#include "platform.h"

typedef void (*boids_split_fn)(void *ctx, int32_t part);

/* part(ctx, k), timed into took[k] */
static inline void boids_split_timed(boids_split_fn part, void *ctx, int32_t k, volatile uint32_t *took)
{
    const uint32_t t0 = plat_work_us();
    part(ctx, k);
    took[k] = plat_work_us() - t0;
}
/* both parts on the calling core, one after the other */
static inline void boids_split_here(boids_split_fn part, void *ctx, volatile uint32_t *took)
{
    boids_split_timed(part, ctx, 0, took);
    boids_split_timed(part, ctx, 1, took);
}

#if defined(BOIDS_SPLIT_CORE1) && BOIDS_SPLIT_CORE1
/* the second core's part: defined by the platform that has one (firmware_runtime/rp2040/split_rp2040.c) */
void plat_split_run(boids_split_fn part, void *ctx, volatile uint32_t *took);
static inline void boids_split_run(boids_split_fn part, void *ctx, volatile uint32_t *took)
{
    plat_split_run(part, ctx, took);
}

#elif defined(BOIDS_SPLIT_THREADS) && BOIDS_SPLIT_THREADS
#include <pthread.h>

typedef struct {
    boids_split_fn part;
    void *ctx;
    volatile uint32_t *took;
} boids_split_job_t;

static void *boids_split_thread(void *job)
{
    const boids_split_job_t *j = (const boids_split_job_t *)job;
    boids_split_timed(j->part, j->ctx, 1, j->took);
    return NULL;
}

static inline void boids_split_run(boids_split_fn part, void *ctx, volatile uint32_t *took)
{
    boids_split_job_t job;
    pthread_t t;
    job.part = part;
    job.ctx = ctx;
    job.took = took;
    if (pthread_create(&t, NULL, boids_split_thread, &job) != 0) { /* no thread: both here, still exact */
        boids_split_here(part, ctx, took);
        return;
    }
    boids_split_timed(part, ctx, 0, took);
    (void)pthread_join(t, NULL);
}

#else
#if defined(BOIDS_FRAME_MARKS) && BOIDS_FRAME_MARKS
#define BOIDS_SPLIT_MARK(n) __asm volatile("bkpt #" #n)
#else
#define BOIDS_SPLIT_MARK(n) ((void)0)
#endif

static inline void boids_split_run(boids_split_fn part, void *ctx, volatile uint32_t *took)
{
    BOIDS_SPLIT_MARK(5);
    boids_split_timed(part, ctx, 0, took);
    BOIDS_SPLIT_MARK(6);
    boids_split_timed(part, ctx, 1, took);
    BOIDS_SPLIT_MARK(7);
}
#endif

#endif
