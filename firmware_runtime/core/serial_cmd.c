/* serial_cmd.c - see serial_cmd.h. Commands come from the generated table
 * (boids_commands.c, from codegen/model/serial_commands.py): the line's first word is
 * looked up, its word count checked, its handler called (cmd_core.c, or the
 * generated ones for the spec's entities). The course interface's lines
 * (course.c) are recognised first. The Python client (pysim/board/serial_client.py)
 * reads the same table from the generated model.
 *
 * Everything here runs in the serial and timing protothreads, one at a time,
 * so a telemetry, `fr` or `ev` line never lands inside a reply. */
#include <string.h>

#include "boids_config.h"
#include "cmd_table.h"
#include "course.h"
#include "platform.h"
#include "serial_cmd.h"

#ifndef BOIDS_LINE_MAX
#define BOIDS_LINE_MAX 64
#endif

static unsigned char telemetry_on, echo_on;

void cmd_stats_fields(reply_t *r); /* cmd_core.c */
int cmd_on_off(tok_t t);

static int link_flag(const cmd_call_t *c, unsigned char *flag, const char *name)
{
    int v = 0;
    if (c->k == 2 && (v = cmd_on_off(c->w[1])) < 0) return r_fail(c->r, name, ": say on or off");
    if (c->k == 2) *flag = (unsigned char)v;
    r_str(c->r, "ok ");
    r_str(c->r, name);
    r_str(c->r, *flag ? " on" : " off");
    r_end(c->r);
    return 1;
}

int cmd_telemetry(const cmd_call_t *c) { return link_flag(c, &telemetry_on, "telemetry"); }
int cmd_echo(const cmd_call_t *c) { return link_flag(c, &echo_on, "echo"); }

int cmd_help(const cmd_call_t *c)
{
    unsigned i;
    for (i = 0; i < boids_cmd_count; i++) {
        r_str(c->r, "cmd ");
        r_str(c->r, boids_cmd_table[i].usage);
        r_str(c->r, " - ");
        r_str(c->r, boids_cmd_table[i].help);
        r_end(c->r);
    }
    r_str(c->r, "ok help ");
    r_uint(c->r, boids_cmd_count);
    r_end(c->r);
    return 1;
}

int serial_cmd_exec(const char *line, size_t len, serial_sink_t sink)
{
    reply_t r;
    tok_t t[CMD_MAX_WORDS];
    size_t k;
    unsigned i;
    r_init(&r, sink);
    {
        /* the course's Python interface: bNN1, tNN0, l0NK, r0GM, $TEXT */
        const int c = course_exec(line, len, sink, serial_cmd_exec);
        if (c >= 0) return c;
    }
    k = cmd_split(line, len, t);
    if (k == 0) return r_fail(&r, "empty command", 0);
    for (i = 0; i < boids_cmd_count; i++) {
        const cmd_def_t *d = &boids_cmd_table[i];
        cmd_call_t call;
        if (!tok_is(t[0], d->name)) continue;
        if (k > d->max_words) return r_fail(&r, "too many words", 0);
        if (k < d->min_words) return r_fail(&r, "usage: ", d->usage);
        call.w = t;
        call.k = k;
        call.r = &r;
        return d->run(&call);
    }
    r_str(&r, "err unknown command '");
    r_mem(&r, t[0].s, t[0].n);
    r_str(&r, "' (try: help)");
    r_end(&r);
    return 0;
}

/* ---- byte-level line assembly ---- */
static char line_buf[BOIDS_LINE_MAX];
static size_t line_len;
static unsigned char line_overflow, line_bad, last_cr;

void serial_cmd_clear(void)
{
    line_len = 0;
    line_overflow = 0;
    line_bad = 0;
    last_cr = 0;
}

static void sink_uart(const char *s, size_t n) { plat_serial_write(s, n); }

/* Once a second from the timing thread: one telemetry line when switched on. */
void serial_cmd_tick(void)
{
    reply_t r;
    if (!telemetry_on) return;
    r_init(&r, sink_uart);
    r_str(&r, "tm ");
    cmd_stats_fields(&r);
    r_end(&r);
}

#define CH_CTRL_C 0x03
#define CH_CTRL_U 0x15

void serial_cmd_feed(char c)
{
    if (c == '\r' || c == '\n') {
        int was_cr = last_cr;
        size_t i;
        last_cr = (c == '\r');
        if (c == '\n' && was_cr) return; /* the LF of a CRLF */
        if (echo_on) plat_serial_write("\r\n", 2);
        if (line_overflow) {
            reply_t r;
            r_init(&r, sink_uart);
            r_str(&r, "err line too long (max ");
            r_int(&r, BOIDS_LINE_MAX - 1);
            r_str(&r, " characters)");
            r_end(&r);
        } else if (line_bad) {
            reply_t r;
            r_init(&r, sink_uart);
            r_fail(&r, "line has a control or non-ASCII byte", 0);
        } else {
            /* A blank line (Enter on its own) gets no reply. */
            for (i = 0; i < line_len && (line_buf[i] == ' ' || line_buf[i] == '\t'); i++) {
            }
            if (i < line_len) serial_cmd_exec(line_buf, line_len, sink_uart);
        }
        line_len = 0;
        line_overflow = 0;
        line_bad = 0;
        return;
    }
    last_cr = 0;
    if (c == CH_CTRL_C || c == CH_CTRL_U) {
        /* Discard the line so far: a typist's escape, and what the client
         * sends on connect in case a previous session left half a line. */
        if (echo_on) plat_serial_write("^U\r\n", 4);
        line_len = 0;
        line_overflow = 0;
        line_bad = 0;
        return;
    }
    if (c == '\b' || c == 0x7F) {
        if (line_len > 0 && !line_overflow) {
            line_len--;
            if (echo_on) plat_serial_write("\b \b", 3);
        }
        return;
    }
    if ((unsigned char)c < 0x20 && c != '\t') {
        line_bad = 1;
        return;
    }
    if ((unsigned char)c > 0x7E) {
        line_bad = 1;
        return;
    }
    if (line_len >= BOIDS_LINE_MAX - 1) {
        line_overflow = 1;
        return;
    }
    line_buf[line_len++] = c;
    if (echo_on) plat_serial_write(&c, 1);
}
