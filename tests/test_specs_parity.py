"""Every committed spec, firmware against simulator, bit for bit: 2000 frames
at the spec's own flock size (issue: `boidsgen parity spec/X.yaml --frames
2000 --seed 3`), plus a short run with parameters pushed to their ranges."""
from __future__ import annotations

import pytest

from codegen.parity import firmware_trace, prepare, run_parity, simulator_trace
from pysim.fxdecimal import format_raw
from pysim.trace import compare

from .conftest import ROOT, require_tool

SPECS = sorted((ROOT / "spec").glob("*.yaml"))


@pytest.fixture(scope="module", autouse=True)
def tools():
    require_tool("gcc")
    require_tool("make")


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_spec_parity_2000_frames(spec):
    res = run_parity(str(spec), frames=2000, seed=3)
    assert res.ok, res.summary
    assert "2000 frames x" in res.summary


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
@pytest.mark.parametrize("corner", ["min", "max"])
def test_spec_parity_parameter_extremes(spec, corner):
    """Every tunable parameter at its min (or max) at once: the rules' guards
    (zero ranges, zero speeds, full bias) must agree too."""
    m, exe, model = prepare(str(spec))
    sets = [(p.name, format_raw(getattr(p, f"{corner}_raw"), model.FRAC_BITS) if p.type == "fixed"
             else str(getattr(p, f"{corner}_raw"))) for p in model.PARAMS if p.tunable]
    frames, boids = (60, 25) if model.UPDATE_ORDER == "sequential" else (150, 40)
    c = firmware_trace(exe, frames, 3, boids, sets)
    p = simulator_trace(model, frames, 3, boids, sets)
    diff = compare(c.splitlines(), p.splitlines())
    assert diff is None, f"{spec.name} at {corner}: {diff}"


@pytest.fixture(scope="module")
def spec_builds():
    return {s.stem: prepare(str(s)) for s in SPECS}


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_spec_parity_random_parameters(spec, spec_builds):
    """Every tunable parameter drawn at random inside its range (a fixed
    seed, several draws): the whole rule library, not only its corners."""
    import random

    m, exe, model = spec_builds[spec.stem]
    rnd = random.Random(spec.stem)
    for draw in range(4):
        sets = []
        for p in model.PARAMS:
            if p.tunable:
                raw = rnd.randint(p.min_raw, p.max_raw)
                sets.append((p.name, format_raw(raw, model.FRAC_BITS) if p.type == "fixed" else str(raw)))
        seed = rnd.randrange(2**32)
        frames, boids = (40, 20) if model.UPDATE_ORDER == "sequential" else (100, 40)
        c = firmware_trace(exe, frames, seed, boids, sets)
        p = simulator_trace(model, frames, seed, boids, sets)
        diff = compare(c.splitlines(), p.splitlines())
        assert diff is None, f"{spec.name} draw {draw} {sets}: {diff}"
