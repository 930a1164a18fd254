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

The group's test must end the pair loop's body (the seed's zone chain with
no radius zone after it, or the last radius zone): its branch ends the
visit with `continue`. Not for 64-bit sums (the window's running sums
would be 64-bit too) or an `each` that does anything else.

This module decides (the group and its terms, recorded on Lowered as a
WindowPlan); codegen/targets/c/window.py prints the walk, the corrections
and the window's struct.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from codegen.passes.pipeline import Pass
from codegen.lang.ir import Accumulate, Ref, Type
from codegen.lang.zone_groups import zone_form

_ADDS = ("acc32_add", "acc32_sub")  # a 32-bit sum's term, added or taken away


@dataclass(frozen=True)
class WindowPlan:
    """The group whose own-band sums come from the window: its key (the
    zone group's, codegen/lang/zone_groups.py) and its terms, each (rule
    position, sum, the other's field, sign)."""
    key: tuple
    terms: tuple

    @property
    def fields(self) -> list:
        """The other's fields the group's sums read, once each."""
        return list(dict.fromkeys(f for _, _, f, _ in self.terms))


def terms(m, g) -> tuple | None:
    """(rule position, sum, field, sign) of each statement of the group's
    `each`, if every one adds or subtracts a fixed-point field of the other
    boid to a 32-bit sum (None: the group does not qualify)."""
    out = []
    for p in g.rules:
        for st in m.rules[p].ir.each:
            v = getattr(st, "value", None)
            if not (isinstance(st, Accumulate) and st.op in _ADDS and isinstance(v, Ref) and v.kind == "other"
                    and v.type == Type.FIXED):
                return None
            out.append((p, st.sum, v.name, 1 if st.op == "acc32_add" else -1))
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
    adds a fixed-point field of the other boid to a 32-bit sum. Preserves:
    every bit: 32-bit wrapping sums, terms added and taken back cancel
    modulo 2^32 in any order."""
    name = "window_sums"
    stage = "c"

    def apply(self, low):
        m = low.fast_m
        grid = m.spec.performance.grid and m.spec.update_order == "synchronous"
        return replace(low, window=group(m) if low.ring is not None and grid else None)
