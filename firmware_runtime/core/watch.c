/* watch.c - see watch.h. Lines go straight to the UART: they are in wire
 * order with the replies because everything runs in one protothread loop. */
#include "boids_app.h"
#include "boids_flock.h"
#include "cmd_reply.h"
#include "platform.h"
#include "state_io.h"
#include "watch.h"

extern flock_t boids_flock;

static uint8_t on;
static uint32_t every = 1;

static void uart(const char *s, size_t n) { plat_serial_write(s, n); }

static int same(const char *a, const char *b)
{
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

int watch_is_on(void) { return on; }
uint32_t watch_every(void) { return every; }

void watch_set(int want, uint32_t ev)
{
    on = (uint8_t)(want != 0);
    if (ev > 0) every = ev;
}

void watch_frame_now(uint32_t frame)
{
    reply_t r;
    if (!on) return;
    r_init(&r, uart);
    r_str(&r, "fr ");
    r_uint(&r, frame);
    r_ch(&r, ' ');
    r_hex32(&r, state_digest(&boids_flock, frame, boids_app_rng_state()));
    r_end(&r);
}

void watch_frame(uint32_t frame)
{
    if (on && frame % every == 0) watch_frame_now(frame);
}

static void ev_begin(reply_t *r, const char *what)
{
    r_init(r, uart);
    r_str(r, "ev ");
    r_str(r, what);
}

void watch_ev_set(const bp_param_t *p)
{
    reply_t r;
    if (!on) return;
    ev_begin(&r, "set ");
    r_str(&r, p->name);
    r_ch(&r, ' ');
    r_int(&r, *p->value);
    r_stamp(&r);
    r_end(&r);
}

void watch_ev_boids(int32_t n, const char *cause)
{
    reply_t r;
    if (!on) return;
    ev_begin(&r, "boids ");
    r_int(&r, n);
    r_stamp(&r);
    r_str(&r, " cause=");
    r_str(&r, cause);
    r_end(&r);
}

void watch_ev_reset(uint32_t seed, int32_t n)
{
    reply_t r;
    if (!on) return;
    ev_begin(&r, "reset ");
    r_uint(&r, seed);
    r_ch(&r, ' ');
    r_int(&r, n);
    r_str(&r, " frame=0");
    r_end(&r);
}

void watch_ev_state(const char *kind)
{
    unsigned k;
    if (!on) return;
    for (k = 0; k < BOIDS_STATE_KINDS; k++) {
        const state_kind_t *sk = &boids_state_kinds[k];
        reply_t r;
        int32_t i, n;
        if (!same(sk->kind, kind)) continue;
        n = state_count(&boids_flock, sk);
        ev_begin(&r, "state ");
        r_str(&r, kind);
        r_stamp(&r);
        r_str(&r, " n=");
        r_int(&r, n);
        for (i = 0; i < n; i++) {
            uint32_t j;
            for (j = 0; j < sk->n_fields; j++) {
                r_ch(&r, j ? ',' : ' ');
                r_int(&r, state_field(&boids_flock, sk, i, j));
            }
        }
        r_end(&r);
    }
}

void watch_ev_pause(int paused)
{
    reply_t r;
    if (!on) return;
    ev_begin(&r, paused ? "pause" : "resume");
    r_stamp(&r);
    r_end(&r);
}
