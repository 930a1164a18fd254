"""pysim/fxops.py (the compiled arithmetic) against firmware_runtime/core/fixed.h,
bit for bit: every operation on edge values and seeded random values, in
both Q formats and both of fixed.h's spellings (GCC's and -DFX_PORTABLE),
through the numba functions called directly, inlined into a compiled loop
with a constant Q format (the generated code's shape), and as plain Python
(NUMBA_DISABLE_JIT=1). The checked variant returns the same values and
flags exactly the results outside 32 bits; the float variant agrees with
pysim/arith.py's FloatArith and approximates the fixed point."""
from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from pysim import fxops as F
from pysim.arith import FloatArith, FixedArith

from .conftest import ROOT, RUNTIME_INCLUDES, compile_c

TIMEOUT = 120
I32_MIN, I32_MAX = -(2**31), 2**31 - 1
M64 = (1 << 64) - 1

# The C side: fixed.h's functions, and for operations fixed.h does not have
# yet the C spelling documented in pysim/fxops.py, written over fixed.h.
DRIVER_C = r"""
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fixed.h"

int main(void)
{
    char op[32];
    long long a, b, c, d, e;
    while (scanf("%31s %lld %lld %lld %lld %lld", op, &a, &b, &c, &d, &e) == 6) {
        fx x = (fx)a, y = (fx)b, z = (fx)c;
        int64_t r = 0;
        uint64_t u = 0;
        int uns = 0;
        (void)d; (void)e;
        if (!strcmp(op, "wrap32")) r = fx_wrap64((int64_t)a);
        else if (!strcmp(op, "from_u32")) r = fx_from_u32((uint32_t)a);
        else if (!strcmp(op, "from_int")) r = fx_from_int((int32_t)a);
        else if (!strcmp(op, "to_int")) r = x / ((fx)1 << FX_FRAC_BITS);
        else if (!strcmp(op, "add")) r = fx_add(x, y);
        else if (!strcmp(op, "sub")) r = fx_sub(x, y);
        else if (!strcmp(op, "neg")) r = fx_neg(x);
        else if (!strcmp(op, "abs")) r = fx_abs(x);
        else if (!strcmp(op, "outside_box")) r = fx_outside_box(x, fx_box_bias(y), fx_box_lim(y));
        else if (!strcmp(op, "asr64")) r = fx_asr64((int64_t)a, (int)b);
        else if (!strcmp(op, "asr")) r = (fx)fx_asr64(x, (int)b);
        else if (!strcmp(op, "shl")) r = fx_from_u32((uint32_t)x << (int)b);
        else if (!strcmp(op, "mul")) r = fx_mul(x, y);
        else if (!strcmp(op, "imul")) r = fx_from_u32((uint32_t)x * (uint32_t)y);
        else if (!strcmp(op, "div")) r = fx_div(x, y);
        else if (!strcmp(op, "idiv")) r = fx_idiv(x, (int32_t)b);
        else if (!strcmp(op, "isqrt64")) { u = fx_isqrt64((uint64_t)a); uns = 1; }
        else if (!strcmp(op, "sqrt")) r = fx_sqrt(x);
        else if (!strcmp(op, "d2")) { u = fx_d2(x, y); uns = 1; }
        else if (!strcmp(op, "sq64")) { u = fx_sq64(x); uns = 1; }
        else if (!strcmp(op, "hypot")) r = fx_hypot(x, y);
        else if (!strcmp(op, "amb")) r = fx_amb(x, y, z, (fx)d);
        else if (!strcmp(op, "mag")) r = e ? fx_amb(x, y, z, (fx)d) : fx_hypot(x, y);
        else if (!strcmp(op, "acc_add")) { fx_acc s = (fx_acc)a; s += y; r = s; }
        else if (!strcmp(op, "acc_sub")) { fx_acc s = (fx_acc)a; s -= y; r = s; }
        else if (!strcmp(op, "acc_mean")) r = fx_acc_mean((fx_acc)a, (int32_t)b);
        else if (!strcmp(op, "acc_fx")) r = fx_acc_fx((fx_acc)a);
        else if (!strcmp(op, "sign")) r = ((int64_t)a > 0) - ((int64_t)a < 0);
        else if (!strcmp(op, "min")) r = x < y ? x : y;
        else if (!strcmp(op, "max")) r = x > y ? x : y;
        else if (!strcmp(op, "clamp")) r = x < y ? y : (x > z ? z : x);
        else return 2;
        if (uns) printf("%" PRIu64 "\n", u);
        else printf("%" PRId64 "\n", r);
    }
    return 0;
}
"""

