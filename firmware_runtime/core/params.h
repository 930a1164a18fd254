/* params.h - the shape of the generated parameter table, which the serial
 * command handler (serial_cmd.c) walks. Values are raw: fixed point for
 * BP_FIXED, plain integers for BP_INT. */
#ifndef BOIDSGEN_PARAMS_H
#define BOIDSGEN_PARAMS_H

#include <stdint.h>

enum { BP_FIXED = 0, BP_INT = 1 };

typedef struct {
    const char *name;
    const char *unit;
    const char *min_text, *max_text; /* the spec's own decimals, for messages */
    int32_t *value;
    int32_t def, min, max;
    uint8_t id;
    uint8_t type;
    uint8_t tunable;
} bp_param_t;

extern const bp_param_t boids_param_table[];
extern const unsigned boids_param_count;

#endif
