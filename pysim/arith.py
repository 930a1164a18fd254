"""The two arithmetics the generated rules run on.

`FixedArith` is bit-exact with the firmware (it calls pysim/fixed.py, the twin
of fixed.h); `FloatArith` is float64, the ideal the fixed point approximates.
Both expose the same small vocabulary the rule templates use: add, sub, mul,
div, idiv, sqrt, abs, where, sum, zero.
"""
from __future__ import annotations

import numpy as np

from . import fixed as fx


class FixedArith:
    name = "fixed"
    dtype = np.int64
    zero = 0

    def __init__(self, frac_bits: int) -> None:
        self.fb = frac_bits

    add = staticmethod(fx.fx_add)
    sub = staticmethod(fx.fx_sub)
    abs = staticmethod(fx.fx_abs)
    idiv = staticmethod(fx.fx_idiv)
    where = staticmethod(np.where)

    def mul(self, a, b):
        return fx.fx_mul(a, b, self.fb)

    def div(self, a, b):
        return fx.fx_div(a, b, self.fb)

    def sqrt(self, a):
        return fx.fx_sqrt(a, self.fb)

    @staticmethod
    def sum(values, mask):
        # C adds with wraparound one pair at a time; the int64 total wrapped
        # once is the same number modulo 2^32.
        return fx.fx_wrap(np.where(mask, values, 0).sum(axis=1))

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

    def __init__(self, frac_bits: int) -> None:
        self.fb = frac_bits

    add = staticmethod(np.add)
    sub = staticmethod(np.subtract)
    mul = staticmethod(np.multiply)
    abs = staticmethod(np.abs)
    sqrt = staticmethod(np.sqrt)
    where = staticmethod(np.where)

    @staticmethod
    def div(a, b):
        b = np.asarray(b, dtype=np.float64)
        return np.where(b == 0, 0.0, np.asarray(a) / np.where(b == 0, 1.0, b))

    @staticmethod
    def idiv(a, n):
        n = np.asarray(n)
        return np.where(n == 0, 0.0, np.asarray(a) / np.where(n == 0, 1, n))

    @staticmethod
    def sum(values, mask):
        return np.where(mask, values, 0.0).sum(axis=1)

    def from_raw(self, raw):
        return np.asarray(raw, dtype=np.float64) / (1 << self.fb)

    def const_int(self, i: int) -> float:
        return float(i)

    def param(self, raw: int, text: str, ptype: str):
        return float(text) if ptype == "fixed" else int(raw)

    @staticmethod
    def fmt(v) -> str:
        return "%.17g" % float(v)


def make_arith(name: str, frac_bits: int):
    if name == "fixed":
        return FixedArith(frac_bits)
    if name == "float":
        return FloatArith(frac_bits)
    raise ValueError(f"unknown arithmetic '{name}' (fixed or float)")