# op -> number of arguments the numba functions take (before fb), and
# whether the result is a uint64
OPS = {
    "wrap32": 1, "from_u32": 1, "from_int": 1, "to_int": 1, "add": 2, "sub": 2, "neg": 1, "abs": 1,
    "asr64": 2, "asr": 2, "shl": 2, "mul": 2, "imul": 2, "div": 2, "idiv": 2, "isqrt64": 1, "sqrt": 1,
    "d2": 2, "sq64": 1, "hypot": 2, "amb": 4, "mag": 5, "acc_add": 2, "acc_sub": 2, "acc_mean": 2,
    "acc_fx": 1, "sign": 1, "min": 2, "max": 2, "clamp": 3, "outside_box": 2,
}
UNSIGNED = {"isqrt64", "d2", "sq64"}
TAKES_FB = {"from_int", "to_int", "mul", "div", "sqrt", "amb", "mag"}
CODE = {op: i for i, op in enumerate(OPS)}
# ops of the shared vocabulary (F.NAMES) whose checked twin is tested too
CHECKED = [op for op in OPS if op in F.NAMES]

FORMATS = [(15, False), (16, False), (15, True), (16, True)]
FORMAT_IDS = ["s16.15", "s15.16", "s16.15-portable", "s15.16-portable"]


# --------------------------------------------------------------------------- cases

def _edges(fb: int) -> list[int]:
    one = 1 << fb
    e = {0, 1, -1, 2, -2, 3, -3, 7, -7, 12345, -12345, one, -one, one - 1, one + 1, 3 * one, -3 * one,
         one >> 1, -(one >> 1), 2**15, -(2**15), 2**16, -(2**16), 2**30, -(2**30), 2**30 - 1,
         I32_MAX, I32_MIN, I32_MIN + 1, I32_MAX - 1, 46340, 46341, -46341, 46340 << 15, 46341 << 15,
         181 << 16, 182 << 16, -(182 << 16)}
    # products near 2^31 after the shift: a * b >> fb ~ 2^31 when a ~ b ~ 2^((31 + fb) / 2)
    m = math.isqrt(1 << (31 + fb))
    e |= {m - 1, m, m + 1, -m, -m - 1}
    # dividends near overflow: (a << fb) / b ~ 2^31 when a ~ 2^(31 - fb) * b
    e |= {1 << (31 - fb), (1 << (31 - fb)) - 1, -(1 << (31 - fb))}
    return sorted(e)


def _rand32(rnd: random.Random) -> int:
    s = rnd.choice([4, 8, 12, 16, 20, 24, 28, 31, 31])
    return rnd.randint(-(2**s), 2**s - 1)


def _rand64(rnd: random.Random) -> int:
    s = rnd.choice([8, 20, 31, 33, 40, 50, 62, 63])
    return rnd.randint(-(2**s), 2**s - 1)


