"""Random well-typed rule bodies, from the language's grammar: the firmware's
C and the simulator's compiled kernel give the same trace bit for bit in
fixed point (both update orders), and the float kernel stays close to the
fixed one over a frame.

Each example is a spec (spec/lab_tft_predator.yaml plus one random rule
that reads the boids' neighbours, its state, the predators and the
parameters) that the range analysis accepts: a body it refuses (a value
that can leave 32 bits) is discarded, as `boidsgen generate` discards it.
Every example builds a firmware and compiles a kernel (a few seconds each).
"""
from __future__ import annotations

import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from codegen.commands.parity import firmware_trace, prepare, simulator_trace
from codegen.spec.errors import SpecError
from pysim.engine import Simulation
from pysim.trace import compare

from .conftest import ROOT, require_tool

# Values stay small so the range analysis accepts most bodies: velocities,
# offsets scaled down, the rule's roles (a <= 0.1, b about 1), small ints.

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: a kernel and a firmware per drawn rule

F_APPLY = ["vx", "vy", "a", "b", "0.5", "2", "x / 64", "y / 64", "urge"]
F_EACH = ["dx / 16", "dy / 16", "other.vx", "other.vy", "a", "b", "0.25"]
I_LEAVES = ["k", "3", "1"]


def fixed_expr(leaves, depth):
    leaf = st.sampled_from(leaves)
    if depth == 0:
        return leaf
    sub = fixed_expr(leaves, depth - 1)
    ints = int_expr(leaves, depth - 1)
    conds = cond_expr(leaves, depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["+", "-", "*"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(sub, sub).map(lambda t: f"({t[0]} / (abs({t[1]}) + 1))"),
        st.tuples(st.sampled_from(["min", "max", "mag", "hypot"]), sub, sub).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        st.tuples(st.sampled_from(["abs", "-", "sqrt"]), sub).map(
            lambda t: f"sqrt(abs({t[1]}))" if t[0] == "sqrt" else (f"abs({t[1]})" if t[0] == "abs" else f"-{t[1]}")),
        sub.map(lambda e: f"clamp({e}, -2, 2)"),
        st.tuples(sub, ints).map(lambda t: f"({t[0]} * {t[1]})"),
        st.tuples(sub, ints).map(lambda t: f"({t[0]} / {t[1]})"),
        ints.map(lambda e: f"fixed({e})"),
        st.tuples(conds, sub, sub).map(lambda t: f"({t[1]} if {t[0]} else {t[2]})"),
    )


def int_expr(leaves, depth):
    leaf = st.sampled_from(I_LEAVES)
    if depth == 0:
        return leaf
    sub = int_expr(leaves, depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        fixed_expr(leaves, depth - 1).map(lambda e: f"sign({e})"),
        fixed_expr(leaves, depth - 1).map(lambda e: f"int(clamp({e}, -8, 8))"),
        st.tuples(sub, sub).map(lambda t: f"min({t[0]}, {t[1]})"),
    )


def cond_expr(leaves, depth):
    f = fixed_expr(leaves, max(depth - 1, 0))
    i = int_expr(leaves, max(depth - 1, 0))
    base = st.one_of(
        st.tuples(f, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), f).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(i, st.sampled_from(["<", ">=", "!="]), i).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
    )
    if depth == 0:
        return base
    return st.one_of(base, st.tuples(base, st.sampled_from(["and", "or"]), base).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"), base.map(lambda c: f"not ({c})"))


def apply_stmt():
    f = fixed_expr(F_APPLY, 2)
    c = cond_expr(F_APPLY, 1)
    return st.one_of(
        st.tuples(st.sampled_from(["vx", "vy"]), st.sampled_from(["+=", "-="]), f).map(
            lambda t: f"{t[0]} {t[1]} clamp({t[2]}, -1, 1) * a"),
        f.map(lambda e: f"urge = clamp(urge + {e} * a, -4, 4)"),
        f.map(lambda e: f"vx += clamp(urge * {e}, -1, 1) * a"),
        st.tuples(c, f, f).map(lambda t: f"if {t[0]}:\n    vx += clamp({t[1]}, -1, 1) * a\n"
                                         f"else:\n    vy -= clamp({t[2]}, -1, 1) * a"),
        st.sampled_from(["if count > 0:\n    vx += clamp(s1 / count, -1, 1) * a\n    vy -= sign(s2) * a",
                         "if count > k:\n    vy += a", "vx -= clamp(fixed(count), -3, 3) * a / 4",
                         "urge = -urge"]),
    )


def each_stmt():
    f = fixed_expr(F_EACH, 2)
    return st.one_of(f.map(lambda e: f"s1 += clamp({e}, -4, 4)"), f.map(lambda e: f"s2 -= clamp({e}, -4, 4)"))


RULE = """
rule_defs:
  rnd:
    description: a random rule
    roles: {{a: fixed, b: fixed, k: int, range: fixed}}
    neighbours: {{of: boids, within: range, coincident: {coincident}}}
    state: {{urge: 0}}
    each: |
{each}
    apply: |
{apply}
"""
PARAMS = """  rnd_a: {default: 0.05, min: 0, max: 0.1}
  rnd_b: {default: 1.25, min: 0.5, max: 2}
  rnd_k: {default: 2, min: 0, max: 4, type: int}
  rnd_range: {default: 15, min: 0, max: 30}
"""


def spec_text(each: str, apply: str, coincident: bool, order: str) -> str:
    text = (ROOT / "spec" / "lab_tft_predator.yaml").read_text(encoding="utf-8")
    head, params = text.split("\nparams:\n", 1)
    text = head + "\nparams:\n" + PARAMS + params
    text = text.replace("update_order: sequential", f"update_order: {order}")
    i = text.index("  - {rule: speed_limit")
    text = text[:i] + "  - {rule: rnd, a: rnd_a, b: rnd_b, k: rnd_k, range: rnd_range}\n" + text[i:]
    each = "s1 += 0\ns2 += 0\n" + each  # both sums exist whatever the body adds
    return text + RULE.format(coincident=str(coincident).lower(), each=textwrap.indent(each, " " * 6),
                              apply=textwrap.indent(apply, " " * 6))


@pytest.mark.slow
# 6 drawn rules (10 before; a kernel and a firmware each, about 9 s): derandomized, the same 6 every run
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(each=st.lists(each_stmt(), min_size=1, max_size=3).map("\n".join),
       apply=st.lists(apply_stmt(), min_size=1, max_size=4).map("\n".join),
       coincident=st.booleans(), order=st.sampled_from(["sequential", "synchronous"]))
def test_random_rules_c_equals_compiled_simulator(each, apply, coincident, order):
    require_tool("gcc")
    require_tool("make")
    folder = ROOT / "build" / "tests" / "random_rules" / "spec"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "rnd.yaml"
    path.write_text(spec_text(each, apply, coincident, order), encoding="utf-8")
    try:
        m, exe, model = prepare(str(path))
    except SpecError as e:  # the range analysis refuses this body (a value can leave 32 bits): so would generate
        if all("can reach" in i.reason or "overflow" in i.reason for i in e.issues):
            assume(False)
        raise
    c = firmware_trace(exe, 60, 3, 40, ())
    p = simulator_trace(model, 60, 3, 40, ())
    diff = compare(c.splitlines(), p.splitlines())
    assert diff is None, f"{diff}\n--- each:\n{each}\n--- apply:\n{apply}"
    # the float kernel: the same rules, the ideal arithmetic, within 1/16 px of fixed after one frame for most boids
    fx, fl = Simulation(model, "fixed", seed=3, boids=40), Simulation(model, "float", seed=3, boids=40)
    fx.step()
    fl.step()
    one = 1 << model.FRAC_BITS
    err = np.hypot(fx.x / one - fl.x, fx.y / one - fl.y)
    assert np.median(err) < 1 / 16, (float(np.median(err)), each, apply)
