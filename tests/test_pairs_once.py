"""Each pair once (codegen/passes/pairs_once.py): in synchronous order the
pair loop visits every unordered pair one time and adds the visit to both
boids' sums, the other boid's through a ring of accumulators. Without the
grid, a flock that needs more of the ring than it has runs the full loop
that frame; with it, the boids that would need more are flagged (their
frames: test_pairs_flagged.py). Each path must run where expected and match
the simulator bit for bit."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from codegen.drivers.pic32.budget.measure import build_host_driver, render_variant
from codegen.boards import registry
from codegen.passes import pairs_once
from codegen.targets.c import ring
from codegen.targets.c.lowering import flock_c_copies, lower
from codegen.commands.parity import run_parity
from codegen.output.pipeline import checked_model
from codegen.model.spec_load import load_spec

from .conftest import DEFAULT_SPEC, ROOT, require_tool, with_capacity


pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of spec variants

def _spec(tmp_path: Path, capacity: int, grid: bool, visual_range: int = 20, **defaults) -> Path:
    """The default spec, synchronous at `capacity` (with the grid or not), its
    parameters' defaults changed (visual_range and any of `defaults`)."""
    text = with_capacity(Path(DEFAULT_SPEC).read_text(), capacity)
    defaults = {"visual_range": visual_range, **defaults}
    subs = [(r"(?m)^update_order: sequential", "update_order: synchronous")]
    subs += [(rf"(?m)^(  {k}:\s*\{{default: )[-\d.]+,", rf"\g<1>{v},") for k, v in defaults.items()]
    for pat, rep in subs:
        text, k = re.subn(pat, rep, text)
        assert k == 1, pat
    if grid:
        text += "\nperformance:\n  grid: true\n"
    tag = "_".join(f"{v}" for v in defaults.values())
    p = tmp_path / f"g{int(grid)}_{capacity}_{tag}" / "spec" / "boids.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def _refusal(spec: Path) -> str | None:
    low = lower(checked_model(spec))
    assert low.ring is None if low.refusal else low.ring is not None  # what the pass recorded
    return pairs_once.refusal(low.fast_m)


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


