"""The simulator emitter (codegen/targets/numba/emit.py, kernel.py): every IR
op in every arithmetic, the expressions the checked run quotes, the kernel's
cache key, and spec-defined rules (the issue's four examples) compiled and
run in all three arithmetics."""
from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from codegen.targets.numba.emit import ARITHS, Emitter, Sites, fixed_raw, ir_text
from codegen.lang.ir import Const, Op, Pos, Ref, Type
from codegen.lang.ops import OPS
from codegen.lang.library import library
from codegen.output.pipeline import load
from codegen.output.render import render_python
from pysim.checked_arith import OverflowFound
from pysim.engine import checked_simulation
from pysim.engine import Simulation
from pysim.model_support import ModelMismatch, load_kernel, load_model

from .conftest import ROOT
from .issue_examples import RULE_DEFS

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of unusual specs, three arithmetics

P = Pos(1, 1)
F, I, B, SF, SI, SQ = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT, Type.SQUARE
# argument types of each op, for building one of each
ARGS = {
    "add": (F, F), "sub": (F, F), "neg": (F,), "mul": (F, F), "div": (F, F), "mul_int": (F, I), "div_int": (F, I),
    "sqrt": (F,), "hypot": (F, F), "mag": (F, F), "sq": (F,), "iadd": (I, I), "isub": (I, I), "ineg": (I,),
    "imul": (I, I), "idiv": (I, I), "int_to_fixed": (I,), "fixed_to_int": (F,), "sum_to_fixed": (SF,),
    "sum_to_int": (SI,), "sum_mean": (SF, I), "sum_mean_about": (SF, I, F), "sum_idiv": (SI, I), "sum_wrap32": (SF,), "abs": (F,), "min": (F, F), "max": (I, I),
    "clamp": (F, F, F), "sign": (SF,), "select": (B, F, F), "lt": (F, F), "le": (I, I), "gt": (SF, F), "ge": (F, F),
    "eq": (SQ, SQ), "ne": (F, F), "and": (B, B), "or": (B, B), "not": (B,),
    # codegen/passes/roots.py: a magnitude compared as its square
    "mag2": (F, F), "mag_root": (SQ,), "mag_lt": (SQ, F), "mag_le": (SQ, F), "mag_gt": (SQ, F),
    "mag_ge": (SQ, F), "mag_eq": (SQ, F), "mag_ne": (SQ, F),
    # issue 37: angles in turns, vectors, the PRNG's draws (a draw is an int-typed raw uint32)
    "sin": (F,), "cos": (F,), "atan2": (F, F), "unit_x": (F, F), "unit_y": (F, F), "rotate_x": (F, F, F),
    "rotate_y": (F, F, F), "random": (I,), "random_int": (I, I, I),
}


def _op(name: str) -> Op:
    args = tuple(Ref("local", f"a{k}", t, P) for k, t in enumerate(ARGS[name]))
    t = OPS[name].result or ARGS[name][-1]
    return Op(name, args, t, P)


def test_every_op_has_one_spelling_per_arithmetic():
    assert set(ARGS) == set(OPS), "a new op needs a case here (and in codegen/targets/numba/emit.py)"
    for name in OPS:
        texts = {}
        for arith in ARITHS:
            sites = Sites()
            e = Emitter(arith, 15, lambda r: r.name, sites=sites if arith == "checked" else None, rule="r")
            texts[arith] = e.expr(_op(name))
            if arith == "checked" and sites.rows:
                assert ", st, 0)" in texts[arith] and sites.rows[0][0] == "r", (name, texts[arith])
        assert all(t for t in texts.values()), name
    # fixed point never uses Python's own division, floor or modulo
    for name in OPS:
        text = Emitter("fixed", 15, lambda r: r.name).expr(_op(name))
        assert "//" not in text and "%" not in text and " / " not in text, (name, text)


