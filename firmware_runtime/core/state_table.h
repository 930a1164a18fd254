/* state_table.h - where each kind of the simulation's state lives in flock_t.
 *
 * The generator describes it once per spec (boids_flock.c: boids_state_kinds,
 * from codegen/model/state_table.py) and the simulator's trace reads the same
 * description (STATE_KINDS in the generated model), so every field a spec
 * declares - a rule's per-boid state, an obstacle, the target - is written
 * and compared, without this runtime knowing the spec. Every field is 32 bits
 * (fx or int32_t). */
#ifndef BOIDSGEN_STATE_TABLE_H
#define BOIDSGEN_STATE_TABLE_H

#include <stdint.h>

typedef struct {
    const char *kind;         /* the trace's kind column: "boid", "obstacle", ... */
    const char *fields;       /* the fields' names, comma-separated, as the trace header lists them */
    int32_t count_at;         /* byte offset of the int32_t count in flock_t; -1: exactly one element */
    uint32_t first_at;        /* byte offset of element 0 in flock_t */
    uint32_t stride;          /* bytes from one element to the next */
    uint32_t n_fields;
    const uint32_t *field_at; /* each field's byte offset inside an element */
} state_kind_t;

static inline int32_t state_count(const void *flock, const state_kind_t *k)
{
    if (k->count_at < 0) return 1;
    return *(const int32_t *)(const void *)((const char *)flock + k->count_at);
}

static inline int32_t state_field(const void *flock, const state_kind_t *k, int32_t i, uint32_t j)
{
    const char *e = (const char *)flock + k->first_at + (uint32_t)i * k->stride;
    return *(const int32_t *)(const void *)(e + k->field_at[j]);
}

#endif
