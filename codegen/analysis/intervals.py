"""Intervals of exact integers in raw units, and one transfer per named op.

The range analysis (codegen/analysis/ranges.py) evaluates the rule IR over
intervals. A value is an `Iv` [lo, hi] of Python ints in raw fixed-point
units (a fixed value v is v * 2^F, an int is itself, a square has 2F
fraction bits), never wrapped: each transfer returns the EXACT range of the
op's mathematical result as fixed.h rounds it (mul floors, div truncates,
sqrt floors, ...), so a result outside its type's limits (`LIMITS`) is an
overflow the C would wrap silently. What flows on after an overflow is the
whole range of the type (`wrapped`): a wrapped value can be anything.

Rounding, as fixed.h (and pysim/fxops.py, its numba twin) defines it:
  add sub neg abs, int ops   exact, wraps modulo 2^32
  mul                        floor(a * b / 2^F)
  div                        trunc(a * 2^F / b); b == 0 gives 0
  div_int idiv sum_mean      trunc(a / n); n == 0 gives 0
  sum_mean_about             trunc((a + n * base) / n); n == 0 gives 0
  sqrt                       floor(sqrt(a * 2^F)); a <= 0 gives 0
  hypot                      floor(sqrt(x^2 + y^2)), from an exact 64-bit sum
  mag                        hypot, or fx_amb: fx_mul(alpha, max) + fx_mul(beta, min) of |x|, |y|
  fixed_to_int               ops.py says truncation, fxops.fx_to_int floors: both are covered
  clamp                      ops.py: lo wins when lo > hi; fxops.fx_clamp: hi wins: both are covered
Each transfer is exact at the corners of its operands' box when the
function is monotone in each operand there (a quotient on each side of 0,
a floor or a truncation of a monotone value), which is why a division
splits its divisor at 0. tests/test_ranges_ir.py holds every transfer
against pysim/fxops.py's ops on random and edge samples.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

I32 = (-(1 << 31), (1 << 31) - 1)
I64 = (-(1 << 63), (1 << 63) - 1)
U64 = (0, (1 << 64) - 1)

# the limits of a result by its IR type (ir.Type values)
LIMITS = {"fixed": I32, "int": I32, "bool": (0, 1), "square": U64, "sum_fixed": I64, "sum_int": I64}


@dataclass(frozen=True, slots=True)
class Iv:
    lo: int
    hi: int

    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError(f"empty interval [{self.lo}, {self.hi}]")

    @staticmethod
    def of(*vals: int) -> "Iv":
        return Iv(min(vals), max(vals))

    @staticmethod
    def point(v: int) -> "Iv":
        return Iv(v, v)

    def hull(self, o: "Iv") -> "Iv":
        return Iv(min(self.lo, o.lo), max(self.hi, o.hi))

    def meet(self, lo: int, hi: int) -> "Iv | None":
        """self within [lo, hi], or None when they do not meet."""
        lo, hi = max(self.lo, lo), min(self.hi, hi)
        return Iv(lo, hi) if lo <= hi else None

    def within(self, lim: tuple[int, int]) -> bool:
        return lim[0] <= self.lo and self.hi <= lim[1]

    @property
    def worst(self) -> int:
        return max(abs(self.lo), abs(self.hi))

    def has(self, v: int) -> bool:
        return self.lo <= v <= self.hi

    def __repr__(self) -> str:
        return f"[{self.lo}, {self.hi}]"


def wrapped(type_name: str) -> Iv:
    """What a value of this type can be after it wrapped: anything."""
    return Iv(*LIMITS[type_name])


def tdiv(a: int, b: int) -> int:
    """C's a / b: truncation toward zero (b != 0)."""
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