@pytest.mark.parametrize("name, fixed, flt", [
    ("div", "fx_div(a0, a1, FRAC_BITS)", "fl_div(a0, a1, FRAC_BITS)"),
    ("mul_int", "fx_imul(a1, a0)", "fl_imul(a1, a0)"),
    ("idiv", "fx_idiv(a0, a1)", "fx_idiv(a0, a1)"),  # ints are ints in both arithmetics
    ("fixed_to_int", "fx_to_int(a0, FRAC_BITS)", "fl_to_int(a0, FRAC_BITS)"),  # truncation toward zero
    ("mag", "fx_mag(a0, a1, USE_AMB, AMB_ALPHA, AMB_BETA, FRAC_BITS)",
     "fl_mag(a0, a1, USE_AMB, AMB_ALPHA, AMB_BETA, FRAC_BITS)"),
    ("clamp", "fx_clamp(a0, a1, a2)", "fl_clamp(a0, a1, a2)"),
    ("max", "fx_max(a0, a1)", "fx_max(a0, a1)"),  # of ints
    ("sign", "fx_sign(a0)", "fl_sign(a0)"),
])
def test_spellings(name, fixed, flt):
    assert Emitter("fixed", 15, lambda r: r.name).expr(_op(name)) == fixed
    assert Emitter("float", 15, lambda r: r.name).expr(_op(name)) == flt


def test_constants():
    e, f = Emitter("fixed", 15, str), Emitter("float", 15, str)
    assert e.expr(Const(Fraction(1, 2), F, P)) == str(1 << 14) and f.expr(Const(Fraction(1, 2), F, P)) == "0.5"
    assert e.expr(Const(Fraction(-3), F, P)) == f"({-3 << 15})"
    assert e.expr(Const(4, SQ, P)) == f"np.uint64({4 << 30})" and f.expr(Const(4, SQ, P)) == "4.0"
    assert e.expr(Const(7, I, P)) == f.expr(Const(7, I, P)) == "7"
    # halves away from zero, as the generator converts parameters
    assert fixed_raw(Fraction(3, 1 << 16), 15) == 2 and fixed_raw(Fraction(-3, 1 << 16), 15) == -2


def test_ir_text_reads_as_the_rule_is_written():
    lib = library(15)
    limit = lib["speed_limit"].apply[1].then[0].orelse[0]  # vx = vx / speed * min
    assert ir_text(limit.value) == "vx / speed * min"
    assert ir_text(limit.value.args[0]) == "vx / speed"
    sep = lib["separation"].apply[0]  # vx += close_dx * factor
    assert ir_text(sep.value) == "vx + close_dx * factor"
    a, b, c = (Ref("local", n, F, P) for n in "abc")
    assert ir_text(Op("mul", (Op("add", (a, b), F, P), c), F, P)) == "(a + b) * c"
    assert ir_text(Op("sub", (a, Op("sub", (b, c), F, P)), F, P)) == "a - (b - c)"
    assert ir_text(Op("neg", (Const(Fraction(5, 4), F, P),), F, P)) == "-1.25"


# ---------------------------------------------------------------- the kernel module

def _copy_generated(tmp_path: Path, name: str = "boids") -> Path:
    out = tmp_path / name
    shutil.copytree(ROOT / "generated" / name / "python", out, ignore=shutil.ignore_patterns("__pycache__"))
    return out


def test_kernel_carries_its_cache_key():
    text = (ROOT / "generated" / "boids" / "python" / "boids_kernel.py").read_text()
    from pysim import fxops

    assert f'FXOPS_HASH = "{fxops.SOURCE_HASH}"' in text and 'GENERATOR = "boidsgen ' in text
    assert "KERNEL_HASH = \"" in text and "@@" not in text
    assert text.count("@njit(cache=True)\ndef step_") == 3
    model = (ROOT / "generated" / "boids" / "python" / "boids_model.py").read_text()
    h = text.split('KERNEL_HASH = "', 1)[1][:16]
    assert f'KERNEL_HASH = "{h}"' in model


def test_kernels_compile_from_copies_named_by_content_and_runtime(tmp_path, monkeypatch):
    """A copy elsewhere (a variant, a test folder) shares the compiled kernel;
    another runtime (fxops.py) gets a copy, and a compile, of its own."""
    from pysim import fxops

    out = _copy_generated(tmp_path)
    here = load_kernel(load_model(ROOT / "generated" / "boids" / "python" / "boids_model.py"))
    there = load_kernel(load_model(out / "boids_model.py"))
    assert here is there and Path(here.__file__).read_text() == (out / "boids_kernel.py").read_text()
    monkeypatch.setattr(fxops, "SOURCE_HASH", "0" * 16)
    other = load_kernel(load_model(out / "boids_model.py", ))
    assert Path(other.__file__).parent != Path(here.__file__).parent


def test_kernel_of_another_render_is_refused(tmp_path):
    out = _copy_generated(tmp_path)
    shutil.copy(ROOT / "generated" / "extensions" / "python" / "boids_kernel.py", out / "boids_kernel.py")
    with pytest.raises(ModelMismatch, match="not the kernel generated with"):
        load_kernel(load_model(out / "boids_model.py"))
    (out / "boids_kernel.py").unlink()
    with pytest.raises(ModelMismatch, match="no generated kernel"):
        load_kernel(load_model(out / "boids_model.py"))


