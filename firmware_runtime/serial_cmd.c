/* serial_cmd.c - see serial_cmd.h. The Python client (pysim/serial_client.py)
 * follows the same grammar and reply texts; pysim/params.py gives the same
 * errors for `set`.
 *
 * Everything here runs in the serial and timing protothreads, one at a time,
 * so a telemetry line never lands inside a reply. */
#include <string.h>

#include "boids_config.h"
#include "boids_app.h"
#include "course.h"
#include "fxdecimal.h"
#include "params.h"
#include "platform.h"
#include "serial_cmd.h"

#ifndef BOIDS_LINE_MAX
#define BOIDS_LINE_MAX 64
#endif

/* ---- reply building: a small buffer, flushed when full and at end of line,
 * so a long reply is split into writes but never truncated ---- */
typedef struct {
    char buf[96];
    size_t n;
    serial_sink_t sink;
} reply_t;

static void r_init(reply_t *r, serial_sink_t sink)
{
    r->n = 0;
    r->sink = sink;
}
static void r_ch(reply_t *r, char c)
{
    if (r->n == sizeof r->buf) {
        r->sink(r->buf, r->n);
        r->n = 0;
    }
    r->buf[r->n++] = c;
}
static void r_str(reply_t *r, const char *s)
{
    while (*s) r_ch(r, *s++);
}
/* User text echoed in a message: anything but printable ASCII becomes '?',
 * so a reply is always exactly one line whatever exec was given. */
static void r_mem(reply_t *r, const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) r_ch(r, (s[i] >= 0x20 && s[i] <= 0x7E) ? s[i] : '?');
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
static void r_uint(reply_t *r, uint32_t v)
{
    char t[11];
    size_t n = sizeof t;
    do {
        t[--n] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n < sizeof t) r_ch(r, t[n++]);
}
static void r_end(reply_t *r)
{
    r_ch(r, '\n');
    r->sink(r->buf, r->n);
    r->n = 0;
}

/* ---- tokens ---- */
typedef struct {
    const char *s;
    size_t n;
} tok_t;

#define MAX_TOKENS 4

static int is_space(char c) { return c == ' ' || c == '\t'; }

/* Splits into at most MAX_TOKENS tokens but returns the total word count, so
 * a command can tell "too many words" from a well-formed line. */
