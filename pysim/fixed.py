"""The one definition of boidsgen's fixed-point arithmetic in Python (numpy).

Twin of firmware_runtime/core/fixed.h: each ``fx_*`` here matches the C inline
function of the same name bit for bit (tests/test_fixed_ops.py checks it).
Values are int64 numpy arrays (or Python ints) holding 32-bit raw values;
every result is wrapped to the signed 32-bit range.

Rounding, defined once:
  add, sub, neg, abs  wrap modulo 2^32
  mul                 64-bit product, arithmetic shift right (floor)
  div                 (a << F) / b, truncation toward zero; b == 0 gives 0
  idiv                a / n, truncation toward zero; n == 0 gives 0
  sqrt                floor(sqrt(a * 2^F)), exact; a <= 0 gives 0
"""
from __future__ import annotations

import numpy as np

I64 = np.int64
_M32 = np.int64(0xFFFFFFFF)
_H31 = np.int64(0x80000000)


def fx_wrap(v):
    """Wrap int64 values to the signed 32-bit range (two's complement).
    numpy's integer narrowing keeps the low 32 bits, which is exactly that."""
    return np.asarray(v, dtype=I64).astype(np.int32).astype(I64)


def fx_from_int(i, frac_bits: int):
    return fx_wrap(np.asarray(i, dtype=I64) << frac_bits)


def fx_add(a, b):
    return fx_wrap(np.asarray(a, dtype=I64) + b)


def fx_sub(a, b):
    return fx_wrap(np.asarray(a, dtype=I64) - b)


def fx_neg(a):
    return fx_wrap(-np.asarray(a, dtype=I64))


def fx_abs(a):
    a = np.asarray(a, dtype=I64)
    return fx_wrap(np.abs(a))


def fx_mul(a, b, frac_bits: int):
    # numpy's >> on int64 is an arithmetic shift: floor, as in C's fx_asr64.
    return fx_wrap((np.asarray(a, dtype=I64) * b) >> frac_bits)


def _trunc_div(n, d):
    """n / d truncated toward zero, elementwise, for int64 arrays; d != 0."""
    q = np.abs(n) // np.abs(d)
    return np.where((n < 0) != (d < 0), -q, q)


def fx_div(a, b, frac_bits: int):
    a = np.asarray(a, dtype=I64)
    b = np.asarray(b, dtype=I64)
    safe = np.where(b == 0, 1, b)
    q = _trunc_div(a << frac_bits, safe)
    return fx_wrap(np.where(b == 0, 0, q))


def fx_idiv(a, n):
    a = np.asarray(a, dtype=I64)
    n = np.asarray(n, dtype=I64)
    safe = np.where(n == 0, 1, n)
    return fx_wrap(np.where(n == 0, 0, _trunc_div(a, safe)))


def isqrt64(v):
    """Exact floor(sqrt(v)) for int64 arrays with 0 <= v < 2^62."""
    v = np.asarray(v, dtype=I64)
    r = np.floor(np.sqrt(v.astype(np.float64))).astype(I64)
    # float64 sqrt is within one of the truth below 2^62: correct both ways.
    r = r - (r * r > v)
    r = r - (r * r > v)
    r = r + ((r + 1) * (r + 1) <= v)
    return r


def fx_sqrt(a, frac_bits: int):
    a = np.asarray(a, dtype=I64)
    pos = a > 0
    return np.where(pos, isqrt64(np.where(pos, a, 0) << frac_bits), 0).astype(I64)


U64 = np.uint64


def isqrt_u64(v):
    """Exact floor(sqrt(v)) for uint64 arrays (any value below 2^64)."""
    v = np.asarray(v, dtype=U64)
    r = np.floor(np.sqrt(v.astype(np.float64))).astype(U64)
    # correct the float estimate (off by at most a few units near 2^64)
    for _ in range(2):
        r = r - (r * r > v).astype(U64)
    for _ in range(2):
        r = r + ((r + U64(1)) * (r + U64(1)) <= v).astype(U64)
    return r


def fx_d2(dx, dy):
    """Squared distance in 64 bits (2F fraction bits), exact: twin of fx_d2."""
    dx = np.asarray(dx, dtype=I64)
    dy = np.asarray(dy, dtype=I64)
    return (dx * dx).astype(U64) + (dy * dy).astype(U64)


def fx_sq64(r):
    r = np.asarray(r, dtype=I64)
    return (r * r).astype(U64)


def fx_hypot(x, y):
    return fx_wrap(isqrt_u64(fx_d2(x, y)).astype(I64))


def fx_amb(x, y, alpha, beta, frac_bits: int):
    ax, ay = fx_abs(x), fx_abs(y)
    hi, lo = np.maximum(ax, ay), np.minimum(ax, ay)
    return fx_add(fx_mul(alpha, hi, frac_bits), fx_mul(beta, lo, frac_bits))


# Mean of a 64-bit neighbour sum: the same truncating division, wrapped.
fx_acc_mean = fx_idiv


def fx_acc_fx(total):
    return fx_wrap(total)
