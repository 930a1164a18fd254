"""The world beside the boids, for the range analysis (codegen/analysis/ranges.py).

The predators' and the food's own rules (m.predator_motion: the hunt, the
library's `edges` with their margins, then `predators.rules`; m.food_motion)
run as IR, their neighbours visited as a boid rule's (ranges.visit with
whole=True: every boid, not capacity - 1); the moves (the predators' x + vx,
the food's drift and bounce in the firmware's food_step) are hand-written
transfers here, op for op with the C, recorded as sites like the rules' own.
"""
from __future__ import annotations

from codegen.analysis.intervals import I32, Iv, t_add, t_neg
from codegen.analysis.range_eval import Context, Val, clip, join_envs
from codegen.analysis.range_values import widen


def mover_env(an, kind: str, xy: tuple, vb: int, taint: bool) -> dict:
    v = Iv(-vb, vb)
    env = {("self", "x"): Val(xy[0]), ("self", "y"): Val(xy[1]),
           ("self", "vx"): Val(v, taint=taint), ("self", "vy"): Val(v, taint=taint)}
    env.update({("state", n): Val(iv) for n, iv in an.mstate[kind].items()})
    return env


def mover_state_bounds(an) -> dict:
    """kind -> {state: its initial values' bound}: where a mover's state
    starts; mover_rules widens it by what the rules assign (a fixed point
    found with the velocities': mover_state_grew)."""
    out = {}
    for kind in ("predators", "food"):
        out[kind] = st = {}
        for mr in _motion(an, kind):
            er = an.rule_env(mr.ir, mr.refs)
            an.mach.ctx = an.context(f"{kind}:{mr.name}", f"{kind}: {mr.name}", mr.ir, mr.refs)
            for sv in mr.ir.state:
                iv = clip(an.mach.expr(sv.initial, er).iv, I32)
                st[sv.name] = st[sv.name].hull(iv) if sv.name in st else iv
    an.mend, an.msteps = {}, {}
    return out


def mover_state_grew(an, late: bool, marks, steps: int) -> bool:
    """Take the frame's state values into the bounds; did one grow? Late
    (after the rounds the velocities get), a growing bound is pushed to the
    next mark (a parameter's bound, a literal), after `steps` pushes to the
    whole 32-bit range, as a boid's state is (ranges.Analysis.run)."""
    grew = False
    for (kind, n), end in an.mend.items():
        old = an.mstate[kind][n]
        new = clip(old.hull(end), I32)
        if new == old:
            continue
        grew = True
        if late:
            k = an.msteps.get((kind, n), 0)
            new = widen(old, new, marks if k < steps else I32)
            an.msteps[(kind, n)] = k + 1
            if new == Iv(*I32):
                an.notes.append(f"{kind}' state `{n}` still grew after its widenings: the whole 32-bit range")
        an.mstate[kind][n] = new
    an.mend = {}
    return grew


def _motion(an, kind: str):
    return an.m.predator_motion if kind == "predators" else an.m.food_motion


def mover_rules(an, kind: str, motion, env):
    """A mover's rules in order from `env`; -> its env at their end (None:
    no path reaches it), its state's bounds grown by what they assign."""
    env = _rules(an, kind, motion, env)
    if env is not None:
        for n in an.mstate[kind]:
            end = env[("state", n)].iv
            an.mend[(kind, n)] = an.mend[(kind, n)].hull(end) if (kind, n) in an.mend else end
    return env


def _rules(an, kind: str, motion, env):
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
    env = mover_rules(an, "predators", an.m.predator_motion, mover_env(an, "predators", (an.X, an.Y), pvb, an.ptaint))
    if env is not None:
        an._move(Context("pred:move", "predators: move", None, {}), env)
    return env


def food_frame(an, fvb: int):
    """Food: its own rules (m.food_motion), then the drift and bounce."""
    env = mover_env(an, "food", an.food_xy, fvb, an.ftaint)
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
