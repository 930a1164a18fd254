"""The grid's own band by its window's sums (codegen/passes/window_sums.py):
which zone group qualifies, bit-exact with the simulator where the
corrections carry the sums (pairs out of the zone, in the inner zone, out
of the box in y, an empty box), and mutations of the corrections that the
parity check catches."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.targets.c.lowering import flock_c_copies
from codegen.commands.parity import run_parity
from codegen.output.pipeline import checked_model
from codegen.passes import window_sums
from codegen.lang.zone_groups import zone_form

from .conftest import DEFAULT_SPEC, require_tool
from .mutants import parity_of_mutant
from .test_pairs_once import _frames
from .test_pairs_once import _spec as grid_spec


pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of grid variants

def _with(tmp_path: Path, name: str, **defaults) -> Path:
    """The default spec at capacity 500, synchronous with the grid, its parameters' defaults changed."""
    return grid_spec(tmp_path / name, 500, True, **defaults)


def test_the_visual_group_sums_its_window(tmp_path):
    wide, guard, fast = flock_c_copies(checked_model(grid_spec(tmp_path, 500, grid=True)))
    g = fast.window
    assert guard is not None and fast.once and g is not None and g.count == "n_visual"
    m = fast.m
    assert fast.plan.window.key == g.key  # the pass's choice, printed
    assert [(m.rules[p].name, s, f, sign) for p, s, f, sign, _ in fast.plan.window.terms] == [
        ("alignment", "sum_vx", "vx", 1), ("alignment", "sum_vy", "vy", 1),
        ("cohesion", "sum_x", "x", 1), ("cohesion", "sum_y", "y", 1)]
    # separation adds dx (the pair's, not a field of the other): not a window sum
    sep = next(x for x in zone_form(m.rules).groups if x.base == "protected")
    assert window_sums.terms(m, sep) is None
    # the wide copy (64-bit sums, the full loop) and brute force have no window
    assert wide.window is None
    assert flock_c_copies(checked_model(grid_spec(tmp_path, 500, grid=False)))[2].window is None
    # capacity 100: one copy, each pair once, its sums 32-bit without a guard: the window too
    wide, guard, fast = flock_c_copies(checked_model(grid_spec(tmp_path, 100, grid=True)))
    assert guard is None and fast.window is not None
    # in the C: the window's walk, the visual branch ends the visit, the corrections on both sides
    text = "\n".join(fast.window_walk + fast.pair_lines_window + fast.window_corrections)
    assert "n_visual += (int32_t)(o_end - lo) - 1;" in text
    assert "continue; /* in the zone: the window's sums hold it */" in text
    # its test laid out as the fall-through (FX_LIKELY, fixed.h); the band below's loop keeps its own
    assert "} else if (FX_LIKELY(in_visual < 0)) {" in text and "FX_LIKELY" not in "\n".join(fast.pair_lines)
    assert "n_visual--;" in text and "q0->n_visual = was_n_visual_2 - 1;" in text
    assert "alignment_sum_vx = fx_sub(alignment_sum_vx, o->vx);" in text


def test_check_reports_the_pair_loop(tmp_path, capsys):
    """`boidsgen check` says how the C's pair loop runs: the default spec
    (sequential) from both sides and why; the grid variant each pair once,
    with the group its own band sums by its window."""
    from codegen.commands.cli import main

    assert main(["check", DEFAULT_SPEC]) == 0
    out = capsys.readouterr().out
    assert "pair loop: every pair from both sides (each pair once: not for sequential order" in out
    assert main(["check", str(_with(tmp_path, "w"))]) == 0
    out = capsys.readouterr().out
    assert "pair loop: each pair once, the other boid's sums through a ring of 256 entries of 32 B" in out
    assert ("the own band by its window's sums: the visual zone's alignment.sum_vx, alignment.sum_vy, "
            "cohesion.sum_x, cohesion.sum_y, its count n_visual") in out


# 450 boids at capacity 500 (ring 256), within the guard, so that the
# once-only copy runs: a protected range wider than the visual one with the
# boids clamped into the edge bands (turn_factor 0), which keep their y test;
# bands taller than the box (visual 5 px, under the grid's minimum cell);
# an empty box (visual 0: the window holds only the boid).
@pytest.mark.parametrize("defaults", [
    dict(visual_range=20, protected_range=28, turn_factor=0),
    dict(visual_range=5, protected_range=7),
    dict(visual_range=0),
], ids=["protected-wider", "bands-taller", "empty-box"])
def test_window_sums_match_the_simulator(tmp_path, defaults):
    require_tool("gcc")
    spec = _with(tmp_path, "w", **defaults)
    once, full = _frames(spec, tmp_path / "stats", 450)
    assert once >= 30 and once + full == 42, (once, full)  # the window's copy ran
    res = run_parity(str(spec), frames=40, seed=5, boids=450)
    assert res.ok, res.summary


