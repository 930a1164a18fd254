"""Passes that exist only for GCC -O1's scheduling on the M4K (the free
XC32's level): without them the same C computes the same bits, a few
cycles slower a pair. They belong to the PIC32 target; another compiler or
core would list its own."""
from __future__ import annotations

from codegen.passes.pipeline import Pass


class RingSched(Pass):
    """ring_sched: the once-only mirror's additions to the other boid's
    ring entry are software-pipelined, each field loaded two statements
    before its add (codegen/passes/ring_sched.py), so no add waits a
    load-use cycle (GCC -O1 keeps source order).

    Assumes: pairs_once. Preserves: every bit: the same loads, adds and
    stores per field, in the same order per field."""
    name = "ring_sched"
    only_for = "GCC -O1 (M4K)"


class GccO1Hints(Pass):
    """gcc_o1_hints: FX_LOADED (fixed.h: an empty asm that keeps a load
    where it is: the other boid's fields loaded before the first add) and
    FX_LIKELY (__builtin_expect: the zone test most pairs pass laid out as
    the fall-through), printed in the pair loop.

    Assumes: nothing. Preserves: every bit: neither changes a value; both
    are `((void)0)` / the bare test outside GCC."""
    name = "gcc_o1_hints"
    only_for = "GCC -O1 (M4K)"
