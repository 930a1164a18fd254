/* cmd_table.h - the shape of the generated command table (boids_commands.c,
 * from codegen/model/serial_commands.py): serial_cmd.c finds a line's first word here,
 * checks its word count, and calls its handler; `help` lists it. */
#ifndef BOIDSGEN_CMD_TABLE_H
#define BOIDSGEN_CMD_TABLE_H

#include "cmd_reply.h"

typedef struct {
    const tok_t *w; /* the line's words (w[0]: the command) */
    size_t k;       /* how many words the line has */
    reply_t *r;
} cmd_call_t;

typedef struct {
    const char *name;
    const char *usage; /* "set NAME VALUE" */
    const char *help;
    uint8_t min_words, max_words;
    uint8_t changes; /* changes the simulation (replies stamped, ev under watch) */
    int (*run)(const cmd_call_t *c);
} cmd_def_t;

extern const cmd_def_t boids_cmd_table[];
extern const unsigned boids_cmd_count;

/* The handlers runtime/cmd_core.c implements (the generated table names them). */
int cmd_set(const cmd_call_t *c);
int cmd_s(const cmd_call_t *c);
int cmd_get(const cmd_call_t *c);
int cmd_list(const cmd_call_t *c);
int cmd_info(const cmd_call_t *c);
int cmd_stats(const cmd_call_t *c);
int cmd_boids(const cmd_call_t *c);
int cmd_reset(const cmd_call_t *c);
int cmd_pause(const cmd_call_t *c);
int cmd_resume(const cmd_call_t *c);
int cmd_adaptive(const cmd_call_t *c);
int cmd_watch(const cmd_call_t *c);
int cmd_dump(const cmd_call_t *c);
int cmd_telemetry(const cmd_call_t *c);
int cmd_echo(const cmd_call_t *c);
int cmd_help(const cmd_call_t *c);

#endif
