"""Interval arithmetic over the generated model: the range analysis's engine.

`IntervalArith` has the vocabulary of pysim/arith.py (`A.add`, `A.mul`,
`A.d2`, `A.acc_sum`, ...) but every value is an interval [lo, hi] of raw
fixed-point integers (Python ints, never wrapped). Running a generated
model's `update` with it evaluates the very expressions the templates emit
and records, for every operation, the worst-case unwrapped result at its
call site (the generated source line and column span).

Shapes: one interval stands for every element of an array. Per-boid arrays
(shape (M,)) have n == 0; arrays over "the others" (neighbours, predators,
obstacles, food; the last axis of a pair matrix) carry n = that axis's
length, so that mask sums and neighbour sums know how many terms they have.

Precision, kept sound:
  * a magnitude (`A.mag`, `A.hypot`) remembers its operands, so a component
    divided by its own magnitude is bounded by R (1 for the exact magnitude,
    about 1/alpha for alpha-max-plus-beta-min) instead of by |x| / 1 LSB;
  * comparisons give tri-state masks that remember what they imply about
    the compared value (`d2 < r*r` -> |dx|, |dy| < r; `|dx| < box` -> dx in
    (-box, box)), and a neighbour sum uses its mask's bounds for its terms;
  * a per-boid comparison of a magnitude that can go either way splits the
    analysis into paths (each boid takes one), refining the magnitude and
    its operands on each path: the speed limit's `fast` branch is analysed
    knowing the speed is above the limit;
  * an overflow counts only if the overflowed value reaches the frame's
    result (the numpy form computes both sides of a `where`; the C code
    runs only the branch taken, and wrapping in a discarded lane is harmless).
"""
from __future__ import annotations

import ast
import itertools
import linecache
import math
import re
import sys
from dataclasses import dataclass, field

import numpy as np

I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
U64_MAX = (1 << 64) - 1

_tokens = itertools.count(1)


# ---------------------------------------------------------------- call sites
@dataclass(frozen=True)
class Site:
    """Where an operation is in the generated source."""
    file: str
    func: str
    line: int
    col: int
    end_col: int
    rule: str  # the `# <rule>` section it is in, or 'neighbours' / 'predators' / 'food'
    text: str  # the call as written: A.mul(A.acc_fx(separation_close_dx), P.avoid_factor)
    expr: str  # the same in infix: separation_close_dx * avoid_factor
    source_line: str

    @property
    def key(self) -> tuple:
        return (self.file, self.line, self.col, self.end_col)


_site_cache: dict = {}
_RULE_RE = re.compile(r"^\s*# (\w+)\s*$")


def _rule_of(filename: str, func: str, lineno: int) -> str:
    if '"x":' in linecache.getline(filename, lineno):
        return "move"  # p += v, after every rule
    if func != "update":
        return {"predators_step": "predators", "food_step": "food"}.get(func, func)
    for ln in range(lineno, 0, -1):
        text = linecache.getline(filename, ln)
        m = _RULE_RE.match(text)
        if m:
            return m.group(1)
        if text.lstrip().startswith("def "):
            break
    return "neighbours"


def call_site(depth: int = 2) -> Site | None:
    """The call being executed `depth` frames up (the generated code calling A.*)."""
    f = sys._getframe(depth)
    key = (f.f_code, f.f_lasti)
    s = _site_cache.get(key)
    if s is None:
        pos = None
        for i, p in enumerate(f.f_code.co_positions()):
            if i == f.f_lasti // 2:
                pos = p
                break
        line = pos[0] if pos and pos[0] else f.f_lineno
        src = linecache.getline(f.f_code.co_filename, line)
        col, end = (pos[2], pos[3]) if pos and pos[2] is not None and pos[1] == line else (0, len(src.rstrip()))
        text = src[col:end] if src else "?"
        s = Site(f.f_code.co_filename, f.f_code.co_name, line, col, end,
                 _rule_of(f.f_code.co_filename, f.f_code.co_name, line), text, infix(text), src.strip())
        _site_cache[key] = s
    return s


# The C-like reading of the A.* vocabulary, for messages.
_BIN = {"add": ("+", 1), "sub": ("-", 1), "mul": ("*", 2), "div": ("/", 2), "idiv": ("/", 2),
        "acc_mean": ("/", 2)}


