"""The square-root passes (issue 16): `roots` applies the rewrite that
codegen/analysis/roots_rewrite.py decides and proves (an exact magnitude only
compared is compared as its square), `roots_as_written` prints each magnitude
as the rule writes it where that rewrite is proven the same bits."""
from __future__ import annotations

from dataclasses import replace

from codegen.analysis.roots_rewrite import as_written_is_identical, rooted
from codegen.passes.pipeline import Pass


class Roots(Pass):
    """roots: an exact magnitude only compared is compared as its square
    (`mag_lt(speed_sq, min)`), its root taken only on the paths that read it.

    Assumes: the IR after offsets. Kept per magnitude only where the range
    analysis of the rewritten rules finds the squared magnitude's operands
    exact. Preserves: the IR's meaning as both targets compute it (a shared
    pass: the simulator's kernel reads the rewritten IR); bit for bit the
    rule as written where the squared magnitude stays below 2^62
    (Rooted.identical), else the limit holds where the written root would
    wrap."""
    name = "roots"
    requires = ("offsets",)
    stage = "ir"

    def apply(self, low):
        m2, res, found = rooted(low.m)
        return replace(low, m=m2, rooted=m2, res=res, found=tuple(found))


class RootsAsWritten(Pass):
    """roots_as_written: the C prints each magnitude as the rule writes it
    (`speed = fx_hypot(vx, vy)`, then its compares) where the roots pass's
    rewrite is proven the same computation; otherwise it keeps the rewrite.

    Assumes: the shared passes ran (Lowered.written, Lowered.found).
    Preserves: every bit: printed only where every rewritten magnitude's
    square stays below 2^62 over every parameter's range (Rooted.identical),
    where the rewritten and the written rule are the same computation. A
    target without the roots optimisation (plain) runs it."""
    name = "roots_as_written"
    requires = ("offsets", "roots", "widths")
    stage = "c"

    def apply(self, low):
        if not low.found or not as_written_is_identical(low.found):
            return low
        return replace(low, m=low.written)
