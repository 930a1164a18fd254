/* fuzz_serial.c - a fuzz driver for the serial command parser, linked with
 * the real generated firmware, the real runtime and the host platform layer.
 * Build it with -fsanitize=address,undefined (tools/fuzz_serial.sh,
 * tests/test_fuzz_serial.py).
 *
 *   fuzz_serial LINES [SEED]
 *
 * Inputs are random bytes and mutations of valid commands (byte flips,
 * truncation, splicing, long runs, NULs, backspaces, CR/LF mixes: made by
 * tests/c/fuzz_inputs.c). Each input goes either byte by byte through
 * serial_cmd_feed (as from the UART) or straight to serial_cmd_exec. After every executed line the driver checks:
 *   - the reply is well formed: printable ASCII lines, each ending '\n', the
 *     last one `ok...` or `err ...`, the ones before it `param ...`, `cmd ...`
 *     (help), a dump's rows, or `obstacle ...` from `obstacle list`;
 *   - the lines a client routes apart from replies (`fr`, `ev`: the watch
 *     stream; `tm`: telemetry) may come anywhere among them, and between
 *     commands, each in one of watch.h's shapes (tests/c/fuzz_lines.c), `fr`
 *     and `ev` only under watch;
 *   - under watch, a change is announced by exactly one `ev set NAME RAW
 *     frame=F` with the reply's own stamp F;
 *   - the parameter table changed only if the reply is `ok NAME=V raw=R`
 *     naming the one parameter that changed, R is its new value, V prints R,
 *     and the value lies in [min, max] of a tunable parameter;
 *   - every parameter stays within [min, max].
 * Any violation prints the input and aborts. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boids_app.h"
#include "boids_config.h"
#include "fxdecimal.h"
#include "params.h"
#include "platform.h"
#include "platform_host.h"
#include "serial_cmd.h"
#include "watch.h"

#include "fuzz_inputs.h"
#include "fuzz_lines.h"

#define MAX_PARAMS 64
#define OUT_CAP 65536


/* ---- output capture: plat_serial_write goes to a pipe we drain ---- */
static int pipe_r;
static char out[OUT_CAP];
static size_t out_n;

static void drain(void)
{
    for (;;) {
        ssize_t n;
        if (out_n == OUT_CAP) {
            fprintf(stderr, "fuzz_serial: more than %d bytes of output for one line\n", OUT_CAP);
            abort();
        }
        n = read(pipe_r, out + out_n, OUT_CAP - out_n);
        if (n > 0) out_n += (size_t)n;
        else if (n < 0 && errno == EINTR) continue;
        else return;
    }
}

static char cap[OUT_CAP], both[2 * OUT_CAP];
static size_t cap_n;
static void capture(const char *s, size_t n)
{
    if (n > OUT_CAP - cap_n) abort();
    memcpy(cap + cap_n, s, n);
    cap_n += n;
}

/* ---- the state being checked ---- */
static int32_t snap[MAX_PARAMS];
static const unsigned char *cur_in;
static size_t cur_len;
static unsigned long lines_checked, replies_ok, replies_err, sets_accepted, stream_lines, ev_sets_matched;
static int watch_was_on; /* before the line: its own `watch off` still ends the stream after it */

static void take_snapshot(void)
{
    unsigned i;
    for (i = 0; i < boids_param_count; i++) snap[i] = *boids_param_table[i].value;
    watch_was_on = watch_is_on();
}

static void die(const char *why, const char *reply, size_t n)
{
    size_t i;
    fprintf(stderr, "fuzz_serial: %s\ninput (%zu bytes):", why, cur_len);
    for (i = 0; i < cur_len; i++) fprintf(stderr, " %02x", cur_in[i]);
    fprintf(stderr, "\nreply: '%.*s'\n", (int)n, reply);
    abort();
}

static int echo_is_on(void)
{
    cap_n = 0;
    serial_cmd_exec("echo", 4, capture);
    return cap_n >= 10 && memcmp(cap, "ok echo on", 10) == 0;
}


/* A line before a reply's last: `param` (list), `cmd` (help), a dump's
 * trace row, `obstacle` (obstacle list). */
static int listing_line(const char *l, size_t n)
{
    return (n >= 6 && memcmp(l, "param ", 6) == 0) || (n >= 4 && memcmp(l, "cmd ", 4) == 0) ||
           (n >= 1 && l[0] >= '0' && l[0] <= '9') || (n >= 9 && memcmp(l, "obstacle ", 9) == 0);
}

/* The stream's lines among r[0..n): each of the right shape, `fr`/`ev` only
 * while watch is (or was) on, at most one `ev set`, which must say what the
 * table now holds; returns how many `ev set` lines and where the last is. */