def _unparse(node, prec: int = 0) -> str:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            isinstance(node.func.value, ast.Name) and node.func.value.id == "A":
        op, args = node.func.attr, node.args
        if op in _BIN and len(args) == 2:
            sym, p = _BIN[op]
            s = f"{_unparse(args[0], p)} {sym} {_unparse(args[1], p + 1)}"
            return f"({s})" if p < prec else s
        if op == "d2" and len(args) == 2:
            a, b = _unparse(args[0], 3), _unparse(args[1], 3)
            s = f"{a}*{a} + {b}*{b}"
            return f"({s})" if prec > 1 else s
        if op == "sq" and len(args) == 1:
            a = _unparse(args[0], 3)
            return f"{a}*{a}"
        if op in ("neg", "neg_wide") and len(args) == 1:
            return f"-{_unparse(args[0], 3)}"
        if op == "abs":
            return f"|{_unparse(args[0])}|"
        if op in ("acc_fx",) and len(args) == 1:
            return _unparse(args[0], prec)
        if op == "acc_sum" and args:
            return f"sum({_unparse(args[0])})"
        if op in ("mag", "hypot") and len(args) == 2:
            return f"|({_unparse(args[0])}, {_unparse(args[1])})|"
        if op == "where" and len(args) == 3:
            return f"({_unparse(args[0])} ? {_unparse(args[1])} : {_unparse(args[2])})"
        return f"{op}({', '.join(_unparse(a) for a in args)})"
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("P", "K", "W", "A"):
        return node.attr
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):  # x[:, None], W.px[None, :]
        return _unparse(node.value, prec)
    if isinstance(node, ast.BinOp):
        sym = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}.get(type(node.op), "?")
        p = 1 if sym in "+-" else 2
        s = f"{_unparse(node.left, p)} {sym} {_unparse(node.right, p + 1)}"
        return f"({s})" if p < prec else s
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - a message, best effort
        return "?"


def infix(text: str) -> str:
    try:
        return _unparse(ast.parse(text.strip(), mode="eval").body)
    except SyntaxError:
        return text.strip()


# ---------------------------------------------------------------- the context
class Context:
    """One analysis: the records of every site, path decisions, pending findings."""

    def __init__(self, max_paths: int = 256) -> None:
        self.sites: dict = {}  # key -> SiteRecord
        self.max_paths = max_paths
        self.decisions: list[bool] = []
        self.pos = 0
        self.paths = 0
        self.splitting = True

    def decide(self) -> bool | None:
        if not self.splitting:
            return None
        if self.pos < len(self.decisions):
            d = self.decisions[self.pos]
        else:
            d = False
            self.decisions.append(d)
        self.pos += 1
        return d

    def record(self, site: Site | None, kind: str, lo: int, hi: int, lim: tuple[int, int],
               inherited: bool = False) -> frozenset:
        """Note a result range at a site; the pending finding (if it is out of range).
        inherited: an operand already carries an overflow (this one may follow from it)."""
        if site is None:
            return frozenset()
        r = self.sites.get(site.key)
        if r is None:
            r = self.sites[site.key] = SiteRecord(site, kind, lo, hi, lim)
        else:
            r.lo, r.hi = min(r.lo, lo), max(r.hi, hi)
        if lo < lim[0] or hi > lim[1]:
            r.root = r.root or not inherited
            return frozenset([site.key])
        return frozenset()

    def commit(self, pending: frozenset) -> None:
        for k in pending:
            self.sites[k].live = True


@dataclass
class SiteRecord:
    site: Site
    kind: str  # '32' (wrapped to 32 bits) or '64' (fx_d2, fx_sq64, fx_acc: exact 64-bit)
    lo: int
    hi: int
    lim: tuple[int, int]
    live: bool = False  # an out-of-range value here reaches a frame's result
    root: bool = False  # it overflows from in-range operands (not only after an earlier overflow)

    @property
    def overflows(self) -> bool:
        return self.lo < self.lim[0] or self.hi > self.lim[1]

    @property
    def worst(self) -> int:
        return max(abs(self.lo), abs(self.hi))


_CTX: Context | None = None


def _ctx() -> Context:
    if _CTX is None:
        raise RuntimeError("interval values are used inside pysim.interval_arith.explore()")
    return _CTX


# ---------------------------------------------------------------- values
def _is_val(v) -> bool:
    return isinstance(v, (IV, Mask, Acc))


