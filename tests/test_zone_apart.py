"""The once-only grid loop's pairs known outside the protected zone
(codegen/passes/zones.py apart_from): d2 < protected^2 needs |dx| and |dy| below the
protected range, so the own band after the boid (x sorted) drops the
protected test once o->x - x reaches it, and the band below (o->y > y) once
o->y - y does. Where it applies, the C, and bit-exactness with the simulator,
also when the split is moved by half the range (the tests must see that)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegen.targets.c.lowering import flock_c_copies
from codegen.commands.parity import prepare, run_parity
from codegen.output.pipeline import checked_model
from codegen.spec.project import output_dir

from .conftest import require_tool
from .mutants import parity_of_mutant
from .test_pairs_once import _frames
from .test_pairs_once import _spec as grid_spec
from .test_window_sums import _with as window_spec


pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of spec variants

def _with(tmp_path: Path, name: str, ranges: dict | None = None, **defaults) -> Path:
    """The default spec at capacity 500, synchronous with the grid, its
    parameters' defaults changed, and `ranges`: {param: (min, max)}."""
    spec = window_spec(tmp_path, name, **defaults)
    text = spec.read_text()
    for p, (lo, hi) in (ranges or {}).items():
        text, k = re.subn(rf"(?m)^(  {p}:\s*\{{default: [-\d.]+,\s*)min: [-\d.]+,(\s*)max: [-\d.]+,",
                          rf"\g<1>min: {lo},\g<2>max: {hi},", text)
        assert k == 1, p
    spec.write_text(text)
    return spec


# visual + protected past a word (65,536 px): fx_d2_zones cannot take them
NO_HILO = {"visual_range": (0, 65500), "protected_range": (0, 80)}


def test_where_the_pairs_apart_skip_the_protected_test(tmp_path):
    wide, _, fast = flock_c_copies(checked_model(_with(tmp_path, "d")))
    # the fast copy (each pair once, the grid): the protected range as the zones' word
    assert fast.apart == fast.zone_hilo.r
    apart = "\n".join(fast.pair_lines_apart)
    assert f"fx_d2_within_pre(dx, dy, {fast.zone_hilo.v}, {fast.zone_hilo.pre})" in apart
    assert "fx_d2_zones" not in apart and "separation" not in apart and "alignment" in apart
    # most pairs apart are within the visual range: its side laid out as the fall-through
    assert f"if (FX_LIKELY({fast.zone_hilo.outer} < 0)) {{" in apart
    window = "\n".join(fast.pair_lines_window_apart)
    assert "continue; /* in the zone: the window's sums hold it */" in window and "separation" not in window
    # the window's: d2's high word against visual^2's (fixed_zones.h), the whole test where they are equal
    assert f"const uint32_t {fast.visual_hi} = fx_sq_hi(P->visual_range);" in fast.step_consts
    assert (f"(int32_t)(fx_d2_hi(dx, dy) - {fast.visual_hi});" in window
            and f"if (FX_D2_BELOW_HI({fast.zone_hilo.outer}, dx, dy, {fast.zone_hilo.v}, {fast.zone_hilo.pre})) {{" in window)
    # the full loop and brute force visit both sides' windows: no split there
    assert wide.apart is None
    assert flock_c_copies(checked_model(grid_spec(tmp_path / "b", 500, False)))[2].apart is None
    # a protected range that may be negative: |dx| >= it says nothing of its square
    neg = flock_c_copies(checked_model(_with(tmp_path, "n", {"protected_range": (-5, 100)})))[2]
    assert neg.apart is None and neg.pair_lines_apart == []
    # zones too wide for fx_d2_zones' words: the protected range as its own word, d2 tested as before
    wide_zones = flock_c_copies(checked_model(_with(tmp_path, "w", NO_HILO)))[2]
    assert wide_zones.zone_hilo is None and wide_zones.apart == "zone_near"
    assert wide_zones.visual_hi is None
    assert "const fx zone_near = P->protected_range;" in wide_zones.step_consts
    assert "if (FX_LIKELY(d2 < visual2)) {" in "\n".join(wide_zones.pair_lines_apart)


def test_the_split_in_the_c(tmp_path):
    require_tool("gcc")
    spec = _with(tmp_path, "c", visual_range=20, protected_range=8)
    m, _, _ = prepare(str(spec))
    c = (output_dir(str(spec), m.name) / "firmware" / "boids_flock.c").read_text()
    fast = c[c.index("boids_step_guarded(flock_t"):c.index("boids_step_flagged(flock_t")]  # its twin: test_pairs_flagged
    assert "for (; o != o_end && fx_sub(o->x, x) < zone_r; o++) {" in fast
    assert "ynear = fx_add(y, zone_r);" in fast and "if (o->y >= ynear) {" in fast
    assert fast.count("fx_d2_within_pre(dx, dy, seed_box, zone_pre)") == 1  # the band below's
    assert fast.count("FX_D2_BELOW_HI(in_visual, dx, dy, seed_box, zone_pre)") == 1  # the own band's rest
    wide = c[c.index("boids_step_wide(flock_t"):]
    assert "fx_d2_within" not in wide.split("void boids_step(")[0]


# protected as wide as visual (the zones' split is the whole window); a
# protected range wider than the box; zones too wide for fx_d2_zones
@pytest.mark.parametrize("defaults, ranges", [
    (dict(visual_range=20, protected_range=20), None),
    (dict(visual_range=12, protected_range=30, turn_factor=0), None),
    (dict(visual_range=20, protected_range=8), NO_HILO),
], ids=["protected-as-wide", "protected-wider", "no-hilo"])
def test_the_split_matches_the_simulator(tmp_path, defaults, ranges):
    require_tool("gcc")
    spec = _with(tmp_path, "p", ranges, **defaults)
    once, full = _frames(spec, tmp_path / "stats", 450)
    assert once >= 30 and once + full == 42, (once, full)  # the split copy ran
    res = run_parity(str(spec), frames=40, seed=5, boids=450)
    assert res.ok, res.summary


# in the once copy and in its twin for frames with flagged boids (the own band's
# loops twice there: outside the flagged boids' runs and in them)
@pytest.mark.parametrize("mutation, count", [
    (("o != o_end && fx_sub(o->x, x) < zone_r; o++) {", "o != o_end && fx_sub(o->x, x) < (zone_r >> 1); o++) {"),
     2),  # own band
    (("ynear = fx_add(y, zone_r);", "ynear = fx_add(y, zone_r >> 1);"), 2),  # band below
], ids=["own-band-early", "band-below-early"])
def test_a_split_too_early_fails_parity(tmp_path, mutation, count):
    require_tool("gcc")
    require_tool("make")
    spec = _with(tmp_path, "m", visual_range=20, protected_range=8)
    good, bad = parity_of_mutant(spec, tmp_path / "mutant", *mutation, count=count)
    assert good is None and bad is not None

def test_check_reports_the_split(tmp_path, capsys):
    from codegen.commands.cli import main

    assert main(["check", str(_with(tmp_path, "r"))]) == 0
    assert ("pairs apart by x (the own band) or y (the band below) at least protected_range skip the "
            "protected zone's test") in capsys.readouterr().out
    assert main(["check", str(_with(tmp_path, "n", {"protected_range": (-5, 100)}))]) == 0
    assert "every pair takes the protected zone's test: protected_range's range reaches below 0" in capsys.readouterr().out
