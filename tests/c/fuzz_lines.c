/* fuzz_lines.c - the shapes of the lines a board may send at any time
 * (firmware_runtime/core/watch.h's lockstep stream and the `tm` telemetry line),
 * for tests/c/fuzz_serial.c. A client routes these apart from the replies
 * (pysim/board/serial_client.py), so they may come before, between or after a
 * command's reply lines; each must match one shape exactly.
 *
 * A shape is literal text with these fields:
 *   %u  unsigned decimal        %i  signed decimal        %x  8 lower-case hex digits
 *   %p  a parameter's name      %k  a state kind's name   %c  an `ev boids` cause
 *   %V  the rest: ` V,V,..` groups, as many as the `n=` before it says
 *   %K  the rest: ` key=value` words, at least one
 * (%V and %K end a shape). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "boids_config.h"
#include "boids_flock.h"
#include "params.h"
#include "fuzz_lines.h"

/* watch.h's event lines, word for word, and serial_cmd.c's telemetry line */
static const char *const shapes[] = {
    "fr %u %x",
    "ev set %p %i frame=%u",
    "ev boids %i frame=%u cause=%c",
    "ev reset %u %i frame=0",
    "ev state %k frame=%u n=%u%V",
    "ev pause frame=%u",
    "ev resume frame=%u",
    "tm%K",
};
static const char *const causes[] = {"command", "spawn", "adaptive"};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* digits at s[0..n): how many (0 if none), the value in *v (saturating) */
static size_t digits(const char *s, size_t n, uint64_t *v)
{
    size_t k = 0;
    *v = 0;
    while (k < n && is_digit(s[k])) {
        if (*v < UINT64_MAX / 10) *v = *v * 10 + (uint64_t)(s[k] - '0');
        k++;
    }
    return k;
}

static const char *param_name(size_t i) { return i < boids_param_count ? boids_param_table[i].name : 0; }
static const char *kind_name(size_t i) { return i < BOIDS_STATE_KINDS ? boids_state_kinds[i].kind : 0; }
static const char *cause_name(size_t i) { return i < sizeof causes / sizeof *causes ? causes[i] : 0; }

/* the length of the longest name(i) that s[0..n) starts with, ending at a space or the end */
static size_t name_of(const char *s, size_t n, const char *(*name)(size_t))
{
    size_t i, best = 0;
    const char *nm;
    for (i = 0; (nm = name(i)) != 0; i++) {
        size_t k = strlen(nm);
        if (k <= n && k > best && memcmp(s, nm, k) == 0 && (k == n || s[k] == ' ')) best = k;
    }
    return best;
}

/* ` V,V,..` groups to the end: 1 when there are exactly `want` of them, else 0 */
static int values_rest(const char *s, size_t n, uint64_t want)
{
    size_t k = 0;
    uint64_t groups = 0, v;
    while (k < n) {
        if (s[k++] != ' ') return 0;
        for (;;) {
            size_t d;
            if (k < n && s[k] == '-') k++;
            d = digits(s + k, n - k, &v);
            if (!d) return 0;
            k += d;
            if (k < n && s[k] == ',') k++;
            else break;
        }
        groups++;
    }
    return groups == want;
}

/* ` key=value` words to the end (at least one): 1 or 0 */
static int kv_rest(const char *s, size_t n)
{
    size_t k = 0, words = 0;
    while (k < n) {
        size_t key = 0, val = 0;
        if (s[k++] != ' ') return 0;
        while (k < n && ((s[k] >= 'a' && s[k] <= 'z') || s[k] == '_')) k++, key++;
        if (!key || k >= n || s[k++] != '=') return 0;
        while (k < n && s[k] != ' ') k++, val++;
        if (!val) return 0;
        words++;
    }
    return words > 0;
}

/* Does line[0..n) match `shape`? */
static int matches(const char *shape, const char *s, size_t n)
{
    size_t k = 0;
    uint64_t last_count = 0, v;
    for (; *shape; shape++) {
        size_t took = 0;
        if (*shape != '%') {
            if (k >= n || s[k] != *shape) return 0;
            k++;
            continue;
        }
        switch (*++shape) {
        case 'i':
            if (k < n && s[k] == '-') k++;
            /* fall through */
        case 'u':
            took = digits(s + k, n - k, &v);
            if (took > 1 && s[k] == '0') return 0; /* no leading zeros */
            last_count = v;
            break;
        case 'x':
            for (took = 0; took < 8 && k + took < n; took++) {
                char c = s[k + took];
                if (!is_digit(c) && !(c >= 'a' && c <= 'f')) break;
            }
            if (took != 8) return 0;
            break;
        case 'p': took = name_of(s + k, n - k, param_name); break;
        case 'k': took = name_of(s + k, n - k, kind_name); break;
        case 'c': took = name_of(s + k, n - k, cause_name); break;
        case 'V': /* the rest of the line */
            return shape[1] == '\0' && values_rest(s + k, n - k, last_count);
        case 'K':
            return shape[1] == '\0' && kv_rest(s + k, n - k);
        default:
            return 0;
        }
        if (!took) return 0;
        k += took;
    }
    return k == n;
}

int fuzz_stream_kind(const char *s, size_t n)
{
    return (n >= 3 && (memcmp(s, "fr ", 3) == 0 || memcmp(s, "ev ", 3) == 0 || memcmp(s, "tm ", 3) == 0));
}

int fuzz_stream_shape(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < sizeof shapes / sizeof *shapes; i++)
        if (matches(shapes[i], s, n)) return 1;
    return 0;
}

/* ---- samples for the client's own parsers (FUZZ_SAMPLES=FILE) ----
 * Up to SAMPLES_PER_KIND of each kind of line checked here (`ok stats`,
 * `ev set`, `param`, ...: the first word, and the second after `ok`/`ev`),
 * written to FILE: tests/test_fuzz_serial.py reads each with the Python
 * client's parsers (pysim/board/replies.py, pysim/board/lockstep.py), so the shapes
 * this driver accepts and the ones the client accepts cannot drift apart. */
#define SAMPLES_PER_KIND 20
#define SAMPLE_KINDS 128
static FILE *samples;

int fuzz_samples_open(const char *path) { return (samples = fopen(path, "w")) != NULL; }
int fuzz_samples_close(void) { return samples ? fclose(samples) : 0; }

static char sample_kind[SAMPLE_KINDS][24];
static unsigned sample_count[SAMPLE_KINDS], sample_kinds;

void fuzz_sample(const char *l, size_t n)
{
    char kind[24];
    size_t k = 0, words = 0;
    unsigned i;
    if (!samples) return;
    /* the kind: up to '=' or the end of the second word (ok/ev) or the first */
    while (k < n && k < sizeof kind - 1 && l[k] != '=') {
        if (l[k] == ' ' && (++words == 2 || (words == 1 && memcmp(l, "ok ", 3) != 0 && memcmp(l, "ev ", 3) != 0)))
            break;
        kind[k] = l[k];
        k++;
    }
    kind[k] = '\0';
    if (l[0] >= '0' && l[0] <= '9') strcpy(kind, "(dump row)");
    for (i = 0; i < sample_kinds && strcmp(sample_kind[i], kind) != 0; i++) {
    }
    if (i == sample_kinds) {
        if (sample_kinds == SAMPLE_KINDS) return;
        strcpy(sample_kind[sample_kinds++], kind);
    }
    if (sample_count[i]++ < SAMPLES_PER_KIND) fprintf(samples, "%.*s\n", (int)n, l);
}