@dataclass(frozen=True)
class Fx:
    """The spec's arithmetic: F fraction bits and its magnitude."""
    frac_bits: int
    magnitude: str = "exact"  # or 'alpha_max_beta_min'
    alpha: int = 0  # raw
    beta: int = 0  # raw

    @property
    def one(self) -> int:
        return 1 << self.frac_bits

    @property
    def amb(self) -> bool:
        return self.magnitude != "exact"

    def mag_bound(self, m: int, estimate: bool) -> int | None:
        """The largest |component| a magnitude of m (from mag/hypot of two
        int32 values, not wrapped) can come from; None: no bound.
        Exact: |x| <= floor(sqrt(x^2 + y^2)). Estimate: fx_amb >= fx_mul(alpha,
        max(|x|, |y|)) (beta >= 0), and floor(alpha * M / 2^F) <= m means
        alpha * M < (m + 1) * 2^F."""
        if m < 0:
            return 0
        if not estimate:
            return m
        if self.alpha <= 0 or self.beta < 0:
            return None
        return ((m + 1) * self.one - 1) // self.alpha

    def ratio_bound(self, m_lo: int, estimate: bool) -> int | None:
        """The largest |fx_div(x, m)| for a component x of a magnitude m >= m_lo >= 1:
        exact, 1.0; estimated, (m + 1) * 2^F / (alpha * m) at its largest, m = m_lo."""
        if m_lo < 1:
            return None
        if not estimate:
            return self.one
        if self.alpha <= 0 or self.beta < 0:
            return None
        return (((m_lo + 1) * self.one - 1) * self.one) // (self.alpha * m_lo)


# ---------------------------------------------------------------- helpers
def _corners(fn, a: Iv, b: Iv) -> Iv:
    return Iv.of(fn(a.lo, b.lo), fn(a.lo, b.hi), fn(a.hi, b.lo), fn(a.hi, b.hi))


def _quotient(a: Iv, b: Iv, shift: int = 0) -> Iv:
    """trunc((a << shift) / b) over b's nonzero values, and 0 where b may be 0
    (fx_div, fx_idiv, fx_acc_mean): monotone on each side of 0."""
    out = Iv(0, 0) if b.has(0) else None
    for lo, hi in ((b.lo, min(b.hi, -1)), (max(b.lo, 1), b.hi)):
        if lo <= hi:
            q = _corners(lambda x, y: tdiv(x << shift, y), a, Iv(lo, hi))
            out = q if out is None else out.hull(q)
    return out


def sq_range(a: Iv) -> Iv:
    lo = 0 if a.has(0) else min(a.lo * a.lo, a.hi * a.hi)
    return Iv(lo, max(a.lo * a.lo, a.hi * a.hi))


def abs_range(a: Iv) -> Iv:
    if a.lo >= 0:
        return a
    if a.hi <= 0:
        return Iv(-a.hi, -a.lo)
    return Iv(0, max(-a.lo, a.hi))


# ---------------------------------------------------------------- transfers
def t_add(fx, a, b):
    return Iv(a.lo + b.lo, a.hi + b.hi)


def t_sub(fx, a, b):
    return Iv(a.lo - b.hi, a.hi - b.lo)


def t_neg(fx, a):
    return Iv(-a.hi, -a.lo)


def t_mul(fx, a, b):
    f = fx.frac_bits
    return _corners(lambda x, y: (x * y) >> f, a, b)


def t_imul(fx, a, b):
    return _corners(lambda x, y: x * y, a, b)


def t_div(fx, a, b):
    return _quotient(a, b, fx.frac_bits)


def t_idiv(fx, a, n):
    return _quotient(a, n)


def t_mean_about(fx, q, base, n):
    """sum_mean_about(d, n, base) = trunc(d / n + base) given q, the range of
    trunc(d / n): within one of q + base (trunc of a shifted quotient); 0
    where n may be 0."""
    iv = t_add(fx, Iv(q.lo - 1, q.hi + 1), base)
    return iv.hull(Iv(0, 0)) if n.lo <= 0 <= n.hi else iv


def t_sqrt(fx, a):
    f = fx.frac_bits
    hi = isqrt(max(a.hi, 0) << f)
    return Iv(0 if a.lo <= 0 else isqrt(a.lo << f), hi)


def t_hypot(fx, x, y):
    sx, sy = sq_range(x), sq_range(y)
    return Iv(isqrt(sx.lo + sy.lo), isqrt(sx.hi + sy.hi))


