"""Guarded widths (codegen/passes/guards.py): at capacity 500 the default
spec's cohesion sums fit 32 bits only while visual_range stays below a
bound, so the firmware carries a guarded 32-bit copy of the step and a wide
one, and picks one a frame. The simulator keeps exact sums; the firmware
must match it bit for bit on both sides of the guard, at the guard's edge
where the 32-bit sums come closest to wrapping, and as the parameter
crosses it mid-run."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegen.passes import guards
from codegen.passes.guards import _narrow, guarded
from codegen.passes.widths import sum_widths
from codegen.commands.parity import run_parity
from codegen.output.pipeline import checked_model

from .conftest import DEFAULT_SPEC, ROOT, require_tool, with_capacity

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of grid variants

ONE = 1 << 15  # the default spec's s16.15


def _spec(tmp_path: Path, capacity: int, grid: bool = False) -> Path:
    text = Path(DEFAULT_SPEC).read_text()
    text = with_capacity(text, capacity)
    if grid:
        text, k = re.subn(r"(?m)^update_order: sequential", "update_order: synchronous", text)
        assert k == 1
        text += "\nperformance:\n  grid: true\n"
    p = tmp_path / "spec" / "boids.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def test_the_guard_is_the_largest_maximum_that_keeps_the_sums_32_bit(tmp_path):
    m = checked_model(_spec(tmp_path, 500))
    g, low = guarded(m)
    assert g.param == "visual_range" and g.sums == ("cohesion.sum_x", "cohesion.sum_y")
    vr = next(p for p in m.params if p.name == "visual_range")
    assert vr.default_raw <= g.max_raw < vr.max_raw
    # 499 neighbours a visual range away must fit int32, at the guard and not one raw step above
    assert 499 * (g.max_raw - 1) <= (1 << 31) - 1 < 499 * (g.max_raw + 1)
    from codegen.passes.offsets import offset
    from codegen.analysis.roots_rewrite import rooted

    m2 = rooted(offset(m))[0]
    names = {(i, s) for i, r in enumerate(m.rules) if r.name == "cohesion" for s in ("sum_x", "sum_y")}
    assert names <= _narrow(m2, {"visual_range": (vr.min_raw, g.max_raw)}, names)
    assert not names & _narrow(m2, {"visual_range": (vr.min_raw, g.max_raw + 1)}, names)
    # asked about the 64-bit sums only, the search's answer is the whole answer's
    every = {(w.rule_index, w.sum): w.bits for w in sum_widths(m2, None, {"visual_range": (vr.min_raw, g.max_raw)})}
    assert _narrow(m2, {"visual_range": (vr.min_raw, g.max_raw)}, names) == {k for k in names if every[k] == 32}
    # the guarded copy's sums are 32-bit, the wide copy's are not
    bits = {s.name: s.bits for r in low.rules if r.name == "cohesion" for s in r.ir.sums}
    assert bits == {"sum_x": 32, "sum_y": 32}


def test_the_search_runs_once_per_content(tmp_path, monkeypatch):
    """A spec lowered again (loaded afresh, the same text) takes the search's
    answer from the first time: no analysis at all, the same guard. Another
    capacity is another search."""
    import codegen.analysis.ranges as ranges

    guards._SEARCHED.clear()
    first = guarded(checked_model(_spec(tmp_path, 500)))
    runs = []
    real = ranges.analyse
    monkeypatch.setattr(ranges, "analyse", lambda *a, **k: runs.append(1) or real(*a, **k))
    again = guarded(checked_model(_spec(tmp_path, 500)))
    # the load's check, rooted()'s and the guarded copy's two; the search's ~40 are not run again
    assert again[0] == first[0] and len(runs) <= 4, len(runs)
    runs.clear()
    other = guarded(checked_model(_spec(tmp_path / "b", 600)))
    assert other[0].max_raw < first[0].max_raw and len(runs) > 10, len(runs)


def test_no_guard_where_every_sum_is_already_32_bit():
    # the committed default spec at its own capacity (100): nothing to guard, one copy
    assert guarded(checked_model(Path(DEFAULT_SPEC))) is None
    text = (ROOT / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    assert "boids_step_guarded" not in text and text.count("void boids_step(") == 1


@pytest.mark.parametrize("grid", [False, True], ids=["sequential", "grid"])
@pytest.mark.parametrize("visual_range", [None, "131", "132", "150"], ids=["default", "edge", "above", "far"])
def test_both_copies_match_the_simulator(tmp_path, grid, visual_range):
    """default 20 px and 131 px run the guarded copy (131 px: nearly every
    boid sees every other, the 32-bit sums near their bound); 132 and 150 px
    the wide one. Bit for bit with the simulator's exact sums each time."""
    require_tool("gcc")
    spec = _spec(tmp_path, 500, grid)
    m = checked_model(spec)
    g, _ = guarded(m)
    if visual_range is not None:
        raw = int(visual_range) * ONE
        assert (raw <= g.max_raw) == (visual_range == "131")
    sets = [("visual_range", visual_range)] if visual_range else []
    res = run_parity(str(spec), frames=40, seed=5, boids=450, sets=sets)
    assert res.ok, res.summary
    text = (tmp_path / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    assert f"if (boids_params.visual_range <= {g.max_raw}" in text


def test_the_copy_changes_with_the_parameter_mid_run(tmp_path):
    """`set visual_range` across the guard and back while the host firmware
    runs in real time on a pty, `boidsgen watch` mirroring it: in step
    through every switch of copy."""
    require_tool("gcc")
    from codegen.commands.parity import prepare

    from .test_lockstep import watch_while_writing
    from .test_serial_pty import SPEED, Host

    spec = _spec(tmp_path, 500)
    _, exe, _ = prepare(str(spec))
    host = Host(exe, "--boids", "300", speed=SPEED)
    try:  # (it once sent the first change before watch was on, on a loaded machine: "set 4")
        rc, out, w = watch_while_writing(host.path, [(0.2 + 0.8 * k, f"set visual_range {v}\r".encode())
                                                     for k, v in enumerate(("131", "150", "20", "140", "25"))],
                                         "--frames", "400", spec=str(spec))
    finally:
        host.stop()
    assert rc == 0, out
    assert len(w.sent) == 5
    summary = out.strip().splitlines()[-1]
    print(summary)
    m = re.search(r"(\d+) frames in step", summary)
    assert m and int(m.group(1)) == 400 and "set 5" in summary, summary


def test_check_reports_the_guard(tmp_path):
    import subprocess
    import sys

    spec = _spec(tmp_path, 500)
    res = subprocess.run([sys.executable, "-m", "codegen.commands.cli", "check", str(spec)], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    line = next(ln for ln in res.stdout.splitlines() if ln.strip().startswith("guarded"))
    assert "cohesion.sum_x, cohesion.sum_y: 32-bit while visual_range <= 131.3" in line, line
    # and the sums it guards are the ones reported 64-bit over the whole range
    assert re.search(r"64-bit  cohesion\.sum_x: sum_x -= dx \(x499 boids\)", res.stdout), res.stdout
