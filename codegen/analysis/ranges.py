"""Range analysis over the rule IR: can any fixed-point value of a spec overflow?

One frame of the spec is evaluated over intervals (intervals.py, one
transfer per named op; range_eval.py runs the blocks), for every boid at
once, with:

  * every parameter over its whole [min, max] (int parameters too);
  * positions within the screen plus a margin on every side (default: one
    screen's larger side): the rules keep boids near the screen but cannot
    promise it. Obstacles and the target lie on the screen (spec/checks.py
    refuses others), obstacle radii up to the larger side;
  * velocities at a frame's start within the spawn's speed parameters (each
    component within the larger maximum), then whatever one frame of the
    rules makes of them, again until the bound holds from one frame to the
    next (a fixed point). If it still grows after MAX_ROUNDS frames the last
    bound stands and the report says so: then the rules do not bound the
    speed at every parameter value (speed_regulation at rate 0 does not);
  * per-boid state (scout bias, perch timers) from its initial value and its
    assignments, to a fixed point; still growing after MAX_ROUNDS frames, it
    is widened to its type's whole range (and the report says so);
  * neighbours: a sum's range is the number of neighbours of its kind (the
    flock capacity less the boid itself; a kind's capacity; 1 for `pick:
    nearest`) times the range of one visit's increment, where a neighbour
    within `r` has |dx|, |dy| < r (d2 < r^2). The pair loop's box test is not
    used, so a zone's terms are bounded by its own range only.

Predators and food run their own rules as IR (m.predator_motion: the
hunt, `edges` with their margins, then `predators.rules`; m.food_motion),
each kind's velocity bound found with the boids' (pvb, fvb); their moves
are hand-written transfers (range_world.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

from codegen.analysis.intervals import I32, Fx, Iv, t_add, t_d2, t_hypot, t_sq, t_sub
from codegen.lang.ir import Accumulate, If, Type
from codegen.analysis.range_eval import Context, Machine, Val, clip, join_envs
from codegen.analysis.range_values import keep_roots, literals, offset_facts, widen
from codegen.analysis.range_world import food_bounds, food_frame, mover_state_bounds, mover_state_grew, predator_frame

MAX_ROUNDS = 3
WIDEN_STEPS = 8  # a state's bound pushed out to the next mark at most this often, then to its type's range
SHARED = ("self", "state")


@dataclass
class Assumptions:
    position_margin_px: float | None = None  # default: max(width, height)
    max_speed_px: float | None = None  # default: the spawn's speed parameters' largest maximum


@dataclass
class Result:
    sites: list
    notes: list
    stats: dict


def analyse(m, ranges: dict | None = None, assume: Assumptions | None = None, library: dict | None = None) -> Result:
    """Sites, notes and assumptions of m's range analysis; `ranges`: parameter ->
    (lo, hi) raw, default each parameter's [min, max]."""
    if library is None:
        from codegen.lang.library import library as lib

        library = lib(m.frac_bits)
    return _Analysis(m, ranges, assume or Assumptions(), library).run()


def _sums_text(ir, name):
    def walk(stmts):
        for s in stmts:
            if isinstance(s, Accumulate) and s.sum == name:
                return s
            if isinstance(s, If):
                found = walk(s.then) or walk(s.orelse)
                if found:
                    return found
        return None
    return walk(ir.each)


