"""The grid's visual zone by prefix sums over thin bands (issue 36: the
RP2040's dense frames).

A boid's pair loop visits every boid of the three bands around it within
the box in x, and tests each. In a dense cluster most of them lie well
inside the visual zone and outside the protected one, where the visit
only adds the other's fields to the group's sums (alignment's vx, vy,
cohesion's x, y) and counts it. Those can be summed without a visit:

- the bands are K times thinner (h = ceil(cell / K), so a boid's
  neighbours lie in the 2K + 1 bands around its own), sorted by x as
  before (band_sort);
- for band offset j, every pair of two inner bands has |dy| between
  dmin(j) and dmax(j) (j = 0: 0 and h - 1; else (|j| - 1) h + 1 and
  (|j| + 1) h - 1). With the zone test itself (fx_d2_zones, monotone in
  |dx| and |dy|) the step finds once a frame, by bisection, w_in(j): the
  largest |dx| in the box and the visual zone at dmax(j), and p_out(j):
  the smallest |dx| >= 1 outside the protected zone at dmin(j). Every
  boid of the band with p_out <= |dx| <= w_in is in the box, in the
  visual zone and out of the protected one: the group's branch, exactly;
- x sorted, those are two runs of slots, [x - w_in, x - p_out] and
  [x + p_out, x + w_in]: their sums are differences of the frame's
  prefix sums of each field (strip_pre, 64-bit exact), their count the
  runs' lengths. The rest of the box window (the annulus's edges, the
  protected zone's neighbourhood, the boid itself) is visited as before.
  An edge band (boids clamped into it: its |dy| has no bound) and a band
  whose runs are empty are visited whole.

The sums are integer sums: 64-bit exact, or 32-bit wrapping (the low word
of the 64-bit difference), whose terms' order changes nothing; so every
bit is the full loop's, and the simulator keeps its loop. Each boid has
its own sums (no ring: the pass takes pairs_once's place where it
applies), so the split between the cores is at a band's edge.

For the RP2040-only specs (the PIC32's measured budget keeps each pair
once, whose ring fits its 32 KB); the group of the seed's visual zone, the
only test of its kind, whose every `each` statement adds a field of the
other boid (window_sums.terms); the seed's two zones in one word
(zones_hilo) and no radius zone. This module decides (a StripPlan on
Lowered); codegen/targets/c/strips.py prints it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from codegen.passes.pipeline import Pass
from codegen.passes.window_sums import WindowPlan, terms
from codegen.lang.zone_groups import zone_form

PER_BOX = 4  # thin bands a box: more bound the runs closer, each costs its windows a boid


@dataclass(frozen=True)
class StripPlan(WindowPlan):
    """The visual group summed by strips: its key and terms (WindowPlan's)
    and the bands a box, `per_box`."""
    per_box: int = PER_BOX


def plan(m, zones_hilo: bool) -> StripPlan | None:
    """The plan for m's fast copy (None: the pass does not apply)."""
    if set(m.spec.board.targets) != {"rp2040"} or not zones_hilo:
        return None
    if not (m.spec.performance.grid and m.spec.update_order == "synchronous"):
        return None
    form = zone_form(m.rules)
    visual = [g for g in form.groups if g.key[0] == ("seed", "visual")]
    if form.radius or len(visual) != 1 or visual[0].nearest:
        return None
    t = terms(m, visual[0])
    return StripPlan(visual[0].key, t) if t else None


class StripSums(Pass):
    """strip_sums: the grid's bands a quarter of the box tall, and each
    boid's neighbours well inside the visual zone and out of the protected
    one summed from the frame's prefix sums, two runs of each band's
    x-sorted slots, instead of visited (plan; the module says why exactly
    those).

    Assumes: the grid, synchronous order, the RP2040 alone; the seed's zones
    through fx_d2_zones (zones_hilo), no radius zone; the visual group's
    every `each` adds a field of the other boid. Preserves: every bit: the
    runs hold exactly the boids whose visit would take the group's branch,
    and their sums are integer sums (64-bit exact, 32-bit wrapping). Takes
    pairs_once's place: no ring, each boid its own sums."""
    name = "strip_sums"
    stage = "c"

    def apply(self, low):
        p = plan(low.fast_m, low.zones_hilo)
        if p is None:
            return low
        return replace(low, strips=p, once=False, ring=None)
