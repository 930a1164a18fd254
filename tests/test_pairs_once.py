"""Each pair once (codegen/lang/pairs_once.py): in synchronous order the
pair loop visits every unordered pair one time and adds the visit to both
boids' sums, the other boid's through a ring of accumulators. A flock that
needs more of the ring than it has runs the full loop that frame. Both
paths must run where expected and match the simulator bit for bit."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from codegen.budget import build_host_driver, render_variant
from codegen.lang import pairs_once
from codegen.lang.emit_c import FlockC
from codegen.lang.widths import lowered
from codegen.parity import run_parity
from codegen.pipeline import checked_model
from codegen.spec_loader import load_spec

from .conftest import DEFAULT_SPEC, ROOT, require_tool


def _spec(tmp_path: Path, capacity: int, grid: bool, visual_range: int = 20) -> Path:
    text = Path(DEFAULT_SPEC).read_text()
    subs = [(r"(?m)^  capacity: 100 ", f"  capacity: {capacity} "),
            (r"(?m)^update_order: sequential", "update_order: synchronous"),
            (r"visual_range:    \{default: 20,", f"visual_range:    {{default: {visual_range},")]
    for pat, rep in subs:
        text, k = re.subn(pat, rep, text)
        assert k == 1, pat
    if grid:
        text += "\nperformance:\n  grid: true\n"
    p = tmp_path / f"g{int(grid)}_{capacity}_{visual_range}" / "spec" / "boids.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def _refusal(spec: Path) -> str | None:
    m = checked_model(spec)
    return pairs_once.refusal(FlockC(m, lowered(m)))


def test_which_rules_visit_each_pair_once(tmp_path):
    assert "sequential" in _refusal(Path(DEFAULT_SPEC))
    assert _refusal(_spec(tmp_path, 100, grid=True)) is None
    # food_tracking picks the nearest food; its boid rules are fine, but the
    # spec is sequential: as synchronous, only the nearest pick could refuse
    ext = ROOT / "spec" / "extensions.yaml"
    assert "sequential" in _refusal(ext)
    # the committed synchronous specs all visit each pair once, in one copy (capacity <= ring)
    for name in ("obstacles", "vector_forces", "combo_scouts_predators_obstacles"):
        text = (ROOT / "generated" / name / "firmware" / "boids_flock.c").read_text()
        assert "#define BOIDS_PAIR_RING 128" in text and "/* the other's sums (each pair once) */" in text
        assert text.count("void boids_step(") == 1 and "boids_step_all" not in text


def test_the_ring_is_a_power_of_two_and_an_entry_a_shift():
    assert [pairs_once.ring_size(c) for c in (1, 100, 120, 128, 129, 500, 4000)] == [1, 128, 128, 128, 256, 256, 256]
    # a fatter entry (64-bit sums) gets fewer: the ring's RAM is capped, not its count
    assert pairs_once.ring_size(500, 64) == 128 and pairs_once.ring_size(500, 64) * 64 <= pairs_once.RING_BYTES
    m = checked_model(Path(DEFAULT_SPEC))
    fc = FlockC(m, lowered(m))
    size = sum(8 if t == "fx_acc" else 4 for t, _ in pairs_once.fields(fc)) + 4 * pairs_once.entry_pad(fc)
    assert size & (size - 1) == 0


def _frames(spec: Path, work: Path, n: int) -> tuple[int, int]:
    """(frames each pair once, frames of the full loop) over 40 frames of n boids."""
    render_variant(load_spec(str(spec))[0], str(spec), work / "gen")
    host = build_host_driver(work / "gen" / "firmware", work / "host", defines=("BOIDS_PAIR_STATS",))
    res = subprocess.run([str(host), str(n), "40", "5", str(work / "state.bin")], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    once = int(re.search(r"^pairs_once_frames=(\d+)", res.stdout, re.M).group(1))
    full = int(re.search(r"^full_loop_frames=(\d+)", res.stdout, re.M).group(1))
    return once, full


# capacity 500: a ring of 256. Brute force: a boid's sums are live from boid 0
# on, so 200 boids fit and 450 do not. Grid: at 20 px the cells hold few
# boids; at 120 px (below the 32-bit guard) a cell and the next row hold
# more than 256 of 450.
@pytest.mark.parametrize("grid, vr, n, path", [
    (False, 20, 200, "once"), (False, 20, 450, "full"),
    (True, 20, 450, "once"), (True, 120, 450, "full"),
], ids=["brute-200", "brute-450", "grid-20px", "grid-120px"])
def test_each_path_runs_and_matches_the_simulator(tmp_path, grid, vr, n, path):
    require_tool("gcc")
    spec = _spec(tmp_path, 500, grid, vr)
    once, full = _frames(spec, tmp_path / "stats", n)
    assert once + full == 42  # 40 warm-up frames and the two the driver times
    assert (once if path == "once" else full) == 42, (once, full)
    res = run_parity(str(spec), frames=40, seed=5, boids=n)
    assert res.ok, res.summary
