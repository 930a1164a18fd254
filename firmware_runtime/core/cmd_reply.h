/* cmd_reply.h - the pieces every serial command is built from: a reply line
 * assembled in a small buffer (flushed when full and at end of line, so a long
 * reply is split into writes but never truncated), and the line's words. */
#ifndef BOIDSGEN_CMD_REPLY_H
#define BOIDSGEN_CMD_REPLY_H

#include <stddef.h>
#include <stdint.h>

#include "serial_cmd.h"

typedef struct {
    char buf[96];
    size_t n;
    serial_sink_t sink;
} reply_t;

void r_init(reply_t *r, serial_sink_t sink);
void r_ch(reply_t *r, char c);
void r_str(reply_t *r, const char *s);
/* User text echoed in a message: anything but printable ASCII becomes '?',
 * so a reply is always exactly one line whatever it was given. */
void r_mem(reply_t *r, const char *s, size_t n);
void r_int(reply_t *r, int32_t v);
void r_uint(reply_t *r, uint32_t v);
void r_hex32(reply_t *r, uint32_t v); /* eight lowercase hex digits */
void r_fx(reply_t *r, int32_t raw, int is_int);
void r_end(reply_t *r);
/* " frame=F": the first frame a change takes effect in (boids_app_next_frame). */
void r_stamp(reply_t *r);
/* "err A[B]\n"; returns 0 (the command's result). */
int r_fail(reply_t *r, const char *a, const char *b);

typedef struct {
    const char *s;
    size_t n;
} tok_t;

#define CMD_MAX_WORDS 6

/* Splits at blanks into at most CMD_MAX_WORDS words but returns the total
 * word count, so a command can tell "too many words" from a good line. */
size_t cmd_split(const char *line, size_t len, tok_t *t);
int tok_is(tok_t t, const char *w);
/* [+]digits fitting in 32 bits unsigned. */
int tok_u32(tok_t t, uint32_t *out);

#endif
