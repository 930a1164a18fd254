/* budget_state.h - the state file codegen/drivers/pic32/budget/measure.py passes from the host
 * warm-up (budget_host.c) to the one-frame m4k image (budget_m4k.c): a
 * header, then flock_t, rng_t and boids_params_t as raw bytes. These hold
 * only 32-bit fields, so x86-64 and mipsel (both little-endian) lay them out
 * alike; the sizes in the header make sure of it. */
#ifndef BOIDSGEN_BUDGET_STATE_H
#define BOIDSGEN_BUDGET_STATE_H

#include <stdint.h>

#define BUDGET_MAGIC 0x42444753u /* "SGDB" */
/* the status line the reserve measures: the seconds at their widest a
 * day's run shows (five digits) */
#define BUDGET_STATUS_SECONDS 99999u

typedef struct {
    uint32_t magic;
    uint32_t flock_size, rng_size, params_size;
    uint32_t after_hash; /* budget_hash() of the flock after one more boids_step */
} budget_header_t;

/* FNV-1a over bytes: the m4k image checks its frame against the host's. */
static inline uint32_t budget_hash(const void *p, uint32_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint32_t h = 2166136261u;
    while (n--) {
        h ^= *b++;
        h *= 16777619u;
    }
    return h;
}

#endif
