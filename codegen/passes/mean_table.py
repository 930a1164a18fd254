"""The 32-bit means' divisor as a multiply: a table of floor((2^32 - 1) / n)
for n up to the flock's capacity, in flash, beside the step that reads it.

A mean divides a sum by a count of neighbours, and a count never exceeds
the capacity: fixed.h's fx_acc32_mean_by takes n's reciprocal from the
table (a `multu` and a correction) where fx_acc32_mean divides (`div`, about
35 cycles on the M4K), four times a boid for the default rules. A count
outside the table (a rule may divide by any int) takes the division: the
same value either way (tests/test_widths.py). The simulator divides.
"""
from __future__ import annotations

from codegen.passes.pipeline import Pass

MAX_ENTRIES = 1025  # 4 KB of flash at most; a larger flock divides
CALLS = {"boids_mean": "fx_acc32_mean", "boids_mean_about": "fx_acc32_mean_about"}


def recip(n: int) -> int:
    return (2**32 - 1) // n if n else 0


def lines(capacity: int, used: set) -> list:
    """The table and the wrappers the step's code calls (`used`: their names)."""
    used = [f for f in CALLS if f in used]
    if not used or capacity + 1 > MAX_ENTRIES:
        return []
    vals = [f"{recip(n)}u" for n in range(capacity + 1)]
    rows = [", ".join(vals[i:i + 6]) for i in range(0, len(vals), 6)]
    out = ["/* The means' divisor as a multiply (codegen/passes/mean_table.py):",
           " * boids_recip[n] = floor((2^32 - 1) / n) for 1 <= n <= BOIDS_CAPACITY. */",
           "static const uint32_t boids_recip[] = {"]
    out += [f"    {r}," for r in rows]
    out += ["};",
            "typedef char boids_recip_fits[sizeof boids_recip / sizeof boids_recip[0] == BOIDS_CAPACITY + 1 ? 1 : -1];"]
    out += ["/* n's reciprocal, 0 outside the table (then the mean divides) */",
            "static inline uint32_t boids_recip_of(int32_t n)",
            "{",
            "    return (uint32_t)n - 1u < (uint32_t)BOIDS_CAPACITY ? boids_recip[n] : 0u;",
            "}"]
    if "boids_mean" in used:
        out += ["static inline fx boids_mean(fx_acc32 s, int32_t n, uint32_t rn)",
                "{",
                "    return rn ? fx_acc32_mean_by(s, n, rn) : fx_acc32_mean(s, n);",
                "}"]
    if "boids_mean_about" in used:
        out += ["static inline fx boids_mean_about(fx_acc32 d, int32_t n, fx base, uint32_t rn)",
                "{",
                "    return rn ? fx_acc32_mean_about_by(d, n, base, rn) : fx_acc32_mean_about(d, n, base);",
                "}"]
    return out


def call(op: str, capacity: int) -> str:
    """The C function printed for a 32-bit mean (targets/c/expr.py)."""
    fn = "boids_mean_about" if op == "sum_mean_about" else "boids_mean"
    return fn if capacity + 1 <= MAX_ENTRIES else CALLS[fn]


class MeanTable(Pass):
    """mean_table: a 32-bit mean by a neighbour count multiplies by the
    count's reciprocal from a table in flash (a count outside it divides),
    each boid group's reciprocal looked up once a boid.

    Assumes: 32-bit means (the widths pass) and a capacity of at most
    MAX_ENTRIES - 1. Preserves: every bit: fx_acc32_mean_by is
    fx_acc32_mean for every count in the table (tests/test_widths.py)."""
    name = "mean_table"
    stage = "c"
