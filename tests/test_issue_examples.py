"""The rule language's four examples exactly as the issue writes them, with
no change to the generator: wind, crowding and restless in a copy of
spec/boids.yaml, predator_push in a copy of a spec with predators; each
through `boidsgen parity --frames 2000` in both update orders, with the grid
where the spec allows it, and with their parameters set at run time through
the serial `set` command (the host firmware's --set is that command; the
simulator converts the same decimal text)."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.commands.parity import firmware_trace, prepare, run_parity, simulator_trace
from pysim.trace import compare

from .conftest import ROOT, require_tool
from .issue_examples import RULE_DEFS

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: 2,000-frame parity of the examples

FLOCK_PARAMS = """  wind_x: {default: 0.01, min: -1, max: 1, unit: px/frame^2}
  wind_y: {default: -0.005, min: -1, max: 1, unit: px/frame^2}
  crowd_range: {default: 12, min: 0, max: 40, unit: px}
  crowd_slow: {default: 0.02, min: 0, max: 0.5}
  restless_rate: {default: 0.02, min: 0, max: 1}
  restless_limit: {default: 1, min: 0.1, max: 4}
"""
FLOCK_RULES = """  - {rule: wind, x: wind_x, y: wind_y}
  - {rule: crowding, range: crowd_range, slow: crowd_slow}
  - {rule: restless, rate: restless_rate, limit: restless_limit}
"""
PUSH_PARAMS = """  push_range: {default: 60, min: 0, max: 100, unit: px}
  push: {default: 0.3, min: 0, max: 1}
"""
PUSH_RULES = "  - {rule: predator_push, range: push_range, push: push}\n"
# run-time values for the serial `set`, away from the defaults
SETS = {"flock": [("wind_x", "-0.02"), ("wind_y", "0.015"), ("crowd_range", "20"), ("crowd_slow", "0.1"),
                  ("restless_rate", "0.05"), ("restless_limit", "2.5")],
        "push": [("push_range", "90"), ("push", "0.45")]}


def _spec(folder: Path, base: str, name: str, params: str, rules: str, extra: str = "") -> Path:
    text = (ROOT / "spec" / base).read_text(encoding="utf-8")
    text = text.replace(f"name: {Path(base).stem}", f"name: {name}", 1).replace("\nparams:\n", "\nparams:\n" + params, 1)
    i = text.index("\n", text.index("  - {rule: speed_limit")) + 1  # the library rules as before, then the new ones
    text = text[:i] + rules + text[i:] + extra + "\n" + RULE_DEFS
    path = folder / "spec" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    require_tool("gcc")
    require_tool("make")
    root = tmp_path_factory.mktemp("examples")
    flock = _spec(root, "boids.yaml", "examples", FLOCK_PARAMS, FLOCK_RULES)
    grid = _spec(root, "boids.yaml", "examples_grid", FLOCK_PARAMS, FLOCK_RULES, "performance: {grid: true}\n")
    grid.write_text(grid.read_text().replace("update_order: sequential", "update_order: synchronous"))
    push = _spec(root, "lab_tft_predator.yaml", "examples_push", PUSH_PARAMS, PUSH_RULES)
    return {"flock": flock, "grid": grid, "push": push}


@pytest.mark.parametrize("which", ["flock", "push"])
@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_examples_as_written_parity_2000_frames(specs, which, order):
    r = run_parity(str(specs[which]), 2000, order=order)
    assert r.ok and "2000 frames x 100 boids bit-exact" in r.summary, r.summary


def test_examples_with_the_grid(specs):
    assert "performance: {grid: true}" in specs["grid"].read_text()
    r = run_parity(str(specs["grid"]), 2000)
    assert r.ok and ", synchronous," in r.summary, r.summary


@pytest.mark.parametrize("which, sets", [("flock", "flock"), ("grid", "flock"), ("push", "push")])
def test_examples_parameters_set_at_run_time(specs, which, sets):
    """Every example parameter set through the serial `set` on the board and
    on the simulator: 500 frames bit for bit in the spec's order, and a
    flock that differs from the defaults' (the values took effect)."""
    m, exe, model = prepare(str(specs[which]))
    c = firmware_trace(exe, 500, 3, None, SETS[sets])
    assert compare(c.splitlines(), simulator_trace(model, 500, 3, None, SETS[sets]).splitlines()) is None
    for name, value in SETS[sets]:
        assert f"# param: {name}=" in c
    plain = firmware_trace(exe, 500, 3, None, [])
    diff = compare(plain.splitlines(), c.splitlines())
    assert diff is not None and "header line" in str(diff)  # the parameters differ ...
    rows = lambda t: [ln for ln in t.splitlines() if not ln.startswith("#")]  # noqa: E731
    assert rows(plain) != rows(c)  # ... and so does the flock
