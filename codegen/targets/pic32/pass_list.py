"""The PIC32 target's pass lists, and the C of a spec's step as they leave it.

`performance.optimize` picks the list: `fast` every pass of the target,
`plain` none of its own: the shared passes alone (codegen/passes/shared.py,
which the simulator's IR needs in either mode), plus roots_as_written, which
prints each magnitude as the rule writes it where that is proven the same
bits. So plain is the seed's loop: one pair loop over both sides of every
pair, the seed's zone chain, the widths the analysis needs, no guarded copy,
ring, window sums, mean table or scheduling hint.
"""
from __future__ import annotations

from codegen.passes.c_positions import CPositions
from codegen.targets.c.emit import FlockC
from codegen.passes.guards import Guards
from codegen.passes.mean_table import MeanTable
from codegen.passes.pairs_once import PairsOnce
from codegen.passes.roots import RootsAsWritten
from codegen.passes.window_sums import WindowSums
from codegen.passes.pipeline import run
from codegen.passes.shared import SHARED
from codegen.passes.zones import ZoneApart, ZonesHiLo
from codegen.targets.pic32.gcc_o1 import GccO1Hints, RingSched

FAST = SHARED + (Guards(), CPositions(), PairsOnce(), ZonesHiLo(), ZoneApart(), WindowSums(), MeanTable(),
                 RingSched(), GccO1Hints())
PLAIN = SHARED + (RootsAsWritten(),)
PASS_LISTS = {"fast": FAST, "plain": PLAIN}


def pass_list(spec) -> tuple:
    """The passes the spec's `performance.optimize` asks for."""
    return PASS_LISTS[spec.performance.optimize]


def lower(m):
    """The passes of m's mode run over m (pipeline.Lowered)."""
    return run(m, pass_list(m.spec))


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
