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

A 64-bit sum of offsets, in a grid step only (synchronous order with
performance.grid), is accumulated as positions too and read as the plain
mean of positions, `sum_mean(P, n)`: with no pair's dx wrapping, P is
d + n * x exactly (|P| < n * 2^31, far inside int64), which is what
sum_mean_about(d, n, x) divides. That no dx wraps is the grid's own
assumption (|x|, |y| < 2^30 raw, flock_grid.j2: its bands and windows
compare positions by fx_sub), so this adds none; a step without the grid
keeps its 64-bit offsets. Summed as positions, cohesion's terms are a
field of the other boid, the form window_sums.py takes from the window's
running sums.

When: a sum of a rule over boids accumulated by one statement of `each`,
`sum -= dx` (or `-= dy`), outside any `if`, so that the rule's count (its
neighbours, each of which runs `each` once) counts its terms; every read of
it sum_mean_about's (`sum_wrap32(sum)` for a 32-bit sum, the sum itself for
a 64-bit one; that count; the boid's x (y)). Anything else keeps the
offsets.
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


_SUB = {32: "acc32_sub", 64: "acc_sub"}  # an offset's term, by the sum's width
_ADD = {32: "acc32_add", 64: "acc_add"}  # a position's


def candidates(ir, wide: bool = False) -> dict:
    """{sum: (field, count name, bits)} of the sums the C accumulates as
    positions (wide: 64-bit sums too, for a grid step)."""
    if ir.neighbours is None or ir.neighbours.of != "boids":
        return {}
    bits = {s.name: s.bits for s in ir.sums}
    acc: dict = {}
    for st, path in _walk(ir.each):
        if isinstance(st, Accumulate):
            v, b = st.value, bits.get(st.sum)
            ok = ((b == 32 or (wide and b == 64)) and st.op == _SUB[b] and isinstance(v, Ref)
                  and v.kind == "pair" and v.name in _FIELD)
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
            out[s] = (f, n[0], bits[s])
    return out


def _is_sum(e, s: str) -> bool:
    return isinstance(e, Ref) and e.kind == "sum" and e.name == s


def _read_sum(e):
    """The sum a mean's first argument reads: sum_wrap32(s) (32-bit) or s (64-bit), else None."""
    if isinstance(e, Op) and e.op == "sum_wrap32" and isinstance(e.args[0], Ref) and e.args[0].kind == "sum":
        return e.args[0]
    return e if isinstance(e, Ref) and e.kind == "sum" else None


def _reads(e, s: str):
    """For each read of sum s in e: (count, base field) if it is sum_mean_about(sum_wrap32(s), count, self.f)
    or (64-bit) sum_mean_about(s, count, self.f), else None."""
    if isinstance(e, Ref):
        return [None] if _is_sum(e, s) else []
    if not isinstance(e, Op):
        return []
    a = e.args
    r = _read_sum(a[0]) if e.op == "sum_mean_about" else None
    if r is not None and r.name == s:
        ok = (isinstance(a[1], Ref) and a[1].kind == "count" and isinstance(a[2], Ref) and a[2].kind == "self")
        return [(a[1].name, a[2].name) if ok else None] + [r for x in a[1:] for r in _reads(x, s)]
    return [r for x in a for r in _reads(x, s)]


def _expr(e, sums: dict):
    if not isinstance(e, Op):
        return e
    a0 = e.args[0] if e.args else None
    if e.op == "sum_wrap32" and isinstance(a0, Ref) and a0.name in sums and a0.kind == "sum":
        f, n, _ = sums[a0.name]
        about = Op(OP, (a0, Ref("count", n, Type.INT, e.pos), Ref("self", f, Type.FIXED, e.pos)), a0.type, e.pos)
        return replace(e, args=(about,))
    if e.op == "sum_mean_about" and isinstance(a0, Ref) and a0.kind == "sum" and a0.name in sums:
        return Op("sum_mean", (a0, e.args[1]), e.type, e.pos)  # 64-bit: P is d + n * x exactly
    return replace(e, args=tuple(_expr(a, sums) for a in e.args))


def _stmts(stmts, sums: dict):
    def acc(st):
        if st.sum in sums:
            f, _, bits = sums[st.sum]
            return replace(st, op=_ADD[bits], value=Ref("other", f, Type.FIXED, st.value.pos))
        return None

    return map_stmts(stmts, lambda e: _expr(e, sums), acc)


def positions_ir(ir, wide: bool = False):
    """One rule's (lowered) IR with its offset sums accumulated as positions
    (32-bit ones; wide: 64-bit ones too), or ir itself."""
    sums = candidates(ir, wide)
    if not sums:
        return ir
    re_, each = ir.reads_each, _stmts(ir.each, sums)
    still = {e.name for v in _values(each) for e in _exprs(v) if isinstance(e, Ref) and e.kind == "pair"}
    gone = {v for v in _FIELD if v not in still}  # dx, dy no statement of `each` reads any more
    return replace(ir, each=each, apply=_stmts(ir.apply, sums), before=_stmts(ir.before, sums),
                   reads_each=replace(re_, other_fields=re_.other_fields | {v[0] for v in sums.values()},
                                      pair=re_.pair - gone))


def _grid(m) -> bool:
    """The step sorts into the grid's bands (synchronous order, performance.grid)."""
    return bool(m.spec.performance.grid) and m.spec.update_order == "synchronous"


def positions(m):
    """m (lowered: widths.lowered) as the C prints it."""
    wide = _grid(m)
    rules = tuple(replace(r, ir=positions_ir(r.ir, wide)) for r in m.rules)
    if all(a.ir is b.ir for a, b in zip(rules, m.rules)):
        return m
    return replace(m, rules=rules)


class CPositions(Pass):
    """c_positions: a 32-bit sum of offsets (`sum -= dx`) is accumulated as
    positions (`sum += o->x`) and read as `fx_acc32_about(P, n, x)`, in
    every copy of the step; in a grid step a 64-bit one too, read as the
    mean of positions `fx_acc_mean(P, n)`.

    Assumes: the IR after widths (an offset sum, one unconditional term a
    neighbour); for a 64-bit sum the grid's own |x|, |y| < 2^30 raw (no dx
    wraps). Preserves: every bit: sum(ox - x) == sum(ox) - n * x modulo
    2^32, and a 32-bit sum is read only through its low 32 bits; with no dx
    wrapping the 64-bit P is d + n * x exactly. A C-only lowering (two
    instructions a pair to one on the M4K; the form window_sums takes)."""
    name = "c_positions"
    requires = ("widths",)
    stage = "c"

    def apply(self, low):
        guarded = positions(low.guarded) if low.guarded is not None else None
        return replace(low, m=positions(low.m), guarded=guarded)
