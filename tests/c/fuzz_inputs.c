/* fuzz_inputs.c - what tests/c/fuzz_serial.c feeds the parser: random bytes,
 * random printable text, valid commands (every command word, parameter names,
 * numbers near and past each range, `watch`, the course's forms) and
 * mutations of them (bit flips, truncation, splices, long runs, NULs,
 * backspaces, CR/LF mixes), from the driver's own PRNG. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fxdecimal.h"
#include "params.h"
#include "fuzz_inputs.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    /* xorshift64*: the driver's own stream, independent of the firmware's */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}
uint32_t fuzz_below(uint32_t n) { return n ? rnd() % n : 0; }
void fuzz_seed(uint64_t seed) { rng_state = seed ? seed : 1; }

static const char *const words[] = {"set", "s", "get", "list", "info", "stats", "reset", "boids", "pause",
                                    "resume", "help", "telemetry", "echo", "on", "off", "obstacle", "add",
                                    "remove", "clear", "target", "watch", "dump", "adaptive", "b011", "t01True",
                                    "l012", "r001", "$set", "$"};
static const char *const numbers[] = {"0", "1", "-1", "0.5", ".5", "5.", "+3", "-0", "200", "200.0000001",
                                      "199.99999", "1e3", "0.0002", "0.00021362", "0.000213", "2147483647",
                                      "-2147483648", "2147483648", "65535.99999", "65536", "-65536", "4294967295",
                                      "4294967296", "0.00000000000000000000000000000000000000001", "00000000000001",
                                      "+", "-", ".", "", "1.2.3", "0x10", "1,5", "NaN", "inf", "--1", "+-1", "100"};

static size_t put(unsigned char *b, size_t n, const char *s)
{
    size_t k = strlen(s);
    if (n + k > FUZZ_MAX_INPUT) k = FUZZ_MAX_INPUT - n;
    memcpy(b + n, s, k);
    return n + k;
}

static size_t valid_command(unsigned char *b)
{
    size_t n = 0;
    char num[32], sid[16];
    const bp_param_t *p = &boids_param_table[fuzz_below(boids_param_count)];
    const char *v = numbers[fuzz_below(sizeof numbers / sizeof *numbers)];
    if (fuzz_below(3) == 0) {
        /* a random decimal near the parameter's range */
        int64_t raw = (int64_t)p->min - 1 + (int64_t)fuzz_below((uint32_t)((int64_t)p->max - p->min) + 3u);
        if (raw > INT32_MAX) raw = INT32_MAX;
        if (raw < INT32_MIN) raw = INT32_MIN;
        if (p->type == BP_FIXED) fxdec_format((int32_t)raw, num);
        else fxdec_format_int((int32_t)raw, num);
        v = num;
    }
    switch (fuzz_below(16)) {
    case 0: case 1: case 2: case 3: case 4:
        n = put(b, n, "set ");
        n = put(b, n, p->name);
        n = put(b, n, " ");
        n = put(b, n, v);
        break;
    case 5: case 6:
        snprintf(sid, sizeof sid, "s %u ", (unsigned)(fuzz_below(4) ? p->id : fuzz_below(300)));
        n = put(b, n, sid);
        n = put(b, n, v);
        break;
    case 7: n = put(b, n, "get "); n = put(b, n, p->name); break;
    case 8: n = put(b, n, "list"); break;
    case 9: n = put(b, n, fuzz_below(2) ? "info" : "stats"); break;
    case 10: n = put(b, n, "reset"); if (fuzz_below(2)) { n = put(b, n, " "); n = put(b, n, v); } break;
    case 11: n = put(b, n, "boids "); n = put(b, n, fuzz_below(2) ? v : "50"); break;
    case 12: n = put(b, n, fuzz_below(2) ? "pause" : "resume"); break;
    case 13:
        if (fuzz_below(2)) {
            n = put(b, n, "telemetry ");
            n = put(b, n, fuzz_below(2) ? "on" : "off");
        } else { /* the lockstep stream: `watch on [EVERY]`, `watch off`, `watch EVERY` */
            static const char *const w[] = {"watch on", "watch off", "watch on 1", "watch 3", "watch", "watch off"};
            n = put(b, n, w[fuzz_below(sizeof w / sizeof *w)]);
        }
        break;
    case 14: n = put(b, n, "echo "); n = put(b, n, fuzz_below(4) ? "off" : "on"); break;
    default: {
        unsigned k, w = 1 + fuzz_below(5);
        for (k = 0; k < w; k++) {
            if (k) n = put(b, n, fuzz_below(4) ? " " : "\t");
            n = put(b, n, fuzz_below(2) ? words[fuzz_below(sizeof words / sizeof *words)] : v);
        }
    }
    }
    return n;
}

