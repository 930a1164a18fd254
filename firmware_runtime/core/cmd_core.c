/* cmd_core.c - the handlers of the simulation's commands (the generated
 * boids_cmd_table names them; codegen/model/serial_commands.py defines them once).
 * Parse, check, then change: a rejected command changes nothing. A change
 * is stamped in its reply (` frame=F`) and, under `watch`, announced. */
#include "boids_app.h"
#include "boids_config.h"
#include "boids_flock.h"
#include "cmd_table.h"
#include "fxdecimal.h"
#include "params.h"
#include "state_io.h"
#include "watch.h"

extern flock_t boids_flock;

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
    r_ch(r, '=');
    r_fx(r, *p->value, p->type == BP_INT);
    r_str(r, " raw=");
    r_int(r, *p->value);
}

static int unknown_param(reply_t *r, tok_t t)
{
    r_str(r, "err unknown parameter '");
    r_mem(r, t.s, t.n);
    r_str(r, "' (try: list)");
    r_end(r);
    return 0;
}

/* Parse, range-check, then store: nothing is written unless all succeed. */
static int do_set(reply_t *r, const bp_param_t *p, tok_t v)
{
    int32_t raw = 0;
    fxdec_status st;
    if (!p->tunable) return r_fail(r, p->name, ": not tunable at run time");
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
    watch_ev_set(p);
    r_str(r, "ok ");
    r_value(r, p);
    r_stamp(r);
    r_end(r);
    return 1;
}

int cmd_set(const cmd_call_t *c)
{
    const bp_param_t *p = find_name(c->w[1]);
    if (!p) return unknown_param(c->r, c->w[1]);
    return do_set(c->r, p, c->w[2]);
}

int cmd_s(const cmd_call_t *c)
{
    int32_t id;
    const bp_param_t *p;
    if (fxdec_parse_int(c->w[1].s, c->w[1].n, &id) != FXDEC_OK) return r_fail(c->r, "s: ID must be a whole number", 0);
    p = find_id(id);
    if (!p) return r_fail(c->r, "s: no parameter has that id", 0);
    return do_set(c->r, p, c->w[2]);
}

int cmd_get(const cmd_call_t *c)
{
    const bp_param_t *p = find_name(c->w[1]);
    if (!p) return unknown_param(c->r, c->w[1]);
    r_str(c->r, "ok ");
    r_value(c->r, p);
    r_end(c->r);
    return 1;
}

int cmd_list(const cmd_call_t *c)
{
    reply_t *r = c->r;
    unsigned i;
    for (i = 0; i < boids_param_count; i++) {
        const bp_param_t *p = &boids_param_table[i];
        const int is_int = p->type == BP_INT;
        r_str(r, "param ");
        r_value(r, p);
        r_str(r, " min=");
        r_fx(r, p->min, is_int);
        r_str(r, " max=");
        r_fx(r, p->max, is_int);
        r_str(r, " default=");
        r_fx(r, p->def, is_int);
        r_str(r, " id=");
        r_int(r, p->id);
        r_str(r, p->tunable ? " tunable=1" : " tunable=0");
        r_str(r, is_int ? " type=int" : " type=fixed");
        r_str(r, " unit=");
        r_str(r, p->unit[0] ? p->unit : "-");
        r_end(r);
    }
    r_str(r, "ok list ");
    r_uint(r, boids_param_count);
    r_end(r);
    return 1;
}

int cmd_info(const cmd_call_t *c)
{
    reply_t *r = c->r;
    r_str(r, "ok info spec=" BOIDS_SPEC_NAME " hash=" BOIDS_SPEC_HASH " format=" BOIDS_FORMAT
             " fw=" BOIDS_TOOL_VERSION " capacity=");
    r_int(r, BOIDS_CAPACITY);
    r_str(r, " update=" BOIDS_UPDATE_ORDER " fps=");
    r_int(r, BOIDS_FRAME_RATE);
    r_end(r);
    return 1;
}

void cmd_stats_fields(reply_t *r)
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

int cmd_stats(const cmd_call_t *c)
{
    r_str(c->r, "ok stats ");
    cmd_stats_fields(c->r);
    r_end(c->r);
    return 1;
}

int cmd_reset(const cmd_call_t *c)
{
    /* Keeps the flock size last asked for (`boids N`), restarts the rest. */
    uint32_t seed = boids_app_seed();
    boids_stats_t s;
    if (c->k == 2 && !tok_u32(c->w[1], &seed))
        return r_fail(c->r, "reset: SEED must be a whole number in [0, 4294967295]", 0);
    boids_app_stats(&s);
    boids_app_reset(seed, s.target);
    r_str(c->r, "ok reset seed=");
    r_uint(c->r, seed);
    r_str(c->r, " boids=");
    r_int(c->r, s.target);
    r_str(c->r, " frame=0");
    r_end(c->r);
    return 1;
}

