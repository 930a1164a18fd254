"""A PRNG draw as the rules' random() and random_int(a, b), in the three
arithmetics (pysim/fxops.py's namespaces). Twin of
firmware_runtime/core/fixed_draws.h, and of rng.h's rng_next for the
kernel's stream.

  fx_rng_next(rs)          xorshift32 (13, 17, 5) on rs[0] (int64 array of one
                           element holding the uint32 state): the next draw
  fx_random(d, fb)         d >> (32 - fb): the draw's top fb bits, [0, 1)
  fx_random_int(d, a, b)   a + d % (b - a + 1); a when b <= a: [a, b]

fl_: the same draws (the stream is one); fl_random is d / 2^32, the ideal.
ck_: fx_ plus (st, site); none can leave 32 bits. Draws are non-negative
int64 below 2^32, so `%` here is C's.
"""
from __future__ import annotations

from pysim.fxops import _jit

_M32 = 0xFFFFFFFF


@_jit
def fx_rng_next(rs):
    x = rs[0]
    x ^= (x << 13) & _M32
    x ^= x >> 17
    x ^= (x << 5) & _M32
    rs[0] = x
    return x


@_jit
def fx_random(d, fb):
    return d >> (32 - fb)


@_jit
def fx_random_int(d, a, b):
    if b <= a:
        return a
    return a + d % (b - a + 1)


@_jit
def fl_rng_next(rs):
    return fx_rng_next(rs)


@_jit
def fl_random(d, fb):
    return d * (1.0 / 4294967296.0)


@_jit
def fl_random_int(d, a, b):
    return fx_random_int(d, a, b)


@_jit
def ck_rng_next(rs, st, site):
    return fx_rng_next(rs)


@_jit
def ck_random(d, fb, st, site):
    return fx_random(d, fb)


@_jit
def ck_random_int(d, a, b, st, site):
    return fx_random_int(d, a, b)
