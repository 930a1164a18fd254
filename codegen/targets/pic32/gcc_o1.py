"""Passes that exist only for GCC -O1's scheduling on the M4K (the free
XC32's level): without them the same C computes the same bits, a few
cycles slower a pair. They belong to the PIC32 target; another compiler or
core would list its own. Each records on Lowered the rewrite of printed
lines it wants (its logic here and in ring_sched.py); the C printer applies
the function it finds there, and prints the bare lines when there is none."""
from __future__ import annotations

import re
from dataclasses import replace

from codegen.passes.pipeline import Pass
from codegen.targets.pic32.ring_sched import pipelined

_OTHER_FIELD = re.compile(r"\bo->([A-Za-z_]\w*)")


def loads(*fields) -> list:
    """FX_LOADED (fixed.h) for the other boid's fields: each load kept where
    it is, ahead of its use."""
    return [f"FX_LOADED(o->{f});" for f in fields]


def loads_ahead(lines: list) -> list:
    """FX_LOADED (fixed.h) for each field of the other boid the lines read,
    but its position (the visit loaded it): all loaded before the first add,
    none waits a cycle for its load (at -O1 GCC sinks each to its use)."""
    fields = dict.fromkeys(f for ln in lines for f in _OTHER_FIELD.findall(ln) if f not in ("x", "y"))
    return loads(*fields)


class O1Hints:
    """GCC -O1's hints, as the C printer places them (codegen/targets/c/
    pairs.py, window.py, the templates): loads before a visit's lines,
    the other's coordinates loaded ahead, a zone or box test most pairs pass."""
    visit = staticmethod(loads_ahead)
    loads = staticmethod(loads)

    @staticmethod
    def likely(test: str) -> str:
        """The test laid out as the fall-through (FX_LIKELY: __builtin_expect)."""
        return f"FX_LIKELY({test})"


class RingSched(Pass):
    """ring_sched: the once-only mirror's additions to the other boid's
    ring entry are software-pipelined, each field loaded two statements
    before its add (codegen/targets/pic32/ring_sched.py), so no add waits a
    load-use cycle (GCC -O1 keeps source order).

    Assumes: pairs_once. Preserves: every bit: the same loads, adds and
    stores per field, in the same order per field."""
    name = "ring_sched"
    requires = ("pairs_once",)
    only_for = "GCC -O1 (M4K)"

    def apply(self, low):
        return replace(low, mirror_sched=pipelined)


class GccO1Hints(Pass):
    """gcc_o1_hints: FX_LOADED (fixed.h: an empty asm that keeps a load
    where it is: the other boid's fields loaded before the first add) and
    FX_LIKELY (__builtin_expect: the zone test most pairs pass laid out as
    the fall-through), printed in the pair loop.

    Assumes: nothing. Preserves: every bit: neither changes a value; both
    are `((void)0)` / the bare test outside GCC."""
    name = "gcc_o1_hints"
    only_for = "GCC -O1 (M4K)"

    def apply(self, low):
        return replace(low, hints=O1Hints())
