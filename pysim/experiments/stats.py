"""Per-point summaries of an experiment's rows: each metric's mean with a
95 % confidence interval (Wilson's score interval for a proportion, the
t interval for a mean), as a terminal table and a Markdown table."""
from __future__ import annotations

import math
from dataclasses import dataclass

Z = 1.959963984540054  # the normal distribution's 97.5 % point
# Student's t, 97.5 % point, for 1..30 degrees of freedom
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)


def t975(df: int) -> float:
    """Student's t 97.5 % point: the table to 30 degrees of freedom, then the
    Cornish-Fisher expansion (within 0.001 of the exact value from 30 on)."""
    if df <= 0:
        return math.inf
    if df <= len(T975):
        return T975[df - 1]
    z = Z
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def wilson(successes: int, n: int) -> tuple[float, float]:
    """Wilson's 95 % score interval for a proportion, within [0, 1] and
    around the estimate: at 0 or n successes the bound at the estimate is
    exactly it (in floating point c + h came out as 0.9999999999999999 at
    n successes of n = 10, 30, 60, ..., below the estimate 1.0: a negative
    error bar, which matplotlib refuses)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return min(p, max(0.0, c - h)), max(p, min(1.0, c + h))


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the t interval (low = high = mean for one value)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = math.fsum(values) / n
    if n == 1:
        return m, m, m
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return m, m - h, m + h


@dataclass
class Cell:
    mean: float
    low: float
    high: float

    def text(self, digits: int = 3) -> str:
        return f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


@dataclass
class PointSummary:
    index: int
    at: dict  # the point's values as varied
    n: int  # trials
    cells: dict  # metric -> Cell


def summarise(rows, points, metrics, proportions=frozenset(), ranges=None) -> list[PointSummary]:
    """One summary per point, in the points' order; rows in (point, trial)
    order, so the sums (and the table) do not depend on the order rows
    arrived in. ranges: {metric: (low, high)} a metric's values cannot
    leave (a fraction of time in [0, 1]): its t interval is clipped to it."""
    ranges = ranges or {}
    by_point: dict[int, list] = {p.index: [] for p in points}
    for r in sorted(rows, key=lambda r: (r["point"], r["trial"])):
        by_point.setdefault(r["point"], []).append(r)
    out = []
    for p in points:
        rs = by_point.get(p.index, [])
        cells = {}
        for m in metrics:
            vals = [float(r["metrics"][m]) for r in rs]
            if m in proportions:
                k = int(round(sum(vals)))
                lo, hi = wilson(k, len(vals))
                cells[m] = Cell(k / len(vals) if vals else math.nan, lo, hi)
            else:
                mean, lo, hi = mean_ci(vals)
                bottom, top = ranges.get(m, (-math.inf, math.inf))
                cells[m] = Cell(mean, max(lo, bottom), min(hi, top))
        out.append(PointSummary(p.index, dict(p.at), len(rs), cells))
    return out


def _rows(summaries, metrics) -> tuple[list[str], list[list[str]]]:
    names = list(summaries[0].at) if summaries else []
    head = names + ["trials"] + [f"{m} (95% CI)" for m in metrics]
    body = [[_fmt(s.at[k]) for k in names] + [str(s.n)] + [s.cells[m].text() for m in metrics] for s in summaries]
    return head, body


def _fmt(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def markdown(summaries, metrics) -> str:
    head, body = _rows(summaries, metrics)
    align = ["---:" for _ in head]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines) + "\n"


def text_table(summaries, metrics) -> str:
    head, body = _rows(summaries, metrics)
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    return "\n".join([fmt.format(*head)] + [fmt.format(*r) for r in body]) + "\n"