def make_cases(fb: int, n_random: int = 1500) -> list[tuple]:
    """(op, a, b, c, d, e) cases: every op on the edges (all pairs for binary
    ops) and on n_random seeded random argument lists."""
    rnd = random.Random(1000 + fb)
    E = _edges(fb)
    cases = []
    u64_edges = [0, 1, 2, 3, 4, 8, 9, 15, 16, 17, 2**32 - 1, 2**32, (2**32 - 1) ** 2, (2**31) ** 2,
                 2**62 - 1, 2**62, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1, 3037000499**2, 3037000500**2 - 1]
    wide_edges = [0, 1, -1, 2**31, -(2**31) - 1, 2**32, 2**32 + 5, -(2**32), 2**62, -(2**62), 2**63 - 1, -(2**63),
                  12345678901, -12345678901] + E

    def add(op, *args):
        cases.append((op, *args, *([0] * (5 - len(args)))))

    for op, n in OPS.items():
        if op == "isqrt64":
            for v in u64_edges:
                add(op, v)
            for _ in range(n_random):
                add(op, rnd.randint(0, 2 ** rnd.choice([10, 30, 50, 62, 63, 64]) - 1))
        elif op in ("wrap32", "acc_fx", "sign"):
            for v in wide_edges:
                add(op, v)
            for _ in range(n_random):
                add(op, _rand64(rnd))
        elif op == "from_u32":
            for v in [0, 1, 2**31 - 1, 2**31, 2**32 - 1, 12345]:
                add(op, v)
            for _ in range(n_random):
                add(op, rnd.randint(0, 2**32 - 1))
        elif op in ("asr64", "asr", "shl"):
            width = 64 if op == "asr64" else 32
            vals = wide_edges if op == "asr64" else E
            for v in vals:
                for s in range(width):
                    add(op, v, s)
            for _ in range(n_random):
                add(op, _rand64(rnd) if op == "asr64" else _rand32(rnd), rnd.randrange(width))
        elif op in ("acc_add", "acc_sub", "acc_mean"):
            for v in wide_edges:
                if abs(v) < 2**62:
                    for w in E:
                        add(op, v, w)
            for _ in range(n_random):
                add(op, rnd.randint(-(2**45), 2**45), _rand32(rnd) if op != "acc_mean" else rnd.randint(-300, 300))
        elif n == 1:
            for v in E:
                add(op, v)
            for _ in range(n_random):
                add(op, _rand32(rnd))
        elif n == 2:
            for v in E:
                for w in E:
                    add(op, v, w)
            for _ in range(n_random):
                add(op, _rand32(rnd), _rand32(rnd))
        else:  # clamp, amb, mag: edges and random values mixed
            alphas = [0, 1, (1 << fb) - 1, 1 << fb, int(0.96 * (1 << fb)), int(0.398 * (1 << fb)), I32_MAX, I32_MIN]
            for _ in range(n_random * 2):
                pick = lambda: rnd.choice(E) if rnd.random() < 0.5 else _rand32(rnd)  # noqa: E731
                if op == "clamp":
                    add(op, pick(), pick(), pick())
                else:
                    args = [pick(), pick(), rnd.choice(alphas) if rnd.random() < 0.5 else pick(),
                            rnd.choice(alphas) if rnd.random() < 0.5 else pick()]
                    add(op, *args, *([rnd.randint(0, 1)] if op == "mag" else []))
    return cases


def _s64(v: int) -> int:
    """A value as the int64 the kernel takes (uint64 inputs reinterpreted)."""
    v &= M64
    return v - (1 << 64) if v >= 1 << 63 else v


# --------------------------------------------------------------------------- the C

@pytest.fixture(scope="module")
def drivers(tmp_path_factory):
    d = tmp_path_factory.mktemp("fxops")
    src = d / "fxops_driver.c"
    src.write_text(DRIVER_C)
    exes = {}
    for fb, portable in FORMATS:
        defines = {"FX_FRAC_BITS": fb} | ({"FX_PORTABLE": 1} if portable else {})
        exes[(fb, portable)] = compile_c([src], d / f"fxops{fb}{'p' if portable else ''}", defines=defines,
                                         includes=RUNTIME_INCLUDES)
    return exes


def run_c(exe, cases) -> list[int]:
    text = "".join(f"{op} {_s64(a)} {_s64(b)} {c} {d} {e}\n" for op, a, b, c, d, e in cases)
    res = subprocess.run([str(exe)], input=text, capture_output=True, text=True, timeout=TIMEOUT)
    assert res.returncode == 0, res.stderr
    out = [int(v) for v in res.stdout.split()]
    assert len(out) == len(cases)
    return out


# --------------------------------------------------------------------------- the numba side

def call_direct(ns: str, op: str, args: tuple, fb: int, extra=()):
    """One case through the dispatcher itself (what Python code calls)."""
    name = {"from_u32": "fx_from_u32", "isqrt64": "fx_isqrt64"}.get(op, F._PREFIX[ns] + op)
    f = getattr(F, name)
    n = OPS[op]
    a = list(args[:n])
    if op == "isqrt64":
        a = [np.uint64(a[0])]
    if op == "mag":
        a = [a[0], a[1], bool(a[4]), a[2], a[3]]
    if op in TAKES_FB:
        a.append(fb)
    r = f(*a, *extra)
    return int(r)


