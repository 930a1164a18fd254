"""Angles and vectors in the three arithmetics (pysim/fxops.py's namespaces).
Twin of firmware_runtime/core/fixed_angles.h, over the tables of
pysim/angle_tables.py (the one definition; the C header is printed from them).

Angles are in TURNS: 1.0 is a full circle (0.25 a right angle), in the
spec's format.
  fx_sin(a, fb), fx_cos(a, fb)  a's fraction of a turn (its low fb bits: any a),
                 as a 16-bit phase (fb > 16: floored; fb < 16: exact); the
                 quadrant mirrors into the table's quarter, a linear step
                 between entries (6 bits, floor), rounded to fb bits (halves
                 up), negated in the lower half: in [-1, 1]
  fx_atan2(y, x, fb)  turns in [-1/2, 1/2]: t = floor(min(|x|,|y|) * 2^16 / max)
                 in the atan table (8-bit step, floor), mirrored into the
                 octant (1/4 - v when |y| > |x|, 1/2 - v when x < 0), rounded
                 to fb bits (halves up), negated when y < 0; (0, 0) gives 0
  fx_unit_x/_y(x, y, fb)  (x, y) scaled so max(|x|, |y|) is in [2^29, 2^30) (floor
                 when shifted right), then fx_div over its fx_hypot: in [-1, 1]; (0, 0) gives 0
  fx_rotate_x/_y(x, y, a, fb)  x cos a - y sin a, x sin a + y cos a (fx_mul, floor; wraps)
fl_: the ideal (float turns); ck_: fx_ plus (st, site), a finding when the
exact rotate leaves 32 bits (sin, cos, atan2, unit cannot).
"""
from __future__ import annotations

import math

import numpy as np

from pysim.angle_tables import ATAN_Q30, SIN_Q30
from pysim.fxops import _jit, fx_add, fx_div, fx_hypot, fx_mul, fx_sub, fx_wrap32
from pysim.fxops_checked import OVERFLOW, _record

_SIN = np.array(SIN_Q30, dtype=np.int64)
_ATAN = np.array(ATAN_Q30, dtype=np.int64)
_TWO_PI = 2.0 * math.pi
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


@_jit
def _phase16(a, fb):
    p = a & ((1 << fb) - 1)
    if fb >= 16:
        return p >> (fb - 16)
    return p << (16 - fb)


@_jit
def _sin16(q, fb):
    quad = q >> 14
    r = q & 16383
    if quad & 1:
        r = 16384 - r
    idx = r >> 6
    fr = r & 63
    v = _SIN[idx]
    if fr != 0:
        v += ((_SIN[idx + 1] - v) * fr) >> 6
    v = (v + (1 << (29 - fb))) >> (30 - fb)
    return -v if quad >= 2 else v


@_jit
def fx_sin(a, fb):
    return _sin16(_phase16(a, fb), fb)


@_jit
def fx_cos(a, fb):
    return _sin16((_phase16(a, fb) + 16384) & 65535, fb)


@_jit
def fx_atan2(y, x, fb):
    ax = -x if x < 0 else x
    ay = -y if y < 0 else y
    if ax == 0 and ay == 0:
        return 0
    steep = ay > ax
    mn, mx = (ax, ay) if steep else (ay, ax)
    t = (mn << 16) // mx
    idx = t >> 8
    fr = t & 255
    v = _ATAN[idx]
    if fr != 0:
        v += ((_ATAN[idx + 1] - v) * fr) >> 8
    if steep:
        v = (1 << 28) - v
    if x < 0:
        v = (1 << 29) - v
    v = (v + (1 << (29 - fb))) >> (30 - fb)
    return -v if y < 0 else v


@_jit
def _unit_part(x, y, fb, first):
    ax = -x if x < 0 else x
    ay = -y if y < 0 else y
    m = ax if ax > ay else ay
    if m == 0:
        return 0
    s = 0
    while m < (1 << 29):
        m <<= 1
        s += 1
    while m >= (1 << 30):
        m >>= 1
        s -= 1
    xs = fx_wrap32(x << s) if s >= 0 else x >> -s
    ys = fx_wrap32(y << s) if s >= 0 else y >> -s
    return fx_div(xs if first else ys, fx_hypot(xs, ys), fb)


@_jit
def fx_unit_x(x, y, fb):
    return _unit_part(x, y, fb, True)


@_jit
def fx_unit_y(x, y, fb):
    return _unit_part(x, y, fb, False)


@_jit
def fx_rotate_x(x, y, a, fb):
    return fx_sub(fx_mul(x, fx_cos(a, fb), fb), fx_mul(y, fx_sin(a, fb), fb))


@_jit
def fx_rotate_y(x, y, a, fb):
    return fx_add(fx_mul(x, fx_sin(a, fb), fb), fx_mul(y, fx_cos(a, fb), fb))


# --- float: the ideal ---------------------------------------------------------------------------
@_jit
def fl_sin(a, fb):
    return math.sin(_TWO_PI * a)


@_jit
def fl_cos(a, fb):
    return math.cos(_TWO_PI * a)


@_jit
def fl_atan2(y, x, fb):
    return math.atan2(y, x) / _TWO_PI


@_jit
def fl_unit_x(x, y, fb):
    h = math.hypot(x, y)
    return x / h if h > 0.0 else 0.0


@_jit
def fl_unit_y(x, y, fb):
    h = math.hypot(x, y)
    return y / h if h > 0.0 else 0.0


@_jit
def fl_rotate_x(x, y, a, fb):
    return x * math.cos(_TWO_PI * a) - y * math.sin(_TWO_PI * a)


@_jit
def fl_rotate_y(x, y, a, fb):
    return x * math.sin(_TWO_PI * a) + y * math.cos(_TWO_PI * a)


# --- checked ------------------------------------------------------------------------------------
@_jit
def _rot_exact(x, y, a, fb, first):
    c, s = fx_cos(a, fb), fx_sin(a, fb)
    if first:
        return ((x * c) >> fb) - ((y * s) >> fb)
    return ((x * s) >> fb) + ((y * c) >> fb)


@_jit
def _flag(st, site, v):
    if v < INT32_MIN or v > INT32_MAX:
        _record(st, site, v, OVERFLOW)


@_jit
def ck_sin(a, fb, st, site):
    return fx_sin(a, fb)


@_jit
def ck_cos(a, fb, st, site):
    return fx_cos(a, fb)


@_jit
def ck_atan2(y, x, fb, st, site):
    return fx_atan2(y, x, fb)


@_jit
def ck_unit_x(x, y, fb, st, site):
    return fx_unit_x(x, y, fb)


@_jit
def ck_unit_y(x, y, fb, st, site):
    return fx_unit_y(x, y, fb)


@_jit
def ck_rotate_x(x, y, a, fb, st, site):
    _flag(st, site, _rot_exact(x, y, a, fb, True))
    return fx_rotate_x(x, y, a, fb)


@_jit
def ck_rotate_y(x, y, a, fb, st, site):
    _flag(st, site, _rot_exact(x, y, a, fb, False))
    return fx_rotate_y(x, y, a, fb)