# ---------------------------------------------------------------- spec-defined rules

# restless's urge starts from an expression here (the issue writes 0; tests/test_issue_examples.py runs that)
EXAMPLES = "\n" + RULE_DEFS.replace("state: {urge: 0}", 'state: {urge: "limit / 2 if index < 5 else 0"}')
PARAMS = """  wind_x: {default: 0.01, min: -1, max: 1}
  wind_y: {default: -0.005, min: -1, max: 1}
  crowd_range: {default: 12, min: 0, max: 40}
  crowd_slow: {default: 0.02, min: 0, max: 0.5}
  restless_rate: {default: 0.02, min: 0, max: 1}
  restless_limit: {default: 1, min: 0.1, max: 4}
  push_range: {default: 60, min: 0, max: 100}
  push: {default: 0.3, min: 0, max: 1}
"""
RULES = """  - {rule: wind, x: wind_x, y: wind_y}
  - {rule: crowding, range: crowd_range, slow: crowd_slow}
  - {rule: restless, rate: restless_rate, limit: restless_limit}
  - {rule: predator_push, range: push_range, push: push}
"""


@pytest.fixture(scope="module")
def examples():
    """spec/lab_tft_predator.yaml with the four rules, rendered where numba's cache survives."""
    text = (ROOT / "spec" / "lab_tft_predator.yaml").read_text(encoding="utf-8")
    head, params = text.split("\nparams:\n", 1)
    text = head + "\nparams:\n" + PARAMS + params
    i = text.index("  - {rule: speed_limit")
    text = text[:i] + RULES + text[i:] + EXAMPLES
    folder = ROOT / "build" / "tests" / "emit_py" / "spec"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "examples.yaml"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    m = load(path)
    out = folder.parent / "out"
    out.mkdir(exist_ok=True)
    for rel, new in render_python(m).items():
        f = out / Path(rel).name
        if not f.is_file() or f.read_text(encoding="utf-8") != new:
            f.write_text(new, encoding="utf-8")
    return m, load_model(out / "boids_model.py", expect_hash=m.hash), path


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_examples_parity_with_the_firmware(examples, order):
    """The issue's bar for its four examples: `boidsgen parity --frames 2000` bit-exact, both orders."""
    from codegen.commands.parity import run_parity

    from .conftest import require_tool

    require_tool("gcc")
    require_tool("make")
    r = run_parity(str(examples[2]), 2000, order=order)
    assert r.ok, r.summary