/* N sets the size (outside [0, capacity] is refused); +N and -N add and
 * remove (clamped to [0, capacity]: a button pressed once too often is fine). */
int cmd_boids(const cmd_call_t *c)
{
    const tok_t t = c->w[1];
    const int rel = t.n > 1 && (t.s[0] == '+' || t.s[0] == '-');
    int32_t n;
    if (fxdec_parse_int(t.s, t.n, &n) != FXDEC_OK) return r_fail(c->r, "boids: N must be a whole number", 0);
    if (rel) {
        boids_stats_t s;
        boids_app_stats(&s);
        n = (n < -BOIDS_CAPACITY) ? 0 : s.boids + n;
        n = n < 0 ? 0 : (n > BOIDS_CAPACITY ? BOIDS_CAPACITY : n);
    } else if (n < 0 || n > BOIDS_CAPACITY) {
        r_str(c->r, "err boids: ");
        r_int(c->r, n);
        r_str(c->r, " outside [0, ");
        r_int(c->r, BOIDS_CAPACITY);
        r_ch(c->r, ']');
        r_end(c->r);
        return 0;
    }
    r_str(c->r, "ok boids=");
    r_int(c->r, boids_app_set_count(n));
    r_stamp(c->r);
    r_end(c->r);
    return 1;
}

static int pause_to(const cmd_call_t *c, int pause)
{
    boids_app_pause(pause);
    r_str(c->r, pause ? "ok pause" : "ok resume");
    r_stamp(c->r);
    r_end(c->r);
    return 1;
}

int cmd_pause(const cmd_call_t *c) { return pause_to(c, 1); }
int cmd_resume(const cmd_call_t *c) { return pause_to(c, 0); }

/* on|off word -> 1/0, or -1 */
int cmd_on_off(tok_t t)
{
    if (tok_is(t, "on") || tok_is(t, "1")) return 1;
    if (tok_is(t, "off") || tok_is(t, "0")) return 0;
    return -1;
}

int cmd_adaptive(const cmd_call_t *c)
{
    int v = boids_app_adaptive_on();
    if (c->k == 2 && (v = cmd_on_off(c->w[1])) < 0) return r_fail(c->r, "adaptive: say on or off", 0);
    if (c->k == 2) boids_app_adaptive(v);
    r_str(c->r, v ? "ok adaptive on" : "ok adaptive off");
    r_end(c->r);
    return 1;
}

/* watch [on|off] [EVERY]: `watch 5` is `watch on 5`. */
int cmd_watch(const cmd_call_t *c)
{
    int v = watch_is_on();
    uint32_t every = 0;
    size_t i;
    for (i = 1; i < c->k; i++) {
        const int w = cmd_on_off(c->w[i]);
        if (w >= 0 && i == 1) v = w;
        else if (tok_u32(c->w[i], &every) && every >= 1 && every <= 1000u) v = 1;
        else return r_fail(c->r, "watch: usage: watch [on|off] [EVERY] (EVERY in 1..1000 frames)", 0);
    }
    watch_set(v, every);
    r_str(c->r, v ? "ok watch on every=" : "ok watch off every=");
    r_uint(c->r, watch_every());
    r_str(c->r, " frame=");
    r_uint(c->r, boids_app_frame());
    r_end(c->r);
    if (v) watch_frame_now(boids_app_frame()); /* where the board is now */
    return 1;
}

/* The state now (frame F's update and every event since), as trace rows.
 * Only the current frame is held: a ring of past frames costs 16 bytes per
 * boid per frame of the PIC32's 32 KB; the mirror pauses the board instead. */
int cmd_dump(const cmd_call_t *c)
{
    const uint32_t frame = boids_app_frame();
    char row[STATE_ROW_MAX];
    uint32_t want, rows = 0;
    unsigned k;
    if (c->k == 2 && (!tok_u32(c->w[1], &want) || want != frame)) {
        r_str(c->r, "err dump: the board holds only its current frame, ");
        r_uint(c->r, frame);
        r_end(c->r);
        return 0;
    }
    for (k = 0; k < BOIDS_STATE_KINDS; k++) {
        const state_kind_t *sk = &boids_state_kinds[k];
        const int32_t n = state_count(&boids_flock, sk);
        int32_t i;
        for (i = 0; i < n; i++, rows++) {
            state_row(row, &boids_flock, sk, frame, i);
            r_str(c->r, row);
            r_end(c->r);
        }
    }
    r_uint(c->r, frame);
    r_str(c->r, ",0,rng,");
    r_uint(c->r, boids_app_rng_state());
    r_end(c->r);
    r_str(c->r, "ok dump frame=");
    r_uint(c->r, frame);
    r_str(c->r, " rows=");
    r_uint(c->r, rows + 1u);
    r_end(c->r);
    return 1;
}
