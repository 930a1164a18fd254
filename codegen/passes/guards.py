"""Guarded widths (issue 16): 32-bit sums while a parameter allows them.

widths.py keeps a neighbour sum in 32 bits only where the range analysis
bounds it over every parameter's whole range. A sum of offsets inside the
visual range (cohesion's `sum_x -= dx`) is bounded by (capacity - 1) x the
range's maximum: at capacity 500 and visual_range up to 200 px that is
99,800 px, past int32's 65,536 px, though at the default 20 px it is 9,980.

Here the analysis is run again with ONE parameter's maximum lowered: the
largest maximum (bisected on raw values) at which the most sums become
32-bit. The C then renders the flock's step twice -- the guarded copy with
those sums in 32 bits, the wide copy as widths.py leaves them -- and
boids_step picks one a frame by the parameter's current value (parameters
change only between frames: the serial thread runs between steps). Under
the guard the analysis proves the 32-bit sum never wraps, so both copies
compute the exact sum, the simulator's: the simulator needs no copy.

Only the sums' widths differ between the copies: the guarded copy is
narrowed() of the same rewritten rules (offsets.py, roots.py) as the wide.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from codegen.passes.pipeline import Pass


@dataclass(frozen=True)
class Guard:
    param: str  # the parameter whose current value picks the copy
    max_raw: int  # the guarded copy runs while P->param <= this (raw)
    sums: tuple  # ("rule.sum", ...) 32-bit only under the guard


def _narrow(m2, ranges: dict, among: set) -> set:
    """The sums of `among` ({(rule index, sum)}) 32-bit under `ranges`."""
    from codegen.passes.widths import sum_widths

    return {(w.rule_index, w.sum) for w in sum_widths(m2, None, ranges, only=among) if w.bits == 32}


def guarded(m):
    """(Guard, the guarded copy's lowered model) for m, or None when no
    parameter's narrower maximum makes another sum 32-bit."""
    from codegen.passes.offsets import offset
    from codegen.analysis.roots_rewrite import rooted

    m2, res, _ = rooted(offset(m))
    return _guard(m, m2, res)


# The search below runs the analysis once per parameter and ~20 times more to bisect: a pure
# function of the rewritten rules and the parameters, which one process lowers many times
# (the C render, `check`'s report, each variant of a spec). Its answers are kept per process,
# keyed by those inputs' text (their repr is their whole content); the answer is three
# immutable values, so no caller can change another's.
_SEARCHED: dict[str, tuple | None] = {}
_KEEP = 256  # answers kept (oldest dropped first): a long GUI session renders many variants


def _guard(m, m2, res):
    """guarded(m) on m's rewritten rules m2 and their analysis res."""
    from codegen.passes.widths import narrowed

    key = hashlib.sha256(repr((m.params, tuple(r.name for r in m.rules), m2)).encode()).hexdigest()
    if key not in _SEARCHED:
        _SEARCHED[key] = _search(m, m2, res)
        if len(_SEARCHED) > _KEEP:
            del _SEARCHED[next(iter(_SEARCHED))]
    found = _SEARCHED[key]
    if found is None:
        return None
    name, lo, names = found
    p = next(q for q in m.params if q.name == name)
    return Guard(name, lo, names), narrowed(m2, None, {name: (p.min_raw, lo)})


def _search(m, m2, res) -> tuple | None:
    """(parameter, its guarded maximum raw, the sums it unlocks) for _guard, or None."""
    from codegen.passes.widths import sum_widths

    ws = sum_widths(m2, res)
    if not any(w.bits == 64 and not w.on_positions for w in ws):
        return None  # nothing a narrower range could unlock: no analysis per parameter
    base = {(w.rule_index, w.sum) for w in ws if w.bits == 32}
    wide = {(w.rule_index, w.sum) for w in ws if w.bits == 64}
    best = None
    for p in m.params:
        if p.default_raw >= p.max_raw:
            continue
        extra = _narrow(m2, {p.name: (p.min_raw, p.default_raw)}, wide)
        if extra and (best is None or len(extra) > len(best[1])):
            best = (p, extra)
    if best is None:
        return None
    p, extra = best
    lo, hi = p.default_raw, p.max_raw  # lo unlocks every sum of `extra`, hi does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if extra <= _narrow(m2, {p.name: (p.min_raw, mid)}, extra):
            lo = mid
        else:
            hi = mid
    return p.name, lo, tuple(sorted(f"{m.rules[i].name}.{s}" for i, s in extra))


def report(m) -> list[str]:
    """The line for `boidsgen check` when the step has a guarded 32-bit copy
    (after widths.report's lines)."""
    from codegen.passes.widths import px

    one = 1 << m.frac_bits
    lines = []
    g = guarded(m)
    if g:
        p = next(q for q in m.params if q.name == g[0].param)
        lines.append(f"  guarded  {', '.join(g[0].sums)}: 32-bit while {p.name} <= {px(g[0].max_raw, one)} "
                     f"(the range analysis with that maximum); the firmware carries both copies of the step "
                     f"and runs the 32-bit one in the frames the parameter allows it (codegen/passes/guards.py)")
    return lines


class Guards(Pass):
    """guards: a second copy of the step, its sums 32-bit while one
    parameter stays at most a bound (the range analysis with that maximum);
    boids_step picks the copy a frame by the parameter's current value.

    Assumes: the shared passes ran (Lowered.rooted and its analysis).
    Preserves: every bit: under the guard the analysis proves the 32-bit
    sums never wrap, so both copies compute the exact sum, the
    simulator's; a C-only pass (the simulator needs no copy)."""
    name = "guards"
    requires = ("offsets", "roots", "widths")
    stage = "c"

    def apply(self, low):
        g = _guard(low.source, low.rooted, low.res)
        return replace(low, guard=g[0], guarded=g[1]) if g else low
