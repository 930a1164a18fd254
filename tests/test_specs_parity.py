"""Every committed spec, firmware against simulator, bit for bit: 2000 frames
at the spec's own flock size in both update orders (`boidsgen parity
spec/X.yaml --frames 2000 --seed 3 --order both`), a short run with
parameters pushed to their ranges, random parameters, and a difference
planted in a frame row of each kind of state the spec has."""
from __future__ import annotations

import pytest

from codegen.commands.parity import firmware_trace, prepare, run_parity, simulator_trace
from pysim.fxdecimal import format_raw
from pysim.model_support import load_kernel
from pysim.trace import compare

from .conftest import ROOT, require_tool

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: every spec, both orders, its own kernels

SPECS = sorted((ROOT / "spec").glob("*.yaml"))


@pytest.fixture(scope="module", autouse=True)
def tools():
    require_tool("gcc")
    require_tool("make")


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_spec_parity_2000_frames(spec, order):
    res = run_parity(str(spec), frames=2000, seed=3, order=order)
    assert res.ok, res.summary
    assert "2000 frames x" in res.summary and f", {order}," in res.summary


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


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_trace_shows_every_kind_of_state(spec, spec_builds):
    """The trace rows carry every kind of state the spec declares (its rules'
    per-boid state, the entities, the PRNG), and a difference planted in one
    field of one frame row is reported at that frame, kind, index and field."""
    m, exe, model = spec_builds[spec.stem]
    c = firmware_trace(exe, 12, 3, 10, []).splitlines()
    assert compare(c, simulator_trace(model, 12, 3, 10, []).splitlines()) is None
    kinds = {line[8:].split(" ")[0]: line[8:].split(" ")[1].split(",") for line in c if line.startswith("# kind: ")}
    assert set(kinds) == {k for k, _ in model.STATE_KINDS} | {"rng"}
    kernel_state = [name for name, _ in load_kernel(model).STATE]  # what the compiled rules keep per boid
    assert kinds["boid"] == ["x", "y", "vx", "vy"] + kernel_state
    assert {"extensions": "perch", "scouts_vga": "bias"}.get(spec.stem, "x") in kinds["boid"]
    for kind, fields in kinds.items():
        rows = [n for n, line in enumerate(c) if line.startswith("7,") and line.split(",")[2] == kind]
        assert rows, f"no {kind} row at frame 7"
        n = rows[-1]
        cells = c[n].split(",")
        cells[-1] = str(int(cells[-1]) + 1)
        planted = c[:n] + [",".join(cells)] + c[n + 1:]
        diff = compare(planted, c)
        assert diff is not None and diff.line == n + 1
        assert str(diff).startswith(f"frame 7, {kind} {cells[1]}, field {fields[-1]}: "), str(diff)
