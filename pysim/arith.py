"""The two arithmetics of a simulation, as the engine and the trace see them.

`FixedArith` (raw int64, bit-exact with the firmware) and `FloatArith`
(float64 pixels, the ideal the fixed point approximates) say what a value
is: `name`, `dtype`, `zero`, `from_raw` (spawned raw values in the
arithmetic's units), `param` (a parameter's value), `fmt` (trace text).
The frame itself runs in the generated kernel (python/boids_kernel.py) over
pysim/fxops.py, whose fx_ / fl_ namespaces are these two arithmetics as
scalar numba functions. The numpy operations kept here (add sub mul div
sqrt mag d2 acc_sum ...) are their array reference, which
tests/test_fxops.py holds fxops against.
"""
from __future__ import annotations

import numpy as np

from pysim import fixed as fx


class FixedArith:
    name = "fixed"
    dtype = np.int64
    zero = 0

    def __init__(self, frac_bits: int, magnitude: str = "exact", alpha_raw: int = 0, beta_raw: int = 0) -> None:
        self.fb = frac_bits
        self.one = 1 << frac_bits
        if magnitude == "exact":
            self.mag = fx.fx_hypot
        else:
            self.mag = lambda x, y: fx.fx_amb(x, y, alpha_raw, beta_raw, frac_bits)

    add = staticmethod(fx.fx_add)
    sub = staticmethod(fx.fx_sub)
    neg = staticmethod(fx.fx_neg)
    abs = staticmethod(fx.fx_abs)
    idiv = staticmethod(fx.fx_idiv)
    hypot = staticmethod(fx.fx_hypot)
    d2 = staticmethod(fx.fx_d2)
    sq = staticmethod(fx.fx_sq64)
    acc_mean = staticmethod(fx.fx_idiv)
    acc_fx = staticmethod(fx.fx_wrap)
    where = staticmethod(np.where)

    def mul(self, a, b):
        return fx.fx_mul(a, b, self.fb)

    def div(self, a, b):
        return fx.fx_div(a, b, self.fb)

    def sqrt(self, a):
        return fx.fx_sqrt(a, self.fb)

    @staticmethod
    def neg_wide(a):
        """-a without wrapping (C: a 64-bit accumulator minus a value)."""
        return -np.asarray(a, dtype=np.int64)

    @staticmethod
    def acc_sum(values, mask):
        """Exact 64-bit sum along the last axis where mask: the C loop's
        `fx_acc` total, whatever the order."""
        return np.where(mask, values, 0).sum(axis=-1, dtype=np.int64)

    def from_raw(self, raw):
        return np.asarray(raw, dtype=np.int64)

    def const_int(self, i: int) -> int:
        return int(fx.fx_from_int(i, self.fb))

    def param(self, raw: int, text: str, ptype: str):
        return raw

    @staticmethod
    def fmt(v) -> str:
        return str(int(v))


class FloatArith:
    name = "float"
    dtype = np.float64
    zero = 0.0
    one = 1.0

    def __init__(self, frac_bits: int, magnitude: str = "exact", alpha_raw: int = 0, beta_raw: int = 0) -> None:
        self.fb = frac_bits

    add = staticmethod(np.add)
    sub = staticmethod(np.subtract)
    neg = staticmethod(np.negative)
    neg_wide = staticmethod(np.negative)
    mul = staticmethod(np.multiply)
    abs = staticmethod(np.abs)
    sqrt = staticmethod(np.sqrt)
    hypot = staticmethod(np.hypot)
    mag = staticmethod(np.hypot)
    where = staticmethod(np.where)

    @staticmethod
    def d2(dx, dy):
        return dx * dx + dy * dy

    @staticmethod
    def sq(r):
        return r * r

    @staticmethod
    def div(a, b):
        b = np.asarray(b, dtype=np.float64)
        return np.where(b == 0, 0.0, np.asarray(a) / np.where(b == 0, 1.0, b))

    @staticmethod
    def idiv(a, n):
        n = np.asarray(n)
        return np.where(n == 0, 0.0, np.asarray(a) / np.where(n == 0, 1, n))

    acc_mean = idiv

    @staticmethod
    def acc_fx(total):
        return total

    @staticmethod
    def acc_sum(values, mask):
        return np.where(mask, values, 0.0).sum(axis=-1)

    def from_raw(self, raw):
        return np.asarray(raw, dtype=np.float64) / (1 << self.fb)

    def const_int(self, i: int) -> float:
        return float(i)

    def param(self, raw: int, text: str, ptype: str):
        return float(text) if ptype == "fixed" else int(raw)

    @staticmethod
    def fmt(v) -> str:
        return "%.17g" % float(v)


def make_arith(name: str, model):
    """The arithmetic `name` for a generated model (its Q format and magnitude)."""
    args = (model.FRAC_BITS, getattr(model, "MAGNITUDE", "exact"),
            getattr(model, "AMB_ALPHA_RAW", 0), getattr(model, "AMB_BETA_RAW", 0))
    if name == "fixed":
        return FixedArith(*args)
    if name == "float":
        return FloatArith(*args)
    raise ValueError(f"unknown arithmetic '{name}' (fixed or float)")
