"""The rule language's front end (codegen/lang): the issue's four examples
type-check as written; bad rules give located errors; the library's rule
definitions (codegen/rules/defs/) compile."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from codegen.lang import compile_rule
from codegen.lang.ir import Accumulate, Assign, If, Op, Type
from codegen.spec_errors import SpecError
from codegen.spec_loader import read_yaml

F, I, B, SF, SI = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT

EXAMPLES = """\
rule_defs:
  wind:
    description: a steady drift added every frame
    roles: {x: fixed, y: fixed}
    apply: |
      vx += x
      vy += y
  crowding:
    description: slow down in a crowd
    roles: {range: fixed, slow: fixed}
    neighbours: {of: boids, within: range}
    each: |
      crowd += 1
    apply: |
      if crowd > 3:
          vx -= vx * slow
          vy -= vy * slow
  restless:
    description: an urge to turn builds up until the boid turns left
    roles: {rate: fixed, limit: fixed}
    state: {urge: 0}
    apply: |
      urge = min(urge + rate, limit)
      if urge >= limit:
          t = vx
          vx = -vy
          vy = t
          urge = 0
  predator_push:
    description: turn away from predators, summed
    roles: {range: fixed, push: fixed}
    neighbours: {of: predators, within: range}
    each: |
      away_x += dx
      away_y += dy
    apply: |
      vx += sign(away_x) * push
      vy += sign(away_y) * push
"""


def load_defs(tmp_path: Path, text: str, name: str = "spec.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path, read_yaml(path)


def compile_all(tmp_path: Path, text: str, params=None):
    path, doc = load_defs(tmp_path, text)
    return {n: compile_rule(n, node, str(path), params or {}) for n, node in doc["rule_defs"].items()}


@pytest.fixture
def examples(tmp_path):
    return compile_all(tmp_path, EXAMPLES)


def test_wind_roles_shadow_the_position(examples):
    w = examples["wind"]
    assert [(r.name, r.type) for r in w.roles] == [("x", F), ("y", F)]
    assert w.neighbours is None and w.each == () and w.sums == ()
    first = w.apply[0]
    assert isinstance(first, Assign) and first.target.name == "vx"
    assert first.value.op == "add" and first.value.args[1].kind == "role"
    assert w.reads_apply.roles == {"x", "y"} and w.writes == {"vx", "vy"}
    assert (first.pos.line, first.pos.col) == (6, 10)  # the `+=`


def test_crowding_counts_in_an_int_sum(examples):
    c = examples["crowding"]
    assert [(s.name, s.type) for s in c.sums] == [("crowd", SI)]
    acc = c.each[0]
    assert isinstance(acc, Accumulate) and acc.op == "acc_add" and acc.value.type == I
    cond = c.apply[0]
    assert isinstance(cond, If) and cond.cond.op == "gt"
    assert cond.cond.args[0].type == SI and cond.cond.args[1].type == I  # compared whole, in 64 bits
    assert cond.then[0].value.op == "sub" and cond.then[0].value.args[1].op == "mul"
    assert c.neighbours.of == "boids" and c.neighbours.within == "range" and c.neighbours.coincident
    assert not c.needs_dist and c.reads_apply.sums == {"crowd"}


def test_restless_state_is_inferred_fixed(examples):
    r = examples["restless"]
    (urge,) = r.state
    assert urge.type == F and urge.initial.type == F and urge.initial.value == 0
    assert [(lc.name, lc.type, lc.block) for lc in r.locals] == [("t", F, "apply")]
    assert r.apply[0].value.op == "min" and r.apply[0].value.type == F
    reset = r.apply[1].then[-1]
    assert reset.target.kind == "state" and reset.value.type == F  # `urge = 0` is 0.0
    assert r.writes == {"vx", "vy", "urge"}
    assert r.apply[1].then[1].value.op == "neg"


def test_predator_push_sums_offsets_and_scales_by_sign(examples):
    p = examples["predator_push"]
    assert [(s.name, s.type) for s in p.sums] == [("away_x", SF), ("away_y", SF)]
    assert p.neighbours.of == "predators" and p.reads_each.pair == {"dx", "dy"}
    value = p.apply[0].value
    assert value.op == "add"
    scaled = value.args[1]
    assert scaled.op == "mul_int" and scaled.args[0].name == "push"
    assert scaled.args[1].op == "sign" and scaled.args[1].args[0].type == SF  # the exact sum's sign
