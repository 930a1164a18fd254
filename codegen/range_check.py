"""Range analysis: can any fixed-point value of a spec overflow?

It runs the spec's generated Python model (rendered in memory, so it always
matches the spec) over pysim/interval_arith.py: the same expressions the
templates emit, evaluated over intervals. Inputs:

  * every parameter over its whole [min, max] (int parameters too);
  * positions within the screen plus a margin on every side (default: one
    screen's larger side). The edges rule keeps boids near the screen but
    cannot promise it (a turn factor of 0 lets them leave for good; the
    report says so when a spec allows it);
  * velocities: the spec's speed parameters' maxima, then whatever one frame
    of the rules can make of them, repeated until the bound holds from one
    frame to the next (a fixed point); per-boid state (scout bias, perch
    timer) the same way, from 0;
  * up to `capacity` boids (each sees capacity - 1 others), and the
    predators', obstacles' and food's capacities; obstacles and the target
    within the same bounds as boids, obstacle radii up to the larger side.

Every operation's worst case is reported with its headroom. 64-bit
operations (squared distances `fx_d2`, `fx_sq64`, and the neighbour sums
`fx_acc`) are reported as widened. A 32-bit result that can leave the int32
range, and reach the frame's result, is an error naming the rule, the
expression, the parameters whose ranges cause it and a safe range for them.
"""
from __future__ import annotations

import linecache
import math
import sys
import types
from dataclasses import dataclass, field
from types import SimpleNamespace

from pysim.interval_arith import IV, IntervalArith, Mask, SiteRecord, explore, iv

from .model import GenModel

_MAX_ROUNDS = 3  # a frame from the speed parameters, then check the bound holds


@dataclass
class Assumptions:
    position_margin_px: float | None = None  # default: max(width, height)
    max_speed_px: float | None = None  # default: the largest maximum among the speed parameters


@dataclass
class RangeReport:
    model: GenModel
    sites: list[SiteRecord]
    notes: list[str]
    errors: list[SiteRecord]
    blame: dict = field(default_factory=dict)  # site key -> [(param, 'max'|'min', safe raw or None)]

    @property
    def ok(self) -> bool:
        return not self.errors


# ---------------------------------------------------------------- the model, rendered in memory
def model_module(m: GenModel) -> types.ModuleType:
    """The generated Python model for m, from a fresh in-memory render."""
    from .render import render

    files = render(m)
    rel = next(k for k in files if k.endswith("boids_model.py"))
    text = files[rel]
    fname = f"<boidsgen {m.name} {m.hash}>/{rel}"
    lines = text.splitlines(keepends=True)
    linecache.cache[fname] = (len(text), None, lines, fname)  # call sites quote the generated line
    mod = types.ModuleType(f"boidsgen_range_{m.name}")
    mod.__file__ = fname
    sys.modules[mod.__name__] = mod
    exec(compile(text, fname, "exec"), mod.__dict__)  # noqa: S102 - our own generated code
    return mod


# ---------------------------------------------------------------- one analysis
def _speed_params(m: GenModel) -> list[str]:
    names = []
    for r in m.rules:
        if r.name == "speed_limit":
            names += [r.refs["min"], r.refs["max"]]
        elif r.name == "speed_cap":
            names.append(r.refs["max"])
        elif r.name == "speed_regulation":
            names.append(r.refs["default"])
    s = m.spec
    if s.predators:
        names += [s.predators.min_speed, s.predators.max_speed]
    if s.food:
        names.append(s.food.speed)
    return names


def _state_inputs(m: GenModel, mod, ranges: dict, assume: Assumptions):
    fb = m.frac_bits
    one = 1 << fb
    w, h = mod.WIDTH * one, mod.HEIGHT * one
    margin = int((assume.position_margin_px if assume.position_margin_px is not None
                  else max(mod.WIDTH, mod.HEIGHT)) * one)
    sp = [ranges[n][1] for n in _speed_params(m) if n in ranges]
    v0 = int(assume.max_speed_px * one) if assume.max_speed_px is not None else (max(sp) if sp else 10 * one)
    return w, h, margin, v0


