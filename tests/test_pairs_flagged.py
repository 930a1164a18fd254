"""Each pair once with the grid, past the ring (codegen/passes/pairs_once.py):
a boid whose sums would outlive the ring is flagged, its visitors do not
mirror into it, and it visits them back itself. No frame then runs the full
loop because of the ring, and every frame stays bit-exact with the
simulator, however many boids are flagged and why."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from codegen.commands.parity import firmware_trace, run_parity, simulator_trace
from codegen.boards import registry
from codegen.model.spec_load import load_spec
from codegen.drivers.host_build import make
from codegen.drivers.pic32.budget.measure import render_variant, spec_variant
from pysim.model_support import load_model

from .conftest import ROOT, require_tool
from .test_pairs_once import _spec, firmware_stats, pair_stats


pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: long parity runs of grid variants

def test_no_frame_of_500_boids_runs_the_full_loop(tmp_path):
    """The capacity-500 synchronous grid copy of the default spec, seed 1:
    before flagging, 213 of the first 1,502 frames (the first at frame 902)
    needed more than the ring and ran the full loop (64-bit, both sides:
    twice the frame period on the PIC32)."""
    require_tool("gcc")
    st = pair_stats(_spec(tmp_path, 500, grid=True), tmp_path / "stats", 500, frames=1500, seed=1)
    assert st["full_loop_frames"] == 0 and st["pairs_once_frames"] == 1502, st
    assert st["flagged_frames"] > 100 and st["flagged_boids"] > st["flagged_frames"], st


def small_rings(monkeypatch, most: int) -> None:
    """Every board's ring limited to `most` bytes (its record's ring_bytes, codegen/boards/registry.py)."""
    for name in registry.boards():
        monkeypatch.setitem(registry.TARGETS, name, replace(registry.target(name), ring_bytes=most))


def test_boids_flagged_by_their_own_band_match_the_simulator(tmp_path, monkeypatch):
    """A ring of 8 entries (256 B): nearly every boid is flagged,
    many even by their own band's visits (the runs of the own band's
    window, and the visit back over it), at 150 boids."""
    require_tool("gcc")
    small_rings(monkeypatch, 256)
    spec = _spec(tmp_path, 200, grid=True, visual_range=40)
    st = pair_stats(spec, tmp_path / "stats", 150, frames=100)
    assert "#define BOIDS_PAIR_RING 8\n" in (tmp_path / "stats" / "gen" / "firmware" / "boids_flock.c").read_text()
    assert st["full_loop_frames"] == 0 and st["flagged_frames"] == 102, st
    assert st["flagged_by_own_band"] > 1000, st
    for order in ("sequential", "synchronous"):  # --order both (sequential: no ring)
        res = run_parity(str(spec), frames=100, seed=5, boids=150, order=order)
        assert res.ok, res.summary
    built = [p.read_text() for p in tmp_path.rglob("boids_flock.c") if "generated" in p.parts]
    assert any("#define BOIDS_PAIR_RING 8\n" in t and "boids_step_flagged(f, r)" in t for t in built)


# every committed spec whose pairs once: their zones, radius tests, windows
# (or none), states and entities in the flagged copy (extensions picks the
# nearest food: no ring)
@pytest.mark.parametrize("name", ["boids", "vector_forces", "obstacles", "combo_scouts_predators_obstacles",
                                  "lab_tft_predator", "scouts_vga", "predator_vga"])
def test_every_specs_flagged_copy_matches_the_simulator(tmp_path, monkeypatch, name):
    """A ring of 256 B (4 or 8 entries), synchronous with the grid: most
    boids flagged in every frame, at 150 boids over 30 frames (an RP2040
    spec's two-part update too: each part's ring, split.h)."""
    require_tool("gcc")
    require_tool("make")
    small_rings(monkeypatch, 256)  # an RP2040-only spec's ring too (pairs_once.ring_bytes)
    path = str(ROOT / "spec" / f"{name}.yaml")
    spec, _ = load_spec(path)
    m = render_variant(spec_variant(spec, capacity=max(200, spec.flock.capacity), order="synchronous", grid=True),
                       path, tmp_path / "gen")
    code = (tmp_path / "gen" / "firmware" / "boids_flock.c").read_text()
    split = "boids_split_run" in code  # an RP2040 spec's two-part update (split.py)
    assert "boids_step_flagged" in code and split == (name in ("scouts_vga", "predator_vga"))
    assert split == ("boids_split_run(boids_step_flagged_part, f, split_took);" in code)
    make(tmp_path / "gen" / "firmware", "host", tmp_path / "build")
    model = load_model(tmp_path / "gen" / "python" / "boids_model.py", expect_hash=m.hash)
    c = firmware_trace(tmp_path / "build" / "boids_host", 30, 5, 150, ())
    assert c.count("\n") > 30 * 150 and c == simulator_trace(model, 30, 5, 150, ())
    st = firmware_stats(tmp_path / "gen" / "firmware", tmp_path, 150, 30, 5)
    assert st["flagged_frames"] == 32 and st["flagged_boids"] > 3000 and st["full_loop_frames"] == 0, st


def test_the_flagged_copy_builds_for_the_m4k_and_fits(tmp_path):
    """-Werror for the M4K (mipsel-linux-gnu-gcc -march=m4k), and the RAM
    still fits at capacity 500: the flagged boids' runs are 8 B a band."""
    for tool in ("mipsel-linux-gnu-gcc", "mipsel-linux-gnu-size", "make"):
        require_tool(tool)
    from codegen.drivers.pic32.compile_check import check_image

    r = check_image(str(_spec(tmp_path, 500, grid=True)))
    assert r["capacity"] == 500 and r["ram"] <= r["ram_max"] and r["flash"] <= r["flash_max"], r


@pytest.mark.slow
def test_500_boids_grid_parity_3000_frames(tmp_path: Path):
    """Seed 1 flags boids in about one frame in seven past frame 900: some 300 frames with flags
    (10,000 frames before: three times the cost for more of the same)."""
    require_tool("gcc")
    require_tool("make")
    spec = _spec(tmp_path, 500, grid=True)
    for order in ("sequential", "synchronous"):  # --order both
        res = run_parity(str(spec), 3000, seed=1, boids=500, order=order)
        assert res.ok and "3000 frames x 500 boids bit-exact" in res.summary, res.summary
