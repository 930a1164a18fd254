"""The compiled arithmetic of the simulator: firmware_runtime/core/fixed.h as numba
functions, for generated code written as scalar loops (per boid, per
neighbour), the same shape as the C.

Three namespaces with the same names and the same signatures, so one emitted
rule body serves all three by its prefix alone:

  fx_NAME   fixed point, bit for bit fixed.h's function of the same name
  fl_NAME   float64, the ideal the fixed point approximates (as
            pysim/arith.py's FloatArith computes it today)
  ck_NAME   fx_NAME plus an overflow check: the same result, and a finding
            recorded in a status array when the exact result leaves 32 bits
            (`sim --check-overflow`); signature fx_NAME's + (st, site)

NAMES lists the shared vocabulary; `namespace("fixed" | "float" | "checked")`
maps each name to its function. tests/test_fxops.py holds every fx_ and ck_
function against fixed.h compiled by gcc (both of its spellings, both Q
formats) and every fl_ function against FloatArith.

Carrier. A fixed-point value is an int64 holding a signed 32-bit value:
numba promotes int32 arithmetic to int64 anyway, and an int64 holds every
exact intermediate (a sum of two int32 is < 2^32, a product < 2^62, a
dividend a << F < 2^61), so each operation computes exactly and wraps ONCE
at the end with `fx_wrap32` (keep the low 32 bits, sign-extend), as fixed.h
does in uint32/int64. Inputs must be in the int32 range (every fx_ result
is): numba emits `nsw` (no signed wrap) on int64 + and *, so an int64
intermediate that overflowed would be undefined behaviour; in range, none
can. 64-bit quantities: squared distances `fx_d2` / `fx_sq64` are uint64
(x^2 + y^2 reaches 2^63 at x = y = INT32_MIN; compare them only with each
other), neighbour sums `fx_acc_*` are int64.

Q format. Operations that depend on it take `fb` (FX_FRAC_BITS, 1..30) as
their last argument instead of one copy of the module per format: one
definition per operation (what is tested is what runs, in both formats), and
generated code passes a module-level constant (`FRAC_BITS`), which numba
freezes at compile time, so after inlining the shift is a constant, as in C.
The float namespace takes the same `fb` and ignores it.

Rounding, as fixed.h defines it:
  add sub neg abs imul shl from_int   wrap modulo 2^32 (abs(INT32_MIN) is
                                      INT32_MIN, as fx_abs in C)
  mul                 64-bit product, arithmetic shift right by fb (floor)
  div                 (a << fb) / b truncated toward zero; b == 0 gives 0
  idiv, acc_mean      a / n truncated toward zero; n == 0 gives 0
  acc_mean_about      (a + n * base) / n truncated toward zero; n == 0 gives 0
  sqrt                floor(sqrt(a << fb)), exact; a <= 0 gives 0
  hypot               floor(sqrt(x^2 + y^2)) from the exact uint64 sum, wrapped
  amb                 fx_add(fx_mul(alpha, max), fx_mul(beta, min)) of |x|, |y|
  asr, asr64, to_int  arithmetic shift right (floor)
numba's `//` and `%` floor and C's truncate: division goes through `_tdiv`
only. Shift counts must be constants in 0..31 (asr64: 0..63): a count at or
beyond the width is undefined in C and in LLVM, so the generator refuses
other counts (ck_ shifts also record them, kind SHIFT).

Operations fixed.h does not have yet (for the C emitter, their C spelling,
which tests/test_fxops.py compiles and compares):
  fx_to_int(a)        a / FX_ONE (C division: truncation toward zero)
  fx_asr(a, s)        (fx)fx_asr64(a, s)
  fx_shl(a, s)        fx_from_u32((uint32_t)a << s)
  fx_imul(n, a)       fx_from_u32((uint32_t)n * (uint32_t)a)   int times fixed
  fx_sign(a)          (a > 0) - (a < 0)                        -1, 0 or 1 (an int)
  fx_min / fx_max     a < b ? a : b / a > b ? a : b
  fx_clamp(v, lo, hi) v < lo ? lo : (v > hi ? hi : v)          as codegen/lang/ops.py defines it
  fx_acc_add/_sub     acc + (fx_acc)v / acc - (fx_acc)v        exact, 64-bit
  fx_mag(x, y, use_amb, alpha, beta)  use_amb ? fx_amb(...) : fx_hypot(x, y)

Checked variant. numba cannot raise a rich exception cheaply, and an
exception would also lose the frame and the boid. So ck_NAME returns exactly
fx_NAME's (wrapped) result and, when the exact result is outside the int32
range, records a finding in `st`, an int64 array from `new_status()`:
  st[ST_COUNT]  findings so far          st[ST_SITE]  the first one's site id
  st[ST_VALUE]  its exact 64-bit value   st[ST_KIND]  OVERFLOW or SHIFT
  st[4:]        free for the caller (e.g. frame and boid index)
`site` is an integer the generator gives each call (its table maps it to the
expression and its spec file:line:col). The run goes on with the wrapped
values, so a checked run is bit for bit the unchecked one; the generated
loop (or the engine after each frame) tests st[ST_COUNT] and raises the
Python exception with the site's text (`status_finding`). Each check is a
compare and a rarely taken branch to an out-of-line call. ST_COUNT counts
every exact intermediate the C would wrap (ck_amb checks its two |x|, two
products and the sum, each of which fx_amb wraps). A shift count outside
0..width-1 is recorded as kind SHIFT with the count as value, and the ck_
shift returns 0 instead of shifting. Names that cannot leave 32 bits (sqrt,
asr, to_int, d2, sq64, acc_add, acc_sub, sign, min, max, clamp) take
(st, site) as well, so the emitter appends them everywhere.

Functions are `@njit(cache=True, inline="always")`: numba inlines each into
the generated loop before type inference, so the small ones cost nothing and
constant `fb`/shift counts fold. LLVM would inline them anyway (the run
time is the same), but compiling them as separate functions first costs a
little more: bench/fxops_bench.py's toy frame took 2.4 s of CPU to compile
this way against 2.6 to 2.9 s with plain @njit (numba 0.68, two runs each).
numba's cache does not see
changes in a module a cached function calls (numba issues #1833, #9483):
generated code should carry SOURCE_HASH (this file's hash) so that a changed
fxops.py changes the generated file and invalidates its cache.

Every function also runs as plain Python (NUMBA_DISABLE_JIT=1) with the
same results (tests check it).
"""
from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
from numba import njit

