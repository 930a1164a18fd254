"""The simulator's synchronous grid (the kernel's cell-sorted pair loop, used
for large fixed-point flocks) gives the every-pair loop's result bit for bit,
and the C grid's."""
from __future__ import annotations


import numpy as np
import pytest

from codegen.drivers.pic32.budget.measure import render_variant, spec_variant
from codegen.drivers.host_build import make
from codegen.commands.parity import firmware_trace, simulator_trace
from codegen.model.spec_load import load_spec
from pysim.engine import Simulation
from pysim.model_support import load_model

from .conftest import ROOT, require_tool

# Variants render here, not in tmp_path: a kernel file that keeps its place
# and time keeps numba's compiled cache between runs.

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of spec variants

VARIANTS = ROOT / "build" / "tests" / "fast_sim"


def _model(name: str, capacity: int = 3000, grid: bool = False):
    path = str(ROOT / "spec" / f"{name}.yaml")
    spec, _ = load_spec(path)
    sp = spec_variant(spec, capacity=max(capacity, spec.flock.capacity), order="synchronous", grid=grid)
    out = VARIANTS / f"{name}{'-grid' if grid else ''}"
    m = render_variant(sp, path, out)
    return m, out, load_model(out / "python" / "boids_model.py", expect_hash=m.hash)


def _pair(model, n: int, seed: int = 3, arith: str = "fixed"):
    sims = []
    for method in ("grid", "brute"):
        s = Simulation(model, arith, seed=seed, boids=n)
        s.pair_method = method
        sims.append(s)
    return sims


def _same(a: Simulation, b: Simulation) -> bool:
    return a.b.keys() == b.b.keys() and all(np.array_equal(a.b[k], b.b[k]) for k in a.b)


def test_grid_equals_every_pair_default_spec():
    _, _, model = _model("boids")
    a, b = _pair(model, 700)
    for f in range(40):
        a.step()
        b.step()
        assert a.grid_used and not b.grid_used
        assert _same(a, b), f"frame {f + 1}"
    # the flock has clustered: some boids have many neighbours, so the pair sums matter
    one = 1 << model.FRAC_BITS
    near = (np.abs(a.x[:, None] - a.x[None, :]) < 20 * one) & (np.abs(a.y[:, None] - a.y[None, :]) < 20 * one)
    assert near.sum(axis=1).max() > 30


def test_grid_equals_every_pair_off_screen_and_tiny_range():
    """Boids far outside the screen clamp to the edge cells; a range of one
    pixel makes many cells (down to the grid's smallest)."""
    _, _, model = _model("boids")
    for sets in ({"turn_factor": "0"}, {"visual_range": "1", "protected_range": "0.5"}):
        a, b = _pair(model, 500, seed=9)
        rng = np.random.default_rng(1)
        one = 1 << model.FRAC_BITS
        x = rng.integers(-400 * one, 700 * one, 500)
        y = rng.integers(-300 * one, 500 * one, 500)
        x[:100] = rng.integers(-2 * one, 2 * one, 100)  # a crowd around the corner
        y[:100] = rng.integers(-2 * one, 2 * one, 100)
        vx = rng.integers(-3 * one, 3 * one, 500)
        vy = rng.integers(-3 * one, 3 * one, 500)
        for s in (a, b):
            for k, v in sets.items():
                s.params.set(k, v)
            s.load_state(x, y, vx, vy)
        for f in range(15):
            a.step()
            b.step()
            assert _same(a, b), (sets, f)


def test_grid_refused_far_off_screen():
    """Beyond 2^30 raw an offset could wrap: the kernel visits every pair instead."""
    _, _, model = _model("boids")
    a, b = _pair(model, 300, seed=4)
    one = 1 << model.FRAC_BITS
    for s in (a, b):
        x = s.x.copy()
        x[7] = (1 << 30) + 5 * one
        s.load_state(x, s.y, s.vx, s.vy)
        s.step()
    assert _same(a, b) and not a.grid_used


@pytest.mark.parametrize("name", ["vector_forces", "scouts_vga", "extensions", "combo_scouts_predators_obstacles",
                                  "obstacles", "lab_tft_predator"])
def test_grid_equals_every_pair_every_rule(name):
    _, _, model = _model(name)
    a, b = _pair(model, 300)
    for f in range(8):
        a.step()
        b.step()
        assert _same(a, b), f"{name}: frame {f + 1}"


def test_auto_uses_the_grid_for_large_fixed_synchronous_flocks_only():
    _, _, model = _model("boids")
    n = Simulation.GRID_FROM
    for boids, arith, order, used in ((n - 1, "fixed", "synchronous", False), (n, "fixed", "synchronous", True),
                                      (n, "float", "synchronous", False),  # float sums round by order
                                      (n, "fixed", "sequential", False)):  # boids move during the frame
        s = Simulation(model, arith, seed=1, boids=boids, order=order)
        s.step()
        assert s.grid_used == used, (boids, arith, order)


def test_simulator_grid_equals_c_grid():
    """The C grid (performance.grid) and the simulator's own, on a flock
    large enough for both to use them, bit for bit."""
    require_tool("gcc")
    require_tool("make")
    m, out, model = _model("boids", grid=True)
    make(out / "firmware", "host", out / "build")
    n = max(600, Simulation.GRID_FROM)
    c = firmware_trace(out / "build" / "boids_host", 40, 5, n, ())
    p = simulator_trace(model, 40, 5, n, ())
    assert c.count("\n") > 40 * n
    assert c == p
