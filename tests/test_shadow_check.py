"""The shadow check: every committed spec, driven at extreme in-range
parameters, keeps every fixed-point value within 32 bits."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codegen.cli import main
from codegen.model import build_model
from codegen.project import load_generated_model
from codegen.spec_loader import load_spec
from pysim.checked_arith import OverflowFound, checked_simulation
from pysim.engine import Simulation

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "spec").glob("*.yaml"))


def _model(spec: Path):
    s, _ = load_spec(str(spec))
    return load_generated_model(str(spec), build_model(s, str(spec)))


def _extreme(sim, end: str) -> None:
    """Every parameter at its max (or min); counts of world entities at their max either way."""
    for p in sim.model.PARAMS:
        raw = p.max_raw if end == "max" or p.type == "int" else p.min_raw
        sim.params.raw[p.name] = raw


@pytest.mark.parametrize("end", ["max", "min"])
@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_extreme_parameters_stay_in_32_bits(spec, end):
    model = _model(spec)
    sim = checked_simulation(model)
    _extreme(sim, end)
    sim.reset(model.SEED, model.CAPACITY)
    sim.run(25)  # raises OverflowFound naming frame, boid and expression
    assert sim.frame == 25


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_extreme_parameters_long_run(spec):
    model = _model(spec)
    sim = checked_simulation(model)
    _extreme(sim, "max")
    sim.reset(model.SEED, model.CAPACITY)
    sim.run(300)


def test_checked_equals_fixed_bit_for_bit():
    model = _model(ROOT / "spec" / "boids.yaml")
    a, b = checked_simulation(model), Simulation(model, "fixed")
    a.run(30)
    b.run(30)
    for k in ("x", "y", "vx", "vy"):
        assert np.array_equal(a.b[k], b.b[k])


def test_overflow_names_frame_boid_and_expression():
    # A speed floor above the ceiling (the ranges before the range analysis
    # narrowed them): a boid at 1 LSB of speed is scaled up to min_speed,
    # then divided by that tiny speed again for the ceiling.
    model = _model(ROOT / "spec" / "boids.yaml")
    sim = checked_simulation(model)
    sim.params.raw["min_speed"] = 10 << model.FRAC_BITS
    sim.params.raw["max_speed"] = 0
    one = 1 << model.FRAC_BITS
    # three boids inside the margins, farther apart than the visual range; boid 2 crawls at 1 LSB
    sim.load_state([60 * one, 160 * one, 260 * one], [120 * one] * 3, [2 * one, 2 * one, 1], [0, 0, 0])
    with pytest.raises(OverflowFound) as e:
        sim.step()
    assert (e.value.frame, e.value.who, e.value.index) == (0, "boid", 2)
    assert e.value.rule == "speed_limit" and e.value.expr == "vx / speed"
    assert "frame 0, boid 2, rule 'speed_limit': `vx / speed`" in str(e.value)


def test_cli_check_overflow(capsys):
    assert main(["sim", str(ROOT / "spec" / "boids.yaml"), "--frames", "3", "--check-overflow"]) == 0
    assert "every value within 32 bits" in capsys.readouterr().out
