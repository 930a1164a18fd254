"""A spec's step as its board's passes leave it, and the C printed from that.

The pass list is the board's own (its record's `passes`,
codegen/boards/registry.py): the first board the spec's board.target
names, whose list prints the generated firmware/ every board builds from.
"""
from __future__ import annotations

from codegen.boards import registry
from codegen.passes.pipeline import run
from codegen.targets.c.emit import FlockC


class PassForAnotherCompiler(ValueError):
    """A board's pass list holds a pass that exists for another compiler's scheduling."""


def passes_for(spec) -> tuple:
    """The passes the spec's first board runs, in its `performance.optimize` mode. A pass `only_for` one
    compiler (GCC -O1's scheduling on the M4K) is refused in another board's list."""
    board = registry.spec_targets(spec)[0]
    passes = board.passes.load()(spec)
    for p in passes:
        if p.only_for is not None and p.only_for != board.compiler:
            raise PassForAnotherCompiler(f"{board.name}'s pass list holds {p.name}, which exists for "
                                         f"{p.only_for} only, not {board.compiler}")
    return passes


def lower(m):
    """The passes of m's mode run over m (pipeline.Lowered)."""
    return run(m, passes_for(m.spec))


def flock_c_copies(m, low=None):
    """(the full loop's FlockC, Guard, the fast copy's FlockC), printed from
    what the passes left (`low`: lower(m), if already run): the fast copy
    sums in 32 bits where the guard allows (None: no guard; guards.py) and
    visits each pair once where the rules allow (pairs_once.py). In plain
    both are the one full loop."""
    low = low if low is not None else lower(m)
    full = FlockC(m, low.m, plan=low)
    fast = FlockC(m, low.fast_m, once=low.once, plan=low) if low.once or low.guard is not None else full
    return full, low.guard, fast
