"""Offset sums accumulated as positions, in the C only (issue 16).

offsets.py turns cohesion's `sum_x += other.x` into `sum_x -= dx` so that
the range analysis can bound the sum, and widths.py narrows it to 32 bits.
On the M4K, GCC prints `sum -= x - ox` as two instructions a pair in range
(it re-associates: sum - x + ox, x fixed over the loop); `sum += ox` is one,
and the other side's `sum += x` (mirror: the other boid's offsets) is one
as before. A 32-bit sum wraps modulo 2^32 as it goes, so it may hold any
value congruent to the offsets' sum until it is read:

    sum(ox - x)  ==  sum(ox) - n * x   (mod 2^32), for every input,

with n the count of terms. The C therefore accumulates P = sum(ox) and
reads d = P - n * x, wrapped (`fx_acc32_about`, one `mul` a read), which
is the narrowed sum's every bit: `sum_wrap32(sum)` is those 32 bits too.
The IR and the simulator keep the offsets (the rule's meaning there);
this is a lowering of the C printer, like `fx_d2_zones`.

When: a 32-bit sum of a rule over boids accumulated by one statement of
`each`, `sum -= dx` (or `-= dy`), outside any `if`, so that the rule's
count (its neighbours, each of which runs `each` once) counts its terms;
every read of it sum_mean_about's (`sum_wrap32(sum)`, that count, the
boid's x (y)). Anything else keeps the offsets.
"""
from __future__ import annotations

from dataclasses import replace

from codegen.passes.pipeline import Pass
from codegen.lang.ir import POSITIONS_ABOUT, Accumulate, If, Op, Ref, Type, map_stmts

_FIELD = {"dx": "x", "dy": "y"}
OP = POSITIONS_ABOUT  # C-only: fx_acc32_about(P, n, base) = P - n * base, wrapped


def _walk(stmts, path=()):
    """(statement, the conditions' path to it) of every statement, recursively."""
    for i, st in enumerate(stmts):
        yield st, path
        if isinstance(st, If):
            yield from _walk(st.then, path + ((i, "t"),))
            yield from _walk(st.orelse, path + ((i, "e"),))


def _exprs(e):
    yield e
    if isinstance(e, Op):
        for a in e.args:
            yield from _exprs(a)


def _values(stmts):
    for st, _ in _walk(stmts):
        for e in (getattr(st, "cond", None), getattr(st, "value", None)):
            if e is not None:
                yield e


def candidates(ir) -> dict:
    """{sum: (field, count name)} of the sums the C accumulates as positions."""
    if ir.neighbours is None or ir.neighbours.of != "boids":
        return {}
    bits = {s.name: s.bits for s in ir.sums}
    acc: dict = {}
    for st, path in _walk(ir.each):
        if isinstance(st, Accumulate):
            v = st.value
            ok = (st.op == "acc32_sub" and isinstance(v, Ref) and v.kind == "pair" and v.name in _FIELD
                  and bits.get(st.sum) == 32)
            acc.setdefault(st.sum, []).append((_FIELD[v.name] if ok else None, path))
    out = {}
    for s, uses in acc.items():
        fields = {f for f, _ in uses}
        if len(fields) != 1 or None in fields:
            continue
        f = fields.pop()
        reads = [r for e in _values(tuple(ir.each) + tuple(ir.apply) + tuple(ir.before)) for r in _reads(e, s)]
        counts = set(reads)
        if len(counts) != 1 or None in counts:
            continue
        n = counts.pop()
        if n[1] == f and [p for _, p in uses] == [()]:  # once, unconditionally: a term a neighbour
            out[s] = (f, n[0])
    return out


def _reads(e, s: str):
    """For each read of sum s in e: (count, base field) if it is sum_mean_about(sum_wrap32(s), count, self.f),
    else None."""
    if isinstance(e, Ref):
        return [None] if e.kind == "sum" and e.name == s else []
    if not isinstance(e, Op):
        return []
    a = e.args
    if (e.op == "sum_mean_about" and isinstance(a[0], Op) and a[0].op == "sum_wrap32"
            and isinstance(a[0].args[0], Ref) and a[0].args[0].kind == "sum" and a[0].args[0].name == s):
        ok = (isinstance(a[1], Ref) and a[1].kind == "count" and isinstance(a[2], Ref) and a[2].kind == "self")
        return [(a[1].name, a[2].name) if ok else None] + [r for x in a[1:] for r in _reads(x, s)]
    return [r for x in a for r in _reads(x, s)]


def _expr(e, sums: dict):
    if not isinstance(e, Op):
        return e
    if e.op == "sum_wrap32" and isinstance(e.args[0], Ref) and e.args[0].name in sums and e.args[0].kind == "sum":
        f, n = sums[e.args[0].name]
        about = Op(OP, (e.args[0], Ref("count", n, Type.INT, e.pos), Ref("self", f, Type.FIXED, e.pos)),
                   e.args[0].type, e.pos)
        return replace(e, args=(about,))
    return replace(e, args=tuple(_expr(a, sums) for a in e.args))


def _stmts(stmts, sums: dict):
    def acc(st):
        if st.sum in sums:
            return replace(st, op="acc32_add", value=Ref("other", sums[st.sum][0], Type.FIXED, st.value.pos))
        return None

    return map_stmts(stmts, lambda e: _expr(e, sums), acc)


def positions_ir(ir):
    """One rule's (lowered) IR with its 32-bit offset sums accumulated as positions (or ir itself)."""
    sums = candidates(ir)
    if not sums:
        return ir
    re_, each = ir.reads_each, _stmts(ir.each, sums)
    still = {e.name for v in _values(each) for e in _exprs(v) if isinstance(e, Ref) and e.kind == "pair"}
    gone = {v for v in _FIELD if v not in still}  # dx, dy no statement of `each` reads any more
    return replace(ir, each=each, apply=_stmts(ir.apply, sums), before=_stmts(ir.before, sums),
                   reads_each=replace(re_, other_fields=re_.other_fields | {f for f, _ in sums.values()},
                                      pair=re_.pair - gone))


def positions(m):
    """m (lowered: widths.lowered) as the C prints it."""
    rules = tuple(replace(r, ir=positions_ir(r.ir)) for r in m.rules)
    if all(a.ir is b.ir for a, b in zip(rules, m.rules)):
        return m
    return replace(m, rules=rules)


class CPositions(Pass):
    """c_positions: a 32-bit sum of offsets (`sum -= dx`) is accumulated as
    positions (`sum += o->x`) and read as `fx_acc32_about(P, n, x)`, in
    every copy of the step.

    Assumes: the IR after widths (a 32-bit offset sum, one unconditional
    term a neighbour). Preserves: every bit, in every case: sum(ox - x) ==
    sum(ox) - n * x modulo 2^32, and the sum is read only through its low
    32 bits. A C-only lowering (two instructions a pair to one on the M4K)."""
    name = "c_positions"
    stage = "c"

    def apply(self, low):
        guarded = positions(low.guarded) if low.guarded is not None else None
        return replace(low, m=positions(low.m), guarded=guarded)