static size_t mutate(unsigned char *b, size_t n)
{
    unsigned k, rounds = 1 + fuzz_below(4);
    static const unsigned char specials[] = {0, '\r', '\n', '\b', 0x7F, 0x03, 0x15, '\t', ' ', 0x80, 0xFF, '.', '-'};
    for (k = 0; k < rounds; k++) {
        size_t at = fuzz_below((uint32_t)n + 1);
        switch (fuzz_below(9)) {
        case 0: /* bit flip */
            if (n) b[fuzz_below((uint32_t)n)] ^= (unsigned char)(1u << fuzz_below(8));
            break;
        case 1: /* random byte */
            if (n) b[fuzz_below((uint32_t)n)] = (unsigned char)fuzz_below(256);
            break;
        case 2: /* truncate */
            n = at;
            break;
        case 3: { /* insert a special byte */
            if (n < FUZZ_MAX_INPUT) {
                memmove(b + at + 1, b + at, n - at);
                b[at] = specials[fuzz_below(sizeof specials)];
                n++;
            }
            break;
        }
        case 4: { /* a long run */
            size_t run = 1 + fuzz_below(150);
            unsigned char c = fuzz_below(2) ? (unsigned char)'9' : specials[fuzz_below(sizeof specials)];
            if (n + run > FUZZ_MAX_INPUT) run = FUZZ_MAX_INPUT - n;
            memmove(b + at + run, b + at, n - at);
            memset(b + at, c, run);
            n += run;
            break;
        }
        case 5: { /* splice in another command */
            unsigned char o[FUZZ_MAX_INPUT];
            size_t on = valid_command(o), from = fuzz_below((uint32_t)on + 1);
            size_t take = on - from;
            if (at + take > FUZZ_MAX_INPUT) take = FUZZ_MAX_INPUT - at;
            memcpy(b + at, o + from, take);
            n = at + take;
            break;
        }
        case 6: /* delete a byte */
            if (n && at < n) {
                memmove(b + at, b + at + 1, n - at - 1);
                n--;
            }
            break;
        case 7: { /* a CR/LF mix in the middle */
            static const char *const eols[] = {"\r", "\n", "\r\n", "\n\r", "\r\r\n"};
            const char *e = eols[fuzz_below(5)];
            size_t el = strlen(e);
            if (n + el <= FUZZ_MAX_INPUT) {
                memmove(b + at + el, b + at, n - at);
                memcpy(b + at, e, el);
                n += el;
            }
            break;
        }
        default: /* duplicate the tail */
            if (n && n * 2 <= FUZZ_MAX_INPUT) {
                memcpy(b + n, b + at, n - at);
                n += n - at;
            }
        }
    }
    return n;
}

size_t fuzz_make_input(unsigned char *b)
{
    size_t n, i;
    switch (fuzz_below(8)) {
    case 0: /* pure random bytes */
        n = fuzz_below(FUZZ_MAX_INPUT);
        for (i = 0; i < n; i++) b[i] = (unsigned char)fuzz_below(256);
        return n;
    case 1: /* random printable text */
        n = fuzz_below(100);
        for (i = 0; i < n; i++) b[i] = (unsigned char)(0x20 + fuzz_below(95));
        return n;
    case 2: case 3:
        return valid_command(b);
    default:
        return mutate(b, valid_command(b));
    }
}