@njit(inline="always")
def _apply(code, a, b, c, d, e, fb):
    """fx_ op number `code`, inlined into the caller: int64 out (uint64 results reinterpreted)."""
    if code == 0:
        return F.fx_wrap32(a)
    if code == 1:
        return F.fx_from_u32(a)
    if code == 2:
        return F.fx_from_int(a, fb)
    if code == 3:
        return F.fx_to_int(a, fb)
    if code == 4:
        return F.fx_add(a, b)
    if code == 5:
        return F.fx_sub(a, b)
    if code == 6:
        return F.fx_neg(a)
    if code == 7:
        return F.fx_abs(a)
    if code == 8:
        return F.fx_asr64(a, b)
    if code == 9:
        return F.fx_asr(a, b)
    if code == 10:
        return F.fx_shl(a, b)
    if code == 11:
        return F.fx_mul(a, b, fb)
    if code == 12:
        return F.fx_imul(a, b)
    if code == 13:
        return F.fx_div(a, b, fb)
    if code == 14:
        return F.fx_idiv(a, b)
    if code == 15:
        return np.int64(F.fx_isqrt64(np.uint64(a)))
    if code == 16:
        return F.fx_sqrt(a, fb)
    if code == 17:
        return np.int64(F.fx_d2(a, b))
    if code == 18:
        return np.int64(F.fx_sq64(a))
    if code == 19:
        return F.fx_hypot(a, b)
    if code == 20:
        return F.fx_amb(a, b, c, d, fb)
    if code == 21:
        return F.fx_mag(a, b, e != 0, c, d, fb)
    if code == 22:
        return F.fx_acc_add(a, b)
    if code == 23:
        return F.fx_acc_sub(a, b)
    if code == 24:
        return F.fx_acc_mean(a, b)
    if code == 25:
        return F.fx_acc_fx(a)
    if code == 26:
        return np.int64(F.fx_sign(a))
    if code == 27:
        return F.fx_min(a, b)
    if code == 28:
        return F.fx_max(a, b)
    if code == 29:
        return F.fx_clamp(a, b, c)
    if code == 30:
        return np.int64(F.fx_outside_box(a, b))
    return np.int64(-999)


# One kernel per format, the Q format a constant as in generated code. Each
# returns the fxops.py hash it was compiled against: numba's cache does not
# see a change in pysim/fxops.py, whose functions are inlined here (numba
# issues #1833, #9483), so a kernel cached from another version is
# recompiled (the generated simulator carries the hash in its source instead).
_SRC = int(F.SOURCE_HASH[:15], 16)


@njit(cache=True)
def _kernel15(codes, args, out):
    for i in range(codes.size):
        out[i] = _apply(codes[i], args[i, 0], args[i, 1], args[i, 2], args[i, 3], args[i, 4], 15)
    return _SRC


@njit(cache=True)
def _kernel16(codes, args, out):
    for i in range(codes.size):
        out[i] = _apply(codes[i], args[i, 0], args[i, 1], args[i, 2], args[i, 3], args[i, 4], 16)
    return _SRC


KERNELS = {15: _kernel15, 16: _kernel16}


def run_kernel(fb: int, cases) -> list[int]:
    codes = np.array([CODE[c[0]] for c in cases], dtype=np.int64)
    args = np.array([[_s64(v) for v in c[1:]] for c in cases], dtype=np.int64)
    out = np.zeros(len(cases), dtype=np.int64)
    kernel = KERNELS[fb]
    if kernel(codes[:0], args[:0], out[:0]) != _SRC:  # cached against another fxops.py
        kernel.recompile()
        assert kernel(codes[:0], args[:0], out[:0]) == _SRC
    kernel(codes, args, out)
    return [int(v) & M64 if c[0] in UNSIGNED else int(v) for v, c in zip(out, cases)]


def describe(case, fb, got, want) -> str:
    op, *args = case
    return f"{op}{tuple(args[:OPS[op]])} in Q{fb}: C {want}, fxops {got}"


# --------------------------------------------------------------------------- fixed point against the C

@pytest.fixture(scope="module", params=FORMATS, ids=FORMAT_IDS)
def fmt(request, drivers):
    fb, portable = request.param
    cases = make_cases(fb)
    return fb, cases, run_c(drivers[request.param], cases)


def test_enough_cases():
    for fb in (15, 16):
        cases = make_cases(fb)
        assert len(cases) > 30000
        assert {c[0] for c in cases} == set(OPS)
        assert min(sum(c[0] == op for c in cases) for op in OPS) >= 1500


