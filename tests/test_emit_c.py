"""The C emitter (codegen/targets/c/emit.py, expr.py): every named op
printed as its one fixed.h spelling, compiled, and computing what ops.py says
it means (both Q formats, both of fixed.h's spellings); constants exact;
emitted names that never collide, held by differential runs of the host
firmware (a rule whose locals are named like the generated code's
identifiers against its twin with plain names: identical traces)."""
from __future__ import annotations

import math
import re
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from codegen.targets.c.expr import CALL, INFIX, SPECIAL, Names, block, const_c, decimal_text, expr
from codegen.lang.ir import Accumulate, Assign, Const, If, Op, Pos, Ref, Type
from codegen.lang.ops import OPS

from .conftest import ROOT, RUNTIME, RUNTIME_INCLUDES, compile_c, require_tool
from .deadline import RUN

F, I, B, SF, SI, SQ = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT, Type.SQUARE
P0 = Pos(1, 1)
I32_MIN, I32_MAX = -(2**31), 2**31 - 1


def wrap(v: int) -> int:
    return ((v + 2**31) % 2**32) - 2**31


def tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# --- the op table ----------------------------------------------------------

def test_every_op_has_one_spelling_and_fixed_h_defines_it():
    parts = ("fixed_roots.h", "fixed_draws.h", "fixed_angles.h")  # fixed.h includes them
    header = (RUNTIME / "core" / "fixed.h").read_text() + "".join((RUNTIME / "core" / p).read_text() for p in parts)
    assert all(f'#include "{p}"' in header for p in parts)
    for name in OPS:
        assert (name in CALL) + (name in INFIX) + (name in SPECIAL) == 1, name
    for name, fn in CALL.items():
        if fn == "BOIDS_MAG":  # per spec: fx_hypot or fx_amb (boids_flock.h)
            continue
        assert re.search(rf"static inline \w+ {fn}\(", header), f"{name}: fixed.h has no {fn}"
    assert re.search(r"static inline \w+ fx_acc_sign\(", header)  # sign of a sum


# --- each op printed, compiled and run -----------------------------------

class _Vars(Names):
    """Refs print as the driver's variables."""

    def ref(self, r):
        return r.name, 16

    def local(self, name):
        return name

    def sum(self, name):
        return name


def _r(name, t):
    return Ref("param", name, t, P0)


A, Bv, C = _r("a", F), _r("b", F), _r("c", F)
N, M, S = _r("n", I), _r("m", I), Ref("sum", "s", SF, P0)
SUMI = Ref("sum", "s", SI, P0)

# op -> (IR arguments, result: 'fx' | 'u64' | 'bool')
CASES = {
    "add": (A, Bv), "sub": (A, Bv), "neg": (A,), "mul": (A, Bv), "div": (A, Bv), "mul_int": (A, N),
    "div_int": (A, N), "sqrt": (A,), "hypot": (A, Bv), "mag": (A, Bv), "sq": (A,),
    "iadd": (M, N), "isub": (M, N), "ineg": (M,), "imul": (M, N), "idiv": (M, N),
    "int_to_fixed": (M,), "fixed_to_int": (A,),
    "sum_to_fixed": (S,), "sum_to_int": (SUMI,), "sum_mean": (S, N), "sum_idiv": (SUMI, N),
    "abs": (A,), "min": (A, Bv), "max": (A, Bv), "clamp": (A, Bv, C), "sign": (A,),
    "lt": (A, Bv), "le": (A, Bv), "gt": (A, Bv), "ge": (A, Bv), "eq": (A, Bv), "ne": (A, Bv),
}


def _cases():
    out = {name: Op(name, args, OPS[name].result or args[0].type, P0) for name, args in CASES.items()}
    out["sign_sum"] = Op("sign", (S,), I, P0)
    pa, pb = Op("gt", (A, Const(0, I, P0)), B, P0), Op("lt", (Bv, Const(0, I, P0)), B, P0)
    out["and"] = Op("and", (pa, pb), B, P0)
    out["or"] = Op("or", (pa, pb), B, P0)
    out["not"] = Op("not", (pa,), B, P0)
    out["select"] = Op("select", (Op("lt", (A, Bv), B, P0), Bv, C), F, P0)
    return out


