"""Copies of a validated spec with structural overrides (update order, Q
format, capacity, flock size, grid, optimisation mode): parity runs other orders and formats,
the budget and the benchmarks other sizes, without editing the spec file."""
from __future__ import annotations


def spec_variant(spec, capacity: int | None = None, order: str | None = None, grid: bool | None = None,
                 size: int | None = None, fmt: str | None = None, optimize: str | None = None):
    """The spec with these overrides (None: keep the spec's own)."""
    upd: dict = {}
    fl = {}
    if capacity is not None:
        fl["capacity"] = capacity
    if size is not None:
        fl["size"] = size
    if fl:
        upd["flock"] = spec.flock.model_copy(update=fl)
    if order is not None:
        upd["update_order"] = order
    perf = {k: v for k, v in (("grid", grid), ("optimize", optimize)) if v is not None}
    if perf:
        upd["performance"] = spec.performance.model_copy(update=perf)
    if fmt is not None:
        upd["fixed_point"] = spec.fixed_point.model_copy(update={"format": fmt})
    return spec.model_copy(update=upd) if upd else spec
