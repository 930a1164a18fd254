"""Angles (turns) and vectors, and the PRNG draws as values (issue 37):
firmware_runtime/core/fixed_angles.h and fixed_draws.h against their twins
pysim/fx_angles.py and pysim/fx_draws.py bit for bit, natively and as the
M4K runs them (-march=m4k -O1 under qemu-mipsel), in s16.15 and s15.16
(and fixed.h's FX_PORTABLE spelling): every
table entry (sin at each entry of each quadrant, atan2 at each tangent
step), the edges (0, the axes, +-1/2 turn, 1 LSB, INT32_MIN/MAX) and random
values; the C table is the text pysim/angle_tables.py prints, and every
entry is its rounded ideal."""
from __future__ import annotations

import math
import random
import subprocess

import pytest

from pysim import fxops as F
from pysim.angle_tables import ATAN_Q30, SIN_Q30, c_header

from .conftest import ROOT, RUNTIME, RUNTIME_INCLUDES, RUNTIME_I_FLAGS, compile_c, require_tool
from .deadline import RUN

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
EDGE = [0, 1, -1, 2, -2, 3, 7, 255, 256, 1 << 14, 1 << 15, -(1 << 15), 1 << 16, 3 << 15, 46341, -46341,
        1 << 30, -(1 << 30), I32_MAX, I32_MIN, I32_MIN + 1, I32_MAX - 1]


@pytest.fixture(scope="module", params=[("host", 15), ("host", 16), ("portable", 15), ("m4k", 15), ("m4k", 16)],
                ids=lambda p: f"{p[0]}-s{31 - p[1]}.{p[1]}")
def driver(request, tmp_path_factory):
    where, fb = request.param
    tmp = tmp_path_factory.mktemp("angles")
    src = ROOT / "tests" / "c" / "angles_driver.c"
    if where in ("host", "portable"):  # portable: fixed.h's FX_PORTABLE spelling
        defines = {"FX_FRAC_BITS": fb} | ({"FX_PORTABLE": 1} if where == "portable" else {})
        return [str(compile_c([src], tmp / "ad", defines=defines, includes=RUNTIME_INCLUDES))], fb
    cc = require_tool("mipsel-linux-gnu-gcc")
    qemu = require_tool("qemu-mipsel")
    exe = tmp / "ad_m4k"
    flags = ["-march=m4k", "-O1", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", f"-DFX_FRAC_BITS={fb}",
             *RUNTIME_I_FLAGS]
    res = subprocess.run([cc, *flags, "-static", str(src), "-o", str(exe)], capture_output=True, text=True,
                         timeout=RUN)
    assert res.returncode == 0, res.stderr
    return [qemu, str(exe)], fb


def _run(cmd, cases) -> list[int]:
    text = "".join(f"{op} {a} {b} {c}\n" for op, a, b, c in cases)
    out = subprocess.run(cmd, input=text, capture_output=True, text=True, check=True, timeout=RUN).stdout.split()
    assert len(out) == len(cases)
    return [int(v) for v in out]


def _py(op, a, b, c, fb) -> int:
    if op in ("sin", "cos"):
        return int(getattr(F, "fx_" + op)(a, fb))
    if op in ("atan2", "unit_x", "unit_y"):
        return int(getattr(F, "fx_" + op)(a, b, fb))
    if op in ("rotate_x", "rotate_y"):
        return int(getattr(F, "fx_" + op)(a, b, c, fb))
    if op == "random":
        return int(F.fx_random(a, fb))
    return int(F.fx_random_int(a, b, c))