def t_mag(fx, x, y):
    if not fx.amb:
        return t_hypot(fx, x, y)
    ax, ay = abs_range(x), abs_range(y)
    big = Iv(max(ax.lo, ay.lo), max(ax.hi, ay.hi))
    small = Iv(min(ax.lo, ay.lo), min(ax.hi, ay.hi))
    p = t_mul(fx, Iv.point(fx.alpha), big)
    q = t_mul(fx, Iv.point(fx.beta), small)
    r = t_add(fx, p, q)
    for part in (ax, ay, p, q):  # fx_amb wraps each of these: an overflow there shows in the result
        if not part.within(I32):
            r = r.hull(part)
    return r


def t_sq(fx, a):
    return sq_range(a)


def t_d2(fx, dx, dy):
    sx, sy = sq_range(dx), sq_range(dy)
    return Iv(sx.lo + sy.lo, sx.hi + sy.hi)


def t_int_to_fixed(fx, a):
    return Iv(a.lo << fx.frac_bits, a.hi << fx.frac_bits)


def t_fixed_to_int(fx, a):
    # floor (fxops.fx_to_int) <= truncation (ops.py's `/ FX_ONE`): cover both
    return Iv(a.lo >> fx.frac_bits, tdiv(a.hi, fx.one))


def t_same(fx, a):
    return a


def t_abs(fx, a):
    return abs_range(a)


def t_min(fx, a, b):
    return Iv(min(a.lo, b.lo), min(a.hi, b.hi))


def t_max(fx, a, b):
    return Iv(max(a.lo, b.lo), max(a.hi, b.hi))


def t_clamp(fx, v, lo, hi):
    # v < lo ? lo : (v > hi ? hi : v), whatever the order of lo and hi
    out = None
    if v.lo < lo.hi:  # lo can be chosen
        out = lo
    rest = v.meet(lo.lo, I64[1])  # v >= lo possible
    if rest is not None:
        if rest.hi > hi.lo:
            out = hi if out is None else out.hull(hi)
        kept = rest.meet(I64[0], hi.hi)
        if kept is not None:
            out = kept if out is None else out.hull(kept)
    out = out if out is not None else v
    # fxops.fx_clamp is min(max(v, lo), hi): hi wins when lo > hi, where ops.py
    # says lo wins. Both readings are covered until the two agree.
    return out.hull(t_min(fx, t_max(fx, v, lo), hi))


def t_random(fx, d):
    """random(): the draw's top F bits, [0, 1 - 2^-F]."""
    return Iv(0, fx.one - 1)


def t_random_int(fx, d, a, b):
    """random_int(a, b): in [a, b] when b > a, else a: [a.lo, max(a.hi, b.hi)]."""
    return Iv(a.lo, max(a.hi, b.hi))


def t_unit_range(fx, *args):
    """sin, cos, unit's components: [-1, 1]."""
    return Iv(-fx.one, fx.one)


def t_atan2(fx, y, x):
    """turns in [-1/2, 1/2]."""
    return Iv(-(fx.one >> 1), fx.one >> 1)


def t_rotate(fx, x, y, a):
    """|x cos a -+ y sin a| <= |x| + |y| (+1 a floored product, each)."""
    m = abs_range(x).hi + abs_range(y).hi + 2
    return Iv(-m, m)


def t_sign(fx, a):
    return Iv(-1 if a.lo < 0 else (0 if a.lo == 0 else 1), 1 if a.hi > 0 else (0 if a.hi == 0 else -1))


def root_range(s: Iv) -> Iv:
    """floor(sqrt(s)) over s (not saturated)."""
    return Iv(isqrt(max(s.lo, 0)), isqrt(max(s.hi, 0)))


def t_mag2(fx, x, y):
    return t_d2(fx, x, y)


def t_mag_root(fx, s):
    # fx_mag_root saturates at INT32_MAX (defined, as clamp): never an overflow
    r = root_range(s)
    return Iv(min(r.lo, I32[1]), min(r.hi, I32[1]))


MAG_CMP = {"mag_lt": "lt", "mag_le": "le", "mag_gt": "gt", "mag_ge": "ge", "mag_eq": "eq", "mag_ne": "ne"}


