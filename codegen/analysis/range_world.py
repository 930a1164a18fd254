"""The world beside the boids, for the range analysis (codegen/analysis/ranges.py).

The predators' and the food's own rules (m.predator_motion: the hunt, the
library's `edges` with their margins, then `predators.rules`; m.food_motion)
run as IR, their neighbours visited as a boid rule's (ranges.visit with
whole=True: every boid, not capacity - 1); the moves (the predators' x + vx,
the food's drift and bounce in the firmware's food_step) are hand-written
transfers here, op for op with the C, recorded as sites like the rules' own.
"""
from __future__ import annotations

from codegen.analysis.intervals import Iv, t_add, t_neg
from codegen.analysis.range_eval import Context, Val, join_envs


def mover_env(an, xy: tuple, vb: int, taint: bool) -> dict:
    v = Iv(-vb, vb)
    return {("self", "x"): Val(xy[0]), ("self", "y"): Val(xy[1]),
            ("self", "vx"): Val(v, taint=taint), ("self", "vy"): Val(v, taint=taint)}


def mover_rules(an, kind: str, motion, env):
    """A mover's rules in order from `env`; -> its env at their end (None:
    no path reaches it)."""
    for mr in motion:
        ctx = an.context(f"{kind}:{mr.name}", f"{kind}: {mr.name}", mr.ir, mr.refs)
        er = an.rule_env(mr.ir, mr.refs)
        extra = an.visit(ctx, mr.ir, er, env, whole=True) if mr.ir.neighbours else None
        env, ret = an.run_block(ctx, er, mr.ir.apply, env, extra)
        env = join_envs(env, *ret)
        if env is None:
            return None
    return env


def predator_frame(an, pvb: int):
    """Predators: their own rules (m.predator_motion), then the move."""
    env = mover_rules(an, "predators", an.m.predator_motion, mover_env(an, (an.X, an.Y), pvb, an.ptaint))
    if env is not None:
        an._move(Context("pred:move", "predators: move", None, {}), env)
    return env


def food_frame(an, fvb: int):
    """Food: its own rules (m.food_motion), then the drift and bounce."""
    env = mover_env(an, an.food_xy, fvb, an.ftaint)
    env = mover_rules(an, "food", an.m.food_motion, env) if an.m.food_motion else env
    if env is not None:
        food_step(an, env)
    return env


def food_step(an, env):
    """A hand-written transfer of food_step's move: x + vx, and where that
    leaves the screen, vx negated and x - vx."""
    fx, rec = an.fx, an.mach.record
    ctx = Context("food", "food", None, {})
    for a, p in (("x", an.food_xy[0]), ("y", an.food_xy[1])):
        v = env[("self", "v" + a)].iv
        rec(f"n{a}", "add", "fixed", t_add(fx, p, v), False, f"{a} + v{a}", None, ctx)
        nv = rec(f"neg{a}", "neg", "fixed", t_neg(fx, v), False, f"-v{a}", None, ctx)[0]
        rec(f"b{a}", "add", "fixed", t_add(fx, p, nv), False, f"{a} + (-v{a})", None, ctx)


def food_bounds(an):
    fd = an.spec.food
    if not fd:
        return Iv(0, an.w), Iv(0, an.h)
    if an.m.food_motion:  # its rules bound its speed, found with the frame's: positions as the boids'
        return an.X, an.Y
    if 2 * an.fs <= min(an.w, an.h):
        # From x in [0, w) and |vx| <= s: x + vx is kept when in [0, w), else
        # x - vx is taken, which lies in [0, w) unless 2|vx| > w. So at
        # speeds up to half the screen food stays on the screen.
        return Iv(0, an.w - 1), Iv(0, an.h - 1)
    an.notes.append(f"food: {fd.speed} can exceed half the screen: food positions are assumed within the "
                      f"screen +/- the margin, as boids' (not proven)")
    return an.X, an.Y