def _cases(fb: int) -> list:
    one = 1 << fb
    rnd = random.Random(37 + fb)
    out = []
    # sin and cos at every table entry of every quadrant, a step either side, and whole turns away
    for k in range(4 * 256 + 1):
        raw = (k * 64 * one) >> 16
        for d in (-1, 0, 1):
            for turns in (0, 3, -2):
                out += [("sin", raw + d + turns * one, 0, 0), ("cos", raw + d + turns * one, 0, 0)]
    out += [(op, a, 0, 0) for op in ("sin", "cos") for a in EDGE]
    # atan2 at every tangent step, in every octant; the axes, 1/2 turn, tiny and huge
    for k in range(257):
        for mx in (one, 1000 * one, I32_MAX):
            mn = (k * mx) >> 8
            for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                out += [("atan2", sy * mn, sx * mx, 0), ("atan2", sy * mx, sx * mn, 0)]
    out += [("atan2", y, x, 0) for y in EDGE for x in EDGE]
    out += [(op, x, y, 0) for op in ("unit_x", "unit_y") for x in EDGE for y in EDGE]
    angles = [0, one // 4, one // 2, -(one // 4), one, 1, -1, one // 8, I32_MIN, I32_MAX]
    small = [0, 1, -1, one, -one, 100 * one, -(1000 * one), 3 << 15]
    out += [(op, x, y, a) for op in ("rotate_x", "rotate_y") for x in small for y in small for a in angles]
    for _ in range(3000):
        a, b = rnd.randint(I32_MIN, I32_MAX), rnd.randint(I32_MIN, I32_MAX)
        out += [("sin", a, 0, 0), ("cos", a, 0, 0), ("atan2", a, b, 0), ("unit_x", a, b, 0), ("unit_y", a, b, 0)]
        x, y = rnd.randint(-(1000 << fb), 1000 << fb), rnd.randint(-(1000 << fb), 1000 << fb)
        out += [("rotate_x", x, y, a), ("rotate_y", x, y, a)]
    draws = [0, 1, 2**31 - 1, 2**31, 2**32 - 1, 12345, 3 << 30] + [rnd.getrandbits(32) for _ in range(500)]
    bounds = [(0, 0), (0, 1), (1, 6), (-5, 5), (5, -5), (I32_MIN, I32_MAX), (I32_MIN, 0), (0, I32_MAX), (-1, 1)]
    out += [("random", d, 0, 0) for d in draws]
    out += [("random_int", d, lo, hi) for d in draws for lo, hi in bounds]
    return out


def test_c_and_python_agree(driver):
    cmd, fb = driver
    cases = _cases(fb)
    got = _run(cmd, cases)
    bad = [(c, g, _py(*c, fb)) for c, g in zip(cases, got) if g != _py(*c, fb)]
    assert not bad, f"{len(bad)} of {len(cases)} differ, first: {bad[:5]}"


def test_the_c_table_is_the_python_definition():
    assert (RUNTIME / "core" / "fixed_angles_table.h").read_text() == c_header()
    assert len(SIN_Q30) == len(ATAN_Q30) == 257
    for k, v in enumerate(SIN_Q30):
        assert v == round(math.sin(math.pi / 2 * k / 256) * 2**30), k
    for k, v in enumerate(ATAN_Q30):
        assert v == round(math.atan(k / 256) / (2 * math.pi) * 2**30), k


@pytest.mark.parametrize("fb", [15, 16])
def test_values_near_the_ideal(fb):
    one = 1 << fb
    for k in range(-700, 700):
        a = k / 512
        raw = round(a * one)
        assert abs(F.fx_sin(raw, fb) / one - math.sin(2 * math.pi * raw / one)) < 2e-4
        assert abs(F.fx_cos(raw, fb) / one - math.cos(2 * math.pi * raw / one)) < 2e-4
    assert [F.fx_sin(v * one // 4, fb) for v in range(5)] == [0, one, 0, -one, 0]
    assert [F.fx_cos(v * one // 4, fb) for v in range(5)] == [one, 0, -one, 0, one]
    assert F.fx_atan2(0, -one, fb) == one // 2 and F.fx_atan2(0, one, fb) == 0
    assert F.fx_atan2(one, 0, fb) == one // 4 and F.fx_atan2(-one, 0, fb) == -(one // 4)
    assert F.fx_atan2(0, 0, fb) == 0 and F.fx_atan2(I32_MIN, I32_MIN, fb) == -3 * one // 8
    rnd = random.Random(fb)
    for _ in range(2000):
        y, x = rnd.randint(-10**6, 10**6), rnd.randint(-10**6, 10**6)
        want = math.atan2(y, x) / (2 * math.pi)
        got = F.fx_atan2(y, x, fb) / one
        assert min(abs(got - want), 1 - abs(got - want)) < 1e-4, (y, x)
    for x, y in ((3 * one, 4 * one), (-one, 0), (1, 1), (I32_MAX, I32_MIN)):
        ux, uy = F.fx_unit_x(x, y, fb), F.fx_unit_y(x, y, fb)
        assert -one <= ux <= one and -one <= uy <= one
        assert abs(math.hypot(ux, uy) / one - 1) < 1e-3
    assert (F.fx_unit_x(0, 0, fb), F.fx_unit_y(0, 0, fb)) == (0, 0)
    assert (F.fx_rotate_x(one, 0, one // 4, fb), F.fx_rotate_y(one, 0, one // 4, fb)) == (0, one)
