"""The quantization report: what each spec constant becomes in fixed point."""
from __future__ import annotations

from codegen.model.gen_model import GenModel


def report_lines(m: GenModel) -> list[str]:
    fmt = m.spec.fixed_point.format
    lines = [f"quantization report for '{m.name}' ({fmt}, 1 LSB = 1/{1 << m.frac_bits})",
             f"{'parameter':<22}{'field':<9}{'spec':>12}{'raw':>12}  {'represents':<22}{'rel.error':>10}"]
    for q in m.quant:
        err = "exact" if q.rel_error == 0 else ("inf" if q.rel_error == float("inf") else f"{q.rel_error * 100:+.2f}%")
        lines.append(f"{q.name:<22}{q.field:<9}{q.text:>12}{q.raw:>12}  {q.represents:<22}{err:>10}")
    return lines


def worst(m: GenModel, threshold_pct: float) -> list:
    """Rows whose relative error exceeds threshold_pct percent."""
    return [q for q in m.quant if abs(q.rel_error) * 100 > threshold_pct]


def zeros(m: GenModel) -> list:
    """Rows whose nonzero value quantizes to raw 0: the constant vanishes in fixed point."""
    return [q for q in m.quant if q.raw == 0 and q.rel_error != 0]
