"""The grid's own band by its window's sums (issue 16; each pair once).

In the once-only loop (pairs_once.py) a pair in range adds to both boids'
sums: the boid's in registers, the other's through the ring, a load, an add
and a store a field. In its own band a boid's in-range neighbours are
nearly all of its window, the band's boids within the box in x (94 % of the
default flock's at 500 boids): the rest are outside the zone's circle, in
an inner zone, or (edge bands) outside the box in y. So for one zone group
whose every statement of `each` adds a field of the other boid to a 32-bit
sum (`sum = fx_add(sum, o->vx)`, the count `n++`), the own band is summed
the other way round:

- the window's sums slide along the band: the band's boids are sorted by x,
  so the window's ends only move forward; a boid entering adds its fields,
  one leaving subtracts them (`band_sums`, flock_grid.j2), the boid's own
  fields are in it and are taken out again, and the count is the window's
  length less one;
- the pair loop still visits the band after the boid (each pair once); a
  pair in the group's zone does nothing more for the group (its branch
  ends the visit), every other pair takes the window's terms back on both
  sides (`corrections`: the same `each`, subtracted).

Every pair of the window counted once from each side, less every pair out
of the zone from each side: the sums of exactly the pairs in the zone, as
before. They are 32-bit wrapping sums, so terms added and taken back
cancel modulo 2^32 whatever their order, and the simulator keeps its loop.
A pair of the band below (or above) keeps the ring's path: about half its
candidates are out of range there, and a correction costs what a term
costs.

A 64-bit sum (cohesion's, summed as positions by c_positions.py in a
grid step, at capacities where it may leave 32 bits) takes its terms from a
64-bit running sum of the window: exact integers, so the window's sum less
the pairs out of the zone is the pairs' sum whatever the order. The window
holds one running sum a field, 64-bit where any of the field's terms is.

The group's test must end the pair loop's body (the seed's zone chain with
no radius zone after it, or the last radius zone): its branch ends the
visit with `continue`. Not for an `each` that does anything else.

This module decides (the group and its terms, recorded on Lowered as a
WindowPlan); codegen/targets/c/window.py prints the walk, the corrections
and the window's struct.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from codegen.passes.pipeline import Pass
from codegen.lang.ir import Accumulate, Ref, Type
from codegen.lang.zone_groups import zone_form

# a term added to or taken from a sum: (sign, the sum's bits)
_ADDS = {"acc32_add": (1, 32), "acc32_sub": (-1, 32), "acc_add": (1, 64), "acc_sub": (-1, 64)}


@dataclass(frozen=True)
class WindowPlan:
    """The group whose own-band sums come from the window: its key (the
    zone group's, codegen/lang/zone_groups.py) and its terms, each (rule
    position, sum, the other's field, sign, the sum's bits)."""
    key: tuple
    terms: tuple

    @property
    def fields(self) -> list:
        """The other's fields the group's sums read, once each."""
        return list(dict.fromkeys(t[2] for t in self.terms))

    def bits(self, field: str) -> int:
        """The width of the window's running sum of `field`: 64 if any of its terms' sums is."""
        return max(t[4] for t in self.terms if t[2] == field)


def terms(m, g) -> tuple | None:
    """(rule position, sum, field, sign, bits) of each statement of the
    group's `each`, if every one adds or subtracts a fixed-point field of
    the other boid to a sum (None: the group does not qualify)."""
    out = []
    for p in g.rules:
        for st in m.rules[p].ir.each:
            v = getattr(st, "value", None)
            if not (isinstance(st, Accumulate) and st.op in _ADDS and isinstance(v, Ref) and v.kind == "other"
                    and v.type == Type.FIXED):
                return None
            out.append((p, st.sum, v.name) + _ADDS[st.op])
    return tuple(out)


def group(m) -> WindowPlan | None:
    """The zone group the own band sums by its window (None: none), for the
    once-only grid loop: the group of the pair loop's last test with the
    most terms."""
    form = zone_form(m.rules)
    if form.radius:
        p, coincident = form.radius[-1]
        last = [g for g in form.groups if g.key[0] == ("radius", p, coincident)]
    else:
        last = [g for g in form.groups if g.key[0][0] == "seed"]
    best = None
    for g in last:
        t = None if g.nearest else terms(m, g)
        if t and (best is None or len(t) > len(best.terms)):
            best = WindowPlan(g.key, t)
    return best


class WindowSums(Pass):
    """window_sums: in the once-only grid loop, one zone group's own-band
    sums come from the band window's running sums, less the pairs of the
    window out of the zone (the pass picks the group: `group`).

    Assumes: pairs_once and the grid; a group whose every `each` statement
    adds a fixed-point field of the other boid to a sum. Preserves: every
    bit: 32-bit wrapping sums, terms added and taken back cancel modulo 2^32
    in any order; a 64-bit sum's window is 64-bit, exact integers."""
    name = "window_sums"
    requires = ("pairs_once",)
    stage = "c"

    def apply(self, low):
        m = low.fast_m
        grid = m.spec.performance.grid and m.spec.update_order == "synchronous"
        return replace(low, window=group(m) if low.ring is not None and grid else None)
