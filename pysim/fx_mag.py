"""A magnitude compared without its root (codegen/passes/roots.py, issue 16):
the twins of fixed.h's fx_mag2, fx_mag_root and fx_mag_lt ... fx_mag_ne, in
the three namespaces of pysim/fxops.py (fx_, fl_, ck_), which serves them as
its own (`fxops.fx_mag2`, NAMES, namespace(); its SOURCE_HASH covers this
file too). Kept apart only for length; fxops' rules hold here (carriers,
@njit inline, plain Python under NUMBA_DISABLE_JIT).

  mag2(x, y)      x^2 + y^2, exact, uint64 (fx_d2)
  mag_root(s)     floor(sqrt(s)), saturated at INT32_MAX (fx_hypot's value
                  wherever fx_hypot does not wrap: s < 2^62)
  mag_OP(s, m)    floor(sqrt(s)) OP m, exactly, for every uint64 s and
                  int32 m, without the root:
                    r <  m  <=>  m > 0 and s < m^2
                    r >  m  <=>  m < 0 or s >= (m + 1)^2
                    r == m  <=>  m >= 0 and m^2 <= s < (m + 1)^2
                  ((m + 1)^2 as fixed.h spells it: fx_sq64 of (m + 1)
                  wrapped to 32 bits, which for m = INT32_MAX is INT32_MIN,
                  whose square is the same 2^62)

Every compare is done in uint64 on both sides (numba compares a uint64 with
an int64 as float64, which would round). tests/test_roots.py holds each
against fixed.h, natively and on the M4K under qemu-mipsel.

The float model has no rounding to avoid: its "squared magnitude" carrier
holds the magnitude itself (np.hypot, as fl_mag), so a rewritten rule
computes in float exactly what the rule as written did. The checked ones
record nothing: mag2 is exact in uint64, mag_root saturates (defined, as
clamp), the compares are booleans.
"""
from __future__ import annotations

import numpy as np

from pysim.fxops import INT32_MAX, _jit, fx_d2, fx_isqrt64, fx_sq64, fx_wrap32

MAG_NAMES = ("mag2", "mag_root", "mag_lt", "mag_le", "mag_gt", "mag_ge", "mag_eq", "mag_ne")


# --------------------------------------------------------------- fixed point

@_jit
def fx_mag2(x, y):
    return fx_d2(x, y)


@_jit
def fx_mag_root(s):
    r = fx_isqrt64(s)
    if r > np.uint64(INT32_MAX):
        return np.int64(INT32_MAX)
    return np.int64(r)


@_jit
def fx_mag_next2(m):
    """(m + 1)^2 for m >= 0, as fixed.h: the square of m + 1 wrapped to 32 bits."""
    return fx_sq64(fx_wrap32(m + 1))


@_jit
def fx_mag_lt(s, m):
    return m > 0 and np.uint64(s) < fx_sq64(m)


@_jit
def fx_mag_gt(s, m):
    return m < 0 or np.uint64(s) >= fx_mag_next2(m)


@_jit
def fx_mag_le(s, m):
    return not fx_mag_gt(s, m)


@_jit
def fx_mag_ge(s, m):
    return not fx_mag_lt(s, m)


@_jit
def fx_mag_eq(s, m):
    return m >= 0 and np.uint64(s) >= fx_sq64(m) and np.uint64(s) < fx_mag_next2(m)


@_jit
def fx_mag_ne(s, m):
    return not fx_mag_eq(s, m)


# --------------------------------------------------------------- float

@_jit
def fl_mag2(x, y):
    return np.hypot(x, y)


@_jit
def fl_mag_root(s):
    return s


@_jit
def fl_mag_lt(s, m):
    return s < m


@_jit
def fl_mag_gt(s, m):
    return s > m


@_jit
def fl_mag_le(s, m):
    return s <= m


@_jit
def fl_mag_ge(s, m):
    return s >= m


@_jit
def fl_mag_eq(s, m):
    return s == m


@_jit
def fl_mag_ne(s, m):
    return s != m


# --------------------------------------------------------------- checked

@_jit
def ck_mag2(x, y, st, site):
    return fx_mag2(x, y)


@_jit
def ck_mag_root(s, st, site):
    return fx_mag_root(s)


@_jit
def ck_mag_lt(s, m, st, site):
    return fx_mag_lt(s, m)


@_jit
def ck_mag_gt(s, m, st, site):
    return fx_mag_gt(s, m)


@_jit
def ck_mag_le(s, m, st, site):
    return fx_mag_le(s, m)


@_jit
def ck_mag_ge(s, m, st, site):
    return fx_mag_ge(s, m)


@_jit
def ck_mag_eq(s, m, st, site):
    return fx_mag_eq(s, m)


@_jit
def ck_mag_ne(s, m, st, site):
    return fx_mag_ne(s, m)
