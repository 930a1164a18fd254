"""Range analysis: can any fixed-point value of a spec overflow?

The spec's rules, as their IR (codegen/lang), are evaluated over intervals by
codegen/analysis/ranges.py (what is assumed: its docstring; one transfer per
named op: codegen/analysis/intervals.py). This module turns the result into the
report `boidsgen check` prints (one row per expression: the rule, the
expression, where it is written, its worst case and headroom) and into
located errors: a 32-bit result that can leave the int32 range from operands
that had not wrapped is an error at the parameter whose range causes it,
with how far to narrow that range (found by bisection), and the expression's
own file:line:col (a library rule's file, or the spec for its own rules).
The search for culprits runs one analysis per parameter and per bisection
step, so it has a budget for the whole spec, counted in work, never in time
(BLAME_WORK: the intervals its analyses make, one per parameter and one per
expression evaluated, stats["work"]): no analysis starts once the search has
made that many; the errors not yet blamed are then reported plainly, at
their expression, without the "narrow to" advice (a spec with hundreds of
overflowing parameters reports every error within seconds). The same spec
gets the same message on any machine, at any load.
64-bit values (squared distances, neighbour sums) are reported as widened
when they pass the 32-bit range.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from codegen.analysis.range_eval import Site
from codegen.analysis.ranges import Assumptions
from codegen.analysis.ranges import analyse as analyse_ir
from codegen.model.gen_model import GenModel

SiteRecord = Site  # the old name
_BISECT_STEPS = 12  # to 1/4096 of the range
# the whole spec's search for parameters to narrow, in intervals made (stats["work"]): the README's
# overflowing example needs about 8,100, three parameters that overflow each through its own rule about
# 20,000; an interval costs 13 to 35 us on one core of 2026 (idle to loaded): a search that uses it all
# ends within about 2 s
BLAME_WORK = 50_000

__all__ = ["Assumptions", "RangeReport", "SiteRecord", "analyse", "report_lines", "error_issues", "check_spec",
           "param_ranges"]


@dataclass
class RangeReport:
    model: GenModel
    sites: list
    notes: list
    errors: list
    blame: dict = field(default_factory=dict)  # site key -> [(ParamInfo, 'max'|'min', safe raw)]
    blame_cut: bool = False  # the search ran out of BLAME_WORK before it had tried every parameter
    stats: dict = field(default_factory=dict)
    source: GenModel | None = None  # the model as written (`model`: its rules as the emitters print them)

    @property
    def ok(self) -> bool:
        return not self.errors


def param_ranges(m: GenModel, narrow: dict | None = None) -> dict:
    r = {p.name: (p.min_raw, p.max_raw) for p in m.params}
    r.update(narrow or {})
    return r


def analyse(m: GenModel, assume: Assumptions | None = None, blame: bool = True,
            blame_work: int | None = None, **_ignored) -> RangeReport:
    from codegen.analysis.roots_rewrite import rooted

    assume = assume or Assumptions()
    source, m = m, rooted(m, assume)[0]  # the rules as the emitters print them (codegen/analysis/roots_rewrite.py)
    res = analyse_ir(m, param_ranges(m), assume)
    errs = [s for s in res.sites if s.overflows and s.root]
    rep = RangeReport(m, res.sites, _notes(m, res), errs, stats=res.stats, source=source)
    if errs and blame:
        budget = BLAME_WORK if blame_work is None else blame_work
        rep.blame, rep.blame_cut = _blame(m, assume, res.sites, errs, budget)
    return rep


class _OutOfWork(Exception):
    pass


# ---------------------------------------------------------------- blame
def _blame(m: GenModel, assume: Assumptions, sites, errs, budget: int) -> tuple[dict, bool]:
    """For each parameter whose range alone causes some of the overflows
    (narrowing it to its default removes them): how far it can stay, by
    bisection between its default and the end that causes them. `mine`:
    every expression that overflows now (first or after an earlier one) and
    not with the parameter at its default; the safe bound keeps them all in
    range. No analysis starts once the search's analyses have made `budget`
    intervals (their stats["work"]; never the clock: the answer must not
    depend on the machine's load): the parameter being searched then is
    dropped, and (blame, True) returned."""
    base = param_ranges(m)
    over = {s.key for s in sites if s.overflows}
    roots = {e.key for e in errs}
    out = {k: [] for k in roots}
    spent = 0

    def fixed(name, lo, hi, among):
        nonlocal spent
        if spent >= budget:
            raise _OutOfWork
        res = analyse_ir(m, {**base, name: (lo, hi)}, assume)
        spent += res.stats["work"]
        return among - {s.key for s in res.sites if s.overflows}

    for p in m.params:
        if p.min_raw == p.max_raw:
            continue
        try:
            mine, fixes = _fixes(p, fixed, over, roots)
        except _OutOfWork:
            return out, True
        for k in mine & roots:
            out[k] += [(p, end, safe) for end, safe in fixes]
    return out, False


def _fixes(p, fixed, over: set, roots: set) -> tuple[set, list]:
    """(the overflows p's range causes, [(end, safe raw)]) for one parameter."""
    mine = fixed(p.name, p.default_raw, p.default_raw, over)
    if not mine & roots:
        return mine, []
    if fixed(p.name, p.min_raw, p.default_raw, mine) == mine:  # the top of the range causes them
        return mine, [("max", _bisect(lambda v: fixed(p.name, p.min_raw, v, mine) == mine,
                                      p.default_raw, p.max_raw))]
    if fixed(p.name, p.default_raw, p.max_raw, mine) == mine:  # the bottom
        return mine, [("min", _bisect(lambda v: fixed(p.name, v, p.max_raw, mine) == mine,
                                      p.default_raw, p.min_raw))]
    return mine, [("max", p.default_raw), ("min", p.default_raw)]  # both ends: only the default is known safe


def _bisect(clean, good: int, bad: int) -> int:
    """The value nearest `bad` known to be clean, from clean(good), not clean(bad)."""
    tol = max(1, abs(bad - good) >> _BISECT_STEPS)
    while abs(bad - good) > tol:
        mid = (good + bad) // 2
        good, bad = (mid, bad) if clean(mid) else (good, mid)
    return good


# ---------------------------------------------------------------- notes
def _notes(m: GenModel, res) -> list[str]:
    notes = []
    st = res.stats
    for r in m.rules:
        if r.name == "edges" and "factor" in r.refs:  # the library rule keeping boids near the screen
            f = m.param(r.refs["factor"])
            if f.min_raw <= 0:
                notes.append(f"edges: {f.name} can be {f.min}: boids may then leave the screen for good, beyond the "
                             f"assumed margin (positions wrap after {(1 << 31) // max(st['v0'], 1)} frames at full "
                             f"speed)")
    sp = m.spec.spawn
    if sp is not None:
        lo, hi = m.param(sp.min_speed), m.param(sp.max_speed)
        if lo.default_raw >= hi.default_raw:  # the spawn draws (vx, vy) in a square until |v| is within [lo, hi]
            notes.append(f"spawn: {sp.min_speed} is not below {sp.max_speed} at their defaults: a random velocity "
                         f"rarely has that speed to the LSB, so boids spawn at ({sp.min_speed}, 0), all heading +x; "
                         f"give the spawn a range of speeds")
    return notes + list(res.notes)


# ---------------------------------------------------------------- the report
def _fmt(v: float) -> str:
    if v == 0:
        return "0"
    if abs(v) >= 1e6:
        return f"{v:.3g}"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.4g}"


def _short(s: Site) -> str:
    return f"{os.path.basename(s.path)}:{s.pos}" if s.path and s.pos else ""


def rel(path: str) -> str:
    """A path as the user reads it: relative to the working folder when inside it."""
    try:
        r = os.path.relpath(path)
    except ValueError:
        return path
    return path if r.startswith("..") else r


def _scale(s: Site, one: int) -> tuple[int, float, float]:
    """(scale of a raw value, the format's 32-bit limit, this kind's limit), in units."""
    if s.kind == "u64":  # a square: 2F fraction bits
        return one * one, (1 << 31) / one, (1 << 64) / (one * one)
    if s.type in ("int", "sum_int"):  # counts and indices: no fraction bits
        one = 1
    if s.kind == "64":
        return one, (1 << 31) / one, (1 << 63) / one
    return one, (1 << 31) / one, (1 << 31) / one


def _row(s: Site, one: int, fmt_name: str) -> tuple[str, ...]:
    scale, lim32, lim = _scale(s, one)
    worst = s.worst / scale
    head = "inf" if worst == 0 else f"x{lim / worst:,.3g}"
    if s.kind == "32":
        status = ("OVERFLOW" if s.root else "overflows after an earlier one") if s.overflows else "ok"
    elif s.overflows:
        status = "OVERFLOW (64-bit)"
    else:
        status = f"widened 64-bit: above {fmt_name}'s {_fmt(lim32)}" if worst > lim32 else "ok (64-bit)"
    return s.rule, s.expr, _short(s), _fmt(worst), head, status


def report_lines(rep: RangeReport) -> list[str]:
    m, st = rep.model, rep.stats
    one = 1 << m.frac_bits
    fmt = m.spec.fixed_point.format
    v = st["v"] / one
    head = (f"|vx|, |vy| <= {_fmt(v)} px/frame at a frame's start (spawn speeds up to {_fmt(st['v0'] / one)}, "
            f"then {st['rounds']} frame(s) of rules{'' if st['converged'] else ', still growing'})")
    if st.get("pv") is not None:
        head += f"; predators' <= {_fmt(st['pv'] / one)}"
    if st["state"]:
        unit = {n: (1 if t == "int" else one) for n, t in st.get("state_types", {}).items()}
        head += "; state " + ", ".join(f"{n} in [{_fmt(iv.lo / unit.get(n, one))}, {_fmt(iv.hi / unit.get(n, one))}]"
                                       for n, iv in st["state"].items())
    out = [f"range analysis for '{m.name}' ({fmt}: 32-bit values within +/-{_fmt((1 << 31) / one)}; "
           f"64-bit for squared distances and neighbour sums)",
           f"assumed: x in [{_fmt(st['xs'][0] / one)}, {_fmt(st['xs'][1] / one)}], y in [{_fmt(st['ys'][0] / one)}, "
           f"{_fmt(st['ys'][1] / one)}] (screen +/- {_fmt(st['margin'] / one)} px); {head}; "
           f"{m.spec.flock.capacity} boids; every parameter over [min, max]"]
    rows = [_row(s, one, fmt) for s in rep.sites]
    w0 = max([len(r[0]) for r in rows] + [4])
    w1 = min(max([len(r[1]) for r in rows] + [10]), 60)
    w2 = max([len(r[2]) for r in rows] + [2])
    out.append(f"{'rule':<{w0}}  {'expression':<{w1}}  {'at':<{w2}}  {'worst |value|':>13}  {'headroom':>9}  status")
    for r in rows:
        e = r[1] if len(r[1]) <= w1 else r[1][: w1 - 3] + "..."
        out.append(f"{r[0]:<{w0}}  {e:<{w1}}  {r[2]:<{w2}}  {r[3]:>13}  {r[4]:>9}  {r[5]}")
    n64 = sum(1 for s in rep.sites if s.kind != "32")
    wid = sum(1 for r in rows if r[5].startswith("widened"))
    out.append(f"{len(rep.sites)} expressions: {len(rep.errors)} can overflow, {n64} in 64 bits "
               f"({wid} of them need it)")
    out += [f"note: {n}" for n in rep.notes]
    return out  # `check` adds what the passes made of valid rules (codegen/commands/check.py)


def _safe_text(p, end: str, raw: int, fb: int) -> str:
    """A safe bound as decimal text, rounded toward the safe side (4 significant digits)."""
    if p.type != "fixed":
        return str(raw)
    d = Decimal(raw) / (Decimal(2) ** fb)
    if d == 0:
        return "0"
    exp = d.adjusted() - 3
    q = Decimal(1).scaleb(min(exp, 0))
    t = d.quantize(q, rounding=ROUND_FLOOR if end == "max" else ROUND_CEILING)
    s = format(t, "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


def error_issues(rep: RangeReport, spec_path: str, locator=None) -> list:
    """One SpecIssue per overflowing expression and parameter to narrow (at
    the parameter's own line in the spec); with none to narrow, at the
    expression itself when the spec defines the rule, else at the format."""
    from codegen.spec.errors import SpecIssue

    m = rep.model
    one = 1 << m.frac_bits
    fmt = m.spec.fixed_point.format
    issues = []
    for e in rep.errors:
        scale, _, lim = _scale(e, one)
        where = f" ({rel(e.path)}:{e.pos})" if e.path and e.pos else ""
        what = (f"rule '{e.rule}': `{e.expr}`{where} can reach {_fmt(e.lo / scale)}..{_fmt(e.hi / scale)}, "
                f"beyond {fmt + chr(39) + 's' if e.kind == '32' else 'the 64-bit'} +/-{_fmt(lim)}")
        culprits = rep.blame.get(e.key, [])
        for p, end, safe in culprits:
            cur = p.max if end == "max" else p.min
            fix = (f"with {p.name} {end} {cur}; fix: narrow params.{p.name}.{end} to "
                   f"{_safe_text(p, end, safe, m.frac_bits)} or {'less' if end == 'max' else 'more'}, or use a "
                   f"format with more integer bits{_op_hint(e)}")
            line, col = _where(locator, ("params", p.name, end))
            issues.append(SpecIssue(spec_path, line, col, f"params.{p.name}", f"{what} {fix}"))
        if culprits:
            continue
        if rep.blame_cut:  # not known whether one parameter causes it: no advice to narrow one
            tail = ("; the search for a parameter to narrow stopped at its work budget (too many overflows): "
                    f"narrow the ranges of the parameters it reads, or use a format with more integer bits"
                    f"{_op_hint(e)}")
        else:
            tail = (f"; no single parameter's range causes it (worst {_fmt(e.worst / scale)}): narrow the ranges "
                    f"of the parameters it reads together, or use a format with more integer bits{_op_hint(e)}")
        if e.path and e.pos and _same_file(e.path, spec_path):
            issues.append(SpecIssue(spec_path, e.pos.line, e.pos.col, f"rule_defs.{e.rule}", what + tail))
        else:
            line, col = _where(locator, ("fixed_point", "format"))
            issues.append(SpecIssue(spec_path, line, col, "fixed_point.format", what + tail))
    return issues


# what the rule itself can change, by the op that overflows (the language has no 64-bit locals:
# sums are 64-bit already, every other value is 32-bit; docs/safety.md)
_HINTS = {
    "div": "keep its divisor away from 0 in a condition (`if speed > 0.5:`): a division by 1 LSB multiplies "
           "by 2^F",
    "div_int": "keep its divisor away from 0 in a condition",
    "mul": "divide before multiplying (`a / n * b`), or multiply offsets from the boid (`dx`, `x - target.x`) "
           "rather than positions",
    "sum": "lower flock.capacity (a sum holds one term per neighbour)",
}
_HINTS["mul_int"] = _HINTS["imul"] = _HINTS["mul"]
_HINTS["sum_to_fixed"] = _HINTS["sum_to_int"] = ("read the sum as a mean (`s / count`), which stays 64-bit until "
                                                 "divided, or lower flock.capacity")
_HINTS["idiv"] = _HINTS["div_int"]


def _op_hint(e: Site) -> str:
    h = _HINTS.get(e.op)
    return f", or in the rule: {h}" if h else ""


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _where(locator, loc) -> tuple[int, int]:
    if locator is None:
        return 1, 1
    line, col, _ = locator.find(loc)
    return line, col


def check_spec(spec_path: str, assume: Assumptions | None = None):
    """(RangeReport, issues) for a spec file."""
    from codegen.model.gen_model import build_model
    from codegen.model.spec_load import load_spec

    spec, loc = load_spec(spec_path)
    m = build_model(spec, spec_path, loc)
    rep = analyse(m, assume)
    return rep, error_issues(rep, spec_path, loc)

