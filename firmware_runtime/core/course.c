/* course.c - see course.h. The course's Python interface sends, each line
 * ended by a CR (serial_cmd_feed splits the lines):
 *
 *   bNN1 / bNN0                  button NN pressed / released (NN: 1-2 digits)
 *   tNN1 / tNN0, tNNTrue / tNNFalse   toggle NN on / off
 *   l0NK                         list box N (one digit): item K chosen
 *   r0GM                         radio group G (one digit): member M chosen
 *   $TEXT                        TEXT as a command line
 *   s ID VALUE                   a slider: an ordinary command (cmd_core.c)
 *
 * A control runs the command line the spec maps it to (the generated
 * boids_course_table, from codegen/model/course.py) through serial_cmd_exec, whose
 * reply is the reply: one table walk, no code per control. */
#include <string.h>

#include "boids_config.h"
#include "cmd_reply.h"
#include "course.h"

#define DIGITS_MAX 5 /* an item's index: more digits than this is not a form */

typedef struct {
    char kind;
    const char *noun;    /* "button", "toggle", ... */
    const char *section; /* the spec's section */
    const char *form;    /* what the line should have been */
} course_kind_t;

static const course_kind_t kinds[] = {
    {'b', "button", "buttons", "bNN1 (press) or bNN0 (release), NN the button's number 0-99"},
    {'t', "toggle", "toggles", "tNN1, tNN0, tNNTrue or tNNFalse, NN the toggle's number 0-99"},
    {'l', "list box", "listboxes", "l0NK, N the list box's number 0-9, K the item's index"},
    {'r', "radio group", "radios", "r0GM, G the radio group's number 0-9, M the member's index"},
};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* digits only, 1..max of them: their value; -1 otherwise */
static long digits(const char *s, size_t n, size_t max)
{
    long v = 0;
    size_t i;
    if (n == 0 || n > max) return -1;
    for (i = 0; i < n; i++) {
        if (!is_digit(s[i])) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static const course_kind_t *kind_of(char c)
{
    unsigned i;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].kind == c) return &kinds[i];
    return 0;
}

static const course_entry_t *find(char kind, long id, long value)
{
    unsigned i;
    for (i = 0; i < boids_course_count; i++) {
        const course_entry_t *e = &boids_course_table[i];
        if (e->kind == kind && e->id == id && (value < 0 || e->value == value)) return e;
    }
    return 0;
}

/* "err LINE: " then the rest of the message is the caller's */
static void err_head(reply_t *r, const char *s, size_t n)
{
    r_str(r, "err ");
    r_mem(r, s, n);
    r_str(r, ": ");
}

static int bad_form(reply_t *r, const course_kind_t *k, const char *s, size_t n)
{
    err_head(r, s, n);
    r_str(r, "expected ");
    r_str(r, k->form);
    r_end(r);
    return 0;
}

static int unmapped(reply_t *r, const course_kind_t *k, const char *s, size_t n, long id, long value)
{
    err_head(r, s, n);
    r_str(r, "no action for ");
    if (k->kind == 'l' || k->kind == 'r') {
        r_str(r, k->kind == 'l' ? "item " : "member ");
        r_uint(r, (uint32_t)value);
        r_str(r, " of ");
    }
    r_str(r, k->noun);
    r_ch(r, ' ');
    r_uint(r, (uint32_t)id);
    r_str(r, " in spec '" BOIDS_SPEC_NAME "' (spec section course.");
    r_str(r, k->section);
    r_ch(r, ')');
    r_end(r);
    return 0;
}

/* "$TEXT": TEXT as a command line, one level only. */
static int dollar(reply_t *r, const char *s, size_t n, serial_sink_t sink, course_run_t run)
{
    size_t i;
    for (i = 1; i < n; i++) {
        if (s[i] == '$') {
            err_head(r, s, n);
            r_str(r, "a '$' inside '$' text is refused (one level only)");
            r_end(r);
            return 0;
        }
    }
    for (i = 1; i < n && (s[i] == ' ' || s[i] == '\t'); i++) {
    }
    if (i == n) return r_fail(r, "$: no command after '$'", 0);
    return run(s + 1, n - 1, sink);
}

int course_exec(const char *line, size_t len, serial_sink_t sink, course_run_t run)
{
    reply_t r;
    const course_kind_t *k;
    const course_entry_t *e;
    const char *s = line;
    size_t n = len, idn;
    long id, value;
    while (n > 0 && (s[0] == ' ' || s[0] == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 0) return -1;
    r_init(&r, sink);
    if (s[0] == '$') return dollar(&r, s, n, sink, run);
    k = kind_of(s[0]);
    if (k == 0 || n < 2 || !is_digit(s[1])) return -1;

    if (k->kind == 'b' || k->kind == 't') {
        /* the state at the end: 1 / 0, or for toggles True / False */
        if (k->kind == 't' && n > 4 && memcmp(s + n - 4, "True", 4) == 0) {
            value = 1;
            idn = n - 5;
        } else if (k->kind == 't' && n > 5 && memcmp(s + n - 5, "False", 5) == 0) {
            value = 0;
            idn = n - 6;
        } else if (n > 2 && (s[n - 1] == '0' || s[n - 1] == '1')) {
            value = s[n - 1] - '0';
            idn = n - 2;
        } else {
            return bad_form(&r, k, s, n);
        }
        id = digits(s + 1, idn, 2);
        if (id < 0) return bad_form(&r, k, s, n);
        e = find(k->kind, id, value);
        if (e) return run(e->line, strlen(e->line), sink);
        if (!find(k->kind, id, -1)) return unmapped(&r, k, s, n, id, value);
        /* mapped, but this side does nothing: a release, a toggle's off */
        r_str(&r, "ok ");
        r_mem(&r, s, idn + 1);
        r_str(&r, k->kind == 'b' ? " released" : " off");
        r_str(&r, " (no action)");
        r_end(&r);
        return 1;
    }
    /* l0NK, r0GM */
    if (n < 4 || s[1] != '0' || !is_digit(s[2])) return bad_form(&r, k, s, n);
    id = s[2] - '0';
    value = digits(s + 3, n - 3, DIGITS_MAX);
    if (value < 0) return bad_form(&r, k, s, n);
    e = find(k->kind, id, value);
    if (e) return run(e->line, strlen(e->line), sink);
    return unmapped(&r, k, s, n, id, value);
}
