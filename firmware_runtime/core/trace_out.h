/* trace_out.h - the trace's text (pysim/trace.py reads and writes the same):
 * its header and each frame's rows, one definition for every firmware that
 * writes one (host/host_main.c into a file, rp2040/rp2040_main.c over UART0).
 * Each piece of text goes to `put`. Header only: no build lists it. */
#ifndef BOIDSGEN_TRACE_OUT_H
#define BOIDSGEN_TRACE_OUT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "boids_app.h"
#include "boids_flock.h"
#include "params.h"
#include "state_io.h"

typedef void (*trace_put_fn)(const char *s, size_t n);

static inline void trace_put_str(trace_put_fn put, const char *s) { put(s, strlen(s)); }

/* One row per element of every kind of state the spec has (the generated
 * boids_state_kinds: boids with their rules' state, predators, food,
 * obstacles, the target), then the PRNG's state. */
static inline void trace_out_rows(trace_put_fn put, const flock_t *f, uint32_t frame)
{
    char row[STATE_ROW_MAX + 1];
    unsigned k;
    for (k = 0; k < BOIDS_STATE_KINDS; k++) {
        const state_kind_t *sk = &boids_state_kinds[k];
        const int32_t n = state_count(f, sk);
        int32_t i;
        for (i = 0; i < n; i++) {
            const size_t len = state_row(row, f, sk, frame, i);
            row[len] = '\n';
            put(row, len + 1);
        }
    }
    snprintf(row, sizeof row, "%" PRIu32 ",0,rng,%" PRIu32 "\n", frame, boids_app_rng_state());
    trace_put_str(put, row);
}

static inline void trace_out_header(trace_put_fn put, const flock_t *f, uint32_t seed)
{
    char line[200];
    unsigned i, k;
    snprintf(line, sizeof line, "# boidsgen trace 2\n# spec: %s\n# spec_hash: %s\n# format: %s\n# arith: fixed\n",
             BOIDS_SPEC_NAME, BOIDS_SPEC_HASH, BOIDS_FORMAT);
    trace_put_str(put, line);
    snprintf(line, sizeof line, "# seed: %" PRIu32 "\n# update: %s\n# boids: %" PRId32 "\n", seed, BOIDS_UPDATE_ORDER,
             f->count);
    trace_put_str(put, line);
    for (i = 0; i < boids_param_count; i++) {
        snprintf(line, sizeof line, "# param: %s=%" PRId32 "\n", boids_param_table[i].name, *boids_param_table[i].value);
        trace_put_str(put, line);
    }
    for (k = 0; k < BOIDS_STATE_KINDS; k++) {
        snprintf(line, sizeof line, "# kind: %s %s\n", boids_state_kinds[k].kind, boids_state_kinds[k].fields);
        trace_put_str(put, line);
    }
    trace_put_str(put, "# kind: rng state\nframe,index,kind,values\n");
}

#endif
