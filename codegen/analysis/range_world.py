"""The world beside the boids, for the range analysis (codegen/analysis/ranges.py).

Predators and food do not move by rules in the IR yet (the firmware's
predators_step and food_step in codegen/targets/c/templates/firmware/boids_flock.c.j2):
the predators' hunt and the food's drift are hand-written transfers here,
op for op with those functions, recorded as sites like the rules' own; the
predators' own rules (m.predator_motion: the library's `edges` with their
margins, then `predators.speed` if the spec has one, its neighbours over
the boids visited as a boid rule's: ranges.visit with whole=True) run as IR.
"""
from __future__ import annotations

from math import isqrt

from codegen.analysis.intervals import Iv, t_add, t_d2, t_mul, t_neg, t_sq, t_sub
from codegen.analysis.range_eval import Context, Val, join_envs


def predator_frame(an, pvb: int):
    """Predators: the hunt (hand-written, after predators_step in
    boids_flock.c.j2), then their own rules (m.predator_motion), then the
    move."""
    pr = an.spec.predators
    v = Iv(-pvb, pvb)
    env = {("self", "x"): Val(an.X), ("self", "y"): Val(an.Y),
           ("self", "vx"): Val(v, taint=an.ptaint), ("self", "vy"): Val(v, taint=an.ptaint)}
    if pr.hunt:
        env = hunt_step(an, pr.hunt, env)
    for mr in an.m.predator_motion:
        ctx = an.context(f"pred:{mr.name}", f"predators: {mr.name}", mr.ir, mr.refs)
        er = an.rule_env(mr.ir, mr.refs)
        extra = an.visit(ctx, mr.ir, er, env, whole=True) if mr.ir.neighbours else None
        env, ret = an.run_block(ctx, er, mr.ir.apply, env, extra)
        env = join_envs(env, *ret)
        if env is None:
            return None
    an._move(Context("pred:move", "predators: move", None, {}), env)
    return env


def hunt_step(an, hunt, env):
    """A hand-written transfer of the hunt (not a rule in the IR yet):
    toward the centroid of the boids within range (64-bit sums, the mean
    over `seen`, times the factor) or the nearest one's offset times the
    factor; added to the velocity when a boid is in range."""
    fx, rec = an.fx, an.mach.record
    ctx = Context("pred:hunt", "predators (hunt)", None, {})
    rng, fac = an.param(hunt.range).iv, an.param(hunt.factor).iv
    hx = rec("hx", "sub", "fixed", t_sub(fx, an.X, an.X), False, "boid.x - x", None, ctx)[0]
    hy = rec("hy", "sub", "fixed", t_sub(fx, an.Y, an.Y), False, "boid.y - y", None, ctx)[0]
    rec("d2", "d2", "square", t_d2(fx, hx, hy), False, "hx*hx + hy*hy", None, ctx)
    r2 = rec("r2", "sq", "square", t_sq(fx, rng), False, f"sq({hunt.range})", None, ctx)[0]
    r = isqrt(r2.hi - 1) if r2.hi >= 1 else -1
    hx, hy = hx.meet(-r, r), hy.meet(-r, r)
    if hx is None or hy is None or an.cap == 0:
        return env
    out = dict(env)
    for axis, h in (("x", hx), ("y", hy)):
        if hunt.mode == "centroid":
            rec(f"s{axis}", "sum", "sum_fixed", Iv(min(0, an.cap * h.lo), max(0, an.cap * h.hi)), False,
                f"s{axis} += h{axis} (x{an.cap} boids)", None, ctx)
            h = rec(f"mean{axis}", "sum_mean", "fixed", h, False, f"s{axis} / seen", None, ctx)[0]
        pull, t = rec(f"pull{axis}", "mul", "fixed", t_mul(fx, h, fac), False,
                      f"{'s' + axis + ' / seen' if hunt.mode == 'centroid' else 'boid.' + axis + ' - ' + axis}"
                      f" * {hunt.factor}", None, ctx)
        vv = env[("self", "v" + axis)]
        nv, t = rec(f"v{axis}", "add", "fixed", t_add(fx, vv.iv, pull), t or vv.taint,
                    f"v{axis} + {'mean' if hunt.mode == 'centroid' else 'offset'} * {hunt.factor}", None, ctx)
        out[("self", "v" + axis)] = Val(vv.iv.hull(nv), taint=t or vv.taint)
    return out


def food_step(an):
    """A hand-written transfer of food_step (not a rule in the IR yet):
    x + vx, and where that leaves the screen, vx negated and x - vx."""
    fx, rec = an.fx, an.mach.record
    ctx = Context("food", "food", None, {})
    v = Iv(-an.fs, an.fs)
    for a, p in (("x", an.food_xy[0]), ("y", an.food_xy[1])):
        rec(f"n{a}", "add", "fixed", t_add(fx, p, v), False, f"{a} + v{a}", None, ctx)
        nv = rec(f"neg{a}", "neg", "fixed", t_neg(fx, v), False, f"-v{a}", None, ctx)[0]
        rec(f"b{a}", "add", "fixed", t_add(fx, p, nv), False, f"{a} + (-v{a})", None, ctx)


def food_bounds(an):
    fd = an.spec.food
    if not fd:
        return Iv(0, an.w), Iv(0, an.h)
    if 2 * an.fs <= min(an.w, an.h):
        # From x in [0, w) and |vx| <= s: x + vx is kept when in [0, w), else
        # x - vx is taken, which lies in [0, w) unless 2|vx| > w. So at
        # speeds up to half the screen food stays on the screen.
        return Iv(0, an.w - 1), Iv(0, an.h - 1)
    an.notes.append(f"food: {fd.speed} can exceed half the screen: food positions are assumed within the "
                      f"screen +/- the margin, as boids' (not proven)")
    return an.X, an.Y
