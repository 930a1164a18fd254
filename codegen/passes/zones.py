"""The pair loop's zone tests, as passes of the C target: which layout the
printer (codegen/targets/c/pairs.py) gives the seed's zone chain. Each pass
decides from the rules' IR and the parameters' ranges and records its
choice on Lowered (zones_hilo, zone_apart)."""
from __future__ import annotations

from dataclasses import replace

from codegen.passes.pipeline import Pass
from codegen.lang.zone_groups import zone_form


def zones_in_hilo(m, zone_range: dict) -> bool:
    """Whether the seed's zone chain tests through fx_d2_zones (fixed.h):
    both zones, and visual - protected, visual + protected in a word over
    the parameters' whole ranges (the op's a and b). Saves the two 64-bit
    squares' four registers and compares (issue 16: the M4K's pair loop)."""
    if not {"protected", "visual"} <= set(zone_range):
        return False
    p, v = m.param(zone_range["protected"]), m.param(zone_range["visual"])
    ends = (v.min_raw - p.max_raw, v.max_raw - p.min_raw, v.min_raw + p.min_raw, v.max_raw + p.max_raw)
    return all(-(2**31) <= e < 2**31 for e in ends)


def apart_from(m) -> bool:
    """Whether the pair loop may compare |dx| or |dy| with the protected
    range to know a pair outside the protected zone (d2 < protected^2 needs
    both below it): the chain has a protected and a visual group, and the
    protected range cannot be negative (then |dx| >= it would not rule its
    square out). The once-only grid loop then visits the pairs it rules out
    without the protected test (pairs.pair_lines' apart; flock_step_grid.j2)."""
    form = zone_form(m.rules)
    tests = {g.key[0] for g in form.groups}
    return ({("seed", "protected"), ("seed", "visual")} <= tests
            and m.param(form.zone_range["protected"]).min_raw >= 0)


class ZonesHiLo(Pass):
    """zones_hilo: the seed's chain (protected, then visual) tests one
    32-bit word each through fx_d2_zones (visual^2 = protected^2 + a*b)
    instead of two 64-bit squares, where visual - protected and visual +
    protected fit a word over the parameters' whole ranges (zones_in_hilo).

    Assumes: both seed zones. Preserves: every bit: fx_d2_zones's signs are
    exactly d2 < protected^2 and d2 < visual^2 (fixed.h, its tests)."""
    name = "zones_hilo"

    def apply(self, low):
        return replace(low, zones_hilo=zones_in_hilo(low.m, zone_form(low.m.rules).zone_range))


class ZoneApart(Pass):
    """zone_apart: the once-only grid loop visits the pairs whose |dx| (own
    band, sorted by x) or |dy| (band below) is at least the protected range
    without the protected test (apart_from).

    Assumes: pairs_once and the grid; the protected range never negative.
    Preserves: every bit: such a pair's d2 cannot be below protected^2, so
    the skipped test would have been false."""
    name = "zone_apart"
    requires = ("pairs_once",)

    def apply(self, low):
        return replace(low, zone_apart=apart_from(low.m))
