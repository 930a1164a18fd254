/* aspawn_driver.c - runs adaptive_spawn against a frame-time model of the
 * PIC32 (40 MHz core, 20 MHz SPI, 1 ms timer) and prints what happened.
 *
 *   aspawn_driver C_PAIR C_BOID C_FRAME SPI_BOID SPI_FRAME FPS START FRAMES [AT C_PAIR2]
 *
 * frame time = (C_PAIR * N * (N - 1) + C_BOID * N + C_FRAME) cycles / 40 MHz
 *            + (SPI_BOID * N + SPI_FRAME) bytes * 8 / 20 MHz,
 * +-1 % deterministic jitter, measured as the board does: the difference of
 * two plat_micros() readings (1 us), frames starting at the k-th deadline. From frame AT
 * on, C_PAIR becomes C_PAIR2 (the flock got cheaper or dearer). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "adaptive_spawn.h"

static uint64_t c_pair, c_boid, c_frame, spi_boid, spi_frame;

static uint64_t model_ns(int32_t n)
{
    uint64_t cycles = c_pair * (uint64_t)n * (uint64_t)(n > 0 ? n - 1 : 0) + c_boid * (uint64_t)n + c_frame;
    uint64_t bytes = spi_boid * (uint64_t)n + spi_frame;
    return cycles * 25u + bytes * 400u; /* 25 ns per cycle, 400 ns per SPI byte */
}

/* Largest N within the budget (the share aspawn uses: ASPAWN_BUDGET_PM). */
static int32_t nstar(uint32_t period_us, int32_t max)
{
    int32_t n = 0;
    while (n < max && model_ns(n + 1) * 1000u <= (uint64_t)period_us * 1000u * ASPAWN_BUDGET_PM) n++;
    return n;
}

int main(int argc, char **argv)
{
    uint32_t fps, frames, at = 0, k, s = 12345u, period_us;
    uint64_t c_pair2 = 0;
    int32_t count, max = 1000, last_change = -1, star, star2 = -1;
    uint32_t changes = 0;
    aspawn_t a;
    if (argc != 9 && argc != 11) {
        fprintf(stderr, "usage: see the comment\n");
        return 2;
    }
    c_pair = strtoull(argv[1], 0, 10);
    c_boid = strtoull(argv[2], 0, 10);
    c_frame = strtoull(argv[3], 0, 10);
    spi_boid = strtoull(argv[4], 0, 10);
    spi_frame = strtoull(argv[5], 0, 10);
    fps = (uint32_t)strtoul(argv[6], 0, 10);
    count = (int32_t)strtol(argv[7], 0, 10);
    frames = (uint32_t)strtoul(argv[8], 0, 10);
    if (argc == 11) {
        at = (uint32_t)strtoul(argv[9], 0, 10);
        c_pair2 = strtoull(argv[10], 0, 10);
    }
    period_us = 1000000u / fps;
    aspawn_init(&a, period_us, 1, max);
    star = nstar(period_us, max);
    for (k = 0; k < frames; k++) {
        /* frame k starts at its deadline; times in ns */
        uint64_t t0 = (uint64_t)k * 1000000000u / fps, t1, jitter;
        uint32_t measured_us;
        int d;
        if (at && k == at) {
            c_pair = c_pair2;
            star2 = nstar(period_us, max);
        }
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        jitter = model_ns(count) / 100u; /* +-1 % */
        t1 = t0 + model_ns(count) - jitter + (s % (2u * jitter + 1u));
        measured_us = (uint32_t)(t1 / 1000u - t0 / 1000u);
        d = aspawn_frame(&a, measured_us, count);
        if (d != ASPAWN_HOLD) {
            count += d;
            changes++;
            last_change = (int32_t)k;
        }
    }
    /* how far the final model's N* and N* + 1 sit from the budget, per
     * mille of the period (within ~1 % the measurement cannot tell) */
    {
        int32_t n = star2 >= 0 ? star2 : star;
        printf("slack_pm=%" PRId64 "\nover_pm=%" PRId64 "\n", (int64_t)ASPAWN_BUDGET_PM - (int64_t)(model_ns(n) / period_us),
               (int64_t)(model_ns(n + 1) / period_us) - ASPAWN_BUDGET_PM);
    }
    printf("nstar=%" PRId32 "\nnstar2=%" PRId32 "\nfinal=%" PRId32 "\nlast_change=%" PRId32 "\nchanges=%" PRIu32 "\n",
           star, star2, count, last_change, changes);
    return 0;
}