def _analyse_once(m: GenModel, mod, ranges: dict, assume: Assumptions, split: bool = True):
    """(sites, notes, stats) for parameter ranges `ranges` (name -> (lo, hi) raw)."""
    A = IntervalArith(mod.FRAC_BITS, getattr(mod, "MAGNITUDE", "exact"),
                      getattr(mod, "AMB_ALPHA_RAW", 0), getattr(mod, "AMB_BETA_RAW", 0))
    w, h, margin, v0 = _state_inputs(m, mod, ranges, assume)
    cap = mod.CAPACITY
    xs, ys = (-margin, w + margin), (-margin, h + margin)
    vb = {"vx": (-v0, v0), "vy": (-v0, v0)}
    state = {k: (0, 0) for k in getattr(mod, "BOID_STATE", {})}
    pred = getattr(mod, "PREDATORS", None)
    pv = {"vx": (-v0, v0), "vy": (-v0, v0)}

    def P():
        return SimpleNamespace(**{n: IV(*r) for n, r in ranges.items()})

    K = SimpleNamespace(width=IV(w, w), height=IV(h, h))

    def world():
        def ent(cap_of, n=0):
            return dict(n=cap_of) if cap_of else dict(n=0)

        pc = pred["capacity"] if pred else 0
        oc = mod.OBSTACLES["capacity"] if getattr(mod, "OBSTACLES", None) else 0
        fc = mod.FOOD["capacity"] if getattr(mod, "FOOD", None) else 0
        fsp = ranges[mod.FOOD["speed"]][1] if fc else 0
        return SimpleNamespace(
            px=IV(*xs, n=pc), py=IV(*ys, n=pc), pvx=IV(*pv["vx"], n=pc), pvy=IV(*pv["vy"], n=pc),
            obx=IV(*xs, n=oc), oby=IV(*ys, n=oc), obr=IV(1, max(w, h), n=oc),
            fx=IV(0, w, n=fc), fy=IV(0, h, n=fc), fvx=IV(-fsp, fsp, n=fc), fvy=IV(-fsp, fsp, n=fc),
            target_x=IV(*xs), target_y=IV(*ys), target_on=True)

    orig_box = mod.pair_box

    def pair_box(Pn):  # the model takes max() of ranges in Python: give the hull instead
        vals = [getattr(Pn, z) for z in _box_ranges(m)]
        return IV(min(v.lo for v in vals), max(v.hi for v in vals)) if vals else orig_box(Pn)

    mod.pair_box = pair_box
    outs: dict = {}
    taint = {"v": frozenset(), "pv": frozenset(), "st": frozenset()}  # overflows the inputs come from
    ctx = None  # one context over all rounds: a site's worst case is over every round

    def note(k, v):
        v = iv(v)
        lo, hi, f = outs.get(k, (v.lo, v.hi, frozenset()))
        outs[k] = (min(lo, v.lo), max(hi, v.hi), f | (v.fnd if (v.lo < -(1 << 31) or v.hi >= 1 << 31) else
                                                       frozenset()) | v.fnd)

    try:
        for rnd in range(_MAX_ROUNDS):
            outs = {}

            def run_update():
                tv, ts = taint["v"], taint["st"]
                me = SimpleNamespace(x=IV(*xs), y=IV(*ys), vx=IV(*vb["vx"], fnd=tv), vy=IV(*vb["vy"], fnd=tv),
                                     idx=IV(0, cap - 1), **{k: IV(*r, fnd=ts) for k, r in state.items()})
                oth = SimpleNamespace(x=IV(*xs, n=cap), y=IV(*ys, n=cap), vx=IV(*vb["vx"], n=cap, fnd=tv),
                                      vy=IV(*vb["vy"], n=cap, fnd=tv))
                not_self = Mask(True, True, n=cap, kmin=0, kmax=cap - 1)
                out = mod.update(A, P(), K, world(), me, oth, not_self)
                for k, v in out.items():
                    note(k, v)
                return out

            ctx = explore(run_update, ctx, split=split)
            if pred:
                def run_pred():
                    W = world()
                    # here the predators are the rows (n = 0) and the boids the others
                    W.px, W.py = W.px.copy(n=0), W.py.copy(n=0)
                    W.pvx, W.pvy = (v.copy(fnd=taint["pv"], n=0) for v in (W.pvx, W.pvy))
                    out = mod.predators_step(A, P(), K, W, IV(*xs, n=cap), IV(*ys, n=cap))
                    note("pvx", out[2])
                    note("pvy", out[3])
                    return out
                ctx = explore(run_pred, ctx, split=split)
            if getattr(mod, "FOOD", None):
                ctx = explore(lambda: mod.food_step(A, P(), K, world()), ctx, split=split)
            # the bounds a frame starts from must hold for the next frame too; a
            # value that overflowed wraps, so no bound exceeds the int32 range
            grown = False
            for k, tgt, t in (("vx", vb, "v"), ("vy", vb, "v"), ("pvx", pv, "pv"), ("pvy", pv, "pv")):
                if k in outs:
                    key = k[-2:]
                    lo, hi = min(tgt[key][0], outs[k][0]), max(tgt[key][1], outs[k][1])
                    m_ = min(max(-lo, hi), (1 << 31) - 1)
                    if (-m_, m_) != tgt[key]:
                        tgt[key], grown = (-m_, m_), True
                        taint[t] |= outs[k][2]
            for k in state:
                lo, hi = max(min(state[k][0], outs[k][0]), -(1 << 31)), min(max(state[k][1], outs[k][1]), (1 << 31) - 1)
                if (lo, hi) != state[k]:
                    state[k], grown = (lo, hi), True
                    taint["st"] |= outs[k][2]
            if not grown:
                break
    finally:
        mod.pair_box = orig_box
    one = 1 << m.frac_bits
    stats = dict(xs=xs, ys=ys, v=vb["vx"][1], v0=v0, pv=pv["vx"][1] if pred else None, state=state,
                 rounds=rnd + 1, converged=not grown, paths=ctx.paths, one=one, margin=margin)
    return list(ctx.sites.values()), stats