static size_t split(const char *line, size_t len, tok_t *t)
{
    size_t i = 0, k = 0;
    while (i < len) {
        size_t start;
        while (i < len && is_space(line[i])) i++;
        if (i >= len) break;
        start = i;
        while (i < len && !is_space(line[i])) i++;
        if (k < MAX_TOKENS) {
            t[k].s = line + start;
            t[k].n = i - start;
        }
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

/* [+]digits fitting in 32 bits unsigned (seeds use the full range). */
static int parse_u32(tok_t t, uint32_t *out)
{
    size_t i = 0;
    uint32_t v = 0;
    if (t.n > 0 && t.s[0] == '+') i = 1;
    if (i == t.n) return 0;
    for (; i < t.n; i++) {
        uint32_t d;
        if (t.s[i] < '0' || t.s[i] > '9') return 0;
        d = (uint32_t)(t.s[i] - '0');
        if (v > (0xFFFFFFFFu - d) / 10u) return 0;
        v = v * 10u + d;
    }
    *out = v;
    return 1;
}

static void r_value(reply_t *r, const bp_param_t *p)
{
    r_str(r, p->name);
    r_ch(r, '=');
    r_fx(r, *p->value, p->type);
    r_str(r, " raw=");
    r_int(r, *p->value);
}

static int fail(reply_t *r, const char *a, const char *b)
{
    r_str(r, "err ");
    r_str(r, a);
    if (b) r_str(r, b);
    r_end(r);
    return 0;
}

/* Parse, range-check, then store: nothing is written unless all succeed. */
static int do_set(reply_t *r, const bp_param_t *p, tok_t v)
{
    int32_t raw = 0;
    fxdec_status st;
    if (!p->tunable) return fail(r, p->name, ": not tunable at run time");
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
        r_ch(r, ']');
        r_end(r);
        return 0;
    }
    *p->value = raw;
    r_str(r, "ok ");
    r_value(r, p);
    r_end(r);
    return 1;
}

static int unknown_param(reply_t *r, tok_t t)
{
    r_str(r, "err unknown parameter '");
    r_mem(r, t.s, t.n);
    r_str(r, "' (try: list)");
    r_end(r);
    return 0;
}

/* Replies err and returns 1 unless the command has lo..hi words. */
static int bad_arity(reply_t *r, size_t k, size_t lo, size_t hi, const char *usage)
{
    if (k > hi) return !fail(r, "too many words", 0);
    if (k < lo) return !fail(r, "usage: ", usage);
    return 0;
}

static unsigned char telemetry_on, echo_on;

static void r_stats_fields(reply_t *r)
{
    boids_stats_t s;
    boids_app_stats(&s);
    r_str(r, "time=");
    r_uint(r, s.elapsed_s);
    r_str(r, " boids=");
    r_int(r, s.boids);
    r_str(r, " fps=");
    r_uint(r, s.fps);
    r_str(r, " frame_ms=");
    r_uint(r, s.frame_ms);
    r_str(r, " period_ms=");
    r_uint(r, s.period_ms);
    r_str(r, " frames=");
    r_uint(r, s.frames);
    r_str(r, s.paused ? " paused=1" : " paused=0");
}

/* on|off word -> 1/0, or -1 */
static int on_off(tok_t t)
{
    if (tok_is(t, "on") || tok_is(t, "1")) return 1;
    if (tok_is(t, "off") || tok_is(t, "0")) return 0;
    return -1;
}

int serial_cmd_exec(const char *line, size_t len, serial_sink_t sink)
{
    reply_t r;
    tok_t t[MAX_TOKENS];
    size_t k;
    const bp_param_t *p;
    r_init(&r, sink);
    {
        /* the course's Python interface: bNN1, tNN0, l0NK, r0GM, $TEXT */
        const int c = course_exec(line, len, sink);
        if (c >= 0) return c;
    }
    k = split(line, len, t);
    if (k == 0) return fail(&r, "empty command", 0);

    if (tok_is(t[0], "set")) {
        if (bad_arity(&r, k, 3, 3, "set NAME VALUE")) return 0;
        p = find_name(t[1]);
        if (!p) return unknown_param(&r, t[1]);
        return do_set(&r, p, t[2]);
    }
    if (tok_is(t[0], "s")) {
        int32_t id;
        if (bad_arity(&r, k, 3, 3, "s ID VALUE")) return 0;
        if (fxdec_parse_int(t[1].s, t[1].n, &id) != FXDEC_OK) return fail(&r, "s: ID must be a whole number", 0);
        p = find_id(id);
        if (!p) return fail(&r, "s: no parameter has that id", 0);
        return do_set(&r, p, t[2]);
    }
    if (tok_is(t[0], "get")) {
        if (bad_arity(&r, k, 2, 2, "get NAME")) return 0;
        p = find_name(t[1]);
        if (!p) return unknown_param(&r, t[1]);
        r_str(&r, "ok ");
        r_value(&r, p);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "list")) {
        unsigned i;
        if (bad_arity(&r, k, 1, 1, "list")) return 0;
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
        r_uint(&r, boids_param_count);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "info")) {
        if (bad_arity(&r, k, 1, 1, "info")) return 0;
        r_str(&r, "ok info spec=" BOIDS_SPEC_NAME " hash=" BOIDS_SPEC_HASH " format=" BOIDS_FORMAT
                  " fw=" BOIDS_TOOL_VERSION " capacity=");
        r_int(&r, BOIDS_CAPACITY);
        r_str(&r, " update=" BOIDS_UPDATE_ORDER " fps=");
        r_int(&r, BOIDS_FRAME_RATE);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "stats")) {
        if (bad_arity(&r, k, 1, 1, "stats")) return 0;
        r_str(&r, "ok stats ");
        r_stats_fields(&r);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "reset")) {
        /* Keeps the flock size last asked for (`boids N`), restarts the rest. */
        uint32_t seed = boids_app_seed();
        boids_stats_t s;
        if (bad_arity(&r, k, 1, 2, "reset [SEED]")) return 0;
        if (k == 2 && !parse_u32(t[1], &seed)) return fail(&r, "reset: SEED must be a whole number in [0, 4294967295]", 0);
        boids_app_stats(&s);
        boids_app_reset(seed, s.target);
        r_str(&r, "ok reset seed=");
        r_uint(&r, seed);
        r_str(&r, " boids=");
        r_int(&r, s.target);
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "boids")) {
        int32_t n;
        if (bad_arity(&r, k, 2, 2, "boids N")) return 0;
        if (fxdec_parse_int(t[1].s, t[1].n, &n) != FXDEC_OK) return fail(&r, "boids: N must be a whole number", 0);
        if (n < 0 || n > BOIDS_CAPACITY) {
            r_str(&r, "err boids: ");
            r_int(&r, n);
            r_str(&r, " outside [0, ");
            r_int(&r, BOIDS_CAPACITY);
            r_ch(&r, ']');
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
        if (bad_arity(&r, k, 1, 1, pause ? "pause" : "resume")) return 0;
        boids_app_pause(pause);
        r_str(&r, pause ? "ok pause" : "ok resume");
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "telemetry") || tok_is(t[0], "echo")) {
        int tm = tok_is(t[0], "telemetry"), v = 0;
        unsigned char *flag = tm ? &telemetry_on : &echo_on;
        if (bad_arity(&r, k, 1, 2, tm ? "telemetry [on|off]" : "echo [on|off]")) return 0;
        if (k == 2 && (v = on_off(t[1])) < 0) return fail(&r, tm ? "telemetry" : "echo", ": say on or off");
        if (k == 2) *flag = (unsigned char)v;
        r_str(&r, tm ? "ok telemetry " : "ok echo ");
        r_str(&r, *flag ? "on" : "off");
        r_end(&r);
        return 1;
    }
    if (tok_is(t[0], "help")) {
        if (bad_arity(&r, k, 1, 1, "help")) return 0;
        r_str(&r, "ok commands: set NAME VALUE, get NAME, list, info, stats, boids N, reset [SEED], pause, resume, "
                  "s ID VALUE, telemetry [on|off], echo [on|off], help");
        r_end(&r);
        return 1;
    }
    {
        /* The spec's own commands may take any number of words. */
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

/* Once a second from the timing thread: one telemetry line when switched on. */
void serial_cmd_tick(void)
{
    reply_t r;
    if (!telemetry_on) return;
    r_init(&r, sink_uart);
    r_str(&r, "tm ");
    r_stats_fields(&r);
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
            fail(&r, "line has a control or non-ASCII byte", 0);
        } else {
            /* A blank line (Enter on its own) gets no reply. */
            for (i = 0; i < line_len && is_space(line_buf[i]); i++) {
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