from pysim.jit_call import call

# this file and the parts it serves as its own (below): the float and checked
# arithmetics, and the magnitude compares
_PARTS = ("fxops_float", "fxops_checked", "fx_mag", "fx_draws", "fx_angles", "angle_tables", "jit_call", "fx_grid")
SOURCE_HASH = hashlib.sha256(Path(__file__).read_bytes() + b"".join(
    (Path(__file__).parent / f"{p}.py").read_bytes() for p in _PARTS)).hexdigest()[:16]

INT32_MIN = -(1 << 31)
INT32_MAX = (1 << 31) - 1

_jit = njit(cache=True, inline="always")
_jit_noinline = call  # loops: fx_isqrt64 (LLVM still may inline); typed by kind (pysim/jit_call.py)

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U2 = np.uint64(2)

# ---------------------------------------------------------------------------
# fixed point (fx_): fixed.h
# ---------------------------------------------------------------------------


@_jit
def fx_wrap32(v):
    """The low 32 bits of v as a signed value (fixed.h: fx_wrap64, fx_from_u32)."""
    return ((v & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000


fx_wrap64 = fx_wrap32
fx_from_u32 = fx_wrap32


@_jit
def _tdiv(a, b):
    """a / b truncated toward zero, as C's `/` on int64 (b != 0)."""
    q = a // b
    if a % b != 0 and (a < 0) != (b < 0):
        q += 1
    return q


@_jit
def fx_from_int(i, fb):
    # C: fx_from_u32((uint32_t)i << FX_FRAC_BITS); (uint32_t)i is the low 32 bits
    return fx_wrap32((i & 0xFFFFFFFF) << fb)


@_jit
def fx_to_int(a, fb):
    return _tdiv(a, np.int64(1) << fb)  # the language's int(f): truncation toward zero (codegen/lang/ops.py)


@_jit
def fx_add(a, b):
    return fx_wrap32(a + b)


@_jit
def fx_sub(a, b):
    return fx_wrap32(a - b)


@_jit
def fx_neg(a):
    return fx_wrap32(-a)


@_jit
def fx_abs(a):
    # fx_abs(INT32_MIN) == INT32_MIN, as C's fx_neg wraps it
    return fx_wrap32(-a) if a < 0 else a


@_jit
def fx_outside_box(d, box):
    # the pair loop's box test, |d| >= box in integers (fixed.h's one add and
    # unsigned compare): no wrap at INT32_MIN, every d outside when box <= 0
    return box <= 0 or d <= -box or d >= box


@_jit
def fx_asr64(v, s):
    """floor(v / 2^s) of an int64, 0 <= s <= 63 (numba's >> is arithmetic)."""
    return v >> s


@_jit
def fx_asr(a, s):
    return a >> s


@_jit
def fx_shl(a, s):
    return fx_wrap32(a << s)  # |a| <= 2^31, s <= 31: exact in int64, then wrapped


@_jit
def fx_mul(a, b, fb):
    return fx_wrap32((a * b) >> fb)


@_jit
def fx_imul(n, a):
    return fx_wrap32(n * a)  # exact in int64 for int32 n and a, then wrapped


@_jit
def fx_div(a, b, fb):
    if b == 0:
        return 0
    return fx_wrap32(_tdiv(a << fb, b))


@_jit
def fx_idiv(a, n):
    if n == 0:
        return 0
    return fx_wrap32(_tdiv(a, n))


@_jit_noinline
def fx_isqrt64(v):
    """Largest r with r*r <= v, for a uint64 v: fixed.h's fx_isqrt64, step for step."""
    v = np.uint64(v)
    r = _U0
    bit = _U1 << np.uint64(62)
    while bit > v:
        bit >>= _U2
    while bit != _U0:
        if v >= r + bit:
            v -= r + bit
            r = (r >> _U1) + bit
        else:
            r >>= _U1
        bit >>= _U2
    return r


@_jit
def fx_sqrt(a, fb):
    if a <= 0:
        return 0
    return np.int64(fx_isqrt64(np.uint64(a) << np.uint64(fb)))


@_jit
def fx_d2(dx, dy):
    """dx^2 + dy^2 exactly, uint64 (2F fraction bits)."""
    return np.uint64(dx * dx) + np.uint64(dy * dy)


@_jit
def fx_sq64(r):
    return np.uint64(r * r)


@_jit
def fx_hypot(x, y):
    return fx_wrap32(np.int64(fx_isqrt64(fx_d2(x, y))))


@_jit
def fx_amb(x, y, alpha, beta, fb):
    ax = fx_abs(x)
    ay = fx_abs(y)
    hi = ax if ax > ay else ay
    lo = ay if ax > ay else ax
    return fx_add(fx_mul(alpha, hi, fb), fx_mul(beta, lo, fb))


@_jit
def fx_mag(x, y, use_amb, alpha, beta, fb):
    """The spec's magnitude: alpha-max-plus-beta-min or exact (use_amb is a
    generated constant, so the branch folds)."""
    if use_amb:
        return fx_amb(x, y, alpha, beta, fb)
    return fx_hypot(x, y)


@_jit
def fx_acc_add(acc, v):
    return acc + v


@_jit
def fx_acc_sub(acc, v):
    return acc - v


@_jit
def fx_acc_mean(total, n):
    if n == 0:
        return 0
    return fx_wrap32(_tdiv(total, n))


@_jit
def fx_acc_mean_about(total, n, base):
    """trunc((total + n * base) / n), wrapped; n == 0 gives 0 (fixed.h's
    fx_acc_mean_about / fx_acc32_mean_about: codegen/passes/offsets.py)."""
    if n == 0:
        return 0
    return fx_wrap32(_tdiv(total + n * base, n))


@_jit
def fx_acc_fx(total):
    return fx_wrap32(total)


@_jit
def fx_sign(a):
    return (a > 0) - (a < 0)


@_jit
def fx_min(a, b):
    return a if a < b else b


@_jit
def fx_max(a, b):
    return a if a > b else b


@_jit
def fx_clamp(v, lo, hi):
    return lo if v < lo else (hi if v > hi else v)  # codegen/lang/ops.py's clamp: lo first


# ---------------------------------------------------------------------------

NAMES = ("wrap32", "from_int", "to_int", "add", "sub", "neg", "abs", "outside_box", "asr64", "asr", "shl", "mul", "imul",
         "div", "idiv", "sqrt", "d2", "sq64", "hypot", "amb", "mag", "acc_add", "acc_sub", "acc_mean", "acc_mean_about",
         "acc_fx", "sign", "min", "max", "clamp",
         # a magnitude compared without its root (codegen/passes/roots.py): pysim/fx_mag.py
         "mag2", "mag_root", "mag_lt", "mag_le", "mag_gt", "mag_ge", "mag_eq", "mag_ne")
_PREFIX = {"fixed": "fx_", "float": "fl_", "checked": "ck_"}
# the PRNG draws (pysim/fx_draws.py: random(), random_int(a, b) of the rules)
_DRAW_NAMES = tuple(p + n for p in ("fx_", "fl_", "ck_") for n in ("rng_next", "random", "random_int"))
# angles (turns) and vectors (pysim/fx_angles.py over pysim/angle_tables.py)
_ANGLE_NAMES = tuple(p + n for p in ("fx_", "fl_", "ck_") for n in ("sin", "cos", "atan2", "unit_x", "unit_y",
                                                                    "rotate_x", "rotate_y"))


def __getattr__(name: str):
    """The parts' functions and constants as this module's (each imported on
    first use: they import this module). fx_mag.py first: it names its own
    fx_mag* functions, which the others do not define."""
    import importlib

    if name.startswith("__"):  # `from pysim.fxops import *` asks for __all__: no part has to load for it
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    own = {"fx_mag": ("fx_mag", "fl_mag", "ck_mag"), "fx_draws": _DRAW_NAMES, "fx_angles": _ANGLE_NAMES}
    for part in ("fx_mag", "fx_draws", "fx_angles", "fxops_float", "fxops_checked"):
        mod = importlib.import_module(f"{__package__}.{part}")
        if name in vars(mod) and (part not in own or name.startswith(own[part])):
            return vars(mod)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def namespace(kind: str) -> dict:
    """{name: function} of one arithmetic: 'fixed', 'float' or 'checked'."""
    import sys

    mod = sys.modules[__name__]
    return {n: getattr(mod, _PREFIX[kind] + n) for n in NAMES}
