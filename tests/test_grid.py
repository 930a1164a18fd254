"""The firmware's spatial grid (performance.grid): a spec error without
synchronous order, and bit-exact with the brute-force synchronous pair loop
(C against C here; C against the simulator in test_fast_sim.py)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from codegen.drivers.pic32.budget.measure import render_variant, spec_variant
from codegen.drivers.host_build import make
from codegen.model.spec_load import load_spec

from .conftest import ROOT, require_tool
from .deadline import RUN

GOOD = (ROOT / "spec" / "boids.yaml").read_text()


def test_grid_needs_synchronous_order(tmp_path):
    from codegen.spec.errors import SpecError

    spec = tmp_path / "bad.yaml"
    text = GOOD + "performance:\n  grid: true\n"
    spec.write_text(text)
    with pytest.raises(SpecError) as e:
        load_spec(spec)
    ln = len(text.splitlines())  # the `grid: true` line
    msgs = [str(i) for i in e.value.issues]
    assert len(msgs) == 1 and re.search(
        rf"bad\.yaml:{ln}:\d+: performance\.grid: a grid needs update_order: synchronous", msgs[0]), msgs
    spec.write_text(GOOD.replace("update_order: sequential", "update_order: synchronous") + "performance:\n  grid: true\n")
    ok, _ = load_spec(spec)
    assert ok.performance.grid and ok.update_order == "synchronous"


def _trace(exe: Path, n: int, frames: int, sets=()) -> list[str]:
    import subprocess

    cmd = [str(exe), "--frames", str(frames), "--seed", "11", "--boids", str(n), "--trace", "-"]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=RUN).stdout
    return [ln for ln in out.splitlines() if "spec_hash" not in ln]


def _build(spec, spec_path: str, out: Path, grid: bool, capacity: int = 1500) -> Path:
    sp = spec_variant(spec, capacity=max(spec.flock.capacity, capacity), order="synchronous", grid=grid)
    render_variant(sp, spec_path, out)
    make(out / "firmware", "host", out / "build")
    return out / "build" / "boids_host"


@pytest.mark.parametrize("name, n, frames, sets", [
    ("boids", 1000, 100, ()),
    # boids leave the screen (bands of their own above and below it) and a
    # range below the minimum cell (cells stay at their compile-time minimum)
    ("boids", 400, 200, ("turn_factor=0", "visual_range=3", "protected_range=1")),
    # boids off the screen beside the screen's last band, which takes the
    # rest of the height: 90 px of a 50 px box (it keeps its y test; the band
    # below the screen lies within the box of it alone), or exactly the 40 px
    # box (no y test)
    ("boids", 400, 200, ("turn_factor=0", "visual_range=50", "protected_range=2")),
    ("boids", 400, 200, ("turn_factor=0", "visual_range=40", "protected_range=2")),
    # each pair once tests y less (flock_grid.j2). A protected range wider
    # than the box (the visual range, the seed's) separates pairs a y test
    # must drop: with boids in the bands off the screen (which keep their
    # test), and in bands taller than the box (all keep it). Each range
    # within the guard, so that the once-only copy runs.
    ("boids", 400, 200, ("turn_factor=0", "visual_range=20", "protected_range=28")),
    ("boids", 400, 100, ("visual_range=5", "protected_range=7")),
    # the other specs' rules (in the full suite; the quick tier keeps the boids cases above)
    pytest.param("vector_forces", 400, 60, (), marks=pytest.mark.slow),  # radius zones, exact distances
    pytest.param("scouts_vga", 400, 60, (), marks=pytest.mark.slow),  # rules that use the boid's index
    pytest.param("extensions", 400, 60, (), marks=pytest.mark.slow),  # perching: pre-step `continue`, boid state
    pytest.param("combo_scouts_predators_obstacles", 300, 40, (), marks=pytest.mark.slow),
])
def test_grid_equals_brute_force(tmp_path, name, n, frames, sets):
    require_tool("gcc")
    require_tool("make")
    path = str(ROOT / "spec" / f"{name}.yaml")
    spec, _ = load_spec(path)
    grid = _build(spec, path, tmp_path / "grid", True)
    brute = _build(spec, path, tmp_path / "brute", False)
    assert "band_start" in (tmp_path / "grid" / "firmware" / "boids_flock.c").read_text()
    assert "band_start" not in (tmp_path / "brute" / "firmware" / "boids_flock.c").read_text()
    a, b = _trace(grid, n, frames, sets), _trace(brute, n, frames, sets)
    assert len(a) == len(b) > frames
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    assert first is None, f"grid and brute force differ at trace line {first}:\n{a[first]}\n{b[first]}"


def test_a_box_taller_than_the_screen_is_one_band(tmp_path):
    """A visual range above the screen's 240 px: the bands off the screen
    would be two apart yet within the box of each other (flock_grid.j2's
    BOIDS_GRID_ROWS), so the grid is one band. Boids leave the screen."""
    require_tool("gcc")
    require_tool("make")
    text = (ROOT / "spec" / "boids.yaml").read_text()
    wide = re.sub(r"(visual_range: +\{default: 20, +min: 0, +max:) 200,", r"\1 300,", text)
    assert wide != text
    path = tmp_path / "boids.yaml"
    path.write_text(wide)
    spec, _ = load_spec(str(path))
    grid = _build(spec, str(path), tmp_path / "grid", True)
    brute = _build(spec, str(path), tmp_path / "brute", False)
    sets = ("turn_factor=0", "visual_range=260", "protected_range=2")
    a, b = _trace(grid, 300, 120, sets), _trace(brute, 300, 120, sets)
    assert len(a) == len(b) > 120
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    assert first is None, f"grid and brute force differ at trace line {first}:\n{a[first]}\n{b[first]}"


@pytest.mark.slow  # the quick tier's grid cases are the boids ones above
def test_grid_slots_in_words(tmp_path):
    """The bands hold boids' byte offsets (flock_grid.j2), 16-bit while the
    capacity's boids fit 64 KiB; past that, words. 5000 boids of state (the
    combo's, not a power of two in size) take the words, and the grid still
    equals the brute-force loop."""
    require_tool("gcc")
    require_tool("make")
    path = str(ROOT / "spec" / "combo_scouts_predators_obstacles.yaml")
    spec, _ = load_spec(path)
    grid = _build(spec, path, tmp_path / "grid", True, capacity=5000)
    brute = _build(spec, path, tmp_path / "brute", False, capacity=5000)
    head = (tmp_path / "grid" / "firmware" / "boids_flock.h").read_text()
    assert "#define BOIDS_GRID_SLOT_T uint32_t" in head
    a, b = _trace(grid, 300, 30), _trace(brute, 300, 30)
    assert len(a) == len(b) > 30
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    assert first is None, f"grid and brute force differ at trace line {first}:\n{a[first]}\n{b[first]}"


def test_grid_equals_brute_force_as_the_flock_grows_and_shrinks(tmp_path):
    """The bands' order carries over from frame to frame (band_sort), so the
    grid must follow a flock whose size changes: the adaptive spawn on the
    modelled M4K clock (boids_host --m4k-cost, 150 us a boid) grows the
    flock from 60 boids and shrinks it from 400, a boid at a time, alike on
    both builds; the traces must agree frame by frame."""
    from codegen.drivers.pic32.budget.cost import VariantBuild, write_cost_table

    require_tool("gcc")
    require_tool("make")
    path = str(ROOT / "spec" / "boids.yaml")
    spec, _ = load_spec(path)
    traces = {}
    for grid in (True, False):
        exe = _build(spec, path, tmp_path / f"g{int(grid)}", grid)
        text = (tmp_path / f"g{int(grid)}" / "firmware" / "boids_flock.c").read_text()
        spec_hash = re.search(r"hash ([0-9a-f]{16})", text).group(1)
        table = write_cost_table(tmp_path / f"cost{int(grid)}.txt", "boids", "test", VariantBuild(spec_hash, 1500),
                                 "150 us a boid", [(50, 7.5), (100, 15.0)], 30)
        for start in (60, 400):
            cmd = [str(exe), "--frames", "400", "--seed", "11", "--boids", str(start), "--m4k-cost", str(table),
                   "--trace", "-"]
            res = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=RUN)
            end = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", res.stderr)}
            assert end["changes"] >= 20 and (end["boids"] > start + 20 if start < 100 else end["boids"] < start - 20), \
                (start, res.stderr)
            traces[grid, start] = [ln for ln in res.stdout.splitlines() if "spec_hash" not in ln]
    for start in (60, 400):
        a, b = traces[True, start], traces[False, start]
        assert len(a) == len(b) > 400 * 60
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        assert first is None, f"from {start}: grid and brute force differ at trace line {first}:\n{a[first]}\n{b[first]}"