def test_compiled_loop_equals_c(fmt):
    fb, cases, want = fmt
    got = run_kernel(fb, cases)
    bad = [describe(c, fb, g, w) for c, g, w in zip(cases, got, want) if g != w]
    assert not bad, f"{len(bad)} of {len(cases)} differ, e.g.\n" + "\n".join(bad[:10])


def test_dispatchers_equal_c(fmt):
    fb, cases, want = fmt
    bad = []
    for c, w in zip(cases, want):
        g = call_direct("fixed", c[0], c[1:], fb)
        if g != w:
            bad.append(describe(c, fb, g, w))
    assert not bad, f"{len(bad)} of {len(cases)} differ, e.g.\n" + "\n".join(bad[:10])


def test_both_c_spellings_agree(drivers):
    for fb in (15, 16):
        cases = make_cases(fb, n_random=300)
        assert run_c(drivers[(fb, False)], cases) == run_c(drivers[(fb, True)], cases)


PURE_SCRIPT = r"""
import json, sys
import numpy as np
from pysim import fxops as F
runs = json.load(sys.stdin)
name = {"from_u32": "fx_from_u32", "isqrt64": "fx_isqrt64"}
out = []
for op, a, b, c, d, e, fb in [case + [fb] for cases, fb in runs for case in cases]:
    f = getattr(F, name.get(op, "fx_" + op))
    if op == "isqrt64":
        r = f(np.uint64(a))
    elif op == "mag":
        r = f(a, b, bool(e), c, d, fb)
    else:
        n = {n: k for n, k in json.loads(sys.argv[1]).items()}[op]
        args = [a, b, c, d, e][:n] + ([fb] if op in json.loads(sys.argv[2]) else [])
        r = f(*args)
    out.append(int(r))
print(json.dumps(out))
"""


def test_plain_python_equals_c(drivers):
    """NUMBA_DISABLE_JIT=1: the same functions as plain Python give the same results."""
    runs = [(make_cases(fb, n_random=200), fb) for fb in (15, 16)]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", PURE_SCRIPT, json.dumps(OPS), json.dumps(sorted(TAKES_FB))],
                         input=json.dumps(runs), capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    want = [r for cases, fb in runs for r in run_c(drivers[(fb, False)], cases)]
    labels = [(c, fb) for cases, fb in runs for c in cases]
    bad = [describe(c, fb, g, w) for (c, fb), g, w in zip(labels, got, want) if g != w]
    assert not bad, f"{len(bad)} of {len(labels)} differ, e.g.\n" + "\n".join(bad[:10])


def test_documented_rounding():
    fb = 15
    one = 1 << fb
    assert F.fx_mul(-1, 1, fb) == -1 and F.fx_mul(1, 1, fb) == 0  # floor
    assert F.fx_div(-1, 3 * one, fb) == 0  # truncation toward zero, not floor
    assert F.fx_div(-7 * one, 2 * one, fb) == -(7 * one) // 2  # exact here
    assert F.fx_idiv(-7, 2) == -3 and F.fx_idiv(7, -2) == -3 and F.fx_acc_mean(-7, 2) == -3
    assert F.fx_div(5, 0, fb) == 0 and F.fx_idiv(5, 0) == 0 and F.fx_acc_mean(5, 0) == 0
    assert F.fx_idiv(I32_MIN, -1) == I32_MIN  # 2^31 wraps
    assert F.fx_add(I32_MAX, 1) == I32_MIN and F.fx_sub(I32_MIN, 1) == I32_MAX
    assert F.fx_abs(I32_MIN) == I32_MIN and F.fx_neg(I32_MIN) == I32_MIN  # as C's fx_abs
    assert F.fx_sqrt(4 * one, fb) == 2 * one and F.fx_sqrt(-5, fb) == 0
    assert F.fx_hypot(I32_MIN, I32_MIN) == 3037000499 - 2**32  # floor(2^31 sqrt 2), wrapped
    assert F.fx_d2(I32_MIN, I32_MIN) == 2**63  # uint64: exact
    assert F.fx_asr(-1, 31) == -1 and F.fx_to_int(-1, fb) == 0  # truncation toward zero
    assert F.fx_sign(-(2**40)) == -1 and F.fx_clamp(5, 10, 0) == 10 and F.fx_clamp(20, 10, 0) == 0  # lo first


