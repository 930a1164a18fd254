/* split.h - the synchronous flock update in two parts (the RP2040's two
 * cores). Every boid reads the previous frame (the sorted copy), so the
 * grid's boids split into two runs (at half the flock, or at a band's
 * edge: flock_grid.j2's split_at), each written by one part only:
 * the result is the one-part update's, bit for bit, whoever runs a part
 * and in whatever order. The generated step (boids_flock.c, printed when
 * codegen/targets/c/split.py says so) calls
 *     boids_split_run(part, ctx)
 * which runs part(ctx, 0) and part(ctx, 1) and returns once both are done:
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

typedef void (*boids_split_fn)(void *ctx, int32_t part);

#if defined(BOIDS_SPLIT_CORE1) && BOIDS_SPLIT_CORE1
/* firmware_runtime/rp2040/split_rp2040.c */
void rp2040_split_run(boids_split_fn part, void *ctx);
static inline void boids_split_run(boids_split_fn part, void *ctx) { rp2040_split_run(part, ctx); }

#elif defined(BOIDS_SPLIT_THREADS) && BOIDS_SPLIT_THREADS
#include <pthread.h>

typedef struct {
    boids_split_fn part;
    void *ctx;
} boids_split_job_t;

static void *boids_split_thread(void *job)
{
    const boids_split_job_t *j = (const boids_split_job_t *)job;
    j->part(j->ctx, 1);
    return NULL;
}

static inline void boids_split_run(boids_split_fn part, void *ctx)
{
    boids_split_job_t job;
    pthread_t t;
    job.part = part;
    job.ctx = ctx;
    if (pthread_create(&t, NULL, boids_split_thread, &job) != 0) { /* no thread: both here, still exact */
        part(ctx, 0);
        part(ctx, 1);
        return;
    }
    part(ctx, 0);
    (void)pthread_join(t, NULL);
}

#else
#if defined(BOIDS_FRAME_MARKS) && BOIDS_FRAME_MARKS
#define BOIDS_SPLIT_MARK(n) __asm volatile("bkpt #" #n)
#else
#define BOIDS_SPLIT_MARK(n) ((void)0)
#endif

static inline void boids_split_run(boids_split_fn part, void *ctx)
{
    BOIDS_SPLIT_MARK(5);
    part(ctx, 0);
    BOIDS_SPLIT_MARK(6);
    part(ctx, 1);
    BOIDS_SPLIT_MARK(7);
}
#endif

#endif
