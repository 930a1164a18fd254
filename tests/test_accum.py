"""Why the firmware does not use GCC's `_Accum` (docs/fixed_point.md): with the
MIPS cross-compiler under qemu-mipsel, an `_Accum` product is a library call
(__mulsa3) that rounds to nearest (ties up) at run time, while GCC floors the
same product when it folds constants, so one source gives different answers
at -O0 and -O1. fixed.h floors everywhere: it agrees with `_Accum` on add,
subtract and divide and is one LSB below it on the products that round up."""
from __future__ import annotations

import subprocess

import pytest

from .conftest import ROOT, RUNTIME, RUNTIME_I_FLAGS, require_tool
from .deadline import RUN

CC = "mipsel-linux-gnu-gcc"
FOLD = r"""
#include <stdio.h>
#include <string.h>
#include <stdint.h>
static _Accum mul(_Accum a, _Accum b) { return a * b; }
static int32_t raw(_Accum a) { int32_t r; memcpy(&r, &a, sizeof r); return r; }
int main(void)
{
    volatile _Accum x = 3.3k, y = -0.05k;
    printf("%d %d %d %d %d\n", (int)sizeof(_Accum), raw(1.0k), raw(x * y), raw(3.3k * -0.05k), raw(mul(3.3k, -0.05k)));
    return 0;
}
"""
AGREE = r"""
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include "fixed.h"
static int32_t raw(_Accum a) { int32_t r; memcpy(&r, &a, sizeof r); return r; }
static _Accum acc(int32_t r) { _Accum a; memcpy(&a, &r, sizeof a); return a; }
static uint32_t s = 2463534242u;
static int32_t rnd(int32_t lim) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return (int32_t)(s % (2u * (uint32_t)lim + 1u)) - lim; }
int main(void)
{
    long n = 200000, add = 0, sub = 0, div = 0, ndiv = 0, below = 0, other = 0, nearest = 0;
    for (long i = 0; i < n; i++) {
        int32_t a = rnd(1 << 22), b = rnd(1 << 22); /* +/-128: no product or sum leaves s16.15 */
        volatile _Accum x = acc(a), y = acc(b);
        int32_t m = raw(x * y), f = fx_mul(a, b);
        below += m == f + 1;
        other += m != f && m != f + 1;
        nearest += m == (int32_t)(((int64_t)a * b + 16384) >> 15);
        add += raw(x + y) != fx_add(a, b);
        sub += raw(x - y) != fx_sub(a, b);
        if (b > 1024 || b < -1024) { ndiv++; div += raw(x / y) != fx_div(a, b); } /* quotient within range */
    }
    /* ties: k * 0.5k for odd k is exactly half an LSB */
    volatile _Accum h = 0.5k, p3 = acc(3), m3 = acc(-3);
    printf("%ld %ld %ld %ld %ld %ld %ld %ld %d %d\n", n, below, other, nearest, add, sub, div, ndiv,
           raw(p3 * h), raw(m3 * h));
    return 0;
}
"""
# Counts, in a host build of the real firmware, how many of the flock's own
# fx_mul products __mulsa3's rounding would have put one LSB higher.
WRAP_H = r"""
#ifndef ACCUM_WRAP_H
#define ACCUM_WRAP_H
#include "fixed.h"
extern unsigned long fxm_n, fxm_up;
static inline fx fxm_counted(fx a, fx b)
{
    fx f = fx_mul(a, b);
    fxm_n++;
    fxm_up += fx_wrap64(((int64_t)a * b + ((int64_t)1 << (FX_FRAC_BITS - 1))) >> FX_FRAC_BITS) != f;
    return f;
}
#define fx_mul fxm_counted
#endif
"""
COUNT_C = r"""
#include <stdio.h>
#include <stdlib.h>
unsigned long fxm_n, fxm_up;
static void report(void) { fprintf(stderr, "products %lu up %lu\n", fxm_n, fxm_up); }
__attribute__((constructor)) static void init(void) { atexit(report); }
"""


