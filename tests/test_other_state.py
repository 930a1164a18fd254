"""Issue 37: a neighbour's declared state is readable as other.<state> inside
each over boids, in the C and the kernel alike (bit-exact in both orders,
the simulator's grid too), and the range analysis bounds it by the state's
own bound."""
from __future__ import annotations

import numpy as np
import pytest

from codegen.commands.cli import main
from codegen.model.gen_model import build_model
from codegen.output.render import load_generated_model
from codegen.model.spec_load import load_spec
from pysim.engine import Simulation

from .conftest import require_tool
from .test_checks37 import check, spec_with, worst

ALARM = """\
  alarm:
    description: an alarm spreads from boid 0 to its neighbours, who then flee right
    roles: {range: fixed, f: fixed}
    state: {scared: "1 if index == 0 else 0"}
    neighbours: {of: boids, within: range}
    each: |
      heard += other.scared
    apply: |
      if heard > 0:
          scared = 1
      if scared == 1:
          vx += f
"""
USE = "  - {rule: alarm, range: visual_range, f: avoid_factor}"


def test_other_state_is_bounded_by_the_state(tmp_path, capsys):
    p = spec_with(tmp_path, ALARM, USE)
    rc, err, out = check(p, capsys)
    assert rc == 0, err
    assert "state scared in [0, 1]" in out
    assert worst(out, "alarm", "heard += other.scared") == 99  # one a neighbour, 99 neighbours (capacity 100)


@pytest.mark.parametrize("grid", [False, True], ids=["brute", "c_grid"])
def test_other_state_spreads_bit_exact_in_both_orders(tmp_path, capsys, grid):
    """The C's grid (performance.grid) visits a sorted copy of the boids, state and all."""
    require_tool("gcc")
    subs = [("serial: {baud: 115200}\n", "serial: {baud: 115200}\nperformance: {grid: true}\n"),
            ("update_order: sequential", "update_order: synchronous")] if grid else []
    p = spec_with(tmp_path, ALARM, USE, *subs)
    assert main(["parity", str(p), "--frames", "120", "--order", "both"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert out.count("bit-exact") == 2, out
    s, _ = load_spec(str(p))
    model = load_generated_model(str(p), build_model(s, str(p)))
    sim = Simulation(model, "fixed")
    sim.run(3)
    scared = int(np.count_nonzero(sim.b["scared"]))
    assert 1 < scared < sim.count  # it spread, and not to everyone: the test reads a state that changes


def test_other_state_with_the_simulators_grid(tmp_path):
    """The synchronous grid sorts the frame's copy into slots; the state is read by boid (order[s])."""
    p = spec_with(tmp_path, ALARM, USE, ("update_order: sequential", "update_order: synchronous"))
    assert main(["generate", str(p)]) == 0
    s, _ = load_spec(str(p))
    model = load_generated_model(str(p), build_model(s, str(p)))
    brute, grid = Simulation(model, "fixed"), Simulation(model, "fixed")
    brute.pair_method, grid.pair_method = "brute", "grid"
    brute.run(60)
    grid.run(60)
    assert grid.grid_used
    for k in ("x", "y", "vx", "vy", "scared"):
        assert np.array_equal(brute.b[k], grid.b[k]), k


def test_other_state_is_only_the_rules_own(tmp_path, capsys):
    each = ALARM.replace("heard += other.scared", "heard += other.fear")
    p = spec_with(tmp_path, each, USE)
    rc, err, _ = check(p, capsys)
    assert rc == 2
    assert "boids have no field 'fear' (fields: x, y, vx, vy, scared; and the state this rule declares)" in err[0]
