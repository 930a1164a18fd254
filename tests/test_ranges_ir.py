"""The range analysis over the rule IR (codegen/analysis/ranges.py).

Each named op's interval transfer holds every concrete result of the op as
pysim/fxops.py computes it (the one Python definition of fixed.h's
rounding) on random and edge samples, and flags an overflow wherever the
checked op finds one; comparisons narrow soundly; every committed spec
passes; the README's example fails at the right parameter with a narrowing
that is safe and close; a rule written in a spec is blamed at its op's
line:col; conditions narrow, state converges or is widened (and said so)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from codegen.analysis.intervals import I32, LIMITS, NEGATED, TRANSFER, Fx, Iv, compare, narrow, tdiv, wrapped
from codegen.analysis.ranges import analyse as analyse_ir
from codegen.model.gen_model import build_model
from codegen.analysis.range_check import analyse, error_issues, param_ranges
from codegen.model.spec_load import load_spec
from pysim.fxdecimal import from_number
from pysim import fxops
from pysim.fxops import namespace, new_status, status_finding

from .issue_examples import ISSUE_RULES
from .conftest import OVERFLOWS, with_capacity

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "spec").glob("*.yaml"))
BOIDS = with_capacity((ROOT / "spec" / "boids.yaml").read_text(), 100)  # the blame tests below were written at 100
FX, CK = namespace("fixed"), namespace("checked")
# the angle and draw ops live beside the shared vocabulary (pysim/fx_angles.py, pysim/fx_draws.py)
_EXTRA = ("sin", "cos", "atan2", "unit_x", "unit_y", "rotate_x", "rotate_y", "random", "random_int")
FX.update({n: getattr(fxops, "fx_" + n) for n in _EXTRA})
CK.update({n: getattr(fxops, "ck_" + n) for n in _EXTRA})
ALPHA, BETA = 0.96043387, 0.39782473


def _fx(fb: int, amb: bool) -> Fx:
    return Fx(fb, "alpha_max_beta_min" if amb else "exact", from_number(ALPHA, fb), from_number(BETA, fb))


# op -> (operand kinds, result type, the fxops name, how to call it: args -> fxops args)
# kinds: f fixed/int (32-bit), s a 64-bit sum, n a small count or divisor
def _ops(fx: Fx):
    fb, amb = fx.frac_bits, fx.amb
    a, b = fx.alpha, fx.beta
    return {
        "add": ("ff", "fixed", "add", lambda x, y: (x, y)),
        "sub": ("ff", "fixed", "sub", lambda x, y: (x, y)),
        "neg": ("f", "fixed", "neg", lambda x: (x,)),
        "mul": ("ff", "fixed", "mul", lambda x, y: (x, y, fb)),
        "div": ("ff", "fixed", "div", lambda x, y: (x, y, fb)),
        "mul_int": ("fn", "fixed", "imul", lambda x, n: (n, x)),
        "div_int": ("fn", "fixed", "idiv", lambda x, n: (x, n)),
        "sqrt": ("f", "fixed", "sqrt", lambda x: (x, fb)),
        "hypot": ("ff", "fixed", "hypot", lambda x, y: (x, y)),
        "mag": ("ff", "fixed", "mag", lambda x, y: (x, y, amb, a, b, fb)),
        "sq": ("f", "square", "sq64", lambda x: (x,)),
        "d2": ("ff", "square", "d2", lambda x, y: (x, y)),
        "iadd": ("ff", "int", "add", lambda x, y: (x, y)),
        "isub": ("ff", "int", "sub", lambda x, y: (x, y)),
        "ineg": ("f", "int", "neg", lambda x: (x,)),
        "imul": ("ff", "int", "imul", lambda x, y: (x, y)),
        "idiv": ("ff", "int", "idiv", lambda x, y: (x, y)),
        "int_to_fixed": ("f", "fixed", "from_int", lambda x: (x, fb)),
        "fixed_to_int": ("f", "int", "to_int", lambda x: (x, fb)),
        "sum_to_fixed": ("s", "fixed", "acc_fx", lambda s: (s,)),
        "sum_to_int": ("s", "int", "acc_fx", lambda s: (s,)),
        "sum_mean": ("sn", "fixed", "acc_mean", lambda s, n: (s, n)),
        "sum_idiv": ("sn", "int", "acc_mean", lambda s, n: (s, n)),
        "abs": ("f", "fixed", "abs", lambda x: (x,)),
        "min": ("ff", "fixed", "min", lambda x, y: (x, y)),
        "max": ("ff", "fixed", "max", lambda x, y: (x, y)),
        "clamp": ("fff", "fixed", "clamp", lambda v, lo, hi: (v, lo, hi)),
        "sign": ("s", "int", "sign", lambda x: (x,)),
    }


EDGES = {"f": [I32[0], I32[0] + 1, -(1 << 20), -65536, -32769, -3, -1, 0, 1, 2, 32767, 65536, 1 << 24, I32[1]],
         "s": [-(1 << 40), -(1 << 33), I32[0] - 1, I32[0], -5, 0, 7, I32[1], I32[1] + 1, 1 << 36],
         "n": [-300, -7, -1, 0, 1, 2, 3, 99, 300]}


def _interval(rng: random.Random, kind: str) -> Iv:
    pool = EDGES[kind]
    if rng.random() < 0.5:
        x, y = rng.choice(pool), rng.choice(pool)
    else:
        span = {"f": 1 << rng.choice((4, 12, 20, 31)), "s": 1 << rng.choice((10, 34, 40)), "n": 300}[kind]
        x, y = rng.randint(-span, span), rng.randint(-span, span)
        lim = I32 if kind == "f" else (I32 if kind == "n" else (-(1 << 41), 1 << 41))
        x, y = max(min(x, lim[1]), lim[0]), max(min(y, lim[1]), lim[0])
    return Iv.of(x, y)


def _samples(rng: random.Random, iv: Iv) -> list[int]:
    out = {iv.lo, iv.hi} | {rng.randint(iv.lo, iv.hi) for _ in range(3)}
    out |= {v for v in (-1, 0, 1) if iv.has(v)}
    return sorted(out)


@pytest.mark.parametrize("fb,amb", [(15, False), (16, False), (15, True), (16, True)])
def test_every_transfer_holds_every_concrete_result(fb, amb):
    fx = _fx(fb, amb)
    rng = random.Random(fb * 7 + amb)
    checked = 0
    for op, (kinds, rtype, name, args_of) in _ops(fx).items():
        assert op in TRANSFER, op
        lim = LIMITS[rtype]
        for _ in range(60):
            ivs = [_interval(rng, k) for k in kinds]
            got = TRANSFER[op](fx, *ivs)
            flow = got if got.within(lim) else wrapped(rtype)
            for _ in range(6):
                xs = [rng.choice(_samples(rng, iv)) for iv in ivs]
                if rtype == "square" and any(not I32[0] <= x <= I32[1] for x in xs):
                    continue
                args = [np.int64(v) if isinstance(v, int) else v for v in args_of(*xs)]
                concrete = int(FX[name](*args))
                assert flow.has(concrete), (op, ivs, xs, concrete, got)
                if name in CK and rtype != "square":
                    st = new_status()
                    CK[name](*args, st, 0)
                    if status_finding(st) is not None:  # the exact value left 32 bits: the transfer says so
                        assert not got.within(lim), (op, ivs, xs, got)
                if op == "fixed_to_int":  # ops.py's reading: truncation toward zero, also covered
                    assert got.has(tdiv(xs[0], 1 << fb))
                checked += 1
    assert checked > 5000


def test_comparisons_narrow_soundly():
    rng = random.Random(5)
    for _ in range(3000):
        a, b = _interval(rng, "n"), _interval(rng, "n")
        op = rng.choice(["lt", "le", "gt", "ge", "eq", "ne"])
        can_t, can_f = compare(op, a, b)
        na, nb = narrow(op, a, b)
        fa, fb_ = narrow(NEGATED[op], a, b)
        for x in _samples(rng, a):
            for y in _samples(rng, b):
                truth = {"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y, "eq": x == y, "ne": x != y}[op]
                assert (can_t if truth else can_f), (op, a, b, x, y)
                n1, n2 = (na, nb) if truth else (fa, fb_)
                assert n1 is not None and n1.has(x) and n2 is not None and n2.has(y), (op, a, b, x, y, truth)


def test_magnitude_bounds_its_components():
    """A component over its own magnitude: at most 1.0 exactly; for the
    estimate, at most ratio_bound of the magnitude's lower end; and a
    magnitude at most m bounds each component by mag_bound(m)."""
    rng = random.Random(3)
    for fb, amb in ((15, False), (16, True), (15, True)):
        fx = _fx(fb, amb)
        for _ in range(4000):
            big = 1 << rng.choice((3, 10, 20, 29))
            x, y = rng.randint(-big, big), rng.randint(-big, big)
            m = int(FX["mag"](np.int64(x), np.int64(y), amb, fx.alpha, fx.beta, fb))
            assert abs(x) <= fx.mag_bound(m, amb) and abs(y) <= fx.mag_bound(m, amb)
            if m >= 1:
                q = int(FX["div"](np.int64(x), np.int64(m), fb))
                assert abs(q) <= fx.ratio_bound(m, amb) <= fx.ratio_bound(1, amb), (x, y, m, q)


# ---------------------------------------------------------------- specs
def _model(path):
    spec, loc = load_spec(str(path))
    return build_model(spec, str(path)), loc


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_every_committed_spec_passes(spec):
    m, _ = _model(spec)
    res = analyse_ir(m)
    bad = [f"{s.rule}: {s.expr} at {s.where}: [{s.lo}, {s.hi}]" for s in res.sites if s.overflows]
    assert not bad, "\n".join(bad)
    rules = {s.rule for s in res.sites}
    assert {r.name for r in m.rules if r.ir.apply} <= rules | {r.name for r in m.rules if not _arith(r.ir)}
    if m.spec.predators:  # the hunt, the library's edges with the predators' margins, then their own rules
        assert {f"predators: {mr.name}" for mr in m.predator_motion} <= rules
        names = [mr.name for mr in m.predator_motion]
        assert names[:2] == [f"hunt_{m.spec.predators.hunt.mode}", "edges"] if m.spec.predators.hunt \
            else names[:1] == ["edges"]
    motion = [("predators", mr) for mr in m.predator_motion] + [("food", mr) for mr in m.food_motion]
    for kind, mr in motion:  # blamed in the rule's own file: the library's, or the spec's for its rule_defs
        site = next(s for s in res.sites if s.rule == f"{kind}: {mr.name}")
        own = f"{mr.name}.yaml" if mr.name not in (m.spec.rule_defs or {}) else spec.name
        assert site.path.endswith(own) and site.pos is not None


def _arith(ir) -> bool:
    from codegen.lang.ir import Op

    def has(x):
        return isinstance(x, Op) and (x.op not in ("min", "max", "clamp", "sign", "select", "lt", "le", "gt", "ge",
                                                   "eq", "ne", "and", "or", "not") or any(has(a) for a in x.args))
    import dataclasses

    def walk(stmts):
        for s in stmts:
            for f in dataclasses.fields(s):
                v = getattr(s, f.name)
                if has(v) or (isinstance(v, tuple) and walk(v)):
                    return True
        return False
    return walk(ir.apply) or walk(ir.before)




def _write(tmp_path, text, name="boids.yaml") -> Path:
    p = tmp_path / "spec" / name
    p.parent.mkdir(exist_ok=True)
    p.write_text(text)
    return p


def test_readme_example_fails_at_protected_range_with_a_safe_close_narrowing(tmp_path):
    path = _write(tmp_path, OVERFLOWS)
    m, loc = _model(path)
    rep = analyse(m)
    assert not rep.ok
    assert {(e.rule, e.expr) for e in rep.errors} == {("separation", "close_dx"), ("separation", "close_dy")}
    assert all(e.path.endswith("codegen/rules/defs/separation.yaml") for e in rep.errors)
    issues = error_issues(rep, str(path), loc)
    assert issues and {i.field for i in issues} == {"params.protected_range"}
    line = path.read_text().splitlines()[issues[0].line - 1]
    assert "protected_range" in line
    msg = issues[0].reason
    assert "separation.yaml:15:11" in msg and "with protected_range max 300" in msg
    safe = float(re.search(r"narrow params\.protected_range\.max to ([0-9.]+) or less", msg).group(1))
    fb = m.frac_bits
    one = 1 << fb

    def clean(max_px):
        res = analyse_ir(m, param_ranges(m, {"protected_range": (0, int(max_px * one))}))
        return not any(s.overflows for s in res.sites)
    assert clean(safe)  # the fix is safe ...
    assert not clean(safe * 1.01)  # ... and close: 1% more overflows again
    # by hand: 299 neighbours' dx (< range) plus the velocity before separation
    # (alignment 30 + cohesion 990 px/frame at most) make |(vx, vy)|'s exact
    # magnitude leave 32 bits from about (46,341 - 1,000) / 299 = 151.6 px
    assert 145 < safe < 155


def test_a_rule_written_in_the_spec_is_blamed_at_its_op(tmp_path):
    text = BOIDS.replace("rules:\n", """rule_defs:
  huge:
    description: pull hard toward the flock's summed position
    roles: {range: fixed, k: fixed}
    neighbours: {of: boids, within: range}
    each: |
      sx += other.x
    apply: |
      vx += sx * k
      vy += sx * 1000