@pytest.fixture(autouse=True)
def tools():
    require_tool(CC)
    require_tool("qemu-mipsel")


def _run_mips(tmp_path, src: str, opt: str, extra=()) -> list[int]:
    c = tmp_path / "a.c"
    c.write_text(src)
    exe = tmp_path / f"a{opt}"
    res = subprocess.run([CC, opt, "-static", "-std=gnu99", *extra, str(c), "-o", str(exe)],
                         capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    run = subprocess.run(["qemu-mipsel", str(exe)], capture_output=True, text=True, timeout=RUN)
    assert run.returncode == 0, run.stderr
    return [int(v) for v in run.stdout.split()]


def test_accum_multiply_is_a_library_call_on_the_m4k():
    res = subprocess.run([CC, "-march=m4k", "-EL", "-msoft-float", "-O1", "-x", "c", "-S", "-", "-o", "-"],
                         input="_Accum f(_Accum a, _Accum b) { return a * b; }\n",
                         capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    assert "__mulsa3" in res.stdout


@pytest.mark.parametrize("opt, folded_call", [("-O0", -5405), ("-O1", -5406), ("-O2", -5406)])
def test_run_time_rounds_constant_folding_floors(tmp_path, opt, folded_call):
    size, one, run_time, folded, call = _run_mips(tmp_path, FOLD, opt)
    assert (size, one) == (4, 1 << 15)  # s16.15, the spec's default format
    # 108134 x -1638 / 2^15 = -5405.38: __mulsa3 gives -5405, the folder floors to -5406
    assert run_time == -5405 and folded == -5406
    # the same call site: a run-time multiply at -O0, folded once inlined
    assert call == folded_call


def test_fixed_h_agrees_on_add_sub_div_and_floors_products(tmp_path):
    n, below, other, nearest, add, sub, div, ndiv, tie_p, tie_m = _run_mips(
        tmp_path, AGREE, "-O1", ["-DFX_FRAC_BITS=15", *RUNTIME_I_FLAGS])
    assert (add, sub, div, other) == (0, 0, 0, 0) and ndiv > n // 2
    assert nearest == n  # __mulsa3: floor(p / 2^15 + 1/2)
    assert (tie_p, tie_m) == (2, -1)  # 1.5 -> 2 and -1.5 -> -1: ties toward +infinity
    assert 0.49 < below / n < 0.51, below / n  # uniform operands: half the products round up


def test_a_third_of_the_flocks_products_would_round_up(tmp_path):
    require_tool("gcc")
    require_tool("make")
    fw = ROOT / "generated" / "boids" / "firmware"
    (tmp_path / "wrap.h").write_text(WRAP_H)
    (tmp_path / "count.c").write_text(COUNT_C)
    res = subprocess.run(["make", "-s", "-C", str(fw), "--eval", "pv: ; @echo $(HOST_SRC)", "pv",
                          f"RUNTIME={RUNTIME}"], capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    objs = []
    for src in res.stdout.split() + [str(tmp_path / "count.c")]:
        wrap = [] if src.startswith("/") else ["-include", str(tmp_path / "wrap.h")]  # the generated files
        obj = tmp_path / (src.replace("/", "_") + ".o")
        cc = subprocess.run(["gcc", "-std=gnu99", "-O2", "-I.", *RUNTIME_I_FLAGS, *wrap, "-c", src, "-o", str(obj)],
                            cwd=fw, capture_output=True, text=True, timeout=RUN)
        assert cc.returncode == 0, cc.stderr
        objs.append(str(obj))
    exe = tmp_path / "host"
    link = subprocess.run(["gcc", *objs, "-o", str(exe), "-lm"], capture_output=True, text=True, timeout=RUN)
    assert link.returncode == 0, link.stderr
    run = subprocess.run([str(exe), "--frames", "2000", "--seed", "1"], capture_output=True, text=True, timeout=RUN)
    assert run.returncode == 0, run.stderr
    n, up = (int(v) for v in run.stderr.split("products ")[1].split(" up "))
    assert n > 100_000 and 0.25 < up / n < 0.40, (n, up)
