"""The 32-bit means' reciprocal table, printed: where the mean_table pass
(codegen/passes/mean_table.py) recorded its length (Lowered.mean_entries),
a mean by a count calls boids_mean / boids_mean_about, which multiply by
the count's reciprocal from this table (fixed.h's fx_acc32_mean_by)."""
from __future__ import annotations

# the wrappers printed, and the fixed.h mean each falls back to (a count outside the table)
CALLS = {"boids_mean": "fx_acc32_mean", "boids_mean_about": "fx_acc32_mean_about"}


def recip(n: int) -> int:
    return (2**32 - 1) // n if n else 0


def call(op: str) -> str:
    """The C function printed for a 32-bit mean (expr.py) where there is a table."""
    return "boids_mean_about" if op == "sum_mean_about" else "boids_mean"


def lines(entries: int, used: set) -> list:
    """The table of `entries` reciprocals and the wrappers the step's code
    calls (`used`: their names)."""
    used = [f for f in CALLS if f in used]
    if not used:
        return []
    vals = [f"{recip(n)}u" for n in range(entries)]
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
