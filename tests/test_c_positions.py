"""Cohesion's 32-bit offset sums accumulated as positions in the C
(codegen/passes/c_positions.py): where the lowering applies, where it must
not, and that the C still gives the simulator's bits where it does not."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.passes.c_positions import candidates, positions
from codegen.passes.widths import lowered
from codegen.output.pipeline import load

from .conftest import ROOT, with_capacity

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: parity of spec variants

BOIDS = (ROOT / "spec" / "boids.yaml").read_text(encoding="utf-8")
# cohesion's sum over only the neighbours moving right: its count counts more than its terms
LEANING = """
rule_defs:
  leaning:
    description: cohesion toward the neighbours moving right
    roles: {range: fixed, factor: fixed}
    neighbours: {of: boids, within: range, zone: visual}
    each: |
      if other.vx > 0:
          sum_x += other.x
      sum_y += other.y
    apply: |
      if count > 0:
          vx += (sum_x / count - x) * factor
          vy += (sum_y / count - y) * factor
"""


def _spec(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "spec" / "x.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def _rule(m, name):
    return next(r for r in m.rules if r.name == name).ir


def test_cohesion_sums_positions_where_32_bit():
    m = lowered(load(ROOT / "spec" / "boids.yaml"))
    assert candidates(_rule(m, "cohesion")) == {"sum_x": ("x", "count", 32), "sum_y": ("y", "count", 32)}
    assert candidates(_rule(m, "alignment")) == {}  # velocities: no offsets
    c = positions(m)
    coh = _rule(c, "cohesion")
    assert [(st.op, st.value.kind, st.value.name) for st in coh.each] == [
        ("acc32_add", "other", "x"), ("acc32_add", "other", "y")]
    assert "positions_about" in repr(coh.apply) and not {"dx", "dy"} & coh.reads_each.pair
    # at capacity 500 without the guard's narrowing the offsets' sums are 64-bit: left alone
    wide = lowered(load(ROOT / "spec" / "boids.yaml", capacity=500))
    assert candidates(_rule(wide, "cohesion")) == {} and positions(wide) is wide


def test_a_64_bit_offset_sum_sums_positions_in_the_grid_alone(tmp_path):
    """Synchronous with the grid, cohesion's 64-bit offset sums are summed as positions and read as the
    plain mean (the grid's |x|, |y| < 2^30 raw: no dx wraps); sequential, or synchronous without the grid,
    they keep their offsets."""
    base = BOIDS.replace("update_order: sequential", "update_order: synchronous", 1)
    base = with_capacity(base, 500)
    plain = lowered(load(_spec(tmp_path / "plain", base)))
    coh = _rule(plain, "cohesion")
    assert {s.name: s.bits for s in coh.sums} == {"sum_x": 64, "sum_y": 64}
    assert candidates(coh, wide=True) == {"sum_x": ("x", "count", 64), "sum_y": ("y", "count", 64)}
    assert candidates(coh) == {} and positions(plain) is plain  # no grid: offsets
    grid = lowered(load(_spec(tmp_path / "grid", base + "\nperformance:\n  grid: true\n")))
    coh = _rule(positions(grid), "cohesion")
    assert [(st.op, st.value.kind, st.value.name) for st in coh.each] == [
        ("acc_add", "other", "x"), ("acc_add", "other", "y")]
    assert "sum_mean_about" not in repr(coh.apply) and repr(coh.apply).count("'sum_mean'") == 2


def test_a_sum_under_an_if_keeps_its_offsets(tmp_path):
    text = BOIDS.replace("{rule: cohesion,", "{rule: leaning,", 1) + LEANING
    m = lowered(load(_spec(tmp_path, text)))
    lean = _rule(m, "leaning")
    assert {s.name: s.bits for s in lean.sums} == {"sum_x": 32, "sum_y": 32}
    assert candidates(lean) == {"sum_y": ("y", "count", 32)}  # sum_x has fewer terms than the count


def test_the_mixed_rule_matches_the_simulator(tmp_path):
    """One sum as positions, one as offsets, in both update orders: the C's
    bits are the simulator's every frame."""
    from codegen.commands.parity import run_parity

    from .conftest import require_tool

    require_tool("gcc")
    for order in ("sequential", "synchronous"):
        text = (BOIDS.replace("{rule: cohesion,", "{rule: leaning,", 1)
                .replace("update_order: sequential", f"update_order: {order}", 1)) + LEANING
        spec = _spec(tmp_path / order, text)
        res = run_parity(str(spec), frames=60, seed=4, boids=100, sets=[("centering_factor", "0.05")])
        assert res.ok, res.summary
        c = (tmp_path / order / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
        assert "leaning_sum_y = fx_add(leaning_sum_y, o->y);" in c and "leaning_sum_x = fx_sub(leaning_sum_x, dx);" in c
