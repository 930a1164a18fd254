/* cmd_reply.c - see cmd_reply.h. */
#include <string.h>

#include "boids_app.h"
#include "cmd_reply.h"
#include "fxdecimal.h"

void r_init(reply_t *r, serial_sink_t sink)
{
    r->n = 0;
    r->sink = sink;
}

void r_ch(reply_t *r, char c)
{
    if (r->n == sizeof r->buf) {
        r->sink(r->buf, r->n);
        r->n = 0;
    }
    r->buf[r->n++] = c;
}

void r_str(reply_t *r, const char *s)
{
    while (*s) r_ch(r, *s++);
}

void r_mem(reply_t *r, const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) r_ch(r, (s[i] >= 0x20 && s[i] <= 0x7E) ? s[i] : '?');
}

void r_int(reply_t *r, int32_t v)
{
    char t[12];
    fxdec_format_int(v, t);
    r_str(r, t);
}

void r_uint(reply_t *r, uint32_t v)
{
    char t[11];
    size_t n = sizeof t;
    do {
        t[--n] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n < sizeof t) r_ch(r, t[n++]);
}

void r_hex32(reply_t *r, uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    int s;
    for (s = 28; s >= 0; s -= 4) r_ch(r, digits[(v >> s) & 0xFu]);
}

void r_fx(reply_t *r, int32_t raw, int is_int)
{
    char t[24];
    if (is_int) fxdec_format_int(raw, t);
    else fxdec_format(raw, t);
    r_str(r, t);
}

void r_end(reply_t *r)
{
    r_ch(r, '\n');
    r->sink(r->buf, r->n);
    r->n = 0;
}

void r_stamp(reply_t *r)
{
    r_str(r, " frame=");
    r_uint(r, boids_app_next_frame());
}

int r_fail(reply_t *r, const char *a, const char *b)
{
    r_str(r, "err ");
    r_str(r, a);
    if (b) r_str(r, b);
    r_end(r);
    return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t'; }

size_t cmd_split(const char *line, size_t len, tok_t *t)
{
    size_t i = 0, k = 0;
    while (i < len) {
        size_t start;
        while (i < len && is_space(line[i])) i++;
        if (i >= len) break;
        start = i;
        while (i < len && !is_space(line[i])) i++;
        if (k < CMD_MAX_WORDS) {
            t[k].s = line + start;
            t[k].n = i - start;
        }
        k++;
    }
    return k;
}

int tok_is(tok_t t, const char *w)
{
    size_t n = strlen(w);
    return t.n == n && memcmp(t.s, w, n) == 0;
}

int tok_u32(tok_t t, uint32_t *out)
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
