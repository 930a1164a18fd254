"""The checked fixed point (ck_) of pysim/fxops.py: each fx_ function's
result, plus a record in the status array `st` of the first exact
intermediate outside 32 bits (and how many). fxops serves these as its own
(`fxops.ck_add`, namespace("checked"), ST_COUNT ...); its SOURCE_HASH covers
this file. Kept apart only for length: fxops' rules hold here."""
from __future__ import annotations

import numpy as np

from pysim.fxops import *  # noqa: F401,F403  (the fx_ functions each ck_ returns the value of)
from pysim.fxops import _U0, _U1, _jit, _tdiv  # noqa: F401
from pysim.jit_call import call

# ---------------------------------------------------------------------------
# checked fixed point (ck_): fx_ + a record of results outside 32 bits
# ---------------------------------------------------------------------------

# Each ck_ is a call, not inlined as the fx_ are: a checked kernel inlining them all took numba
# six times as long to compile (lab_tft_food: 32 s against 5 s), and only --check-overflow runs pay
# for the calls. The ck_ themselves are compiled once per machine (numba's cache, cache=True).
_jit_call = call  # one compiled copy per argument kinds, not per call site's constant

ST_COUNT, ST_SITE, ST_VALUE, ST_KIND = 0, 1, 2, 3
OVERFLOW, SHIFT = 1, 2
STATUS_SIZE = 8


def new_status() -> np.ndarray:
    """A fresh status array for the ck_ functions (no finding; st[4:] are the caller's)."""
    st = np.zeros(STATUS_SIZE, dtype=np.int64)
    st[ST_SITE] = -1
    return st


def status_finding(st) -> tuple[int, int, str] | None:
    """The first finding of `st` as (site, exact value, 'overflow' | 'shift'), or None."""
    if st[ST_COUNT] == 0:
        return None
    return int(st[ST_SITE]), int(st[ST_VALUE]), "overflow" if st[ST_KIND] == OVERFLOW else "shift"


@call
def _record(st, site, value, kind):
    # the rare path: a call, not inlined (keeps checked code small to compile)
    if st[ST_COUNT] == 0:
        st[ST_SITE] = site
        st[ST_VALUE] = value
        st[ST_KIND] = kind
    st[ST_COUNT] += 1


@_jit
def _ck(wide, st, site):
    """wide, wrapped to 32 bits; recorded if it was outside them."""
    if wide < INT32_MIN or wide > INT32_MAX:
        _record(st, site, wide, OVERFLOW)
    return fx_wrap32(wide)


@_jit
def _bad_shift(s, width, st, site):
    """True (and recorded) if s is not a valid count for width bits."""
    if s < 0 or s >= width:
        _record(st, site, s, SHIFT)
        return True
    return False


@_jit_call
def ck_wrap32(v, st, site):
    return _ck(v, st, site)


@_jit_call
def ck_from_int(i, fb, st, site):
    return _ck(fx_wrap32(i) << fb, st, site)


@_jit_call
def ck_to_int(a, fb, st, site):
    return fx_to_int(a, fb)


@_jit_call
def ck_add(a, b, st, site):
    return _ck(a + b, st, site)


@_jit_call
def ck_sub(a, b, st, site):
    return _ck(a - b, st, site)


@_jit_call
def ck_neg(a, st, site):
    return _ck(-a, st, site)


@_jit_call
def ck_abs(a, st, site):
    return _ck(-a if a < 0 else a, st, site)


@_jit_call
def ck_outside_box(d, box, st, site):
    return fx_outside_box(d, box)  # nothing to overflow


@_jit_call
def ck_asr64(v, s, st, site):
    if _bad_shift(s, 64, st, site):
        return v - v  # 0 (of v's type): the shift itself would be undefined
    return fx_asr64(v, s)


@_jit_call
def ck_asr(a, s, st, site):
    if _bad_shift(s, 32, st, site):
        return a - a
    return fx_asr(a, s)


@_jit_call
def ck_shl(a, s, st, site):
    if _bad_shift(s, 32, st, site):
        return a - a
    return _ck(a << s, st, site)


@_jit_call
def ck_mul(a, b, fb, st, site):
    return _ck((a * b) >> fb, st, site)


@_jit_call
def ck_imul(n, a, st, site):
    return _ck(n * a, st, site)


@_jit_call
def ck_div(a, b, fb, st, site):
    if b == 0:
        return 0
    return _ck(_tdiv(a << fb, b), st, site)


@_jit_call
def ck_idiv(a, n, st, site):
    if n == 0:
        return 0
    return _ck(_tdiv(a, n), st, site)


@_jit_call
def ck_sqrt(a, fb, st, site):
    return fx_sqrt(a, fb)


@_jit_call
def ck_d2(dx, dy, st, site):
    return fx_d2(dx, dy)


@_jit_call
def ck_sq64(r, st, site):
    return fx_sq64(r)


@_jit_call
def ck_hypot(x, y, st, site):
    r = fx_isqrt64(fx_d2(x, y))
    if r > np.uint64(INT32_MAX):
        _record(st, site, np.int64(r), OVERFLOW)
    return fx_wrap32(np.int64(r))


@_jit_call
def ck_amb(x, y, alpha, beta, fb, st, site):
    ax = ck_abs(x, st, site)
    ay = ck_abs(y, st, site)
    hi = ax if ax > ay else ay
    lo = ay if ax > ay else ax
    return ck_add(ck_mul(alpha, hi, fb, st, site), ck_mul(beta, lo, fb, st, site), st, site)


@_jit_call
def ck_mag(x, y, use_amb, alpha, beta, fb, st, site):
    if use_amb:
        return ck_amb(x, y, alpha, beta, fb, st, site)
    return ck_hypot(x, y, st, site)


@_jit_call
def ck_acc_add(acc, v, st, site):
    return acc + v


@_jit_call
def ck_acc_sub(acc, v, st, site):
    return acc - v


@_jit_call
def ck_acc_mean(total, n, st, site):
    if n == 0:
        return 0
    return _ck(_tdiv(total, n), st, site)


@_jit_call
def ck_acc_mean_about(total, n, base, st, site):
    if n == 0:
        return 0
    return _ck(_tdiv(total + n * base, n), st, site)


@_jit_call
def ck_acc_fx(total, st, site):
    return _ck(total, st, site)


@_jit_call
def ck_sign(a, st, site):
    return fx_sign(a)


@_jit_call
def ck_min(a, b, st, site):
    return fx_min(a, b)


@_jit_call
def ck_max(a, b, st, site):
    return fx_max(a, b)


@_jit_call
def ck_clamp(v, lo, hi, st, site):
    return fx_clamp(v, lo, hi)
