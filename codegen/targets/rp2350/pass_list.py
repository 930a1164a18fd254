"""The RP2350 target's pass lists (its record's `passes`): the C passes every C target runs
(codegen/passes/c_lists.py). The Cortex-M33 multiplies 32 x 32 -> 64 bits and divides in one
instruction each, and the pico-sdk schedules with arm-none-eabi-gcc's own model: none of the
PIC32's passes for GCC -O1 on the M4K applies."""
from __future__ import annotations

from codegen.passes.c_lists import C_FAST, PLAIN
from codegen.passes.shared import SHARED

FAST = SHARED + C_FAST
PASS_LISTS = {"fast": FAST, "plain": PLAIN}


def pass_list(spec) -> tuple:
    """The passes the spec's `performance.optimize` asks for."""
    return PASS_LISTS[spec.performance.optimize]
