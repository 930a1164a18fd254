"""The shadow check: fixed-point arithmetic that refuses to wrap.

`CheckedFixedArith` computes every operation of the generated model in 64
bits as well and raises `OverflowFound` on the first result outside the
32-bit range, before wrapping, naming the frame, the boid (or predator) and
the expression (the generated source line). Its results, when it does not
raise, are FixedArith's bit for bit.

Both sides of a `where` are computed for every lane in the numpy form, so a
value the C code never computes (the other branch) is checked too: a
failure there is reported as such ("in a lane a where() may discard").
"""
from __future__ import annotations

import sys

import numpy as np

from . import fixed as fx
from .arith import FixedArith
from .interval_arith import call_site

I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1


class OverflowFound(ArithmeticError):
    def __init__(self, frame: int | None, who: str, index: int, expr: str, rule: str, value: int,
                 source_line: str, frac_bits: int) -> None:
        self.frame, self.who, self.index, self.expr, self.rule = frame, who, index, expr, rule
        self.value, self.source_line = value, source_line
        v = value / (1 << frac_bits)
        super().__init__(f"overflow at frame {frame}, {who} {index}, rule '{rule}': `{expr}` = {v:g} "
                         f"(raw {value}) is outside 32 bits (generated line: {source_line})")


class CheckedFixedArith(FixedArith):
    """FixedArith with a 64-bit shadow of every result; set `.frame_of` to a
    callable giving the current frame (checked_simulation does)."""
    name = "fixed"

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.frame_of = lambda: None
        self._mag = self.mag
        self.mag = self._checked_mag

    def _check(self, wide, depth: int = 3):
        wide = np.asarray(wide, dtype=np.int64)
        bad = (wide < I32_MIN) | (wide > I32_MAX)
        if bad.any():
            f = sys._getframe(depth - 1)
            site = call_site(depth)
            pos = np.argwhere(bad)[0] if bad.ndim else ()
            row = int(pos[0]) if len(pos) else 0
            who, index = "boid", row
            loc = f.f_locals
            if "idx" in loc and site.func == "update":
                ids = np.atleast_1d(loc["idx"])
                index = int(ids[row]) if row < len(ids) else row
            elif site.func == "predators_step":
                who = "predator"
            elif site.func == "food_step":
                who = "food"
            raise OverflowFound(self.frame_of(), who, index, site.expr, site.rule, int(wide[tuple(pos)]),
                                site.source_line, self.fb)
        return fx.fx_wrap(wide)

    def add(self, a, b):
        return self._check(np.asarray(a, dtype=np.int64) + b)

    def sub(self, a, b):
        return self._check(np.asarray(a, dtype=np.int64) - b)

    def neg(self, a):
        return self._check(-np.asarray(a, dtype=np.int64))

    def abs(self, a):
        return self._check(np.abs(np.asarray(a, dtype=np.int64)))

    def mul(self, a, b):
        return self._check((np.asarray(a, dtype=np.int64) * b) >> self.fb)

    def div(self, a, b):
        a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
        safe = np.where(b == 0, 1, b)
        return self._check(np.where(b == 0, 0, fx._trunc_div(a << self.fb, safe)))

    def idiv(self, a, n):
        a, n = np.asarray(a, dtype=np.int64), np.asarray(n, dtype=np.int64)
        safe = np.where(n == 0, 1, n)
        return self._check(np.where(n == 0, 0, fx._trunc_div(a, safe)))

    acc_mean = idiv

    def acc_fx(self, total):
        return self._check(total)

    def hypot(self, x, y):
        return self._check(fx.isqrt_u64(fx.fx_d2(x, y)).astype(np.int64))

    def _checked_mag(self, x, y):
        if self._mag is fx.fx_hypot:
            return self._check(fx.isqrt_u64(fx.fx_d2(x, y)).astype(np.int64))
        # alpha*max + beta*min: the two products fit (|alpha|, |beta| < 2); check their sum
        ax, ay = np.abs(np.asarray(x, dtype=np.int64)), np.abs(np.asarray(y, dtype=np.int64))
        hi, lo = np.maximum(ax, ay), np.minimum(ax, ay)
        return self._check(((self._alpha * hi) >> self.fb) + ((self._beta * lo) >> self.fb))


def checked_arith_for(model) -> CheckedFixedArith:
    a = CheckedFixedArith(model.FRAC_BITS, getattr(model, "MAGNITUDE", "exact"),
                          getattr(model, "AMB_ALPHA_RAW", 0), getattr(model, "AMB_BETA_RAW", 0))
    a._alpha, a._beta = getattr(model, "AMB_ALPHA_RAW", 0), getattr(model, "AMB_BETA_RAW", 0)
    return a


def checked_simulation(model, **kw):
    """A fixed-point Simulation whose arithmetic is the shadow check."""
    from .engine import Simulation

    sim = Simulation(model, "fixed", **kw)
    A = checked_arith_for(model)
    A.frame_of = lambda: sim.frame
    sim.A = A
    return sim