def _fnd(*vs) -> frozenset:
    out = frozenset()
    for v in vs:
        if _is_val(v):
            out |= v.fnd
    return out


def _n(*vs) -> int:
    return max([v.n for v in vs if _is_val(v)] + [0])


def iv(v) -> "IV":
    """Any operand as an interval (Python/numpy numbers, bool arrays, IVs)."""
    if isinstance(v, IV):
        return v
    if isinstance(v, Acc):
        return IV(v.lo, v.hi, fnd=v.fnd)
    if isinstance(v, Mask):
        return IV(0 if v.f else 1, 1 if v.t else 0, n=v.n, fnd=v.fnd)
    a = np.asarray(v)
    if a.size == 0:
        return IV(0, 0)
    if a.dtype == np.float64 and not np.all(np.isfinite(a)):
        return IV(int(np.nanmin(np.where(np.isfinite(a), a, 0))), U64_MAX)
    return IV(int(a.min()), int(a.max()))


class _Vals:
    """numpy interop shared by IV, Mask and Acc: numpy defers to these."""
    __array_priority__ = 1000

    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        if method != "__call__":
            return NotImplemented
        name = ufunc.__name__
        if name in _UFUNCS:
            return _UFUNCS[name](*inputs)
        raise TypeError(f"interval analysis: numpy.{name} is not supported")

    def __array_function__(self, func, types, args, kwargs):
        name = func.__name__
        if name in _FUNCS:
            return _FUNCS[name](*args, **kwargs)
        raise TypeError(f"interval analysis: numpy.{name} is not supported")


class IV(_Vals):
    __slots__ = ("lo", "hi", "n", "fnd", "tok", "mag", "src")

    def __init__(self, lo, hi, n: int = 0, fnd: frozenset = frozenset(), mag=None, src=None, tok=None):
        self.lo, self.hi = int(lo), int(hi)
        if self.lo > self.hi:
            self.lo, self.hi = self.hi, self.lo
        self.n = n
        self.fnd = fnd
        self.tok = tok or next(_tokens)
        self.mag = mag  # (tok_a, tok_b, R, c, a, b) when this is |(a, b)|
        self.src = src  # ('neg'|'abs', tok) when derived simply from another value

    def __repr__(self) -> str:
        return f"IV[{self.lo}, {self.hi}]" + (f"x{self.n}" if self.n else "")

    def copy(self, **kw) -> "IV":
        d = dict(lo=self.lo, hi=self.hi, n=self.n, fnd=self.fnd, mag=self.mag, src=self.src, tok=self.tok)
        d.update(kw)
        return IV(**d)

    # indexing: x[:, None] keeps the value; fancy indexing (rows, best) picks one of the others
    def __getitem__(self, k):
        if isinstance(k, tuple) and any(isinstance(i, (np.ndarray, IV, list)) for i in k):
            return self.copy(n=0, tok=None, mag=None)
        return self

    def __len__(self) -> int:
        return max(self.n, 1)

    @property
    def shape(self):
        return (1, max(self.n, 1))

    def __bool__(self):
        raise TypeError("interval analysis: an interval has no truth value")

    # plain (unchecked) integer arithmetic: counters, indices, 64-bit sums
    def __add__(self, o):
        src = ("add", self.tok, int(o)) if isinstance(o, (int, np.integer)) else None
        o = iv(o)
        return IV(self.lo + o.lo, self.hi + o.hi, _n(self, o), _fnd(self, o), src=src)

    __radd__ = __add__

    def __sub__(self, o):
        src = ("add", self.tok, -int(o)) if isinstance(o, (int, np.integer)) else None
        o = iv(o)
        return IV(self.lo - o.hi, self.hi - o.lo, _n(self, o), _fnd(self, o), src=src)

    def __rsub__(self, o):
        return iv(o).__sub__(self)

    def __neg__(self):
        return IV(-self.hi, -self.lo, self.n, self.fnd)

    # comparisons: tri-state masks
    def __lt__(self, o):
        return _compare(self, "<", o)

    def __le__(self, o):
        return _compare(self, "<=", o)

    def __gt__(self, o):
        return _compare(self, ">", o)

    def __ge__(self, o):
        return _compare(self, ">=", o)

    def __eq__(self, o):  # noqa: D105 - a mask, as numpy's == is
        return _compare(self, "==", o)

    def __ne__(self, o):
        return _compare(self, "!=", o)

    __hash__ = None

    def sum(self, axis=None, dtype=None):
        n = max(self.n, 1)
        return IV(min(0, self.lo * n), max(0, self.hi * n), 0, self.fnd)


