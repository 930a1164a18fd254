"""The generated C (host build) against the generated Python model, bit for
bit: several seeds, both update orders, both Q formats, and random parameter
values inside their declared ranges (through --set, no recompilation)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen.commands.parity import firmware_trace, prepare, run_parity, simulator_trace
from pysim.fxdecimal import format_raw
from pysim.trace import compare

from .conftest import DEFAULT_SPEC, require_tool


@pytest.fixture(scope="module", autouse=True)
def tools():
    require_tool("gcc")
    require_tool("make")


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
@pytest.mark.parametrize("fmt", ["s16.15", "s15.16"])
@pytest.mark.parametrize("seed", [1, 7, 12345])
def test_parity_orders_formats_seeds(order, fmt, seed):
    frames, boids = (150, 30) if order == "sequential" else (400, 60)
    res = run_parity(DEFAULT_SPEC, frames=frames, seed=seed, boids=boids, order=order, fmt=fmt)
    assert res.ok, res.summary


def test_parity_default_flock_long_synchronous():
    res = run_parity(DEFAULT_SPEC, frames=2000, seed=7, order="synchronous")
    assert res.ok, res.summary


def test_parity_detects_a_difference(default_build):
    """The comparison must be able to fail: a changed parameter on one side only."""
    m, exe, model = default_build
    c = firmware_trace(exe, 20, 5, 20, [("avoid_factor", "0.06")])
    p = simulator_trace(model, 20, 5, 20, [])
    diff = compare(c.splitlines(), p.splitlines())
    assert diff is not None and "avoid_factor" in str(diff)


def _param_strategy(model):
    """For each tunable parameter, a raw value drawn from its declared range;
    it travels as decimal text, which both sides convert the same way."""
    fields = {}
    for p in model.PARAMS:
        if p.tunable:
            fields[p.name] = st.integers(p.min_raw, p.max_raw)
    return st.fixed_dictionaries(fields)


@pytest.fixture(scope="module")
def builds():
    return {o: prepare(DEFAULT_SPEC, order=o) for o in ("sequential", "synchronous")}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_parity_random_parameters(builds, data):
    order = data.draw(st.sampled_from(["sequential", "synchronous"]))
    m, exe, model = builds[order]
    raws = data.draw(_param_strategy(model))
    sets = [(k, format_raw(v, model.FRAC_BITS)) for k, v in raws.items()]
    seed = data.draw(st.integers(0, 2**32 - 1))
    boids = data.draw(st.integers(0, 25))
    frames = 40 if order == "sequential" else 120
    c = firmware_trace(exe, frames, seed, boids, sets)
    p = simulator_trace(model, frames, seed, boids, sets)
    diff = compare(c.splitlines(), p.splitlines())
    assert diff is None, f"{order} {sets} seed {seed}: {diff}"


def test_acceptance_default_spec_2000_frames_100_boids_sequential():
    """The issue's bar: 2000 frames, the default 100 boids, the spec's own order."""
    res = run_parity(DEFAULT_SPEC, frames=2000, seed=7)
    assert res.ok and "2000 frames x 100 boids bit-exact" in res.summary, res.summary
