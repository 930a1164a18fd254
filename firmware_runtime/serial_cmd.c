/* serial_cmd.c - see serial_cmd.h. The Python client (pysim/serial_client.py)
 * and the simulator's twin of this parser (pysim/protocol.py) follow the same
 * grammar and reply texts. */
#include <string.h>

#include "boids_config.h"
#include "boids_app.h"
#include "fxdecimal.h"
#include "params.h"
#include "platform.h"
#include "serial_cmd.h"

#ifndef BOIDS_LINE_MAX
#define BOIDS_LINE_MAX 64
#endif

/* ---- reply building: one buffer, flushed per line ---- */
typedef struct {
    char buf[160];
    size_t n;
    serial_sink_t sink;
} reply_t;

static void r_str(reply_t *r, const char *s)
{
    while (*s && r->n < sizeof r->buf - 2) r->buf[r->n++] = *s++;
}
static void r_mem(reply_t *r, const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n && r->n < sizeof r->buf - 2; i++) r->buf[r->n++] = s[i];
}
static void r_fx(reply_t *r, int32_t raw, int type)
{
    char t[24];
    if (type == BP_FIXED) fxdec_format(raw, t);
    else fxdec_format_int(raw, t);
    r_str(r, t);
}
static void r_int(reply_t *r, int32_t v)
{
    char t[12];
    fxdec_format_int(v, t);
    r_str(r, t);
}
static void r_end(reply_t *r)
{
    r->buf[r->n++] = '\n';
    r->sink(r->buf, r->n);
    r->n = 0;
}

/* ---- tokens ---- */
typedef struct {
    const char *s;
    size_t n;
} tok_t;

static int is_space(char c) { return c == ' ' || c == '\t'; }

static size_t split(const char *line, size_t len, tok_t *t, size_t max)
{
    size_t i = 0, k = 0;
    while (i < len) {
        while (i < len && is_space(line[i])) i++;
        if (i >= len) break;
        if (k == max) return max + 1;
        t[k].s = line + i;
        while (i < len && !is_space(line[i])) i++;
        t[k].n = (size_t)(line + i - t[k].s);
        k++;
    }
    return k;
}

static int tok_is(tok_t t, const char *w)
{
    size_t n = strlen(w);
    return t.n == n && memcmp(t.s, w, n) == 0;
}

static const bp_param_t *find_name(tok_t t)
{
    unsigned i;
    for (i = 0; i < boids_param_count; i++) {
        if (tok_is(t, boids_param_table[i].name)) return &boids_param_table[i];
    }
    return NULL;
}

static const bp_param_t *find_id(int32_t id)
{
    unsigned i;
    for (i = 0; i < boids_param_count; i++) {
        if ((int32_t)boids_param_table[i].id == id) return &boids_param_table[i];
    }
    return NULL;
}

static void r_value(reply_t *r, const bp_param_t *p)
{
    r_str(r, p->name);
    r_str(r, "=");
    r_fx(r, *p->value, p->type);
    r_str(r, " raw=");
    r_int(r, *p->value);
}

static int err_param(reply_t *r, const bp_param_t *p, const char *why)
{
    r_str(r, "err ");
    r_str(r, p->name);
    r_str(r, ": ");
    r_str(r, why);
    r_end(r);
    return 0;
}

/* Parse, range-check, then store: nothing is written unless all succeed. */
static int do_set(reply_t *r, const bp_param_t *p, tok_t v)
{
    int32_t raw = 0;
    fxdec_status st;
    if (!p->tunable) return err_param(r, p, "not tunable at run time");
    st = (p->type == BP_FIXED) ? fxdec_parse(v.s, v.n, &raw) : fxdec_parse_int(v.s, v.n, &raw);
    if (st != FXDEC_OK) {
        r_str(r, "err ");
        r_str(r, p->name);
        r_str(r, ": '");
        r_mem(r, v.s, v.n);
        r_str(r, "' ");
        r_str(r, fxdec_reason(st));
        r_end(r);
        return 0;
    }
    if (raw < p->min || raw > p->max) {
        r_str(r, "err ");
        r_str(r, p->name);
        r_str(r, ": ");
        r_mem(r, v.s, v.n);
        r_str(r, " outside [");
        r_str(r, p->min_text);
        r_str(r, ", ");
        r_str(r, p->max_text);
        r_str(r, "]");
        r_end(r);
        return 0;
    }
    *p->value = raw;
    r_str(r, "ok ");
    r_value(r, p);
    r_end(r);
    return 1;
}

static int fail(reply_t *r, const char *a, const char *b)
{
    r_str(r, "err ");
    r_str(r, a);
    if (b) r_str(r, b);
    r_end(r);
    return 0;
}

static int unknown_param(reply_t *r, tok_t t)
{
    r_str(r, "err unknown parameter '");
    r_mem(r, t.s, t.n);
    r_str(r, "' (try: list)");
    r_end(r);
    return 0;
}