class Acc(_Vals):
    """A 64-bit neighbour sum: its terms' bounds, their count range and the total's bounds."""

    def __init__(self, elo, ehi, kmin, kmax, lo, hi, fnd=frozenset()):
        self.elo, self.ehi, self.kmin, self.kmax = elo, ehi, kmin, kmax
        self.lo, self.hi = lo, hi
        self.n = 0
        self.fnd = fnd

    def __add__(self, o):
        return Acc(min(self.elo, o.elo), max(self.ehi, o.ehi), min(self.kmin, o.kmin), self.kmax + o.kmax,
                   self.lo + o.lo, self.hi + o.hi, self.fnd | o.fnd)

    def _as_iv(self):
        return IV(self.lo, self.hi, 0, self.fnd)

    def __lt__(self, o):
        return _compare(self._as_iv(), "<", o)

    def __gt__(self, o):
        return _compare(self._as_iv(), ">", o)

    def __eq__(self, o):
        return _compare(self._as_iv(), "==", o)

    __hash__ = None


class Mask(_Vals):
    """A boolean array: can it be true (t), can it be false (f); along the
    others axis (n > 0) how many can be true (kmin..kmax); cons: what being
    true implies about values (token -> (lo, hi))."""

    def __init__(self, t: bool, f: bool, n: int = 0, kmin: int | None = None, kmax: int | None = None,
                 cons: dict | None = None, fnd: frozenset = frozenset(), fcons: dict | None = None):
        self.t, self.f, self.n = bool(t), bool(f), n
        self.kmax = (n if t else 0) if kmax is None else kmax
        self.kmin = (n if not f else 0) if kmin is None else kmin
        self.cons = cons or {}
        self.fcons = fcons or {}  # what being false implies
        self.fnd = fnd

    def __repr__(self) -> str:
        return f"Mask(t={self.t}, f={self.f}, n={self.n}, k={self.kmin}..{self.kmax})"

    def __bool__(self):
        # Python's own `if`/`and`/max() on a mask: only a definite answer is meaningful
        if self.t and self.f:
            raise TypeError("interval analysis: a maybe-mask has no truth value")
        return self.t

    def __getitem__(self, k):
        return self

    def __and__(self, o):
        o = _mask(o)
        n = max(self.n, o.n)
        kmax = min(self._k(n)[1], o._k(n)[1])
        kmin = min(self._k(n)[0], o._k(n)[0]) if not (self.f or o.f) else 0
        return Mask(self.t and o.t, self.f or o.f, n, kmin, kmax, _cons_and(self.cons, o.cons), self.fnd | o.fnd,
                    _cons_or(self.fcons, o.fcons))

    __rand__ = __and__

    def __or__(self, o):
        o = _mask(o)
        n = max(self.n, o.n)
        kmax = min(n, self._k(n)[1] + o._k(n)[1]) if n else 1
        return Mask(self.t or o.t, self.f and o.f, n, max(self._k(n)[0], o._k(n)[0]), kmax,
                    _cons_or(self.cons, o.cons), self.fnd | o.fnd, _cons_and(self.fcons, o.fcons))

    __ror__ = __or__

    def __invert__(self):
        return Mask(self.f, self.t, self.n, self.n - self.kmax if self.n else None,
                    self.n - self.kmin if self.n else None, self.fcons, self.fnd, self.cons)

    def _k(self, n: int) -> tuple[int, int]:
        """(kmin, kmax) when broadcast along an others axis of length n."""
        if self.n == n:
            return self.kmin, self.kmax
        return (n if not self.f else 0), (n if self.t else 0)

    def __eq__(self, o):
        o = iv(o)
        mine = iv(self)
        return _compare(mine, "==", o)

    __hash__ = None

    def sum(self, axis=None, dtype=None):
        if self.n:
            return IV(self.kmin, self.kmax, 0, self.fnd)
        return IV(0 if self.f else 1, 1 if self.t else 0, 0, self.fnd)

    def any(self, axis=None):
        return Mask(self.t, self.f if not self.n else self.kmin == 0, 0, fnd=self.fnd)