def test_the_ring_is_a_power_of_two_and_its_entry_planes_of_a_boid(tmp_path):
    assert [pairs_once.ring_size(c) for c in (1, 100, 120, 128, 129, 500, 4000)] == [1, 128, 128, 128, 256, 256, 256]
    # a fatter entry (64-bit sums) gets fewer: the ring's RAM is capped, not its count
    assert pairs_once.ring_size(500, 64) == 128 and pairs_once.ring_size(500, 64) * 64 <= pairs_once.RING_BYTES
    # a 16-byte boid: the entry in planes of 16 B, found from the boid's address
    m = checked_model(_spec(tmp_path, 500, grid=True))
    low = lower(m)
    plan, fc = low.ring, flock_c_copies(m, low)[2]
    fs, planes = pairs_once.fields(low.fast_m), plan.planes
    assert fc.boid_bytes == 16 and plan.plane_bytes == 16 and plan.by_address
    assert [f for pl in planes for f in pl] == fs and len(planes) > 1
    assert all(sum(bits // 8 for bits, _ in pl) <= 16 for pl in planes)
    assert plan.entry_bytes == 16 * len(planes) and plan.size == pairs_once.ring_size(500, plan.entry_bytes)
    # printed: the plan's fields under the printer's names, in its order
    assert [t for t, _ in ring.fields(fc)] == [{64: "fx_acc", 32: "fx_acc32"}[b] if k[0] == "sum" else "int32_t"
                                               for b, k in fs]
    text = "\n".join(fc.ring_typedef)
    assert "(uintptr_t)(at) & ((BOIDS_PAIR_RING - 1u) * sizeof(boid_t))" in text
    # a boid with a state field (20 B): one plane, the entry padded to a power of two, found by its slot
    from .test_issue_examples import FLOCK_PARAMS, FLOCK_RULES
    from .test_issue_examples import _spec as examples_spec

    spec = examples_spec(tmp_path, "boids.yaml", "st", FLOCK_PARAMS, FLOCK_RULES, "performance: {grid: true}\n")
    spec.write_text(spec.read_text().replace("update_order: sequential", "update_order: synchronous"))
    m = checked_model(spec)
    low = lower(m)
    plan, fc = low.ring, flock_c_copies(m, low)[2]
    assert low.refusal is None and fc.once
    assert fc.boid_bytes == 20 and not plan.by_address
    assert plan.planes == (tuple(pairs_once.fields(low.fast_m)),)
    size = plan.entry_bytes
    assert size & (size - 1) == 0 and size >= sum(bits // 8 for bits, _ in pairs_once.fields(low.fast_m))
    assert "(const char *)others), sizeof(boid_t)) & (BOIDS_PAIR_RING - 1)" in "\n".join(fc.ring_typedef)


def pair_stats(spec: Path, work: Path, n: int, frames: int = 40, seed: int = 5) -> dict:
    """The firmware's BOIDS_PAIR_STATS after `frames` frames of n boids (and
    the two the driver times): pairs_once_frames, full_loop_frames,
    flagged_frames, flagged_boids, flagged_by_own_band."""
    render_variant(load_spec(str(spec))[0], str(spec), work / "gen")
    return firmware_stats(work / "gen" / "firmware", work, n, frames, seed)


def firmware_stats(fw: Path, work: Path, n: int, frames: int, seed: int) -> dict:
    """pair_stats of the generated firmware folder `fw`."""
    host = build_host_driver(fw, work / "host", defines=("BOIDS_PAIR_STATS",))
    res = subprocess.run([str(host), str(n), str(frames), str(seed), str(work / "state.bin")], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return {k: int(v) for k, v in re.findall(r"^(\w*(?:frames|flagged)\w*)=(\d+)$", res.stdout, re.M)}


def _frames(spec: Path, work: Path, n: int) -> tuple[int, int]:
    """(frames each pair once, frames of the full loop) over 40 frames of n boids."""
    st = pair_stats(spec, work, n)
    return st["pairs_once_frames"], st["full_loop_frames"]


# capacity 500: a ring of 256. Brute force: a boid's sums are live from boid 0
# on, so 200 boids fit and 450 do not. Grid: at 20 px the cells hold few
# boids; at 120 px (below the 32-bit guard) a cell and the next row hold
# more than 256 of 450: boids are flagged, in every frame.
@pytest.mark.parametrize("grid, vr, n, path", [
    (False, 20, 200, "once"), (False, 20, 450, "full"),
    (True, 20, 450, "once"), (True, 120, 450, "flagged"),
], ids=["brute-200", "brute-450", "grid-20px", "grid-120px"])
def test_each_path_runs_and_matches_the_simulator(tmp_path, grid, vr, n, path):
    require_tool("gcc")
    spec = _spec(tmp_path, 500, grid, vr)
    st = pair_stats(spec, tmp_path / "stats", n)
    once, full = st["pairs_once_frames"], st["full_loop_frames"]
    assert once + full == 42  # 40 warm-up frames and the two the driver times
    assert (full if path == "full" else once) == 42, st
    assert st["flagged_frames"] == (42 if path == "flagged" else 0), st
    res = run_parity(str(spec), frames=40, seed=5, boids=n)
    assert res.ok, res.summary


def test_an_rp2040_only_entry_is_padded_to_its_alignment_not_a_power_of_two():
    # the default rules' 36 B (two 64-bit sums): 40 B on the RP2040 (MULS is one cycle), 64 B elsewhere
    assert pairs_once.entry_padded(36, True, multiply=True) == 40 and pairs_once.entry_padded(36, True, False) == 64
    assert pairs_once.entry_padded(20, False, multiply=True) == 20 and pairs_once.entry_padded(20, False, False) == 32
    # scouts_vga (RP2040 only) at 1,000 boids: 512 entries of 40 B a part, which hold every band of 1,000
    # boids' densest frames (in the simulator the ring's span reaches 376 by seed 2's frame 299), not 256 of 64 B
    from codegen.model.spec_load import load_spec
    from codegen.spec.variants import spec_variant
    from codegen.model.gen_model import build_model

    spec, _ = load_spec(ROOT / "spec" / "scouts_vga.yaml")
    big = spec_variant(spec, capacity=1000, order="synchronous", grid=True)
    low = lower(build_model(big, ROOT / "spec" / "scouts_vga.yaml"))
    assert (low.ring.size, low.ring.entry_bytes) == (512, 40) and not low.ring.by_address
    assert low.ring.size * low.ring.entry_bytes <= registry.target("rp2040").ring_bytes