def _box_ranges(m: GenModel) -> tuple[str, ...]:
    return m.box_ranges


def param_ranges(m: GenModel, narrow: dict | None = None) -> dict:
    r = {p.name: (p.min_raw, p.max_raw) for p in m.params}
    r.update(narrow or {})
    return r


def _errors(sites) -> list[SiteRecord]:
    """Overflows that reach a result and start from in-range operands."""
    return [s for s in sites if s.live and s.overflows and s.root]


def analyse(m: GenModel, assume: Assumptions | None = None, blame: bool = True, mod=None) -> RangeReport:
    assume = assume or Assumptions()
    mod = mod or model_module(m)
    ranges = param_ranges(m)
    sites, st = _analyse_once(m, mod, ranges, assume)
    sites.sort(key=lambda s: (s.site.func != "update", s.site.line, s.site.col))
    errs = _errors(sites)
    notes = _notes(m, st)
    rep = RangeReport(m, sites, notes, errs)
    rep.stats = st
    if errs and blame:
        rep.blame = _blame(m, mod, assume, errs)
    return rep


def _live_keys(m, mod, ranges, assume) -> set:
    """Every site where an out-of-range value reaches a result."""
    sites, _ = _analyse_once(m, mod, ranges, assume)
    return {s.site.key for s in sites if s.live and s.overflows}


def _blame(m: GenModel, mod, assume: Assumptions, errs) -> dict:
    """Parameters whose range alone causes the overflows: narrowing that one
    to its default leaves none; then how far it can stay (binary search)."""
    base = param_ranges(m)
    out = {e.site.key: [] for e in errs}
    step = 12  # to 1/4096 of the range

    def clean(name, lo, hi):
        return not _live_keys(m, mod, {**base, name: (lo, hi)}, assume)

    for p in m.params:
        if p.min_raw == p.max_raw or not clean(p.name, p.default_raw, p.default_raw):
            continue
        tol = max(1, (p.max_raw - p.min_raw) >> step)
        if clean(p.name, p.min_raw, p.default_raw):  # the top of the range causes it
            lo, hi = p.default_raw, p.max_raw
            while hi - lo > tol:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if clean(p.name, p.min_raw, mid) else (lo, mid)
            fix = (p, "max", lo)
        else:
            lo, hi = p.min_raw, p.default_raw
            while hi - lo > tol:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if clean(p.name, mid, p.max_raw) else (mid, hi)
            fix = (p, "min", hi)
        for k in out:
            out[k].append(fix)
    return out


def _notes(m: GenModel, st: dict) -> list[str]:
    notes = []
    for r in m.rules:
        if r.name == "edges":
            f = m.param(r.refs["factor"])
            if f.min_raw <= 0:
                notes.append(f"edges: {f.name} can be {f.min}: boids may then leave the screen for good, beyond the "
                             f"assumed margin (positions wrap after {(1 << 31) // max(st['v0'], 1)} frames at full speed)")
    if not st["converged"]:
        notes.append(f"velocity bounds still grew after {st['rounds']} frames of rules: the rules do not bound the "
                     f"speed at every parameter value; the bound used is the last one")
    return notes


# ---------------------------------------------------------------- the report
def _fmt(v: float) -> str:
    if v == 0:
        return "0"
    if abs(v) >= 1e6:
        return f"{v:.3g}"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.4g}"


def _row(s: SiteRecord, fb: int, fmt_name: str) -> tuple[str, str, str, str, str]:
    one = 1 << fb
    if s.kind == "u64":  # a square: 2F fraction bits
        scale, lim32, lim = one * one, (1 << 31) / one, (1 << 64) / (one * one)
    elif s.kind == "64":
        scale, lim32, lim = one, (1 << 31) / one, (1 << 63) / one
    else:
        scale, lim32, lim = one, (1 << 31) / one, (1 << 31) / one
    worst = s.worst / scale
    head = "inf" if worst == 0 else f"x{lim / worst:,.3g}"
    if s.kind == "32":
        status = "ok"
        if s.overflows:
            status = ("OVERFLOW" if s.root else "overflows after an earlier one") if s.live else \
                "ok: out of range only in lanes a where() discards"
    else:
        status = f"widened 64-bit: above {fmt_name}'s {_fmt(lim32)}" if worst > lim32 else "ok (64-bit)"
    return s.site.rule, s.site.expr, _fmt(worst), head, status