def test_agrees_with_numpy_twin():
    """pysim/fixed.py (today's simulator) and fxops compute the same numbers."""
    rnd = random.Random(5)
    for fb in (15, 16):
        A = FixedArith(fb)
        for _ in range(2000):
            a, b = _rand32(rnd), _rand32(rnd)
            assert F.fx_mul(a, b, fb) == int(A.mul(a, b))
            assert F.fx_div(a, b, fb) == int(A.div(a, b))
            assert F.fx_sqrt(a, fb) == int(A.sqrt(a))
            assert F.fx_hypot(a, b) == int(A.hypot(a, b))
            assert F.fx_d2(a, b) == int(A.d2(a, b))
            assert F.fx_idiv(a, b >> 20) == int(A.idiv(a, b >> 20))


# --------------------------------------------------------------------------- the checked variant

def _trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def checked_values(op: str, args: tuple, fb: int) -> list[int] | None:
    """The exact (unwrapped) results the checked op tests, in its order, or None
    for ops that cannot leave 32 bits (their ck_ takes st and site and ignores them)."""
    a, b, c, d, e = args
    mul = lambda p, q: (p * q) >> fb  # noqa: E731
    if op in ("wrap32", "acc_fx"):
        return [a]
    if op == "from_int":
        return [F.fx_wrap32(a) << fb]
    if op in ("add", "sub"):
        return [a + b if op == "add" else a - b]
    if op in ("neg", "abs"):
        return [-a if op == "neg" or a < 0 else a]
    if op == "shl":
        return [a << b]
    if op == "mul":
        return [mul(a, b)]
    if op == "imul":
        return [a * b]
    if op == "div":
        return [_trunc(a << fb, b)] if b else []
    if op in ("idiv", "acc_mean"):
        return [_trunc(a, b)] if b else []
    if op == "hypot" or (op == "mag" and not e):
        return [math.isqrt(a * a + b * b)]
    if op in ("amb", "mag"):
        ax_e, ay_e = -a if a < 0 else a, -b if b < 0 else b
        ax, ay = F.fx_wrap32(ax_e), F.fx_wrap32(ay_e)
        hi, lo = (ax, ay) if ax > ay else (ay, ax)
        p, q = mul(c, hi), mul(d, lo)
        return [ax_e, ay_e, p, q, F.fx_wrap32(p) + F.fx_wrap32(q)]
    return None


@njit(inline="always")
def _ck_apply(code, a, b, c, d, e, fb, st, site):
    """ck_ op number `code` (CODE's numbering), inlined into the caller."""
    if code == 0:
        return F.ck_wrap32(a, st, site)
    if code == 2:
        return F.ck_from_int(a, fb, st, site)
    if code == 3:
        return F.ck_to_int(a, fb, st, site)
    if code == 4:
        return F.ck_add(a, b, st, site)
    if code == 5:
        return F.ck_sub(a, b, st, site)
    if code == 6:
        return F.ck_neg(a, st, site)
    if code == 7:
        return F.ck_abs(a, st, site)
    if code == 8:
        return F.ck_asr64(a, b, st, site)
    if code == 9:
        return F.ck_asr(a, b, st, site)
    if code == 10:
        return F.ck_shl(a, b, st, site)
    if code == 11:
        return F.ck_mul(a, b, fb, st, site)
    if code == 12:
        return F.ck_imul(a, b, st, site)
    if code == 13:
        return F.ck_div(a, b, fb, st, site)
    if code == 14:
        return F.ck_idiv(a, b, st, site)
    if code == 16:
        return F.ck_sqrt(a, fb, st, site)
    if code == 17:
        return np.int64(F.ck_d2(a, b, st, site))
    if code == 18:
        return np.int64(F.ck_sq64(a, st, site))
    if code == 19:
        return F.ck_hypot(a, b, st, site)
    if code == 20:
        return F.ck_amb(a, b, c, d, fb, st, site)
    if code == 21:
        return F.ck_mag(a, b, e != 0, c, d, fb, st, site)
    if code == 22:
        return F.ck_acc_add(a, b, st, site)
    if code == 23:
        return F.ck_acc_sub(a, b, st, site)
    if code == 24:
        return F.ck_acc_mean(a, b, st, site)
    if code == 25:
        return F.ck_acc_fx(a, st, site)
    if code == 26:
        return np.int64(F.ck_sign(a, st, site))
    if code == 27:
        return F.ck_min(a, b, st, site)
    if code == 28:
        return F.ck_max(a, b, st, site)
    if code == 29:
        return F.ck_clamp(a, b, c, st, site)
    if code == 30:
        return np.int64(F.ck_outside_box(a, b, st, site))
    return np.int64(-999)


