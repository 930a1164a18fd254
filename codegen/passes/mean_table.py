"""The 32-bit means' divisor as a multiply: a table of floor((2^32 - 1) / n)
for n up to the flock's capacity, in flash, beside the step that reads it.

A mean divides a sum by a count of neighbours, and a count never exceeds
the capacity: fixed.h's fx_acc32_mean_by takes n's reciprocal from the
table (a `multu` and a correction) where fx_acc32_mean divides (`div`, about
35 cycles on the M4K), four times a boid for the default rules. A count
outside the table (a rule may divide by any int) takes the division: the
same value either way (tests/test_widths.py). The simulator divides.

The pass decides the table's length (Lowered.mean_entries: the capacity's
counts, or None past MAX_ENTRIES); codegen/targets/c/means.py prints it.
"""
from __future__ import annotations

from dataclasses import replace

from codegen.passes.pipeline import Pass

MAX_ENTRIES = 1025  # 4 KB of flash at most; a larger flock divides


def entries(capacity: int) -> int | None:
    """The table's length for a flock of `capacity` (None: too large, the means divide)."""
    return capacity + 1 if capacity + 1 <= MAX_ENTRIES else None


class MeanTable(Pass):
    """mean_table: a 32-bit mean by a neighbour count multiplies by the
    count's reciprocal from a table in flash (a count outside it divides),
    each boid group's reciprocal looked up once a boid.

    Assumes: 32-bit means (the widths pass) and a capacity of at most
    MAX_ENTRIES - 1. Preserves: every bit: fx_acc32_mean_by is
    fx_acc32_mean for every count in the table (tests/test_widths.py)."""
    name = "mean_table"
    requires = ("widths",)
    stage = "c"

    def apply(self, low):
        return replace(low, mean_entries=entries(low.source.spec.flock.capacity))
