"""The simulator's cell-by-cell synchronous update (pysim/neighbours.py)
gives the dense N x N result bit for bit, and the C grid's."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codegen.budget import render_variant, spec_variant
from codegen.build import make
from codegen.parity import firmware_trace, simulator_trace
from codegen.spec_loader import load_spec
from pysim import neighbours
from pysim.engine import Simulation
from pysim.model_support import load_model

from .conftest import ROOT, require_tool


def _model(tmp_path: Path, name: str, capacity: int = 3000, grid: bool = False):
    path = str(ROOT / "spec" / f"{name}.yaml")
    spec, _ = load_spec(path)
    sp = spec_variant(spec, capacity=max(capacity, spec.flock.capacity), order="synchronous", grid=grid)
    out = tmp_path / name
    m = render_variant(sp, path, out)
    return m, out, load_model(out / "python" / "boids_model.py", expect_hash=m.hash)


def _pair(model, n: int, seed: int = 3, arith: str = "fixed"):
    sims = []
    for method in ("cells", "dense"):
        s = Simulation(model, arith, seed=seed, boids=n)
        s.pair_method = method
        sims.append(s)
    return sims


def _same(a: Simulation, b: Simulation) -> bool:
    return a.b.keys() == b.b.keys() and all(np.array_equal(a.b[k], b.b[k]) for k in a.b)


def test_cells_equal_dense_default_spec(tmp_path):
    _, _, model = _model(tmp_path, "boids")
    a, b = _pair(model, 700)
    for f in range(40):
        a.step()
        b.step()
        assert _same(a, b), f"frame {f + 1}"
    # the flock has clustered: cells are not all alike
    _, start, _, _ = neighbours.cell_layout(a.x, a.y, int(model.pair_box(a.params.for_arith(a.A))),
                                             int(a.K.width), int(a.K.height))
    counts = np.diff(start)
    assert counts.max() > 3 * max(1, np.median(counts[counts > 0])) or counts.max() > 30


def test_cells_equal_dense_off_screen_and_tiny_range(tmp_path):
    """Boids far outside the screen clamp to the edge cells; a range of one
    pixel makes many cells."""
    _, _, model = _model(tmp_path, "boids")
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


@pytest.mark.parametrize("name", ["vector_forces", "scouts_vga", "extensions", "combo_scouts_predators_obstacles",
                                  "obstacles", "lab_tft_predator"])
def test_cells_equal_dense_every_rule(tmp_path, name):
    _, _, model = _model(tmp_path, name)
    a, b = _pair(model, 300)
    for f in range(8):
        a.step()
        b.step()
        assert _same(a, b), f"{name}: frame {f + 1}"


def test_auto_uses_cells_for_large_flocks_only(tmp_path, monkeypatch):
    _, _, model = _model(tmp_path, "boids")
    calls = []
    real = neighbours.step_cells
    monkeypatch.setattr(neighbours, "step_cells", lambda *a, **k: calls.append(1) or real(*a, **k))
    Simulation(model, seed=1, boids=neighbours.DENSE_BELOW - 1).step()
    assert not calls
    Simulation(model, seed=1, boids=neighbours.DENSE_BELOW).step()
    assert calls
    calls.clear()
    Simulation(model, "float", seed=1, boids=neighbours.DENSE_BELOW).step()  # float sums: dense only
    assert not calls


def test_simulator_cells_equal_c_grid(tmp_path):
    """The C grid (performance.grid) and the simulator's own cells, on a flock
    large enough for both to use them, bit for bit."""
    require_tool("gcc")
    require_tool("make")
    m, out, model = _model(tmp_path, "boids", grid=True)
    make(out / "firmware", "host", out / "build")
    n = max(600, neighbours.DENSE_BELOW)
    c = firmware_trace(out / "build" / "boids_host", 40, 5, n, ())
    p = simulator_trace(model, 40, 5, n, ())
    assert c.count("\n") > 40 * n
    assert c == p