class _Analysis:
    def __init__(self, m, ranges, assume: Assumptions, library: dict):
        self.m, self.spec, self.lib = m, m.spec, library
        self.fx = Fx(m.frac_bits, m.spec.fixed_point.magnitude, m.amb_alpha_raw, m.amb_beta_raw)
        self.ranges = {p.name: (p.min_raw, p.max_raw) for p in m.params}
        self.ranges.update(ranges or {})
        self.sites: dict = {}
        self.mach = Machine(self.fx, self.sites)
        one = self.fx.one
        d = self.spec.display
        self.w, self.h = d.width * one, d.height * one
        mpx = assume.position_margin_px if assume.position_margin_px is not None else max(d.width, d.height)
        self.margin = int(mpx * one)
        self.X, self.Y = Iv(-self.margin, self.w + self.margin), Iv(-self.margin, self.h + self.margin)
        self.cap = self.spec.flock.capacity
        pr, ob, fd = self.spec.predators, self.spec.obstacles, self.spec.food
        self.pcap = pr.capacity if pr else 0
        self.ocap = ob.capacity if ob else 0
        self.fcap = fd.capacity if fd else 0
        self.ptok = {name: Val(Iv(*r)).tok for name, r in self.ranges.items()}
        # every rule's environment starts from the parameters: built once (a Val is not changed after it is
        # made), not once per rule and round (quadratic in a spec with hundreds of parameters)
        self.param_env = {("param", n): self.param(n) for n in self.ranges}
        self.notes: list[str] = []
        sp = self.spec.spawn
        if assume.max_speed_px is not None:
            self.v0 = int(assume.max_speed_px * one)
        else:
            self.v0 = max([abs(v) for n in (sp.min_speed, sp.max_speed) for v in self._range(n)] + [0])
        self.pv0 = max([abs(v) for n in (pr.min_speed, pr.max_speed) for v in self._range(n)] + [0]) if pr else 0
        self.fs = max(abs(v) for v in self._range(fd.speed)) if fd else 0
        self.fvb, self.ftaint = self.fs, False  # the food's velocity bound (its rules': run)
        self.food_xy = food_bounds(self)

    # ------------------------------------------------------------ inputs
    def _range(self, name):
        return self.ranges[name]

    def param(self, name: str) -> Val:
        return Val(Iv(*self.ranges[name]), tok=self.ptok[name])

    def world(self, name: str) -> Val:
        section, fld = name.split(".", 1)
        if section == "target":  # run-time state, always on the screen
            return Val({"x": Iv(0, self.w), "y": Iv(0, self.h)}.get(fld, Iv(0, 1)))
        ref = getattr(getattr(self.spec, section), fld)
        if isinstance(ref, str):
            return self.param(ref)
        from pysim.fxdecimal import from_number

        return Val(Iv.point(from_number(ref, self.fx.frac_bits)))

    def rule_env(self, ir, refs: dict) -> dict:
        env = dict(self.param_env)
        for role in ir.roles:
            v = self.param(refs[role.name])
            if role.type == Type.BOOL:  # an int parameter read as != 0
                v = Val(Iv(0 if v.iv.has(0) else 1, 0 if v.iv.lo == v.iv.hi == 0 else 1))
            env[("role", role.name)] = v
        for reads in (ir.reads_each, ir.reads_before, ir.reads_apply):
            for name in reads.world:
                env[("world", name)] = self.world(name)
        for sv in ir.state:
            for name in _world_names(sv.initial):
                env[("world", name)] = self.world(name)
        env[("screen", "width")] = Val(Iv.point(self.w))
        env[("screen", "height")] = Val(Iv.point(self.h))
        env[("index", "index")] = Val(Iv(0, max(self.cap - 1, 0)))
        return env

    def context(self, label, rule, ir, refs) -> Context:
        shadow = frozenset(r.name for r in ir.roles) & {"x", "y", "vx", "vy"}
        return Context(label, rule, ir.path, dict(refs), shadow)

    # ------------------------------------------------------------ a rule's parts
    def run_block(self, ctx, env_rule, stmts, shared, extra=None):
        env = dict(env_rule)
        env.update(shared)
        if extra:
            env.update(extra)
        self.mach.ctx, self.mach.returned = ctx, []
        out = self.mach.block(stmts, env)
        keep = lambda e: {k: v for k, v in e.items() if k[0] in SHARED}  # noqa: E731
        return (keep(out) if out is not None else None), [keep(e) for e in self.mach.returned]

    def others(self, kind):
        """(number of them, their fields) for a neighbour kind."""
        if kind == "boids":
            v = Iv(-self.vb, self.vb)
            return max(self.cap - 1, 0), dict(x=self.X, y=self.Y, vx=v, vy=v), self.vtaint
        if kind == "predators":
            v = Iv(-self.pvb, self.pvb)
            return self.pcap, dict(x=self.X, y=self.Y, vx=v, vy=v), self.ptaint
        if kind == "obstacles":
            return self.ocap, dict(x=Iv(0, self.w), y=Iv(0, self.h), r=Iv(0, max(self.w, self.h))), False
        v = Iv(-self.fvb, self.fvb)
        return self.fcap, dict(x=self.food_xy[0], y=self.food_xy[1], vx=v, vy=v), self.ftaint

    def visit(self, ctx, ir, env_rule, shared, whole: bool = False) -> dict:
        """Run `each` for one neighbour of the rule's kind; -> the apply block's
        sums and count. `whole`: a predator's rule, whose boids are all of them."""
        nb = ir.neighbours
        k, of, otaint = self.others(nb.of)
        if whole and nb.of == "boids":
            k = self.cap
        if nb.pick == "nearest":
            k = min(k, 1)
        pctx = Context(f"nb:{nb.of}", "neighbours" if nb.of == "boids" else f"neighbours ({nb.of})", ir.path, {})
        x, y = shared[("self", "x")], shared[("self", "y")]
        rec = self.mach.record
        dx, _ = rec("dx", "sub", "fixed", t_sub(self.fx, x.iv, of["x"]), x.taint, "x - other.x", nb.pos, pctx)
        dy, _ = rec("dy", "sub", "fixed", t_sub(self.fx, y.iv, of["y"]), y.taint, "y - other.y", nb.pos, pctx)
        d2 = rec("d2", "d2", "square", t_d2(self.fx, dx, dy), False, "dx*dx + dy*dy", nb.pos, pctx)[0]
        lo2 = 0 if nb.coincident else 1
        if nb.within:
            w = env_rule[("role", nb.within)].iv
            r2 = rec(("sq", ctx.names.get(nb.within)), "sq", "square", t_sq(self.fx, w), False,
                     f"sq({ctx.names.get(nb.within, nb.within)})", nb.pos, pctx)[0]
            top = r2.hi - 1  # d2 < r^2
            r = isqrt(top) if top >= 0 else -1
            dx, dy = dx.meet(-r, r), dy.meet(-r, r)
            d2 = d2.meet(lo2, top)
        else:
            d2 = d2.meet(lo2, d2.hi)
        sums, count = {s.name: Iv(0, 0) for s in ir.sums}, Iv(0, 0)
        taints = {s.name: False for s in ir.sums}
        if k > 0 and dx is not None and dy is not None and d2 is not None:
            vdx, vdy = Val(dx), Val(dy)
            dist = t_hypot(self.fx, dx, dy).meet(isqrt(d2.lo), isqrt(d2.hi)) or Iv.point(isqrt(d2.lo))
            if ir.needs_dist:
                dist, _ = rec(("dist", nb.within), "hypot", "fixed", dist, False, "dist = hypot(dx, dy)", nb.pos, pctx)
            env = dict(env_rule)
            env.update(shared)
            env.update({("pair", "dx"): vdx, ("pair", "dy"): vdy,
                        ("pair", "d2"): Val(d2, sq=(vdx.tok, vdy.tok)),
                        ("pair", "dist"): Val(dist, mag=(vdx.tok, vdy.tok, False))})
            env.update({("other", f): Val(iv, taint=otaint and f in ("vx", "vy")) for f, iv in of.items()})
            if nb.of == "boids":  # a neighbour's state (other.<state>): within the state's bound, as the boid's own
                env.update({("other", n): Val(iv, taint=self.staint) for n, iv in self.frame_state.items()})
            env.update(offset_facts(x, env[("other", "x")], dx) | offset_facts(y, env[("other", "y")], dy))
            env.update({("acc", s.name): Val(Iv(0, 0)) for s in ir.sums})
            self.mach.ctx, self.mach.returned = ctx, []
            out = self.mach.block(ir.each, env)
            if out is not None:
                count = Iv(0, k)
                for s in ir.sums:
                    a = out[("acc", s.name)]
                    sums[s.name], taints[s.name] = a.iv, a.taint
        extra = {("count", "count"): Val(count, cnt=ctx.label)}
        for s in ir.sums:
            inc = sums[s.name]
            total = Iv(min(0, k * inc.lo), max(0, k * inc.hi)) if count.hi else Iv(0, 0)
            first = _sums_text(ir, s.name)
            text = (lambda a=first, n=s.name, c=ctx: f"{n} {'+=' if a.op == 'acc_add' else '-='} "
                    f"{_unparse(a.value, c)} (x{k} {nb.of})") if first else s.name
            total, t = self.mach.record(("sum", s.name), "sum", s.type.value, total, taints[s.name], text, s.pos, ctx)
            extra[("sum", s.name)] = Val(total, acc=(ctx.label, inc), taint=t)
        return extra

    # ------------------------------------------------------------ one frame
    def boid_frame(self, vb: int, state: dict):
        """The end of a frame for a boid starting within these bounds (shared env)."""
        v = Iv(-vb, vb)
        self.frame_state = state  # a neighbour's state lies within it (sequential: its new state, the same bound)
        shared = {("self", "x"): Val(self.X), ("self", "y"): Val(self.Y),
                  ("self", "vx"): Val(v, taint=self.vtaint), ("self", "vy"): Val(v, taint=self.vtaint)}
        shared.update({("state", n): Val(iv, taint=self.staint) for n, iv in state.items()})
        returned = []
        env = shared
        for ctx, r, er in self.rules:
            if r.ir.before and env is not None:
                env, ret = self.run_block(ctx, er, r.ir.before, env)
                returned += ret
        extras = {}
        if env is not None:  # the one pair loop: every rule's each over boids, before any apply
            for ctx, r, er in self.rules:
                if r.ir.neighbours and r.ir.neighbours.of == "boids":
                    extras[ctx.label] = self.visit(ctx, r.ir, er, env)
        for ctx, r, er in self.rules:
            if env is None:
                break
            if r.ir.neighbours and r.ir.neighbours.of != "boids":  # at the rule's turn: vx, vy as they stand
                extras[ctx.label] = self.visit(ctx, r.ir, er, env)
            if r.ir.apply:
                env, ret = self.run_block(ctx, er, r.ir.apply, env, extras.get(ctx.label))
                returned += ret
        if env is not None:  # move_by: the velocity just computed, or the frame's first
            self._move(Context("move", "move", None, {}), env if self.spec.move_by == "new_velocity" else shared)
        return join_envs(env, *returned)

    def _move(self, ctx, env):
        for a, b in (("x", "vx"), ("y", "vy")):
            p, v = env[("self", a)], env[("self", b)]
            self.mach.record(a, "add", "fixed", t_add(self.fx, p.iv, v.iv), p.taint or v.taint, f"{a} + {b}", None, ctx)

    # ------------------------------------------------------------ the fixed point
    def frame(self, state):
        end = self.boid_frame(self.vb, state)
        pend = predator_frame(self, self.pvb) if self.spec.predators else None
        fend = food_frame(self, self.fvb) if self.spec.food else None
        return end, pend, fend

    def run(self) -> Result:
        """Find the bounds a frame starts from (velocity: MAX_ROUNDS frames at
        most; state: a fixed point, widened if need be), with the sites of
        those frames thrown away; then one frame from those bounds, whose
        sites are the report (every earlier frame started within them)."""
        m = self.m
        self.rules = []
        for i, r in enumerate(m.rules):
            ctx = self.context(f"r{i}", r.name, r.ir, r.refs)
            self.rules.append((ctx, r, self.rule_env(r.ir, r.refs)))
        report, search = self.sites, {}
        self.mach.sites = search
        state, stypes = self._initial_state()
        self.mstate = mover_state_bounds(self)
        self.vb, self.pvb = self.v0, self.pv0
        self.fvb = self.fs
        self.vtaint = self.ptaint = self.ftaint = self.staint = False
        irs = [r.ir for _, r, _ in self.rules] + [r.ir for r in m.predator_motion + m.food_motion]
        marks = sorted({v for r in self.ranges.values() for v in r} | {0, *I32} | literals(self.mach, irs))
        steps = dict.fromkeys(state, 0)
        rounds = v_rounds = 0
        v_growing = b_growing = False
        while True:
            rounds += 1
            end, pend, fend = self.frame(state)
            (vb, vt), (pvb, pt), (fvb, ft) = _speed(end, self.vb), _speed(pend, self.pvb), _speed(fend, self.fvb)
            v_growing = vb > self.vb or pvb > self.pvb or fvb > self.fvb
            b_growing = vb > self.vb
            if v_growing and rounds < MAX_ROUNDS:
                self.vb, self.vtaint = max(vb, self.vb), self.vtaint or vt
                self.pvb, self.ptaint = max(pvb, self.pvb), self.ptaint or pt
                self.fvb, self.ftaint = max(fvb, self.fvb), self.ftaint or ft
                v_rounds = rounds
            new = {n: clip(iv.hull(end[("state", n)].iv), I32) if end else iv for n, iv in state.items()}
            grew_s = [n for n in state if new[n] != state[n]]
            for n in grew_s:
                if rounds < MAX_ROUNDS:  # wrapped by an overflow elsewhere; later growth is the widening's
                    self.staint = self.staint or end[("state", n)].taint
                else:  # widen the bound that moves: to the next parameter bound, or all the way
                    new[n] = widen(state[n], new[n], marks if steps[n] < WIDEN_STEPS else I32)
                    steps[n] += 1
            state = new
            m_grew = mover_state_grew(self, rounds >= MAX_ROUNDS, marks, WIDEN_STEPS)
            if not grew_s and not m_grew and (not v_growing or rounds >= MAX_ROUNDS):
                break
        self.mach.sites = report
        self.frame(state)
        keep_roots(report, search)
        one = self.fx.one
        if v_growing:
            self.notes.append(f"velocity bounds still grew after {MAX_ROUNDS} frames of rules: the rules do not "
                              f"bound the speed at every parameter value; the bound used is the last one")
        widened = [n for n, iv in state.items() if steps[n] and iv == Iv(*I32)]
        for n in widened:
            self.notes.append(f"state `{n}` still grew after {MAX_ROUNDS} frames and {steps[n]} widenings: "
                              f"widened to the whole {stypes[n]} range")
        stats = dict(xs=(self.X.lo, self.X.hi), ys=(self.Y.lo, self.Y.hi), v=self.vb, v0=self.v0,
                     pv=self.pvb if self.spec.predators else None, state=dict(state), state_types=stypes,
                     rounds=max(v_rounds, 1),
                     frames=rounds, converged=not v_growing, widened=widened, one=one, margin=self.margin,
                     boids_converged=not b_growing and (not v_growing or not self._reads_predator_velocity()),
                     work=len(self.param_env) + self.mach.evaluations)  # intervals made: range_check's budget
        return Result(list(self.sites.values()), self.notes, stats)

    def _reads_predator_velocity(self) -> bool:
        """Does a boid rule read a predator's velocity (then the boids' bound
        rests on the predators')?"""
        return any(r.ir.neighbours is not None and r.ir.neighbours.of == "predators"
                   and {"vx", "vy"} & set(r.ir.reads_each.other_fields) for _, r, _ in self.rules)

    def _initial_state(self):
        state, types = {}, {}
        for ctx, r, er in self.rules:
            for sv in r.ir.state:
                self.mach.ctx = ctx
                iv = clip(self.mach.expr(sv.initial, er).iv, I32)
                state[sv.name] = state[sv.name].hull(iv) if sv.name in state else iv
                types[sv.name] = sv.type.value
        return state, types


def _speed(env, cur: int) -> tuple[int, bool]:
    """The symmetric bound on vx and vy at a frame's end (wrapped values stay in 32 bits)."""
    if env is None:
        return cur, False
    vx, vy = env[("self", "vx")], env[("self", "vy")]
    return min(max(vx.iv.worst, vy.iv.worst), I32[1]), vx.taint or vy.taint


def _unparse(e, ctx) -> str:
    from codegen.analysis.range_text import unparse

    return unparse(e, ctx.names, ctx.shadow)


def _world_names(e):
    from codegen.lang.ir import Op, Ref

    if isinstance(e, Ref):
        return [e.name] if e.kind == "world" else []
    if isinstance(e, Op):
        return [n for a in e.args for n in _world_names(a)]
    return []