def _t_mag_cmp(op):
    def t(fx, s, m):
        can_t, can_f = compare(op, root_range(s), m)
        return Iv(0 if can_f else 1, 1 if can_t else 0)
    return t


def root_narrow(op: str, s: Iv, m: Iv) -> tuple[Iv | None, Iv | None]:
    """(s, m) narrowed to where floor(sqrt(s)) op m holds: the root's interval
    narrowed as a compare, then back to the squares it comes from."""
    r, nm = narrow(op, root_range(s), m)
    if r is None or nm is None:
        return None, None
    return s.meet(r.lo * r.lo, (r.hi + 1) * (r.hi + 1) - 1), nm


TRANSFER = {
    "add": t_add, "sub": t_sub, "neg": t_neg, "mul": t_mul, "div": t_div,
    "mul_int": t_imul, "div_int": t_idiv, "sqrt": t_sqrt, "hypot": t_hypot, "mag": t_mag, "sq": t_sq,
    "iadd": t_add, "isub": t_sub, "ineg": t_neg, "imul": t_imul, "idiv": t_idiv,
    "int_to_fixed": t_int_to_fixed, "fixed_to_int": t_fixed_to_int,
    "sum_to_fixed": t_same, "sum_to_int": t_same, "sum_mean": t_idiv, "sum_idiv": t_idiv,
    "sum_mean_about": lambda fx, s, n, base: t_mean_about(fx, _quotient(s, n), base, n),
    "sum_wrap32": t_same,  # only where widths.py proved the sum within int32
    "abs": t_abs, "min": t_min, "max": t_max, "clamp": t_clamp, "sign": t_sign,
    "random": t_random, "random_int": t_random_int,  # the PRNG's draws (fixed_draws.h)
    "sin": t_unit_range, "cos": t_unit_range, "unit_x": t_unit_range, "unit_y": t_unit_range,
    "atan2": t_atan2, "rotate_x": t_rotate, "rotate_y": t_rotate,  # fixed_angles.h
    "d2": t_d2,  # the pair loop's squared distance (not an IR op: dx, dy -> d2)
    "mag2": t_mag2, "mag_root": t_mag_root,  # codegen/passes/roots.py
    **{op: _t_mag_cmp(c) for op, c in MAG_CMP.items()},
}

# ops whose result lies within their operands' values: never reported
QUIET = frozenset({"min", "max", "clamp", "sign", "select", "sum_wrap32", "random", "random_int", *MAG_CMP})


# ---------------------------------------------------------------- comparisons
def compare(op: str, a: Iv, b: Iv) -> tuple[bool, bool]:
    """(can it be true, can it be false) for `a op b`."""
    if op == "lt":
        return a.lo < b.hi, a.hi >= b.lo
    if op == "le":
        return a.lo <= b.hi, a.hi > b.lo
    if op == "gt":
        return a.hi > b.lo, a.lo <= b.hi
    if op == "ge":
        return a.hi >= b.lo, a.lo < b.hi
    meet = a.lo <= b.hi and b.lo <= a.hi
    single = a.lo == a.hi == b.lo == b.hi
    if op == "eq":
        return meet, not single
    return not single, meet  # ne


NEGATED = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}


def narrow(op: str, a: Iv, b: Iv) -> tuple[Iv | None, Iv | None]:
    """(a, b) narrowed to where `a op b` holds; None where it cannot."""
    big = I64[1] * 4
    if op in ("lt", "le"):
        s = 1 if op == "lt" else 0
        return a.meet(-big, b.hi - s), b.meet(a.lo + s, big)
    if op in ("gt", "ge"):
        s = 1 if op == "gt" else 0
        return a.meet(b.lo + s, big), b.meet(-big, a.hi - s)
    if op == "eq":
        na = a.meet(b.lo, b.hi)
        return na, (None if na is None else b.meet(na.lo, na.hi))
    # ne: only an end equal to the other's single value can go
    return _shave(a, b), _shave(b, a)


def _shave(a: Iv, b: Iv) -> Iv | None:
    if b.lo != b.hi:
        return a
    v = b.lo
    lo, hi = a.lo + (a.lo == v), a.hi - (a.hi == v)
    return Iv(lo, hi) if lo <= hi else None