def report_lines(rep: RangeReport) -> list[str]:
    m, st = rep.model, rep.stats
    fb, one = m.frac_bits, 1 << m.frac_bits
    fmt = m.spec.fixed_point.format
    out = [f"range analysis for '{m.name}' ({fmt}: 32-bit values within +/-{_fmt((1 << 31) / one)}; "
           f"64-bit for squared distances and neighbour sums)",
           f"assumed: x in [{_fmt(st['xs'][0] / one)}, {_fmt(st['xs'][1] / one)}], y in [{_fmt(st['ys'][0] / one)}, "
           f"{_fmt(st['ys'][1] / one)}] (screen +/- {_fmt(st['margin'] / one)} px); |vx|, |vy| <= {_fmt(st['v'] / one)} "
           f"px/frame at a frame's start (speed parameters' max {_fmt(st['v0'] / one)}, then {st['rounds']} frame(s) "
           f"of rules); {m.spec.flock.capacity} boids; every parameter over [min, max]; {st['paths']} path(s)"]
    rows = [_row(s, fb, fmt) for s in rep.sites]
    w0 = max([len(r[0]) for r in rows] + [4])
    w1 = min(max([len(r[1]) for r in rows] + [10]), 60)
    out.append(f"{'rule':<{w0}}  {'expression':<{w1}}  {'worst |value|':>13}  {'headroom':>9}  status")
    for r in rows:
        e = r[1] if len(r[1]) <= w1 else r[1][: w1 - 3] + "..."
        out.append(f"{r[0]:<{w0}}  {e:<{w1}}  {r[2]:>13}  {r[3]:>9}  {r[4]}")
    n64 = sum(1 for s in rep.sites if s.kind != "32")
    wid = sum(1 for r in rows if r[4].startswith("widened"))
    out.append(f"{len(rep.sites)} expressions: {len(rep.errors)} can overflow, {n64} in 64 bits "
               f"({wid} of them need it)")
    out += [f"note: {n}" for n in rep.notes]
    return out


def error_issues(rep: RangeReport, spec_path: str, locator=None) -> list:
    """One SpecIssue per overflowing expression, at the parameter to narrow."""
    from .spec_errors import SpecIssue

    m = rep.model
    fb = m.frac_bits
    one = 1 << fb
    fmt = m.spec.fixed_point.format
    issues = []
    for e in rep.errors:
        worst = e.worst / one
        what = (f"rule '{e.site.rule}': `{e.site.expr}` can reach {_fmt(e.lo / one)}..{_fmt(e.hi / one)}, "
                f"beyond {fmt}'s +/-{_fmt((1 << 31) / one)} (generated line: {e.site.source_line})")
        culprits = rep.blame.get(e.site.key, [])
        if culprits:
            for p, end, safe in culprits:
                safe_txt = _fmt(safe / one) if p.type == "fixed" else str(safe)
                cur = p.max if end == "max" else p.min
                fix = (f"with {p.name} {end} {cur}; fix: narrow params.{p.name}.{end} to {safe_txt} or "
                       f"{'less' if end == 'max' else 'more'}, or use a format with more integer bits, or a 64-bit "
                       f"accumulator for this expression")
                line, col = _where(locator, ("params", p.name, end))
                issues.append(SpecIssue(spec_path, line, col, f"params.{p.name}", f"{what} {fix}"))
        else:
            line, col = _where(locator, ("fixed_point", "format"))
            issues.append(SpecIssue(spec_path, line, col, "fixed_point.format",
                                    f"{what}; no single parameter's range causes it (worst {_fmt(worst)}): narrow "
                                    f"the ranges of the parameters it reads together, use a format with more integer "
                                    f"bits, or a 64-bit accumulator"))
    return issues


def _where(locator, loc) -> tuple[int, int]:
    if locator is None:
        return 1, 1
    line, col, _ = locator.find(loc)
    return line, col


def check_spec(spec_path: str, assume: Assumptions | None = None):
    """(RangeReport, issues) for a spec file."""
    from .model import build_model
    from .spec_loader import load_spec

    spec, loc = load_spec(spec_path)
    m = build_model(spec, spec_path)
    rep = analyse(m, assume)
    return rep, error_issues(rep, spec_path, loc)