static unsigned check_stream(const char *r, size_t n, const char **ev_set, size_t *ev_set_n)
{
    size_t i, start = 0;
    unsigned sets = 0;
    for (i = 0; i < n; i++) {
        const char *l = r + start;
        size_t ln = i - start;
        if (r[i] != '\n') continue;
        start = i + 1;
        if (!fuzz_stream_kind(l, ln)) continue;
        if (!fuzz_stream_shape(l, ln)) die("a stream line of no known shape (fr, ev, tm)", r, n);
        stream_lines++;
        fuzz_sample(l, ln);
        if (l[0] != 't' && !watch_was_on && !watch_is_on()) die("a lockstep line while watch is off", r, n);
        if (ln > 7 && memcmp(l, "ev set ", 7) == 0) {
            sets++;
            *ev_set = l;
            *ev_set_n = ln;
        }
    }
    return sets;
}

/* Check one executed line's output (r[0..n), possibly empty: its reply and
 * any stream lines, in wire order) and the table. */
static void check(const char *r, size_t n, int want_reply, int exec_ret)
{
    size_t i, start = 0, last = 0, ev_n = 0;
    unsigned changed = 0, which = 0, lines = 0, ev_sets;
    const char *ev = NULL;
    for (i = 0; i < boids_param_count; i++) {
        const bp_param_t *p = &boids_param_table[i];
        if (*p->value < p->min || *p->value > p->max) die("a parameter left its range", r, n);
        if (*p->value != snap[i]) {
            changed++;
            which = (unsigned)i;
        }
    }
    lines_checked++;
    if (n && r[n - 1] != '\n') die("reply does not end with a newline", r, n);
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)r[i];
        if (c != '\n' && (c < 0x20 || c > 0x7E)) die("reply has a control or non-ASCII byte", r, n);
    }
    ev_sets = check_stream(r, n, &ev, &ev_n);
    /* the reply's own lines: listings, then one ok or err */
    for (i = 0; i < n; i++) {
        if (r[i] != '\n') continue;
        if (!fuzz_stream_kind(r + start, i - start)) {
            if (lines && !listing_line(r + last, start - last - 1))
                die("a reply line before the last is not a param, cmd, dump or obstacle listing line", r, n);
            if (memcmp(r + start, "err ", 4) != 0) fuzz_sample(r + start, i - start); /* an err's reason is free text */
            lines++;
            last = start;
        }
        start = i + 1;
    }
    if (lines == 0) {
        if (want_reply) die("no reply", r, n);
        if (changed) die("parameters changed without a reply", r, n);
        if (ev_sets) die("an ev set without a reply", r, n);
        return;
    }
    n = last + (size_t)((const char *)memchr(r + last, '\n', n - last) - (r + last)) + 1; /* the last reply line */
    if (n - last >= 3 && memcmp(r + last, "ok", 2) == 0 && (r[last + 2] == ' ' || r[last + 2] == '\n')) {
        replies_ok++;
        if (exec_ret == 0) die("exec returned 0 for an ok reply", r, n);
    } else if (n - last >= 5 && memcmp(r + last, "err ", 4) == 0) {
        replies_err++;
        if (exec_ret == 1) die("exec returned 1 for an err reply", r, n);
        if (changed) die("a rejected line changed parameters", r, n);
        if (ev_sets) die("a rejected line announced a change", r, n);
        return;
    } else {
        die("the last reply line is neither ok nor err", r, n);
    }
    if (changed > 1) die("one line changed several parameters", r, n);
    if (ev_sets > 1) die("one line announced several changes", r, n);
    if (ev_sets && !watch_is_on()) die("an ev set while watch is off", r, n);
    if (changed == 1) {
        const bp_param_t *p = &boids_param_table[which];
        char want[200], num[24];
        size_t wn, k, stamp;
        if (!p->tunable) die("a non-tunable parameter changed", r, n);
        if (lines != 1) die("a change answered by more than one line", r, n);
        if (p->type == BP_FIXED) fxdec_format(*p->value, num);
        else fxdec_format_int(*p->value, num);
        wn = (size_t)snprintf(want, sizeof want, "ok %s=%s raw=%ld frame=", p->name, num, (long)*p->value);
        if (wn > n - last || memcmp(want, r + last, wn) != 0) die("the change is not what the reply says", r, n);
        /* then the stamp: the first frame the change takes effect in */
        stamp = k = last + wn;
        if (k >= n - 1 || r[k] < '0' || r[k] > '9') die("a change without its frame stamp", r, n);
        while (k < n - 1 && r[k] >= '0' && r[k] <= '9') k++;
        if (k != n - 1 || r[k] != '\n') die("the change is not what the reply says", r, n);
        if (watch_is_on()) {
            /* announced as `ev set NAME RAW frame=F`, F the reply's stamp */
            wn = (size_t)snprintf(want, sizeof want, "ev set %s %ld frame=%.*s", p->name, (long)*p->value,
                                  (int)(k - stamp), r + stamp);
            if (ev_sets != 1 || ev_n != wn || memcmp(ev, want, wn) != 0)
                die("a change under watch without its ev set line (or with another)", r, n);
            ev_sets_matched++;
        }
        sets_accepted++;
    } else if (ev_sets) {
        /* a set to the value held: announced all the same, and it must say so */
        char want[200];
        size_t wn;
        for (i = 0; i < boids_param_count; i++) {
            const bp_param_t *p = &boids_param_table[i];
            wn = (size_t)snprintf(want, sizeof want, "ev set %s %ld frame=", p->name, (long)*p->value);
            if (ev_n > wn && memcmp(ev, want, wn) == 0) break;
        }
        if (i == boids_param_count) die("an ev set that is not what the table holds", r, n);
    }
}