rules:
  - {rule: huge, range: visual_range, k: huge_k}
""", 1).replace("params:\n", "params:\n  huge_k: {default: 0.001, min: 0, max: 100}\n", 1)
    path = _write(tmp_path, text)
    lines = text.splitlines()
    k_line = next(i for i, ln in enumerate(lines, 1) if "vx += sx * k" in ln)
    lit_line = k_line + 1
    m, loc = _model(path)
    rep = analyse(m)
    errs = {(e.expr, e.pos.line, e.pos.col) for e in rep.errors}
    assert ("sx * huge_k", k_line, lines[k_line - 1].index("*") + 1) in errs
    assert ("sx * 1000", lit_line, lines[lit_line - 1].index("*") + 1) in errs
    issues = error_issues(rep, str(path), loc)
    by_field = {}
    for i in issues:
        by_field.setdefault(i.field, []).append(i)
    # the factor's range causes the first: narrow it; the message names the op's place in the spec
    k = by_field["params.huge_k"][0]
    assert f"{path.name}:{k_line}:{lines[k_line - 1].index('*') + 1}" in k.reason
    assert "fix: narrow params.huge_k.max to" in k.reason
    # a literal factor: no parameter to narrow, so the error is at the op itself
    at_op = by_field["rule_defs.huge"][0]
    assert (at_op.line, at_op.col) == (lit_line, lines[lit_line - 1].index("*") + 1)
    assert "no single parameter's range causes it" in at_op.reason


def _rule_spec(tmp_path, defs: str, uses: str, params: str) -> Path:
    text = BOIDS.replace("rules:\n", f"rule_defs:\n{defs}rules:\n", 1).replace("params:\n", f"params:\n{params}", 1)
    text = text.replace("  - {rule: speed_limit", f"{uses}  - {{rule: speed_limit", 1)
    return _write(tmp_path, text)


def test_conditions_narrow_and_state_converges_or_is_widened(tmp_path):
    path = _rule_spec(tmp_path, """\
  calm:
    description: a mean, a guarded division and a bounded state
    roles: {range: fixed, rate: fixed, limit: fixed}
    neighbours: {of: boids, within: range}
    state: {urge: 0}
    each: |
      s += other.vx
    apply: |
      speed = mag(vx, vy)
      if count > 0:
          vx += s / count
      if speed == 0:
          vy = 0
      else:
          vy = vy / speed * limit
      urge = min(urge + rate, limit)
  drift:
    description: a state that grows for ever
    roles: {rate: fixed}
    state: {clock: 0}
    apply: |
      clock = clock + rate
