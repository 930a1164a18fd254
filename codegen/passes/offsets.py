"""Means of absolute positions from sums of offsets (issue 16).

Cohesion, as the seed writes it, sums the neighbours' absolute positions
(`sum_x += other.x`) and reads `sum_x / count`. No parameter range bounds
that sum (at extreme parameters a flock leaves the screen), so it is an
exact 64-bit sum: four instructions an in-range pair on the M4K, and a
libgcc `__divdi3` for each mean. Its neighbours lie within the zone's range
of the boid, though, so their offsets are small. The rule is rewritten, IR
to IR, before widths.py and either emitter see it:

    sum_x += other.x     ->   sum_x -= dx                       (dx = x - other.x, the pair's)
    sum_x / count        ->   sum_mean_about(sum_x, count, x)

where sum_mean_about(d, n, x) = trunc((d + n*x) / n), wrapped to 32 bits,
n == 0 giving 0 (a named op: fixed.h's fx_acc_mean_about and
fx_acc32_mean_about, pysim/fxops.py's twins, tested against each other).
With S the positions' sum, d = S - n*x exactly whenever no pair's dx wraps
(positions less than 2^31 raw apart: 65,536 px at s16.15), so the mean is
sum_mean(S, n) bit for bit and the flock is the one the rule as written
computes. The offsets' sum is bounded by the zone's range times the
neighbours, so widths.py can narrow it to 32 bits; its mean is then one
32/32 `div` and a carry (fx_acc32_mean_about), not a 64-bit division.

When: a rule over boids, a sum accumulated only by `+= other.x` (or only
`other.y`), every read of it `sum / count` by the rule's own count.
"""
from __future__ import annotations

from dataclasses import replace

from codegen.passes.pipeline import Pass
from codegen.lang.ir import Accumulate, If, Op, Ref, Type, map_stmts

_PAIR = {"x": "dx", "y": "dy"}


def _exprs(stmts):
    """Every expression the statements read (conditions, values), recursively."""
    for st in stmts:
        if isinstance(st, If):
            yield st.cond
            yield from _exprs(st.then)
            yield from _exprs(st.orelse)
        elif getattr(st, "value", None) is not None:
            yield st.value


def _count_reads(e, name: str) -> tuple[int, int]:
    """(reads of sum `name`, of them the ones as `name / count`)."""
    if isinstance(e, Ref):
        return (1, 0) if e.kind == "sum" and e.name == name else (0, 0)
    if not isinstance(e, Op):
        return 0, 0
    if e.op == "sum_mean" and _is_sum(e.args[0], name) and isinstance(e.args[1], Ref) and e.args[1].kind == "count":
        return 1, 1
    total = good = 0
    for a in e.args:
        t, g = _count_reads(a, name)
        total, good = total + t, good + g
    return total, good


def _is_sum(e, name: str) -> bool:
    return isinstance(e, Ref) and e.kind == "sum" and e.name == name


def _walk(stmts):
    for st in stmts:
        yield st
        if isinstance(st, If):
            yield from _walk(st.then)
            yield from _walk(st.orelse)


def candidates(ir) -> dict[str, str]:
    """{sum: 'x' | 'y'} of the sums this pass rewrites in one rule's IR."""
    nb = ir.neighbours
    if nb is None or nb.of != "boids":
        return {}
    field: dict[str, str | None] = {}
    for st in _walk(ir.each):
        if not isinstance(st, Accumulate):
            continue
        v = st.value
        ok = st.op == "acc_add" and isinstance(v, Ref) and v.kind == "other" and v.name in _PAIR
        f = v.name if ok else None
        field[st.sum] = f if field.get(st.sum, f) == f else None
    out = {}
    for s, f in field.items():
        if f is None:
            continue
        reads = [_count_reads(e, s) for blk in (ir.each, ir.apply, ir.before) for e in _exprs(blk)]
        if sum(t for t, _ in reads) == sum(g for _, g in reads) > 0:
            out[s] = f
    return out


def _expr(e, sums: dict):
    if isinstance(e, Op):
        if e.op == "sum_mean" and isinstance(e.args[0], Ref) and e.args[0].name in sums and e.args[0].kind == "sum":
            f = sums[e.args[0].name]
            base = Ref("self", f, Type.FIXED, e.pos)
            return Op("sum_mean_about", (e.args[0], e.args[1], base), e.type, e.pos)
        return replace(e, args=tuple(_expr(a, sums) for a in e.args))
    return e


def _stmts(stmts, sums: dict):
    def acc(st):
        if st.sum in sums:
            return replace(st, op="acc_sub", value=Ref("pair", _PAIR[sums[st.sum]], Type.FIXED, st.value.pos))
        return None

    return map_stmts(stmts, lambda e: _expr(e, sums), acc)


def offset_ir(ir):
    """One rule's IR with its position sums taken as offsets (or ir itself)."""
    sums = candidates(ir)
    if not sums:
        return ir
    each = _stmts(ir.each, sums)
    fields = frozenset(sums.values())
    still = {e.name for e in _refs(each) if e.kind == "other"}
    re, ra, rb = ir.reads_each, ir.reads_apply, ir.reads_before
    return replace(ir, each=each, apply=_stmts(ir.apply, sums), before=_stmts(ir.before, sums),
                   reads_each=replace(re, pair=re.pair | {_PAIR[f] for f in fields},
                                      other_fields=frozenset(f for f in re.other_fields if f in still or f not in fields)),
                   reads_apply=replace(ra, self_fields=ra.self_fields | fields),
                   reads_before=replace(rb, self_fields=rb.self_fields | fields) if ir.before else rb)


def _refs(stmts):
    def walk(e):
        if isinstance(e, Ref):
            yield e
        elif isinstance(e, Op):
            for a in e.args:
                yield from walk(a)
    for e in _exprs(stmts):
        yield from walk(e)


def offset(m):
    """m with every rule's position sums taken as offsets (see the module's docstring)."""
    rules = tuple(replace(r, ir=offset_ir(r.ir)) for r in m.rules)
    if all(a.ir is b.ir for a, b in zip(rules, m.rules)):
        return m
    return replace(m, rules=rules)


def rewritten(m) -> list[tuple[str, str]]:
    """(rule, sum) of every sum offset() rewrites: for `boidsgen check`."""
    return [(r.name, s) for r in m.rules for s in candidates(r.ir)]


class Offsets(Pass):
    """offsets: a sum of the neighbours' absolute positions (`sum_x +=
    other.x`, read only as `sum_x / count`) becomes a sum of offsets
    (`sum_x -= dx`) read by `sum_mean_about(sum_x, count, x)`.

    Assumes: the rules as written (the first pass).
    Preserves: the bits both targets compute: the simulator's kernel reads
    the rewritten IR too, so the C and the simulator agree in every case;
    it is bit for bit the mean of the positions whenever no pair's dx wraps
    (positions less than 2^31 raw apart). A shared pass, so that the widths
    pass can bound the sum."""
    name = "offsets"
    stage = "ir"

    def apply(self, low):
        m = offset(low.m)
        return replace(low, m=m, written=m, rooted=m)
