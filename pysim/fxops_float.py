"""The float arithmetic (fl_) of pysim/fxops.py: pysim/arith.py's
FloatArith, scalar, one function per fixed-point one (fxops.NAMES). fxops
serves these as its own (`fxops.fl_add`, namespace("float")); its
SOURCE_HASH covers this file. Kept apart only for length: fxops' rules hold
here (@njit inline, plain Python under NUMBA_DISABLE_JIT)."""
from __future__ import annotations

import math

import numpy as np

from pysim.fxops import _jit

# ---------------------------------------------------------------------------
# float (fl_): pysim/arith.py's FloatArith, scalar
# ---------------------------------------------------------------------------


@_jit
def fl_wrap32(v):
    return v


@_jit
def fl_from_int(i, fb):
    return float(i)


@_jit
def fl_to_int(a, fb):
    return np.int64(math.trunc(a))


@_jit
def fl_add(a, b):
    return a + b


@_jit
def fl_sub(a, b):
    return a - b


@_jit
def fl_neg(a):
    return -a


@_jit
def fl_abs(a):
    return abs(a)


@_jit
def fl_outside_box(d, box):
    return abs(d) >= box


@_jit
def fl_asr64(v, s):
    return v * 2.0 ** -s


@_jit
def fl_asr(a, s):
    return a * 2.0 ** -s


@_jit
def fl_shl(a, s):
    return a * 2.0 ** s


@_jit
def fl_mul(a, b, fb):
    return a * b


@_jit
def fl_imul(n, a):
    return n * a


@_jit
def fl_div(a, b, fb):
    if b == 0:
        return 0.0
    return a / b


@_jit
def fl_idiv(a, n):
    if n == 0:
        return 0.0
    return a / n


@_jit
def fl_sqrt(a, fb):
    return np.sqrt(a)  # nan below 0, as FloatArith's np.sqrt


@_jit
def fl_d2(dx, dy):
    return dx * dx + dy * dy


@_jit
def fl_sq64(r):
    return r * r


@_jit
def fl_hypot(x, y):
    return np.hypot(x, y)


@_jit
def fl_amb(x, y, alpha, beta, fb):
    ax = abs(x)
    ay = abs(y)
    hi = ax if ax > ay else ay
    lo = ay if ax > ay else ax
    return alpha * hi + beta * lo


@_jit
def fl_mag(x, y, use_amb, alpha, beta, fb):
    # the float model's magnitude is always exact (FloatArith.mag)
    return np.hypot(x, y)


@_jit
def fl_acc_add(acc, v):
    return acc + v


@_jit
def fl_acc_sub(acc, v):
    return acc - v


@_jit
def fl_acc_mean(total, n):
    if n == 0:
        return 0.0
    return total / n


@_jit
def fl_acc_mean_about(total, n, base):
    if n == 0:
        return 0.0
    return total / n + base


@_jit
def fl_acc_fx(total):
    return total


@_jit
def fl_sign(a):
    return (a > 0) - (a < 0)


@_jit
def fl_min(a, b):
    return a if a < b else b


@_jit
def fl_max(a, b):
    return a if a > b else b


@_jit
def fl_clamp(v, lo, hi):
    return lo if v < lo else (hi if v > hi else v)