HERD = """rule_defs:
  herd:
    description: alignment, a boid on the same spot not counted
    roles: {range: fixed, factor: fixed}
    neighbours: {of: boids, within: range, zone: visual, coincident: false}
    each: |
      sum_vx += other.vx
      sum_vy += other.vy
    apply: |
      if count > 0:
          vx += (sum_vx / count - vx) * factor
          vy += (sum_vy / count - vy) * factor
"""


def test_the_window_group_shares_its_zone(tmp_path):
    """The window group need not be the zone's only group: here it is `herd`
    (coincident: false, so its branch tests d2 != 0), listed before
    cohesion, which shares the visual zone's test. Its visit must end after
    cohesion's sums, and only where d2 != 0; parity says it does."""
    require_tool("gcc")
    spec = _with(tmp_path, "herd")
    text = spec.read_text().replace("  - {rule: alignment,  range: visual_range,    factor: matching_factor}\n", "")
    text = text.replace("  - {rule: cohesion,", "  - {rule: herd,       range: visual_range,    factor: matching_factor}\n"
                        "  - {rule: cohesion,", 1)
    spec.write_text(text + HERD)
    fast = flock_c_copies(checked_model(spec))[2]
    assert fast.window is not None and fast.window.name == "visual_apart"
    lines = fast.pair_lines_window
    cont = next(i for i, ln in enumerate(lines) if "continue;" in ln)
    assert "if (d2 != 0) {" in lines[cont - 1] and any("cohesion_sum" in ln for ln in lines[:cont])
    once, full = _frames(spec, tmp_path / "stats", 450)
    assert once >= 30 and once + full == 42, (once, full)
    res = run_parity(str(spec), frames=40, seed=5, boids=450)
    assert res.ok, res.summary


@pytest.mark.parametrize("mutation", [
    ("n_visual--;\n", ""),                            # the boid's count not taken back
    ("q0->n_visual = was_n_visual_2 - 1;", "q0->n_visual = was_n_visual_2;"),  # the other's count not taken back
    ("win_vy = fx_sub(win_vy, lo->vy);", ""),          # a boid leaving the window keeps its vy in it
], ids=["own-count", "other-count", "window-leaves"])
def test_a_broken_correction_fails_parity(tmp_path, mutation):
    require_tool("gcc")
    require_tool("make")
    spec = _with(tmp_path, "w", visual_range=20, protected_range=8)
    good, bad = parity_of_mutant(spec, tmp_path / "mutant", *mutation)
    assert good is None and bad is not None


def test_a_64_bit_sum_takes_its_terms_from_a_64_bit_window(tmp_path, capsys):
    """Cohesion's 64-bit sums, summed as positions in the grid (c_positions.py), come from the window's
    64-bit running sums; alignment's stay 32-bit. Bit-exact with the simulator on one thread and on two
    (the split), and a window whose 64-bit sum keeps a boid that left it fails parity."""
    from codegen.commands.cli import main

    from .test_rp2040_split import scouts_1000

    require_tool("gcc")
    spec = scouts_1000(tmp_path)
    fast = flock_c_copies(checked_model(spec))[2]
    m = fast.m
    assert [(m.rules[p].name, s, bits) for p, s, _, _, bits in fast.plan.window.terms] == [
        ("alignment", "sum_vx", 32), ("alignment", "sum_vy", 32), ("cohesion", "sum_x", 64), ("cohesion", "sum_y", 64)]
    text = "\n".join(fast.window_struct + fast.window_walk + fast.window_corrections)
    assert "    fx vx, vy;\n    fx_acc x, y;" in text and "fx_acc_add_to(&win_x, o_end->x);" in text
    assert "cohesion_sum_x += win_x - x;" in text and "fx_acc_sub_to(&cohesion_sum_x, o->x);" in text
    for target, seed in (("host", "1"), ("host-threads", "2")):
        rc = main(["parity", str(spec), "--target", target, "--frames", "150", "--seed", seed])
        out = capsys.readouterr().out
        assert rc == 0 and "150 frames x 1000 boids bit-exact" in out, out
    good, bad = parity_of_mutant(spec, tmp_path / "mutant", "fx_acc_sub_to(&win_x, lo->x);", "",
                                 frames=30, seed=1, n=1000)
    assert good is None and bad is not None