""", "  - {rule: calm, range: visual_range, rate: calm_rate, limit: calm_limit}\n"
     "  - {rule: drift, rate: calm_rate}\n",
        "  calm_rate: {default: 0.1, min: 0, max: 1}\n  calm_limit: {default: 2, min: 0, max: 5}\n")
    m, _ = _model(path)
    res = analyse_ir(m)
    one = 1 << m.frac_bits
    site = {(s.rule, s.expr): s for s in res.sites}
    assert site[("calm", "s / count")].worst <= res.stats["v"]  # the mean of the others' vx, not s / 1
    assert site[("calm", "vy / speed")].worst == one  # a component over its own magnitude, speed >= 1 LSB
    assert res.stats["state"]["urge"] == Iv(0, 5 * one)  # converged: min(urge + rate, limit)
    assert res.stats["state"]["clock"] == Iv(*I32) and "clock" in res.stats["widened"]
    assert any("state `clock` still grew" in n and "widened" in n for n in res.notes)
    rep = analyse(m)  # the clock wraps: an error at its addition
    assert [(e.rule, e.expr) for e in rep.errors] == [("drift", "clock + calm_rate")]


def test_unparse_prints_the_rule_text():
    from codegen.lang.library import load_library
    from codegen.analysis.range_text import unparse

    lib = load_library(frac_bits=16)
    texts = []

    def walk(stmts):
        for s in stmts:
            if hasattr(s, "value"):
                texts.append(unparse(s.value, {"factor": "avoid_factor"}))
            for sub in (getattr(s, "then", ()), getattr(s, "orelse", ())):
                walk(sub)
    walk(lib["separation"].apply)
    walk(lib["scout_bias"].apply)
    assert "vx + close_dx * avoid_factor" in texts
    assert "(1 - b) * vx + (b if group == 1 else -b)" in texts
    assert "1 if index < scouts.group1 else 2 if index - scouts.group1 < scouts.group2 else 0" in texts


ISSUE_EXAMPLES = ISSUE_RULES


def test_the_issue_examples_pass(tmp_path):
    """The rule language's four examples (issue 13) in a spec with predators:
    no overflow; restless's urge converges (by widening to its limit's bound),
    crowding's count is a sum of ints."""
    base = (ROOT / "spec" / "lab_tft_predator.yaml").read_text()
    text = base.replace("rules:\n", "rule_defs:\n" + ISSUE_EXAMPLES + "rules:\n", 1).replace("params:\n", """params:
  wind_x: {default: 0.05, min: -1, max: 1}
  wind_y: {default: 0, min: -1, max: 1}
  crowd_range: {default: 10, min: 0, max: 100}
  crowd_slow: {default: 0.01, min: 0, max: 0.5}
  restless_rate: {default: 0.01, min: 0, max: 1}
  restless_limit: {default: 1, min: 0, max: 10}
  push: {default: 0.1, min: 0, max: 2}
""", 1).replace("  - {rule: speed_limit", """  - {rule: wind, x: wind_x, y: wind_y}
  - {rule: crowding, range: crowd_range, slow: crowd_slow}
  - {rule: restless, rate: restless_rate, limit: restless_limit}
  - {rule: predator_push, range: predator_range, push: push}
  - {rule: speed_limit""", 1)
    path = _write(tmp_path, text, "examples.yaml")
    m, _ = _model(path)
    rep = analyse(m)
    assert rep.ok, [(e.rule, e.expr, e.lo, e.hi) for e in rep.errors]
    one = 1 << m.frac_bits
    assert rep.stats["state"]["urge"] == Iv(0, 10 * one) and not rep.stats["widened"]
    rules = {s.rule for s in rep.sites}
    assert {"wind", "crowding", "restless", "predator_push"} <= rules
    crowd = next(s for s in rep.sites if s.rule == "crowding" and s.op == "sum")
    assert crowd.type == "sum_int" and crowd.hi == m.spec.flock.capacity - 1


