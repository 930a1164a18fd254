"""The RP2040 target's pass lists (its record's `passes`): the C passes every
C target runs (codegen/passes/c_lists.py), and none of the PIC32's two that
exist only for GCC -O1's scheduling on the M4K (ring_sched, gcc_o1_hints):
the pico-sdk builds the image with its own optimisation level and
arm-none-eabi-gcc's own scheduling, where those hints compile to nothing."""
from __future__ import annotations

from codegen.passes.c_lists import C_FAST, PLAIN
from codegen.passes.shared import SHARED

FAST = SHARED + C_FAST
PASS_LISTS = {"fast": FAST, "plain": PLAIN}


def pass_list(spec) -> tuple:
    """The passes the spec's `performance.optimize` asks for."""
    return PASS_LISTS[spec.performance.optimize]