def _cons_and(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, (lo, hi) in b.items():
        out[k] = (max(out[k][0], lo), min(out[k][1], hi)) if k in out else (lo, hi)
    return out


def _cons_or(a: dict, b: dict) -> dict:
    return {k: (min(v[0], b[k][0]), max(v[1], b[k][1])) for k, v in a.items() if k in b}


def _refine_by(v, cons: dict):
    """v where a mask with these implications holds (the same v if nothing applies)."""
    if not isinstance(v, IV) or not cons:
        return v
    c = cons.get(v.tok)
    if c is None and v.src and v.src[0] == "add" and v.src[1] in cons:
        c = tuple(x + v.src[2] for x in cons[v.src[1]])
    if c is None and v.src and v.src[0] == "neg" and v.src[1] in cons:
        c = tuple(-x for x in reversed(cons[v.src[1]]))
    if c is None or (c[0] <= v.lo and v.hi <= c[1]):
        return v
    lo, hi = max(v.lo, c[0]), min(v.hi, c[1])
    if lo > hi:
        lo = hi = v.lo
    return v.copy(lo=lo, hi=hi, tok=None, mag=None)


def _mask(v) -> Mask:
    if isinstance(v, Mask):
        return v
    a = np.asarray(v, dtype=bool)
    return Mask(bool(a.any()) if a.size else False, bool((~a).any()) if a.size else True)


def _clip_cons(v: IV, lo: int, hi: int) -> dict:
    """What `lo <= v <= hi` implies, by token: the value itself, the value a
    |.| or a negation came from, the operands of a squared distance."""
    cons = {v.tok: (lo, hi)}
    if v.src:
        kind, tok = v.src
        if kind == "abs":
            m = max(abs(lo), abs(hi))
            cons[tok] = (-m, m)
        elif kind == "neg":
            cons[tok] = (-hi, -lo)
        elif kind == "d2":  # dx*dx + dy*dy <= hi -> |dx|, |dy| <= isqrt(hi)
            r = math.isqrt(max(hi, 0))
            for t in tok:
                cons[t] = (-r, r)
    return cons


def _compare(a, op: str, b) -> Mask:
    a, b = iv(a), iv(b)
    n = _n(a, b)
    fnd = _fnd(a, b)
    if op == "<":
        t, f = a.lo < b.hi, a.hi >= b.lo
    elif op == "<=":
        t, f = a.lo <= b.hi, a.hi > b.lo
    elif op == ">":
        t, f = a.hi > b.lo, a.lo <= b.hi
    elif op == ">=":
        t, f = a.hi >= b.lo, a.lo < b.hi
    elif op == "==":
        t, f = (a.lo <= b.hi and b.lo <= a.hi), not (a.lo == a.hi == b.lo == b.hi)
    else:  # !=
        t, f = not (a.lo == a.hi == b.lo == b.hi), (a.lo <= b.hi and b.lo <= a.hi)
    # What `a op b` being true implies about a (b a parameter or constant).
    cons, fcons = {}, {}
    if op in ("<", "<="):
        cons = _clip_cons(a, a.lo, min(a.hi, b.hi - (op == "<")))
        fcons = _clip_cons(a, max(a.lo, b.lo + (op == "<=")), a.hi)
    elif op in (">", ">="):
        cons = _clip_cons(a, max(a.lo, b.lo + (op == ">")), a.hi)
        fcons = _clip_cons(a, a.lo, min(a.hi, b.hi - (op == ">=")))
    if t and f and a.mag is not None and a.n == 0 and op in ("<", ">", "==", "<=", ">="):
        d = _ctx().decide()
        if d is not None:
            _refine(a, op, b, d)
            t, f = d, not d
    return Mask(t, f, n, cons=cons if t else {}, fnd=fnd, fcons=fcons if f else {})


def _refine(a: IV, op: str, b: IV, outcome: bool) -> None:
    """On this path `a op b` is `outcome`: narrow the magnitude a, and through
    |x| <= R*|(x, y)| + c its operands."""
    if op == "==":
        if outcome:
            a.lo = a.hi = max(a.lo, min(a.hi, b.lo))
        elif a.lo == b.lo == b.hi:
            a.lo += 1
    else:
        below = (op in ("<", "<=")) == outcome  # a is below b on this path
        strict = op in ("<", ">") if outcome else op in ("<=", ">=")
        if below:
            a.hi = min(a.hi, b.hi - (1 if strict else 0))
        else:
            a.lo = max(a.lo, b.lo + (1 if strict else 0))
    a.lo = min(a.lo, a.hi)
    _, _, R, c, x, y = a.mag
    m = int(math.floor(R * a.hi)) + c + 1
    for v in (x, y):
        v.lo, v.hi = max(v.lo, -m), min(v.hi, m)
        if v.lo > v.hi:
            v.lo = v.hi = 0


def _hull(a, b, fnd) -> IV:
    a, b = iv(a), iv(b)
    return IV(min(a.lo, b.lo), max(a.hi, b.hi), _n(a, b), fnd)


def where(c, a, b):
    """The branch a definite mask picks (the very object: it keeps its
    relations), else the hull of both."""
    c = _mask(c)
    if c.t and c.f:
        if isinstance(a, Mask) and isinstance(b, Mask):
            return Mask(a.t or b.t, a.f or b.f, max(a.n, b.n), fnd=a.fnd | b.fnd | c.fnd)
        return _hull(_refine_by(a, c.cons), _refine_by(b, c.fcons), c.fnd | _fnd(a, b))
    v = a if c.t else b
    if not isinstance(v, (IV, Mask)):
        v = iv(v)
    if c.fnd - v.fnd:
        if isinstance(v, IV):
            v = v.copy(fnd=v.fnd | c.fnd)
        else:
            v = Mask(v.t, v.f, v.n, v.kmin, v.kmax, v.cons, v.fnd | c.fnd)
    return v


def _minmax(fn):
    def f(a, b, *rest, **kw):
        a, b = iv(a), iv(b)
        return IV(fn(a.lo, b.lo), fn(a.hi, b.hi), _n(a, b), _fnd(a, b))
    return f


def _argmin(a, axis=None, **kw):
    return np.zeros(1, dtype=np.int64)


_UFUNCS = {
    "bitwise_and": lambda a, b: _mask(a) & b if isinstance(a, Mask) else _mask(b) & a,
    "bitwise_or": lambda a, b: _mask(a) | b if isinstance(a, Mask) else _mask(b) | a,
    "invert": lambda a: ~_mask(a),
    "logical_not": lambda a: ~_mask(a),
    "less": lambda a, b: _compare(a, "<", b),
    "less_equal": lambda a, b: _compare(a, "<=", b),
    "greater": lambda a, b: _compare(a, ">", b),
    "greater_equal": lambda a, b: _compare(a, ">=", b),
    "equal": lambda a, b: _compare(a, "==", b),
    "not_equal": lambda a, b: _compare(a, "!=", b),
    "add": lambda a, b: iv(a) + iv(b),
    "subtract": lambda a, b: iv(a) - iv(b),
    "minimum": _minmax(min),
    "maximum": _minmax(max),
}
_FUNCS = {
    "where": where,
    "argmin": _argmin,
    "minimum": _minmax(min),
    "maximum": _minmax(max),
    "sum": lambda a, axis=None, **kw: a.sum(axis),
    "any": lambda a, axis=None, **kw: _mask(a).any(axis),
}


# ---------------------------------------------------------------- the arithmetic
def _corners(fn, a: IV, b: IV) -> tuple[int, int]:
    vals = [fn(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return min(vals), max(vals)


def _tdiv(n: int, d: int) -> int:
    q = abs(n) // abs(d)
    return -q if (n < 0) != (d < 0) else q


def _div_range(alo: int, ahi: int, b: IV) -> tuple[int, int]:
    """Truncating quotient of [alo, ahi] by b's nonzero values; 0 where b may be 0."""
    vals = []
    for lo, hi in ((b.lo, min(b.hi, -1)), (max(b.lo, 1), b.hi)):
        if lo <= hi:
            vals += [_tdiv(x, y) for x in (alo, ahi) for y in (lo, hi)]
    if b.lo <= 0 <= b.hi or not vals:
        vals.append(0)
    return min(vals), max(vals)


def _sq_range(v: IV) -> tuple[int, int]:
    lo = 0 if v.lo <= 0 <= v.hi else min(v.lo * v.lo, v.hi * v.hi)
    return lo, max(v.lo * v.lo, v.hi * v.hi)


def _abs_range(v: IV) -> tuple[int, int]:
    return (0 if v.lo <= 0 <= v.hi else min(abs(v.lo), abs(v.hi))), max(abs(v.lo), abs(v.hi))


class IntervalArith:
    """The A.* vocabulary over intervals of raw fixed-point values."""
    name = "fixed"  # the generated code branches on A.name for float/fixed details
    dtype = np.int64

    def __init__(self, frac_bits: int, magnitude: str = "exact", alpha_raw: int = 0, beta_raw: int = 0):
        self.fb = frac_bits
        self.one_raw = 1 << frac_bits
        self.magnitude = magnitude
        self.alpha, self.beta = alpha_raw, beta_raw
        self.R, self.c = (1.0, 0) if magnitude == "exact" else amb_ratio(alpha_raw, frac_bits)

    @property
    def zero(self):
        return IV(0, 0)

    @property
    def one(self):
        return IV(self.one_raw, self.one_raw)

    def _ret(self, lo, hi, args, kind="32", src=None, mag=None, depth=3) -> IV:
        lim = (I32_MIN, I32_MAX) if kind == "32" else ((0, U64_MAX) if kind == "u64" else (I64_MIN, I64_MAX))
        inh = _fnd(*args)
        pend = _ctx().record(call_site(depth), kind, lo, hi, lim, bool(inh))
        return IV(lo, hi, _n(*args), inh | pend, src=src, mag=mag)

    def add(self, a, b):
        a, b = iv(a), iv(b)
        return self._ret(a.lo + b.lo, a.hi + b.hi, (a, b))

    def sub(self, a, b):
        a, b = iv(a), iv(b)
        return self._ret(a.lo - b.hi, a.hi - b.lo, (a, b))

    def neg(self, a):
        a = iv(a)
        return self._ret(-a.hi, -a.lo, (a,), src=("neg", a.tok))

    def abs(self, a):
        a = iv(a)
        lo, hi = _abs_range(a)
        return self._ret(lo, hi, (a,), src=("abs", a.tok))

    def mul(self, a, b):
        a, b = iv(a), iv(b)
        lo, hi = _corners(lambda x, y: (x * y) >> self.fb, a, b)
        return self._ret(lo, hi, (a, b))

    def div(self, a, b):
        a, b = iv(a), iv(b)
        lo, hi = _div_range(a.lo << self.fb, a.hi << self.fb, b)
        if b.mag is not None and a.tok in (b.mag[0], b.mag[1]):
            # a component over its own magnitude: |a| / |(a, .)| <= R, and 0 where the magnitude is 0
            r = int(math.floor(self.one_raw * b.mag[2])) + 1
            lo, hi = max(lo, -r), min(hi, r)
        return self._ret(lo, hi, (a, b))

    def idiv(self, a, n):
        a, n = iv(a), iv(n)
        lo, hi = _div_range(a.lo, a.hi, n)
        return self._ret(lo, hi, (a, n))

    def sqrt(self, a):
        a = iv(a)
        lo = math.isqrt(max(a.lo, 0) << self.fb)
        hi = math.isqrt(max(a.hi, 0) << self.fb)
        return self._ret(lo, hi, (a,))

    def hypot(self, x, y, depth=3):
        # the sum of squares is exact in 64 bits (fx_hypot); only the root comes back to 32
        x, y = iv(x), iv(y)
        (xl, xh), (yl, yh) = _sq_range(x), _sq_range(y)
        return self._ret(math.isqrt(xl + yl), math.isqrt(xh + yh), (x, y),
                         mag=(x.tok, y.tok, 1.0, 0, x, y), depth=depth)

    def mag(self, x, y):
        if self.magnitude == "exact":
            return self.hypot(x, y, depth=4)
        x, y = iv(x), iv(y)
        (al, ah), (bl, bh) = _abs_range(x), _abs_range(y)
        hl, hh = max(al, bl), max(ah, bh)
        ll, lh = min(al, bl), min(ah, bh)
        lo = ((self.alpha * hl) >> self.fb) + ((self.beta * ll) >> self.fb)
        hi = ((self.alpha * hh) >> self.fb) + ((self.beta * lh) >> self.fb)
        return self._ret(lo, hi, (x, y), mag=(x.tok, y.tok, self.R, self.c, x, y))

    def d2(self, dx, dy):
        dx, dy = iv(dx), iv(dy)
        (xl, xh), (yl, yh) = _sq_range(dx), _sq_range(dy)
        return self._ret(xl + yl, xh + yh, (dx, dy), kind="u64", src=("d2", (dx.tok, dy.tok)))

    def sq(self, r):
        r = iv(r)
        lo, hi = _sq_range(r)
        return self._ret(lo, hi, (r,), kind="u64")

    def neg_wide(self, a):
        a = iv(a)
        return IV(-a.hi, -a.lo, a.n, a.fnd, src=("neg", a.tok))

    def acc_sum(self, values, mask):
        v, m = iv(values), _mask(mask)
        lo, hi = v.lo, v.hi
        c = m.cons.get(v.tok)
        if c is None and v.src and v.src[0] == "neg" and v.src[1] in m.cons:
            c = tuple(-x for x in reversed(m.cons[v.src[1]]))
        if c is not None:  # the mask's terms satisfy what the mask tested
            lo, hi = max(lo, c[0]), min(hi, c[1])
            if lo > hi:
                lo = hi = 0
        n = max(m.n, v.n)
        kmin, kmax = m._k(n) if n else ((0 if m.f else 1), (1 if m.t else 0))
        slo, shi = min(kmin * lo, kmax * lo), max(kmin * hi, kmax * hi)
        pend = _ctx().record(call_site(2), "64", slo, shi, (I64_MIN, I64_MAX), bool(v.fnd | m.fnd))
        return Acc(lo, hi, kmin, kmax, slo, shi, v.fnd | m.fnd | pend)

    def acc_mean(self, acc, n):
        n = iv(n)
        if isinstance(acc, Acc):
            lo, hi = acc.elo, acc.ehi
            if acc.kmin == 0 or n.lo <= 0:
                lo, hi = min(lo, 0), max(hi, 0)
            return self._ret(lo, hi, (acc, n))
        a = iv(acc)
        lo, hi = _div_range(a.lo, a.hi, n)
        return self._ret(lo, hi, (a, n))

    def acc_fx(self, acc):
        a = acc if isinstance(acc, Acc) else iv(acc)
        return self._ret(a.lo, a.hi, (a,))

    where = staticmethod(where)

    # parameters and state come in as intervals already
    def from_raw(self, raw):
        return iv(raw)

    def const_int(self, i: int) -> IV:
        v = i << self.fb
        return IV(v, v)

    def param(self, raw, text, ptype):
        return raw

    @staticmethod
    def fmt(v) -> str:
        return repr(v)


def amb_ratio(alpha_raw: int, fb: int) -> tuple[float, int]:
    """(R, c) with |x| <= R * amb(x, y) + c for every x (the magnitude
    alpha*max + beta*min truncates, so small values can read low): c is the
    largest |x| whose estimate is 0, R the largest |x| / amb over the rest."""
    if alpha_raw <= 0:
        return float("inf"), 1 << 31
    ks = np.arange(1, 1 << 20, dtype=np.int64)
    est = (alpha_raw * ks) >> fb
    c = int(ks[est == 0].max()) if (est == 0).any() else 0
    ok = est > 0
    R = float((ks[ok] / est[ok]).max())
    # above 2^20 the ratio only tends to 2^fb / alpha
    return max(R, (1 << fb) / alpha_raw), c


# ---------------------------------------------------------------- running it
def explore(run, ctx: Context | None = None, split: bool = True) -> Context:
    """Run `run()` (which returns the frame's results) along every path of
    per-boid magnitude tests; findings that reach a result are committed."""
    global _CTX
    ctx = ctx or Context()
    prev, _CTX = _CTX, ctx
    try:
        stack: list[tuple] = [()]
        while stack:
            prefix = stack.pop()
            ctx.decisions, ctx.pos = list(prefix), 0
            ctx.splitting = split and ctx.paths < ctx.max_paths
            out = run()
            ctx.paths += 1
            ctx.commit(_fnd(*_flatten(out)))
            for k in range(len(prefix), len(ctx.decisions)):
                stack.append(tuple(ctx.decisions[:k]) + (True,))
    finally:
        _CTX = prev
    return ctx


def _flatten(out):
    if isinstance(out, dict):
        out = list(out.values())
    if isinstance(out, (list, tuple)):
        res = []
        for o in out:
            res += _flatten(o)
        return res
    return [out]