OP_EXPRS = _cases()


def expected(name: str, a: int, b: int, c: int, s: int, fb: int) -> int:
    """What ops.py says each op computes (exact integers, then the wrap)."""
    n = m = b
    m = a
    if name in ("add", "iadd"):
        return wrap(a + b)
    if name in ("sub", "isub"):
        return wrap(a - b)
    if name in ("neg", "ineg"):
        return wrap(-a)
    if name == "abs":
        return wrap(abs(a))
    if name == "mul":
        return wrap((a * b) >> fb)
    if name == "div":
        return 0 if b == 0 else wrap(tdiv(a << fb, b))
    if name in ("mul_int", "imul"):
        return wrap(a * n)
    if name in ("div_int", "idiv"):
        return 0 if n == 0 else wrap(tdiv(a, n))
    if name == "sqrt":
        return 0 if a <= 0 else math.isqrt(a << fb)
    if name in ("hypot", "mag"):
        return wrap(math.isqrt(a * a + b * b))
    if name == "sq":
        return a * a
    if name == "int_to_fixed":
        return wrap(m << fb)
    if name == "fixed_to_int":
        return tdiv(a, 1 << fb)
    if name in ("sum_to_fixed", "sum_to_int"):
        return wrap(s)
    if name in ("sum_mean", "sum_idiv"):
        return 0 if n == 0 else wrap(tdiv(s, n))
    if name == "min":
        return min(a, b)
    if name == "max":
        return max(a, b)
    if name == "clamp":
        return b if a < b else (c if a > c else a)  # lo wins when lo > hi
    if name == "sign":
        return (a > 0) - (a < 0)
    if name == "sign_sum":
        return (s > 0) - (s < 0)
    if name in ("lt", "le", "gt", "ge", "eq", "ne"):
        return int({"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[name])
    if name == "and":
        return int(a > 0 and b < 0)
    if name == "or":
        return int(a > 0 or b < 0)
    if name == "not":
        return int(not a > 0)
    if name == "select":
        return b if a < b else c
    raise AssertionError(name)


def _driver(fb: int) -> str:
    names = _Vars(fb)
    arms = []
    for k, (name, e) in enumerate(OP_EXPRS.items()):
        text = expr(e, names)[0]
        arms.append(f"        {'if' if k == 0 else 'else if'} (!strcmp(op, \"{name}\")) r = (long long)({text});")
    return "\n".join([
        "#include <stdio.h>", "#include <string.h>", '#include "fixed.h"',
        "#define BOIDS_MAG(x, y) fx_hypot((x), (y))",
        "int main(void)", "{", "    char op[32];", "    long long A, Bb, Cc, Ss;",
        '    while (scanf("%31s %lld %lld %lld %lld", op, &A, &Bb, &Cc, &Ss) == 5) {',
        "        const fx a = (fx)A, b = (fx)Bb, c = (fx)Cc;",
        "        const int32_t m = (int32_t)A, n = (int32_t)Bb;",
        "        const fx_acc s = (fx_acc)Ss;",
        "        long long r = 0;",
        *arms,
        "        else return 2;",
        "        (void)a; (void)b; (void)c; (void)m; (void)n; (void)s;",
        '        printf("%lld\\n", r);', "    }", "    return 0;", "}", ""])


def _edges(fb: int) -> list:
    one = 1 << fb
    return sorted({0, 1, -1, 2, -3, 7, 12345, -12345, one, -one, one - 1, one + 1, 3 * one, -3 * one,
                   one >> 1, 46341, -46341, 2**30, -(2**30), I32_MAX, I32_MIN, I32_MIN + 1, 1 << (31 - fb)})


SUMS = [0, 1, -1, 5, -5, 2**31, -(2**31) - 1, 2**32 + 3, -(2**40), 2**62, -(2**62)]


@pytest.mark.parametrize("fb, portable", [(15, False), (16, False), (15, True), (16, True)],
                         ids=["s16.15", "s15.16", "s16.15-portable", "s15.16-portable"])
def test_each_op_compiles_and_computes_its_meaning(tmp_path, fb, portable):
    src = tmp_path / "ops.c"
    src.write_text(_driver(fb))
    defines = {"FX_FRAC_BITS": fb, **({"FX_PORTABLE": 1} if portable else {})}
    exe = compile_c([src], tmp_path / "ops", defines=defines, includes=RUNTIME_INCLUDES)
    E = _edges(fb)
    cases = []
    for name in OP_EXPRS:
        for i, a in enumerate(E):
            for b in E[i % 3::3] if name != "clamp" else E[::4]:
                if name in ("sum_mean", "sum_idiv", "sum_to_fixed", "sum_to_int", "sign_sum"):
                    cases += [(name, a, b, 0, s) for s in SUMS[i % 4::4]]
                elif name == "clamp":
                    cases += [(name, a, b, c, 0) for c in E[1::5]]
                else:
                    cases.append((name, a, b, E[-1 - i], 0))
    text = "".join(f"{n} {a} {b} {c} {s}\n" for n, a, b, c, s in cases)
    res = subprocess.run([str(exe)], input=text, capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    got = res.stdout.split()
    assert len(got) == len(cases)
    bad = [(c, g, expected(*c, fb)) for c, g in zip(cases, got) if int(g) != expected(*c, fb)]
    assert not bad, bad[:10]


# --- constants -----------------------------------------------------------

@pytest.mark.parametrize("value, t, fb, text", [
    (Fraction(0), F, 15, "0"), (1, F, 15, "FX_ONE"), (Fraction(1), F, 16, "FX_ONE"),
    (Fraction(3), F, 15, "3 * FX_ONE"), (Fraction(-1), F, 15, "-FX_ONE"),
    (Fraction(1, 2), F, 15, "16384 /* 0.5 */"), (Fraction(3, 10), F, 15, "9830 /* 0.3 */"),
    (Fraction(3, 10), F, 16, "19661 /* 0.3 */"),
    (Fraction(1, 65536), F, 15, "1 /* 0.0000152587890625 */"),  # half an LSB: away from zero
    (Fraction(-1, 65536), F, 15, "-1 /* -0.0000152587890625 */"),
    (Fraction(1, 131072), F, 15, "0"),  # a quarter LSB rounds to 0
    (3, I, 15, "3"), (-7, I, 15, "-7"), (I32_MIN, I, 15, "INT32_MIN"), (True, B, 15, "1"),
    (Fraction(4), SQ, 15, f"UINT64_C({4 << 30}) /* 4 */"),
])
def test_constants_are_exact_raw_values(value, t, fb, text):
    assert const_c(Const(value, t, P0), fb)[0] == text


def test_decimal_text_is_exact():
    assert decimal_text(Fraction(1, 8)) == "0.125" and decimal_text(Fraction(-5, 2)) == "-2.5"
    assert decimal_text(Fraction(7)) == "7"


# --- statements ------------------------------------------------------------

def test_locals_are_declared_in_the_innermost_block_and_initialised_from_leading_assignments():
    names = _Vars(15)
    loc = lambda n, t=F: Ref("local", n, t, P0)  # noqa: E731
    vx = Ref("self", "vx", F, P0)
    body = (
        Assign(loc("speed"), Op("mag", (vx, vx), F, P0), P0),
        If(Op("gt", (loc("speed"), A), B, P0), (
            Assign(loc("t"), Op("div", (vx, loc("speed")), F, P0), P0),
            Assign(loc("t"), Op("mul", (loc("t"), A), F, P0), P0),
            Assign(vx, loc("t"), P0),
        ), (
            If(Op("lt", (loc("speed"), Bv), B, P0), (Assign(vx, Bv, P0),), (), P0),
        ), P0),
        Accumulate("s", "acc_add", loc("speed"), P0),
    )
    lines = block(body, {"speed": F, "t": F}, names)
    assert lines == [
        "const fx speed = BOIDS_MAG(vx, vx);",
        "if (speed > a) {",
        "    fx t = fx_div(vx, speed);",
        "    t = fx_mul(t, a);",
        "    vx = t;",
        "} else if (speed < b) {",
        "    vx = b;",
        "}",
        "fx_acc_add_to(&s, speed);",  # a 32-bit term into a 64-bit sum: fixed_sums.h
    ]


def test_conditions_get_the_parentheses_gcc_asks_for():
    names = _Vars(15)
    gt = Op("gt", (A, Bv), B, P0)
    lt = Op("lt", (A, C), B, P0)
    e = Op("or", (Op("and", (gt, lt), B, P0), Op("not", (Op("eq", (N, Const(1, I, P0)), B, P0),), B, P0)), B, P0)
    assert expr(e, names)[0] == "(a > b && a < c) || !(n == 1)"
    nested = Op("select", (gt, A, Op("select", (lt, Bv, C), F, P0)), F, P0)
    assert expr(nested, names)[0] == "a > b ? a : (a < c ? b : c)"


# --- whole firmware: names never collide ------------------------------------

EXT = (ROOT / "spec" / "extensions.yaml").read_text(encoding="utf-8")
EXTRA_PARAMS = """  k_small: {default: 0.01, min: 0, max: 1}
  lim: {default: 3, min: 0, max: 100, type: int}
  near_range: {default: 30, min: 0, max: 200, unit: px}
"""
# Each rule once with locals named like what the generated code declares or
# reads there (o, i, b, f, k, r2, n_predators, zone_r, int32_t, ...; fx itself is refused), once with
# plain names. Two rules share local and sum names with each other, and
# three share a state declared shared (one field: docs/rules.md, section 4;
# the library's perching keeps its own `perch`).
BOIDS_RULE = """
  {name}_{which}:
    description: locals named like the pair loop's identifiers
    roles: {{range: fixed, g: fixed}}
    neighbours: {{of: boids, within: range, coincident: false}}
    state: {{tick: {{init: 0, shared: true}}, born: {{init: "fixed(index) / 8 + g", shared: true}}}}
    each: |
      {o} = other.x - x
      {i} = dist
      {fx} = {o} + other.vx
      s += {fx}
      t += 1
    apply: |
      {i} = index
      {n} = 0
      if count > 0:
          {n} = fixed(t / count)
      tick = tick + 1 if tick < 50 else 0
      vx += (s * g) / 64 + fixed({i}) * g / 512 + {n} * g
      vy += born * g / 64
"""
HOSTILE = """
  {name}_before:
    description: a before block whose locals meet the return's stores
    roles: {{lim: int}}
    state: {{tick: {{init: 0, shared: true}}}}
    before: |
      {b} = vx
      if tick > lim * 20:
          tick = 0
          vx = {b} / 2
          return
    apply: |
      tick = tick + 1
  {name}_pred:
    description: a rule over predators whose locals meet its loop's names
    roles: {{range: fixed, g: fixed}}
    neighbours: {{of: predators, within: range}}
    each: |
      {k} = dx + dy
      {r2} = dist
      s += {k}
      {int32_t} += {r2}
    apply: |
      {f} = s * g
      {n_predators} = {int32_t}
      if count > 0:
          vx += {f} / 16
          vy -= {n_predators} * g / 64
  {name}_near:
    description: the nearest boid and the nearest food (pick nearest)
    roles: {{range: fixed, g: fixed}}
    neighbours: {{of: boids, within: range, pick: nearest}}
    each: |
      {o} = dx
      {o_stop} = dy
      {seg} = {o} - {o_stop} / 4
      s += {seg}
    apply: |
      if count > 0:
          vx -= s * g
  {name}_food:
    description: the nearest food anywhere
    roles: {{g: fixed}}
    neighbours: {{of: food, pick: nearest}}
    each: |
      {k_best} = other.x - x
      s += {k_best}
    apply: |
      if count > 0:
          vx += s * g / 8
"""
HOSTILE_NAMES = dict(o="o", i="i", fx="zone_r", n="n", b="b", k="k", r2="r2", int32_t="int32_t", f="f",
                     n_predators="n_predators", k_best="k_best", o_stop="o_stop", seg="seg")
PLAIN_NAMES = {k: f"q{j}" for j, k in enumerate(HOSTILE_NAMES)}
USES = """  - {{rule: {name}_boids, range: visual_range, g: k_small}}
  - {{rule: {name}_before, lim: lim}}
  - {{rule: {name}_pred, range: predator_range, g: k_small}}
  - {{rule: {name}_near, range: near_range, g: k_small}}
  - {{rule: {name}_food, g: k_small}}
  - {{rule: {name}_more, range: near_range, g: k_small}}
"""


def _spec(tmp_path: Path, names: dict, order: str, grid: bool) -> Path:
    name = "rules"  # the same rule names in both, so the same prefixes
    text = EXT.replace("  visual_range:", EXTRA_PARAMS + "  visual_range:", 1)
    text = text.replace("update_order: sequential", f"update_order: {order}")
    text = text.replace("  - {rule: speed_limit", USES.format(name=name) + "  - {rule: speed_limit", 1)
    text += "\nrule_defs:" + HOSTILE.format(name=name, **names)
    text += "".join(BOIDS_RULE.format(name=name, which=w, **names) for w in ("boids", "more"))
    if grid:
        text += "performance: {grid: true}\n"
    path = tmp_path / "spec" / "names.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _firmware(spec: Path, out: Path) -> tuple:
    """Render the firmware C of the spec (only the C: a spec's own rules have
    no Python templates) and build the host firmware with make's strict flags."""
    from codegen.output.pipeline import load
    from codegen.output.render import FIRMWARE_FILES, firmware_context
    from codegen.targets.templates import template_env as _env

    m = load(spec)
    env = _env()
    ctx = firmware_context(m, str(RUNTIME))
    fw = out / "firmware"
    fw.mkdir(parents=True, exist_ok=True)
    for f in FIRMWARE_FILES:
        (fw / f).write_text(env.get_template(f"firmware/{f}.j2").render(ctx), encoding="utf-8")
    exes = []
    for opt in ("-O1", "-O2"):
        build = out / f"build{opt}"
        res = subprocess.run(["make", "-s", "-C", str(fw), "host", f"RUNTIME={RUNTIME}", f"BUILD={build}",
                              f"HOST_CFLAGS={opt}"], capture_output=True, text=True, timeout=RUN)
        assert res.returncode == 0, res.stdout + res.stderr
        exes.append(build / "boids_host")
    return (fw / "boids_flock.c").read_text(), exes


def _trace(exe: Path) -> str:
    res = subprocess.run([str(exe), "--frames", "300", "--seed", "5", "--trace", "-"], capture_output=True,
                         text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    return "\n".join(ln for ln in res.stdout.splitlines() if not ln.startswith("# spec_hash"))


@pytest.mark.parametrize("order, grid", [("sequential", False), ("synchronous", True)])
def test_locals_named_like_generated_identifiers_change_nothing(tmp_path, order, grid):
    require_tool("gcc")
    require_tool("make")
    hostile_c, hostile = _firmware(_spec(tmp_path / "h", HOSTILE_NAMES, order, grid), tmp_path / "h" / "out")
    plain_c, plain = _firmware(_spec(tmp_path / "p", PLAIN_NAMES, order, grid), tmp_path / "p" / "out")
    traces = {_trace(exe) for exe in hostile + plain}
    assert len(traces) == 1
    frames = next(iter(traces)).splitlines()
    assert len(frames) > 300
    # the rules listed twice and the shared names got their own C names
    for needle in ("rules_boids_s", "rules_more_s", "rules_near_s", "st_perch", "zone_r = fx_add(rules_boids_o, o->vx);",
                   "const int32_t rules_boids_i = i;", "b->perch = 0;",
                   "b->born = fx_add(fx_div(fx_from_int(f->count), 8 * FX_ONE), P->k_small);"):
        assert needle in hostile_c, needle
    assert "fx_acc s = 0" in hostile_c or "fx_acc rules_pred_s" in hostile_c
    # and the boid loop declares each of its names once
    step = hostile_c[hostile_c.index("void boids_step"):]
    start = re.search(r"boid_t \*(const )?b = ", step).start()
    head = step[start:start + re.search(r"for \((gr = |;; o\+\+)", step[start:]).start()]
    decls = re.findall(r"^        (?:const )?(?:fx|int32_t|uint64_t|fx_acc32|fx_acc) ([^;]+);", head, re.M)
    declared = [d.split("=")[0].strip() for line in decls for d in line.split(",")]
    assert len(declared) == len(set(declared)), declared


def test_default_spec_boids_step_reads_like_the_seed():
    """The generated default spec: the seed's zone chain, each rule named in
    a comment, the sums named after their rules."""
    text = (ROOT / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    step = text[text.index("void boids_step"):]
    for needle in (# the zones tested in HI:LO (fx_d2_zones: codegen/passes/zones.py zones_in_hilo), through
                   # the Cortex-M0+'s prefilter where the target has it (fixed_zones.h: the exact test elsewhere)
                   "const fx_d2_pre_t zone_pre = fx_d2_pre(zone_r, seed_box);",
                   "const int32_t in_protected = fx_d2_zones_pre(dx, dy, zone_r, zone_a, zone_b, zone_pre, &in_visual);",
                   "if (in_protected < 0) {", "} else if (in_visual < 0) {", "n_visual++;",
                   # 32-bit sums (codegen/passes/widths.py: the range analysis proves them at the default capacity),
                   # cohesion's positions as offsets from the boid (codegen/passes/offsets.py), summed in C
                   # as the positions, modulo 2^32, and taken about the boid where read (c_positions.py)
                   "separation_close_dx = fx_add(separation_close_dx, dx);",
                   "alignment_sum_vx = fx_add(alignment_sum_vx, o->vx);",
                   "cohesion_sum_x = fx_add(cohesion_sum_x, o->x);",
                   "boids_mean_about(fx_acc32_about(cohesion_sum_x, n_visual, x), n_visual, x, n_visual_recip)",
                   # the divisor a multiply, its reciprocal looked up once a boid (mean_table.py)
                   "const uint32_t n_visual_recip = boids_recip_of(n_visual);",
                   "boids_mean(alignment_sum_vx, n_visual, n_visual_recip)",
                   "/* alignment */", "/* cohesion */", "/* separation */", "/* edges */", "/* speed_limit */",
                   # the speed compared as its square, the root only where read (codegen/passes/roots.py)
                   "const uint64_t speed_sq = fx_mag2(vx, vy);", "if (fx_mag_lt(speed_sq, P->min_speed)) {",
                   "speed = fx_mag_root(speed_sq);", "if (y < P->top_margin) vy = fx_add(vy, P->turn_factor);"):
        assert needle in step, needle


def test_zones_in_hilo_only_where_a_and_b_fit_a_word():
    """fx_d2_zones takes visual - protected and visual + protected as words:
    the chain falls back to 64-bit squares where the ranges allow more."""
    from types import SimpleNamespace as NS

    from codegen.passes.zones import zones_in_hilo

    def m(vmax, pmin=0):
        ps = {"v": NS(min_raw=0, max_raw=vmax), "p": NS(min_raw=pmin, max_raw=2**20)}
        return NS(param=ps.__getitem__)

    zr = {"protected": "p", "visual": "v"}
    assert zones_in_hilo(m(2**30), zr) and zones_in_hilo(m(2**31 - 1 - 2**20), zr)
    assert not zones_in_hilo(m(2**31 - 2**20), zr)  # v + p reaches 2^31
    assert not zones_in_hilo(m(2**20, pmin=-(2**31)), zr)  # v - p past the word
    assert not zones_in_hilo(m(2**20), {"visual": "v"})  # one zone: d2 as before
