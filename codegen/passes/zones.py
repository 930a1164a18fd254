"""The pair loop's zone tests, as passes of the C target: which layout the
printer (codegen/targets/c/pairs.py) gives the seed's zone chain."""
from __future__ import annotations

from codegen.passes.pipeline import Pass


class ZonesHiLo(Pass):
    """zones_hilo: the seed's chain (protected, then visual) tests one
    32-bit word each through fx_d2_zones (visual^2 = protected^2 + a*b)
    instead of two 64-bit squares, where visual - protected and visual +
    protected fit a word over the parameters' whole ranges (the printer
    asks emit_c_pairs.zones_in_hilo).

    Assumes: both seed zones. Preserves: every bit: fx_d2_zones's signs are
    exactly d2 < protected^2 and d2 < visual^2 (fixed.h, its tests)."""
    name = "zones_hilo"


class ZoneApart(Pass):
    """zone_apart: the once-only grid loop visits the pairs whose |dx| (own
    band, sorted by x) or |dy| (band below) is at least the protected range
    without the protected test (emit_c_pairs.apart_from).

    Assumes: pairs_once and the grid; the protected range never negative.
    Preserves: every bit: such a pair's d2 cannot be below protected^2, so
    the skipped test would have been false."""
    name = "zone_apart"
