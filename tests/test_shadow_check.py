"""The shadow check: every committed spec, driven at extreme in-range
parameters, keeps every fixed-point value within 32 bits."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codegen.commands.cli import main
from codegen.model.gen_model import build_model
from codegen.output.render import load_generated_model
from codegen.model.spec_load import load_spec
from pysim.checked_arith import OverflowFound
from pysim.engine import Simulation, checked_simulation

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: a checked kernel compiled for every spec

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
    # An avoid factor of 32768 (far beyond the spec's range, which the range
    # analysis keeps safe): two boids 5 px apart push each other by 5 px x
    # 32768, beyond 32 bits. Boid 2 is the first to compute it.
    model = _model(ROOT / "spec" / "boids.yaml")
    sim = checked_simulation(model)
    one = 1 << model.FRAC_BITS
    sim.params.raw["protected_range"] = 10 * one
    sim.params.raw["avoid_factor"] = 1 << 30
    sim.load_state([60 * one, 160 * one, 260 * one, 265 * one], [120 * one] * 4, [2 * one] * 4, [0] * 4)
    with pytest.raises(OverflowFound) as e:
        sim.step()
    assert (e.value.frame, e.value.who, e.value.index) == (0, "boid", 2)
    assert e.value.rule == "separation" and e.value.expr == "close_dx * factor"
    assert e.value.value == -5 << 30
    assert "frame 0, boid 2, rule 'separation': `close_dx * factor` = -163840 (raw -5368709120)" in str(e.value)
    assert "(codegen/rules/defs/separation.yaml:" in str(e.value)
    # the frame still ran to its end, bit for bit the unchecked arithmetic's
    plain = Simulation(model, "fixed")
    plain.params.raw.update(sim.params.raw)
    plain.load_state([60 * one, 160 * one, 260 * one, 265 * one], [120 * one] * 4, [2 * one] * 4, [0] * 4)
    plain.step()
    for k in ("x", "y", "vx", "vy"):
        assert np.array_equal(sim.b[k], plain.b[k])


def test_overflow_in_a_predator_names_the_predator():
    model = _model(ROOT / "spec" / "combo_scouts_predators_obstacles.yaml")  # predators.speed: speed_limit
    sim = checked_simulation(model)
    one = 1 << model.FRAC_BITS
    sim.params.raw["predator_count"] = 2
    sim.load_state([60 * one], [120 * one], [2 * one], [0])
    sim.W.px, sim.W.py = np.array([150 * one, 160 * one]), np.array([100 * one, 100 * one])
    fast = (1 << 31) - 1  # predator 1 flies at (65536, 65536) px/frame: its speed is beyond 32 bits
    sim.W.pvx, sim.W.pvy = np.array([one, fast]), np.array([0, fast])
    with pytest.raises(OverflowFound) as e:
        sim.step()
    assert (e.value.who, e.value.index) == ("predator", 1)
    assert e.value.rule == "predators: speed_limit" and e.value.expr == "mag(vx, vy)"


def test_cli_check_overflow(capsys):
    assert main(["sim", str(ROOT / "spec" / "boids.yaml"), "--frames", "3", "--check-overflow"]) == 0
    assert "every value within 32 bits" in capsys.readouterr().out
