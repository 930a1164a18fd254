"""The range analysis's values (Val: an interval and what is known of how it
relates to others, by tokens: range_eval.py's docstring) and the facts the analysis
adds beside the transfers: the pair loop's bound on a neighbour's offset,
the `a - r * (a - d)` interpolation, the constants a state's widening stops
at, and the search frames' root overflows kept for the report."""
from __future__ import annotations

import itertools

from codegen.analysis.intervals import I32, Iv
from codegen.lang.ir import Const, Op

_tokens = itertools.count(1)


def new_token() -> int:
    return next(_tokens)


class Val:
    __slots__ = ("iv", "tok", "mag", "sq", "absof", "acc", "cnt", "taint")

    def __init__(self, iv: Iv, tok=None, mag=None, sq=None, absof=None, acc=None, cnt=None, taint=False):
        self.iv = iv
        self.tok = tok if tok is not None else next(_tokens)
        self.mag, self.sq, self.absof, self.acc, self.cnt, self.taint = mag, sq, absof, acc, cnt, taint

    def with_iv(self, iv: Iv) -> "Val":
        return Val(iv, self.tok, self.mag, self.sq, self.absof, self.acc, self.cnt, self.taint)

    def __repr__(self) -> str:
        return f"Val{self.iv}#{self.tok}" + ("!" if self.taint else "")


def join_vals(vals: list) -> Val:
    first = vals[0]
    if all(v is first for v in vals):  # a value no branch changed (most of an env): itself
        return first
    iv = first.iv
    for v in vals[1:]:
        iv = iv.hull(v.iv)
    same = all(v.tok == first.tok for v in vals)
    taint = any(v.taint for v in vals)
    acc = first.acc if all(v.acc == first.acc for v in vals) else None
    cnt = first.cnt if all(v.cnt == first.cnt for v in vals) else None
    if same:
        return Val(iv, first.tok, first.mag, first.sq, first.absof, acc, cnt, taint)
    return Val(iv, acc=acc, cnt=cnt, taint=taint)


def join_envs(*envs):
    envs = [e for e in envs if e is not None]
    if not envs:
        return None
    if len(envs) == 1:
        return envs[0]
    out = {}
    for e in envs:
        for k, v in e.items():
            out.setdefault(k, []).append(v)
    # a difference fact holds after the join only if it held on every branch
    return {k: join_vals(vs) for k, vs in out.items() if k[0] != "diff" or len(vs) == len(envs)}


def lerp(mach, e, env, a: Val, iv: Iv) -> Iv:
    """`a - r * (a - d)` with r within [0, 1] lies between a and d (seed
    004's `speed - rate * (speed - default)`): fx_mul rounds r * t down, and
    floor(r * t) lies between 0 and t for a whole raw t. `e` is the sub, `a`
    its first operand's value; operands are evaluated again (pure)."""
    m = e.args[1]
    if not (isinstance(m, Op) and m.op == "mul"):
        return iv
    for r_node, t_node in ((m.args[0], m.args[1]), (m.args[1], m.args[0])):
        if isinstance(t_node, Op) and t_node.op == "sub":
            r, a2, d = (mach.expr(n, env) for n in (r_node, *t_node.args))
            if a2.tok == a.tok and not (r.taint or d.taint) and 0 <= r.iv.lo and r.iv.hi <= mach.fx.one:
                return iv.meet(min(a.iv.lo, d.iv.lo), max(a.iv.hi, d.iv.hi)) or iv
    return iv


def literals(mach, irs) -> set:
    """The raw values (and their neighbours) of the rules' constants, for the
    widening's ladder: a state bounded by one (`min(escapes + 1, 1000)`) is
    widened to it, not past it."""
    out = set()

    def walk(node):
        if isinstance(node, Const) and node.type.value in ("int", "fixed"):
            out.update(mach.const(node).lo + d for d in (-1, 0, 1))
        for f in getattr(node, "__dataclass_fields__", ()):
            v = getattr(node, f)
            for c in (v if isinstance(v, (list, tuple)) else [v]):
                if hasattr(c, "__dataclass_fields__"):
                    walk(c)

    for ir in irs:
        for block in (ir.before, ir.apply, ir.each):
            for st in block or ():
                walk(st)
    return {v for v in out if I32[0] <= v <= I32[1]}


def offset_facts(p: Val, q: Val, d: Iv) -> dict:
    """What the pair loop's test says of the neighbour's offset, as the
    difference facts range_eval reads: p - q (the boid's coordinate less the
    neighbour's: dx) lies within d, so `other.x - x` is bounded by the range
    exactly as `-dx` is."""
    return {("diff", p.tok, q.tok): Val(Iv(min(d.hi, -(1 << 66)), d.hi)),
            ("diff", q.tok, p.tok): Val(Iv(min(-d.lo, -(1 << 66)), -d.lo))}


def keep_roots(report: dict, search: dict) -> None:
    """An overflow from unwrapped operands in the search's frames is a cause
    the reported frame may no longer show as one: the velocity or state it
    wrapped starts that frame tainted, so there the same expression only
    "overflows after an earlier one" (a very slow boid's `new_speed / speed`
    wraps in the first frame and taints every later velocity). Such an
    expression stays a root, with the widest value it reached."""
    for k, s in search.items():
        if not (s.overflows and s.root):
            continue
        r = report.get(k)
        if r is None:  # a branch the reported frame no longer takes: keep the search's record
            report[k] = s
            continue
        r.lo, r.hi = min(r.lo, s.lo), max(r.hi, s.hi)
        r.overflows = r.root = True


def widen(old: Iv, new: Iv, marks) -> Iv:
    """new's moving ends pushed out to the next of `marks` (sorted; or the
    type's ends): a finite ladder, so the search stops."""
    lo = old.lo if new.lo >= old.lo else max((v for v in marks if v <= new.lo), default=I32[0])
    hi = old.hi if new.hi <= old.hi else min((v for v in marks if v >= new.hi), default=I32[1])
    return Iv(lo, hi)
