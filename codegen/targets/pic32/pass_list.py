"""The PIC32 target's pass lists (its record's `passes`; codegen/targets/c/lowering.py runs them).

`performance.optimize` picks the list: `fast` every pass of the target,
`plain` none of its own: the shared passes alone (codegen/passes/shared.py,
which the simulator's IR needs in either mode), plus roots_as_written, which
prints each magnitude as the rule writes it where that is proven the same
bits. So plain is the seed's loop: one pair loop over both sides of every
pair, the seed's zone chain, the widths the analysis needs, no guarded copy,
ring, window sums, mean table or scheduling hint.
"""
from __future__ import annotations

from codegen.passes.c_lists import C_FAST, PLAIN
from codegen.passes.shared import SHARED
from codegen.targets.pic32.gcc_o1 import GccO1Hints, RingSched

FAST = SHARED + C_FAST + (RingSched(), GccO1Hints())  # GCC -O1's scheduling on the M4K, last
PASS_LISTS = {"fast": FAST, "plain": PLAIN}


def pass_list(spec) -> tuple:
    """The passes the spec's `performance.optimize` asks for."""
    return PASS_LISTS[spec.performance.optimize]