/* Feed one input byte by byte with a random line ending; check the reply of
 * every line the firmware completes. */
static void feed_input(const unsigned char *b, size_t n)
{
    static const char *const eols[] = {"\n", "\r", "\r\n", "\n\r", ""};
    const char *e = eols[fuzz_below(5)];
    unsigned char all[FUZZ_MAX_INPUT + 8];
    size_t total, i;
    memcpy(all, b, n);
    memcpy(all + n, e, strlen(e));
    total = n + strlen(e);
    cur_in = all;
    cur_len = total;
    for (i = 0; i < total; i++) {
        int echo = 0; /* with echo on, the reply follows the echoed CRLF */
        char c = (char)all[i];
        int eol = (c == '\r' || c == '\n');
        if (eol) {
            echo = echo_is_on();
            take_snapshot();
            drain(); /* the echo of the bytes typed so far, if any */
            out_n = 0;
        }
        serial_cmd_feed(c);
        if (eol) {
            const char *r = out;
            size_t rn;
            drain();
            rn = out_n;
            if (echo) {
                /* echo ends the typed line with CRLF; the reply follows it */
                size_t j;
                for (j = rn; j >= 2; j--) {
                    if (out[j - 2] == '\r' && out[j - 1] == '\n') {
                        r = out + j;
                        rn = out_n - j;
                        break;
                    }
                }
            }
            check(r, rn, 0, -1);
        }
    }
}

/* Give the whole input to serial_cmd_exec, as a host --set would. */
static void exec_input(const unsigned char *b, size_t n)
{
    int ret;
    cur_in = b;
    cur_len = n;
    take_snapshot();
    drain();
    out_n = 0;
    cap_n = 0;
    ret = serial_cmd_exec((const char *)b, n, capture);
    /* the reply goes to `capture`; what watch announces, to the UART: check them together */
    drain();
    memcpy(both, out, out_n);
    memcpy(both + out_n, cap, cap_n);
    check(both, out_n + cap_n, 1, ret);
}

/* Between inputs the threads ran: only stream lines may have come (with
 * echo off: a terminal's echo may interleave with them). */
static void check_idle(void)
{
    const char *ev = NULL;
    size_t i, start = 0, ev_n = 0;
    static const unsigned char none[1];
    cur_in = none;
    cur_len = 0;
    drain();
    if (echo_is_on()) {
        out_n = 0;
        return;
    }
    for (i = 0; i < out_n; i++) {
        if (out[i] != '\n') continue;
        if (!fuzz_stream_kind(out + start, i - start)) die("a line between commands that is not fr, ev or tm", out, out_n);
        start = i + 1;
    }
    if (start != out_n) die("output between commands does not end with a newline", out, out_n);
    if (check_stream(out, out_n, &ev, &ev_n)) die("an ev set between commands", out, out_n);
    out_n = 0;
}

int main(int argc, char **argv)
{
    unsigned long lines, i;
    int fds[2];
    struct timespec t0, t1;
    double secs;
    unsigned char in[FUZZ_MAX_INPUT + 1];
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_serial LINES [SEED]\n");
        return 2;
    }
    lines = strtoul(argv[1], NULL, 10);
    fuzz_seed(argc > 2 ? strtoull(argv[2], NULL, 10) : 1);
    if (boids_param_count > MAX_PARAMS || pipe(fds) != 0) return 2;
    pipe_r = fds[0];
    (void)fcntl(pipe_r, F_SETFL, fcntl(pipe_r, F_GETFL) | O_NONBLOCK);

    if (getenv("FUZZ_SAMPLES") && !fuzz_samples_open(getenv("FUZZ_SAMPLES"))) {
        perror(getenv("FUZZ_SAMPLES"));
        return 2;
    }
    plat_init();
    host_use_virtual_time();
    host_serial_fds(-1, fds[1]);
    boids_app_reset(1, -1);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < lines; i++) {
        size_t n = fuzz_make_input(in);
        if (fuzz_below(4) == 0) exec_input(in, n);
        else feed_input(in, n);
        if (i % 512 == 511) {
            /* let the threads run: frames, the per-second tick and telemetry */
            unsigned k;
            drain(); /* with echo on, what was typed of an unfinished line */
            out_n = 0;
            for (k = 0; k < 40; k++) {
                boids_app_run();
                host_advance_ms(50);
            }
            check_idle();
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (fuzz_samples_close() != 0) return 2;
    secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("fuzz_serial: inputs=%lu lines_checked=%lu ok=%lu err=%lu sets_accepted=%lu stream_lines=%lu ev_sets=%lu crashes=0 seed=%s "
           "time=%.1fs\n",
           lines, lines_checked, replies_ok, replies_err, sets_accepted, stream_lines, ev_sets_matched, argc > 2 ? argv[2] : "1", secs);
    return 0;
}