def test_conditions_bound_differences():
    """perching lands with vy = ledge.y - y only when y < ledge.y <= y + vy:
    the analysis keeps that difference within (0, max vy], so the landing does
    not widen the speed bound to the screen's height."""
    m, _ = _model(ROOT / "spec" / "extensions.yaml")
    res = analyse_ir(m)
    land = next(s for s in res.sites if s.rule == "perching" and s.expr == "ledge.y - y")
    assert 0 < land.lo and land.hi <= res.stats["v"]
    assert res.stats["v"] == m.param("max_speed").max_raw  # the speed limit's bound holds from frame to frame


# ---------------------------------------------------------------- soundness, end to end
class _Concrete:
    """The IR on concrete values, op by op as pysim/fxops.py computes them,
    checking each op's value against its site: within the site's range when
    the analysis says it cannot overflow, and flagged when the exact value
    leaves 32 bits (fxops' checked twin)."""

    def __init__(self, fx: Fx, sites: dict):
        self.fx, self.sites, self.label, self.seen = fx, sites, None, 0
        self.names = {"add": "add", "iadd": "add", "sub": "sub", "isub": "sub", "neg": "neg", "ineg": "neg",
                      "mul": "mul", "div": "div", "mul_int": "imul", "imul": "imul", "div_int": "idiv",
                      "idiv": "idiv", "sqrt": "sqrt", "hypot": "hypot", "mag": "mag", "sq": "sq64",
                      "int_to_fixed": "from_int", "fixed_to_int": "to_int", "sum_to_fixed": "acc_fx",
                      "sum_to_int": "acc_fx", "sum_mean": "acc_mean", "sum_idiv": "acc_mean", "abs": "abs",
                      "min": "min", "max": "max", "clamp": "clamp", "sign": "sign",
                      **{n: n for n in _EXTRA}}

    def args(self, op, xs):
        fb, fx = self.fx.frac_bits, self.fx
        if op in ("mul", "div", "sqrt", "int_to_fixed", "fixed_to_int", "sin", "cos", "atan2", "unit_x", "unit_y",
                  "rotate_x", "rotate_y", "random"):
            return (*xs, fb)
        if op == "mag":
            return (*xs, fx.amb, fx.alpha, fx.beta, fb)
        if op == "mul_int":
            return (xs[1], xs[0])
        return tuple(xs)

    def expr(self, e, env):
        from codegen.lang.ir import Const, Ref

        if isinstance(e, Const):
            return self.m.const(e).lo
        if isinstance(e, Ref):
            if e.kind == "draw":  # a raw uint32 of the PRNG: any value
                return env.setdefault((e.kind, e.name), self.rng.getrandbits(32))
            return env[(e.kind, e.name)]
        op = e.op
        if op in ("and", "or"):
            a = self.expr(e.args[0], env)
            if (op == "and") != bool(a):
                return a
            return self.expr(e.args[1], env)
        if op == "not":
            return int(not self.expr(e.args[0], env))
        if op == "select":
            return self.expr(e.args[1] if self.expr(e.args[0], env) else e.args[2], env)
        xs = [self.expr(a, env) for a in e.args]
        if op in ("lt", "le", "gt", "ge", "eq", "ne"):
            a, b = xs
            return int({"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[op])
        name = self.names[op]
        args = [np.int64(v) if isinstance(v, int) else v for v in self.args(op, xs)]
        val = int(FX[name](*args))
        site = self.sites.get((self.label, id(e)))
        if site is not None:
            st = new_status()
            if name in CK:
                CK[name](*args, st, 0)
            if status_finding(st) is not None:
                assert site.overflows, (site.rule, site.expr, xs)
            elif not site.overflows:
                assert site.lo <= val <= site.hi, (site.rule, site.expr, xs, val, site.lo, site.hi)
            self.seen += 1
        return val

    def block(self, stmts, env):
        from codegen.lang.ir import Accumulate, Assign, If, Return

        for s in stmts:
            if isinstance(s, Assign):
                env[(s.target.kind, s.target.name)] = self.expr(s.value, env)
            elif isinstance(s, Accumulate):
                v = self.expr(s.value, env)
                env[("acc", s.sum)] += v if s.op == "acc_add" else -v
            elif isinstance(s, If):
                if not self.block(s.then if self.expr(s.cond, env) else s.orelse, env):
                    return False
            elif isinstance(s, Return):
                return False
        return True


def _pick(rng, iv: Iv) -> int:
    r = rng.random()
    return iv.lo if r < 0.15 else iv.hi if r < 0.3 else (0 if r < 0.35 and iv.has(0) else rng.randint(iv.lo, iv.hi))


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_concrete_frames_stay_within_the_sites(spec):
    """A boid's frame on random concrete values within the analysis's
    assumptions (parameters, position, velocity and state bounds, neighbours
    in range, extremes often): every op it computes lies within the range
    the analysis recorded at that op. This holds the narrowing, the
    magnitude and mean relations and the difference bounds to the values."""
    from codegen.analysis.ranges import Assumptions, _Analysis
    from codegen.lang.library import library

    m, _ = _model(spec)
    an = _Analysis(m, None, Assumptions(), library(m.frac_bits))
    res = an.run()
    conc = _Concrete(an.fx, an.sites)
    conc.m = an.mach
    rng = random.Random(spec.stem)
    conc.rng = rng
    state_b = res.stats["state"]
    for _ in range(150):
        params = {n: _pick(rng, Iv(*r)) for n, r in an.ranges.items()}
        shared = {("self", "x"): _pick(rng, an.X), ("self", "y"): _pick(rng, an.Y),
                  ("self", "vx"): _pick(rng, Iv(-an.vb, an.vb)), ("self", "vy"): _pick(rng, Iv(-an.vb, an.vb))}
        shared.update({("state", n): _pick(rng, iv) for n, iv in state_b.items()})
        ledge = m.spec.ledge
        if ledge and rng.random() < 0.4:  # aim at a landing: above the ledge, about to cross it, at rest
            vy = abs(shared[("self", "vy")]) or 1
            shared[("self", "vy")] = vy
            shared[("self", "y")] = params[ledge.y] - rng.randint(1, vy)
            lo, hi = params[ledge.left], params[ledge.right]
            shared[("self", "x")] = rng.randint(lo, hi) if lo <= hi else lo
            shared.update({("state", n): 0 for n in state_b})
        index = rng.randint(0, m.spec.flock.capacity - 1)
        envs = {}
        for ctx, r, er in an.rules:
            env = {k: params[k[1]] for k in er if k[0] == "param"}
            env.update({("role", role.name): params[r.refs[role.name]] for role in r.ir.roles})
            for k, v in er.items():
                if k[0] == "world":  # a section's parameter, or the target (run-time, on the screen)
                    section, field = k[1].split(".")
                    ref = getattr(getattr(m.spec, section), field) if section != "target" else None
                    env[k] = params[ref] if isinstance(ref, str) else _pick(rng, v.iv)
            env.update({("screen", "width"): an.w, ("screen", "height"): an.h, ("index", "index"): index})
            envs[ctx.label] = env
        alive = True
        for ctx, r, er in an.rules:
            if r.ir.before and alive:
                env = {**envs[ctx.label], **shared}
                conc.label = ctx.label
                alive = conc.block(r.ir.before, env)
                shared = {k: v for k, v in env.items() if k[0] in ("self", "state")}
        if not alive:
            continue
        extra = {}

        def visit(ctx, r):
            nb = r.ir.neighbours
            k, of, _ = an.others(nb.of)
            k = min(k, 1 if nb.pick == "nearest" else 4)
            env0 = {**envs[ctx.label], **shared}
            within = env0[("role", nb.within)] if nb.within else None
            sums = {s.name: 0 for s in r.ir.sums}
            n = 0
            for _ in range(k):
                for _ in range(20):  # a neighbour in range, within its kind's bounds
                    o = {f: _pick(rng, iv) for f, iv in of.items()}
                    dx, dy = env0[("self", "x")] - o["x"], env0[("self", "y")] - o["y"]
                    d2 = dx * dx + dy * dy
                    if (within is None or d2 < within * within) and (nb.coincident or d2 != 0):
                        break
                else:
                    continue
                env = dict(env0)
                env.update({("other", f): v for f, v in o.items()})
                env.update({("pair", "dx"): dx, ("pair", "dy"): dy, ("pair", "d2"): d2,
                            ("pair", "dist"): int(FX["hypot"](np.int64(dx), np.int64(dy)))})
                env.update({("acc", s): 0 for s in sums})
                conc.label = ctx.label
                conc.block(r.ir.each, env)
                for s in sums:
                    sums[s] += env[("acc", s)]
                n += 1
            out = {("sum", s): v for s, v in sums.items()}
            out[("count", "count")] = n
            return out

        for ctx, r, er in an.rules:
            if r.ir.neighbours and r.ir.neighbours.of == "boids":
                extra[ctx.label] = visit(ctx, r)
        for ctx, r, er in an.rules:
            if r.ir.neighbours and r.ir.neighbours.of != "boids":
                extra[ctx.label] = visit(ctx, r)
            if r.ir.apply:
                env = {**envs[ctx.label], **shared, **extra.get(ctx.label, {})}
                conc.label = ctx.label
                conc.block(r.ir.apply, env)
                shared = {k: v for k, v in env.items() if k[0] in ("self", "state")}
    assert conc.seen > 500
