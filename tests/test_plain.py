"""performance.optimize: plain (issue 34): none of the PIC32 target's own
passes (codegen/targets/pic32/pass_list.py), so the firmware's step is the
seed's one pair loop at any capacity and in either order, bit-exact with a
simulator that does not know the mode."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegen.commands.parity import run_parity
from codegen.output.pipeline import load
from codegen.output.render import render, render_python

from .conftest import DEFAULT_SPEC, require_tool, with_capacity

# what only the fast mode prints: the ring, copies of the step, the mean table,
# fx_d2_zones, the window's sums and GCC -O1's scheduling hints
FAST_ONLY = ("FX_LOADED", "FX_LIKELY", "BOIDS_PAIR_RING", "pair_ring", "boids_recip", "fx_d2_zones",
             "band_sums", "BOIDS_STEP_COPY", "fx_acc32_about")


def _flock_c(**kw) -> str:
    return render(load(DEFAULT_SPEC, **kw))["firmware/boids_flock.c"]


@pytest.mark.parametrize("order", ["synchronous", "sequential"])
def test_plain_at_500_is_the_seeds_one_pair_loop(order):
    plain = _flock_c(capacity=500, order=order, grid=False, optimize="plain")
    fast = _flock_c(capacity=500, order=order, grid=False)
    assert plain.count("\n") <= 250 < fast.count("\n"), (plain.count("\n"), fast.count("\n"))
    assert [w for w in FAST_ONLY if w in plain] == []
    assert "FX_LOADED" in fast and "boids_recip" in fast  # the same spec's fast step has them
    # one step, one pair loop over both sides of every pair, the seed's zone chain
    assert plain.count("void boids_step(") == 1 and "boids_step_" not in plain
    assert len(re.findall(r"\bfor \(", plain)) == 3  # spawn_velocity's draws, the boids, their one pair loop
    assert plain.count("for (;; o++)") == 1 and "o = others + i + 1" not in plain
    assert "if (d2 < protected2) {" in plain and "} else if (d2 < visual2) {" in plain
    # the widths the range analysis needs: 32-bit velocities' and offsets' sums where it proves them,
    # cohesion's offsets 64-bit at this capacity (no guarded 32-bit copy)
    assert "fx_acc32 alignment_sum_vx = 0" in plain and "fx_acc cohesion_sum_x = 0" in plain


def test_plain_keeps_the_grid_as_its_spatial_index():
    """The grid stays available in plain: the three bands' windows, each
    pair from both sides; no ring, no window sums, no hints."""
    plain = _flock_c(capacity=500, order="synchronous", grid=True, optimize="plain")
    assert "band_sort(f, cell" in plain and "for (gr = 0; gr < 3; gr++)" in plain
    assert [w for w in FAST_ONLY if w in plain] == []


def test_roots_as_written_only_where_proven_the_same_bits():
    # capacity 200: speed_limit's squared speed stays below 2^62, so plain prints the rule as written
    c200 = _flock_c(optimize="plain")
    assert "const fx speed = BOIDS_MAG(vx, vy);" in c200 and "fx_mag_lt" not in c200
    assert "fx_mag_lt" in _flock_c()  # the fast mode compares the square
    # capacity 500: the written root could wrap where the simulator's saturates: the rewrite stays
    c500 = _flock_c(capacity=500, optimize="plain")
    assert "fx_mag_lt(speed_sq, P->min_speed)" in c500 and "BOIDS_MAG(vx, vy)" not in c500


def test_the_simulator_does_not_know_the_mode():
    """The simulator's files of a plain spec are the fast spec's but for its hash."""
    def py(mode):
        m = load(DEFAULT_SPEC, capacity=500, optimize=mode)
        return m.hash, render_python(m)

    (hp, plain), (hf, fast) = py("plain"), py("fast")
    assert hp != hf  # the mode is part of the spec: its hash says so
    assert plain["python/boids_kernel.py"] == fast["python/boids_kernel.py"]
    assert plain["python/boids_model.py"].replace(hp, hf) == fast["python/boids_model.py"]


def _plain_spec(tmp_path: Path, grid: bool = False) -> Path:
    text = with_capacity(Path(DEFAULT_SPEC).read_text(), 500)
    if grid:
        text = text.replace("update_order: sequential", "update_order: synchronous")
    text += f"\nperformance: {{optimize: plain, grid: {'true' if grid else 'false'}}}\n"
    p = tmp_path / ("grid" if grid else "brute") / "spec" / "boids.yaml"
    p.parent.mkdir(parents=True)
    p.write_text(text)
    return p


@pytest.mark.parametrize("order", ["sequential", "synchronous"])
def test_plain_parity_500_boids(tmp_path, order):
    require_tool("gcc")
    require_tool("make")
    spec = _plain_spec(tmp_path)
    res = run_parity(str(spec), 300, boids=500, order=order)
    assert res.ok, res.summary
    assert "300 frames x 500 boids bit-exact" in res.summary and order in res.summary
    built = list((tmp_path / "brute").rglob("boids_flock.c"))
    assert built and all("FX_LOADED" not in p.read_text() for p in built)


@pytest.mark.slow
def test_plain_parity_500_boids_grid(tmp_path):
    require_tool("gcc")
    require_tool("make")
    res = run_parity(str(_plain_spec(tmp_path, grid=True)), 300, boids=500)
    assert res.ok and "500 boids bit-exact" in res.summary, res.summary


@pytest.mark.parametrize("grid", [False, True])
def test_plain_board_image_builds_and_fits(tmp_path, grid):
    """The plain step, like the fast one, compiles with -Werror for the M4K
    and links into the part (mipsel-linux-gnu-gcc, no XC32)."""
    for tool in ("mipsel-linux-gnu-gcc", "mipsel-linux-gnu-size", "make"):
        require_tool(tool)
    from codegen.drivers.pic32.compile_check import check_image

    r = check_image(str(_plain_spec(tmp_path, grid)))
    assert r["capacity"] == 500 and r["ram"] <= r["ram_max"] and r["flash"] <= r["flash_max"]