# fb at run time here: one compile serves both formats (the ck_ code is the
# slowest to compile); the fx_ kernels above hold the constant-format shape.
@njit(cache=True)
def _ck_kernel(codes, args, out, sts, fb):
    for i in range(codes.size):
        out[i] = _ck_apply(codes[i], args[i, 0], args[i, 1], args[i, 2], args[i, 3], args[i, 4], fb, sts[i], i)
    return _SRC


def run_ck_kernel(fb: int, cases):
    """(results, status rows) of the ck_ ops, case i reported as site i."""
    codes = np.array([CODE[c[0]] for c in cases], dtype=np.int64)
    args = np.array([[_s64(v) for v in c[1:]] for c in cases], dtype=np.int64)
    out = np.zeros(len(cases), dtype=np.int64)
    sts = np.array([F.new_status() for _ in cases])
    if _ck_kernel(codes[:0], args[:0], out[:0], sts[:0], fb) != _SRC:  # cached against another fxops.py
        _ck_kernel.recompile()
    _ck_kernel(codes, args, out, sts, fb)
    return [int(v) & M64 if c[0] in UNSIGNED else int(v) for v, c in zip(out, cases)], sts


def test_checked_equals_fixed_and_flags_exactly_the_overflows(fmt):
    """ck_NAME returns fx_NAME's result (the C's), and its status holds a
    finding exactly when an exact intermediate the C wraps leaves 32 bits:
    the first such value, and how many there were."""
    fb, cases, want = fmt
    keep = [i for i, c in enumerate(cases) if c[0] in CHECKED]
    cases, want = [cases[i] for i in keep], [want[i] for i in keep]
    got, sts = run_ck_kernel(fb, cases)
    flagged = 0
    for i, (c, g, w) in enumerate(zip(cases, got, want)):
        assert g == w, describe(c, fb, g, w)
        over = [v for v in (checked_values(c[0], c[1:], fb) or []) if not I32_MIN <= v <= I32_MAX]
        finding = F.status_finding(sts[i])
        if over:
            flagged += 1
            assert finding == (i, over[0], "overflow") and sts[i][F.ST_COUNT] == len(over), (c, sts[i])
        else:
            assert finding is None, (c, sts[i])
    assert flagged > 5000


def test_checked_first_finding_is_kept_and_shift_counts():
    st = F.new_status()
    assert F.ck_add(I32_MAX, 1, st, 3) == I32_MIN
    assert F.ck_mul(I32_MAX, I32_MAX, 15, st, 4) == F.fx_mul(I32_MAX, I32_MAX, 15)
    assert F.ck_add(1, 1, st, 5) == 2
    assert F.status_finding(st) == (3, 2**31, "overflow") and st[F.ST_COUNT] == 2
    st = F.new_status()
    assert F.ck_shl(1, 32, st, 9) == 0 and F.status_finding(st) == (9, 32, "shift")
    st = F.new_status()
    assert F.ck_asr(-8, -1, st, 1) == 0 and F.ck_asr64(-8, 64, st, 2) == 0 and st[F.ST_COUNT] == 2
    assert F.ck_asr64(-8, 63, F.new_status(), 0) == -1


# --------------------------------------------------------------------------- the float variant

FLOATS = [0.0, 1.0, -1.0, 0.5, -0.25, 3.0, 1e-9, -1e-9, 123.456, -987.5, 2.0**20, -(2.0**20), 1 / 3]


def test_float_equals_floatarith():
    A = FloatArith(15)
    for a in FLOATS:
        assert F.fl_neg(a) == A.neg(a) and F.fl_abs(a) == A.abs(a) and F.fl_sq64(a) == A.sq(a)
        assert F.fl_acc_fx(a) == A.acc_fx(a) and F.fl_from_int(int(a), 15) == A.const_int(int(a))
        with np.errstate(invalid="ignore"):
            s, r = F.fl_sqrt(a, 15), A.sqrt(a)
        assert s == r or (math.isnan(s) and math.isnan(r))
        for b in FLOATS:
            assert F.fl_add(a, b) == A.add(a, b) and F.fl_sub(a, b) == A.sub(a, b)
            assert F.fl_mul(a, b, 15) == A.mul(a, b) and F.fl_div(a, b, 15) == A.div(a, b)
            assert F.fl_d2(a, b) == A.d2(a, b)
            assert F.fl_hypot(a, b) == A.hypot(a, b) and F.fl_mag(a, b, True, 0.9, 0.4, 15) == A.mag(a, b)
        for n in (0, 1, -1, 3, 7, 100):
            assert F.fl_idiv(a, n) == A.idiv(a, n) and F.fl_acc_mean(a, n) == A.acc_mean(a, n)