def test_examples_emit_the_c_shape(examples):
    m, model, _ = examples
    src = Path(load_kernel(model).__file__).read_text()
    step = src[src.index("def step_fixed"):src.index("def step_float")]
    # crowding joins the fused pair loop with its own (coincident: d2 == 0 counts) range test
    assert re.search(r"\n {16}if d2 < r2_g0:\n {20}n_g0 \+= 1\n {20}r\d+_crowd = fx_acc_add\(r\d+_crowd, 1\)", step)
    # predator_push visits the predators at its own turn, before its apply
    assert re.search(r"for q in range\(px.shape\[0\]\):\n.*\n.*\n.*\n {12}if d2 < r\d+_w2:\n {16}r\d+_count \+= 1\n"
                     r" {16}r\d+_away_x = fx_acc_add\(r\d+_away_x, dx\)", step)
    assert "a_urge[i] = s_urge" in step


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_examples_fixed_checked_and_float_agree(examples, order):
    m, model, _ = examples
    fixed = Simulation(model, "fixed", seed=5, order=order)
    checked = checked_simulation(model, seed=5, order=order)
    flt = Simulation(model, "float", seed=5, order=order)
    one = 1 << model.FRAC_BITS
    # the initial urge comes from the parameters, per boid
    lim = fixed.params.raw["restless_limit"]
    assert list(fixed.b["urge"][:7]) == [lim // 2] * 5 + [0, 0]
    assert np.allclose(flt.b["urge"][:7], [0.5] * 5 + [0, 0])
    for f in range(60):
        fixed.step()
        checked.step()
        flt.step()
        for k in fixed.b:
            assert np.array_equal(fixed.b[k], checked.b[k]), (f, k)
        if f < 3:  # quantisation only, before the flocks part ways
            assert np.abs(fixed.x / one - flt.x).max() < 0.05, f
    assert fixed.b["urge"].max() < lim  # the urge turned the boids and started over
    fixed.set_count(3)
    assert fixed.add_boid(50 * one, 50 * one) and fixed.add_boid(60 * one, 50 * one)
    assert list(fixed.b["urge"][3:]) == [lim // 2, lim // 2]  # indices 3 and 4: limit / 2
    fixed.set_count(10)  # spawned: indices 5.. start at 0
    assert list(fixed.b["urge"][5:]) == [0] * 5


def test_checked_example_names_the_spec_file(examples):
    m, model, _ = examples
    sim = checked_simulation(model, seed=5)
    sim.params.raw["wind_x"] = (1 << 31) - 1  # a wind beyond the spec's range
    with pytest.raises(OverflowFound) as e:
        sim.step()
    assert e.value.rule == "wind" and e.value.expr == "vx + x" and "examples.yaml:" in str(e.value)


@pytest.mark.parametrize("order, grid", [("sequential", False), ("synchronous", True)])
def test_simulator_equals_the_c_on_unusual_rules(order, grid):
    """tests/test_emit_c.py's rules (locals named like the generated code's,
    nearest boid and nearest food, a before block that returns, predators
    with dist, state shared by name and initialised from the index) in the
    firmware and the kernel: the same trace, bit for bit."""
    from codegen.commands.parity import firmware_trace, simulator_trace
    from pysim.trace import compare

    from .conftest import require_tool
    from .test_emit_c import HOSTILE_NAMES, _firmware, _spec

    require_tool("gcc")
    require_tool("make")
    base = ROOT / "build" / "tests" / "emit_py" / "names"  # one spec path: both orders share the kernel
    spec = _spec(base, HOSTILE_NAMES, order, grid)
    m = load(spec)
    _, exes = _firmware(spec, base / f"out-{order}")
    out = base / f"py-{order}"
    out.mkdir(parents=True, exist_ok=True)
    for rel, text in render_python(m).items():
        f = out / Path(rel).name
        if not f.is_file() or f.read_text(encoding="utf-8") != text:
            f.write_text(text, encoding="utf-8")
    model = load_model(out / "boids_model.py", expect_hash=m.hash)
    c = firmware_trace(exes[0], 300, 5, None, ())
    p = simulator_trace(model, 300, 5, None, ())
    assert c.count("\n") > 300 * 10
    assert compare(c.splitlines(), p.splitlines()) is None


ZONE_RULES = """
rule_defs:
  zone_apart:
    description: the visual zone without coincident boids, averaged offsets
    roles: {range: fixed, g: fixed}
    neighbours: {of: boids, within: range, zone: visual, coincident: false}
    each: |
      s += dx
      t += 1
    apply: |
      if count > 0:
          vx += s / count * g
          vy -= fixed(t) * g / 64
  zone_near:
    description: the nearest boid of the protected zone
    roles: {range: fixed, g: fixed}
    neighbours: {of: boids, within: range, zone: protected, pick: nearest}
    each: |
      s += dy
    apply: |
      if count > 0:
          vy += s * g
"""


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_zone_rules_apart_and_nearest_equal_the_c(order):
    """Rules joining the seed's zones with coincident: false and pick:
    nearest (their own counts inside the zone's branch), against the firmware."""
    from codegen.commands.parity import run_parity

    from .conftest import require_tool

    require_tool("gcc")
    require_tool("make")
    text = (ROOT / "spec" / "boids.yaml").read_text(encoding="utf-8")
    text = text.replace("  - {rule: speed_limit", "  - {rule: zone_apart, range: visual_range, g: avoid_factor}\n"
                        "  - {rule: zone_near, range: protected_range, g: matching_factor}\n"
                        "  - {rule: speed_limit", 1) + ZONE_RULES
    path = ROOT / "build" / "tests" / "emit_py_zones" / "spec" / "zones.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    r = run_parity(str(path), 1000, order=order, sets=[("protected_range", "8")])
    assert r.ok, r.summary


def test_a_model_without_its_kernel_is_stale(tmp_path):
    """load_model with the spec's hash (what sim, parity and the GUI use) also
    refuses a model whose kernel is missing or another render's, so the GUI
    falls back to a fresh render."""
    out = _copy_generated(tmp_path)
    h = load_model(out / "boids_model.py").SPEC_HASH
    load_model(out / "boids_model.py", expect_hash=h)
    (out / "boids_kernel.py").unlink()
    with pytest.raises(ModelMismatch, match="no generated kernel"):
        load_model(out / "boids_model.py", expect_hash=h)