int serial_cmd_exec(const char *line, size_t len, serial_sink_t sink)
{
    reply_t r;
    tok_t t[4];
    size_t k;
    const bp_param_t *p;
    r.n = 0;
    r.sink = sink;
    k = split(line, len, t, 3);
    if (k == 0) return fail(&r, "empty command", 0);
    if (k > 3) return fail(&r, "too many words", 0);

    if (tok_is(t[0], "set")) {
        if (k != 3) return fail(&r, "usage: set NAME VALUE", 0);
        p = find_name(t[1]);
        if (!p) return unknown_param(&r, t[1]);
        return do_set(&r, p, t[2]);
    }
    if (tok_is(t[0], "s")) {
        int32_t id;
        if (k != 3) return fail(&r, "usage: s ID VALUE", 0);
        if (fxdec_parse_int(t[1].s, t[1].n, &id) != FXDEC_OK) return fail(&r, "s: ID must be a whole number", 0);
        p = find_id(id);
        if (!p) return fail(&r, "s: no parameter has that id", 0);
        return do_set(&r, p, t[2]);
    }
    if (tok_is(t[0], "get")) {
        if (k != 2) return fail(&r, "usage: get NAME", 0);
        p = find_name(t[1]);
        if (!p) return unknown_param(&r, t[1]);
        r_str(&r, "ok ");
        r_value(&r, p);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "list")) {
        unsigned i;
        if (k != 1) return fail(&r, "usage: list", 0);
        for (i = 0; i < boids_param_count; i++) {
            p = &boids_param_table[i];
            r_str(&r, "param ");
            r_value(&r, p);
            r_str(&r, " min=");
            r_fx(&r, p->min, p->type);
            r_str(&r, " max=");
            r_fx(&r, p->max, p->type);
            r_str(&r, " default=");
            r_fx(&r, p->def, p->type);
            r_str(&r, " id=");
            r_int(&r, p->id);
            r_str(&r, p->tunable ? " tunable=1" : " tunable=0");
            r_str(&r, " type=");
            r_str(&r, p->type == BP_FIXED ? "fixed" : "int");
            r_str(&r, " unit=");
            r_str(&r, p->unit[0] ? p->unit : "-");
            r_end(&r);
        }
        r_str(&r, "ok list ");
        r_int(&r, (int32_t)boids_param_count);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "info")) {
        if (k != 1) return fail(&r, "usage: info", 0);
        r_str(&r, "ok info spec=" BOIDS_SPEC_NAME " hash=" BOIDS_SPEC_HASH " format=" BOIDS_FORMAT
                  " fw=" BOIDS_TOOL_VERSION " capacity=");
        r_int(&r, BOIDS_CAPACITY);
        r_str(&r, " update=" BOIDS_UPDATE_ORDER " fps=");
        r_int(&r, BOIDS_FRAME_RATE);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "stats")) {
        boids_stats_t s;
        if (k != 1) return fail(&r, "usage: stats", 0);
        boids_app_stats(&s);
        r_str(&r, "ok stats time=");
        r_int(&r, (int32_t)s.elapsed_s);
        r_str(&r, " boids=");
        r_int(&r, s.boids);
        r_str(&r, " fps=");
        r_int(&r, (int32_t)s.fps);
        r_str(&r, " frame_ms=");
        r_int(&r, (int32_t)s.frame_ms);
        r_str(&r, " period_ms=");
        r_int(&r, (int32_t)s.period_ms);
        r_str(&r, " frames=");
        r_int(&r, (int32_t)s.frames);
        r_str(&r, s.paused ? " paused=1" : " paused=0");
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "reset")) {
        int32_t seed = (int32_t)boids_app_seed();
        if (k > 2) return fail(&r, "usage: reset [SEED]", 0);
        if (k == 2 && fxdec_parse_int(t[1].s, t[1].n, &seed) != FXDEC_OK)
            return fail(&r, "reset: SEED must be a whole number", 0);
        boids_app_reset((uint32_t)seed, -1);
        r_str(&r, "ok reset seed=");
        r_int(&r, seed);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "boids")) {
        int32_t n;
        if (k != 2) return fail(&r, "usage: boids N", 0);
        if (fxdec_parse_int(t[1].s, t[1].n, &n) != FXDEC_OK) return fail(&r, "boids: N must be a whole number", 0);
        if (n < 0 || n > BOIDS_CAPACITY) {
            r_str(&r, "err boids: ");
            r_int(&r, n);
            r_str(&r, " outside [0, ");
            r_int(&r, BOIDS_CAPACITY);
            r_str(&r, "]");
            r_end(&r);
            return 0;
        }
        r_str(&r, "ok boids=");
        r_int(&r, boids_app_set_count(n));
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "pause") || tok_is(t[0], "resume")) {
        int pause = tok_is(t[0], "pause");
        if (k != 1) return fail(&r, pause ? "usage: pause" : "usage: resume", 0);
        boids_app_pause(pause);
        r_str(&r, pause ? "ok pause" : "ok resume");
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "help")) {
        r_str(&r, "ok commands: set NAME VALUE, get NAME, list, info, stats, boids N, reset [SEED], pause, resume, s ID VALUE");
        r_end(&r);
        return 1;
    }
    {
        int handled = boids_cmd_extra(line, len, sink);
        if (handled >= 0) return handled;
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

void serial_cmd_tick(void) {}

void serial_cmd_feed(char c)
{
    if (c == '\r' || c == '\n') {
        int was_cr = last_cr;
        last_cr = (c == '\r');
        if (c == '\n' && was_cr) return; /* the LF of a CRLF */
        if (line_overflow) {
            reply_t r;
            r.n = 0;
            r.sink = sink_uart;
            r_str(&r, "err line too long (max ");
            r_int(&r, BOIDS_LINE_MAX - 1);
            r_str(&r, " characters)");
            r_end(&r);
        } else if (line_bad) {
            reply_t r;
            r.n = 0;
            r.sink = sink_uart;
            fail(&r, "line has a control or non-ASCII byte", 0);
        } else if (line_len > 0) {
            serial_cmd_exec(line_buf, line_len, sink_uart);
        }
        line_len = 0;
        line_overflow = 0;
        line_bad = 0;
        return;
    }
    last_cr = 0;
    if (c == '\b' || c == 0x7F) {
        if (line_len > 0 && !line_overflow) line_len--;
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
}