def test_float_approximates_fixed():
    """The same name means the same operation: fl_NAME(values) is fx_NAME(raw)
    as a value, within the fixed point's rounding (inputs without overflow)."""
    rnd = random.Random(11)
    for fb in (15, 16):
        one = 1 << fb
        val = lambda r: r / one  # noqa: E731
        for _ in range(3000):
            a, b, c = (rnd.randint(-(2**21), 2**21) for _ in range(3))
            x, y, z = val(a), val(b), val(c)
            lsb = 1 / one
            pairs = [("add", (a, b), (x, y)), ("sub", (a, b), (x, y)), ("neg", (a,), (x,)), ("abs", (a,), (x,)),
                     ("mul", (a, b, fb), (x, y, fb)), ("sqrt", (abs(a), fb), (abs(x), fb)),
                     ("hypot", (a, b), (x, y)), ("amb", (a, b, c, c // 2, fb), (x, y, z, val(c // 2), fb)),
                     ("min", (a, b), (x, y)), ("max", (a, b), (x, y)), ("clamp", (a, b, c), (x, y, z)),
                     ("asr", (a, 3), (x, 3)), ("shl", (a >> 12, 5), (val(a >> 12), 5)),
                     ("wrap32", (a,), (x,)), ("acc_fx", (a,), (x,))]
            if b >> 10:
                pairs.append(("div", (a >> 8, b, fb), (val(a >> 8), y, fb)))
            for name, fa, la in pairs:
                fxr, flr = getattr(F, "fx_" + name)(*fa), getattr(F, "fl_" + name)(*la)
                tol = 2 * lsb + 1e-12 * abs(flr)
                if name == "amb":
                    tol = 3 * lsb
                assert abs(val(fxr) - flr) <= tol, (name, fa, val(fxr), flr)
            n = rnd.randint(1, 50)
            assert abs(val(F.fx_idiv(a, n)) - F.fl_idiv(x, n)) <= lsb
            assert F.fx_sign(a) == F.fl_sign(x) and F.fx_imul(n, a) == a * n
            assert abs(F.fx_to_int(a, fb) - F.fl_to_int(x, fb)) == 0
            assert F.fx_from_int(n, fb) == n * one and F.fl_from_int(n, fb) == n
            assert val(F.fx_d2(a, b)) / one == pytest.approx(F.fl_d2(x, y), rel=1e-12, abs=1e-15)


def test_namespaces_share_names_and_signatures():
    import inspect

    for name in F.NAMES:
        fx, fl, ck = (F.namespace(k)[name] for k in ("fixed", "float", "checked"))
        p = list(inspect.signature(fx.py_func).parameters)
        assert list(inspect.signature(fl.py_func).parameters) == p, name
        assert list(inspect.signature(ck.py_func).parameters) == p + ["st", "site"], name
    assert len(F.SOURCE_HASH) == 16


def test_outside_box_is_the_integer_box_test():
    """|d| >= box in integers: no wrap at INT32_MIN (fx_abs would call it
    inside), and nothing is inside a box of side <= 0; the C's one add and
    unsigned compare is held to the same cases by the tables above."""
    for box in (1, 2, 7, 20 << 15, I32_MAX):
        assert not F.fx_outside_box(box - 1, box) and not F.fx_outside_box(1 - box, box)
        assert F.fx_outside_box(box, box) and F.fx_outside_box(-box, box)
        assert F.fx_outside_box(I32_MIN, box) and F.fx_abs(I32_MIN) < box
    for box in (0, -1, I32_MIN):
        assert all(F.fx_outside_box(d, box) for d in (0, 1, -1, I32_MIN, I32_MAX))
    assert F.fl_outside_box(-2.5, 2.5) and not F.fl_outside_box(2.4, 2.5)
