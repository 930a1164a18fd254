"""fixed.h's width-dependent spellings (issue 16) against pysim/fxops.py, bit
for bit, on edge values and random ones: natively (the host firmware's
build) and as the M4K runs them (mipsel-linux-gnu-gcc -march=m4k -O1, the
budget's and XC32's level, under qemu-mipsel): the `mult`/`madd` squared
distance, the 32-bit neighbour sum and its 32/32 mean (codegen/passes/widths.py)
against the simulator's exact sum wrapped where it is read."""
from __future__ import annotations

import math
import random
import subprocess

import numpy as np
import pytest

from pysim import fxops as F

from .conftest import ROOT, RUNTIME_INCLUDES, RUNTIME_I_FLAGS, compile_c, require_tool
from .deadline import RUN

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
EDGES = [0, 1, -1, 2, -2, 3, 46340, -46340, 46341, -46341, 65535, 65536, -65536, 2**15, -(2**15),
         2**16 + 1, 2**30, -(2**30), 2**31 - 1, -(2**31), -(2**31) + 1, 12345, -12345, 655360, -655360]


@pytest.fixture(scope="module", params=["host", "host-portable", "m4k"])
def driver(request, tmp_path_factory):
    """A command that runs the driver: the host build (GCC's spellings, and
    FX_PORTABLE's) or the M4K one under qemu-mipsel."""
    tmp = tmp_path_factory.mktemp("widths")
    src = ROOT / "tests" / "c" / "widths_driver.c"
    if request.param.startswith("host"):
        defines = {"FX_FRAC_BITS": 15} | ({"FX_PORTABLE": 1} if request.param == "host-portable" else {})
        return [str(compile_c([src], tmp / "wd", defines=defines, includes=RUNTIME_INCLUDES))]
    cc = require_tool("mipsel-linux-gnu-gcc")
    qemu = require_tool("qemu-mipsel")
    exe = tmp / "wd_m4k"
    cmd = [cc, "-march=m4k", "-O1", "-static", "-std=c99", "-Wall", "-Wextra", "-Werror", "-DFX_FRAC_BITS=15",
           *RUNTIME_I_FLAGS, str(src), "-o", str(exe)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    asm = subprocess.run([cc, "-march=m4k", "-O1", "-std=c99", "-DFX_FRAC_BITS=15", *RUNTIME_I_FLAGS, "-S",
                          str(src), "-o", "-"], capture_output=True, text=True, timeout=RUN, check=True).stdout
    assert "madd" in asm  # the HI:LO spelling is the one under test
    return [qemu, str(exe)]


def run(cmd, cases) -> list[int]:
    text = "".join(f"{op} {' '.join(str(v) for v in (list(args) + [0, 0, 0])[:3])}\n" for op, *args in cases)
    out = subprocess.run(cmd, input=text, capture_output=True, text=True, check=True, timeout=RUN).stdout.split()
    assert len(out) == len(cases)
    return [int(v) for v in out]


def py(op, a, b=0, c=0) -> int:
    if op == "d2":
        return int(F.fx_d2(np.int64(a), np.int64(b)))
    if op == "sq64":
        return int(F.fx_sq64(np.int64(a)))
    if op == "acc32_mean":  # the kernel: fx_acc_mean(fx_wrap32(exact sum), n)
        return int(F.fx_acc_mean(F.fx_wrap32(np.int64(a)), np.int64(b)))
    if op == "acc32_mean_about":  # codegen/passes/offsets.py: the kernel wraps its exact sum of offsets
        return int(F.fx_acc_mean_about(F.fx_wrap32(np.int64(a)), np.int64(b), np.int64(c)))
    if op == "mul":  # Q15 (the drivers' FX_FRAC_BITS): the 64-bit product, floored
        return int(F.fx_mul(np.int64(a), np.int64(b), 15))
    if op == "about":  # c_positions.py: (positions' sum) - n * base, modulo 2^32
        return int(F.fx_wrap32(np.int64(a) - np.int64(b) * np.int64(c)))
    if op == "acc_mean_about":
        return int(F.fx_acc_mean_about(np.int64(a), np.int64(b), np.int64(c)))
    if op == "zones":  # c = r + r2 * 2^32: (d2 < r^2) + 2 (d2 < r2^2), exact
        r, r2 = zr((op, a, b, c))
        d2 = a * a + b * b
        return int(d2 < r * r) + 2 * int(d2 < r2 * r2)
    if op == "within":  # d2 < c^2, exact
        return int(a * a + b * b < c * c)
    if op == "mean_by":  # the same mean as acc32_mean, for n >= 1
        return py("acc32_mean", a, b)
    if op == "mean_about_by":
        return py("acc32_mean_about", a, b, c)
    if op == "div":  # Q15 (the drivers' FX_FRAC_BITS)
        return int(F.fx_div(np.int64(a), np.int64(b), 15))
    if op == "acc32_sum":  # the C adds in 32 bits, wrapping; the kernel wraps the exact sum once
        return int(F.fx_wrap32(np.int64(a) + np.int64(b) + np.int64(c)))
    raise KeyError(op)


def check(cmd, cases):
    for (op, *args), got in zip(cases, run(cmd, cases)):
        assert got == py(op, *args), f"{op}{tuple(args)}: C {got}, Python {py(op, *args)}"


def test_d2_edges(driver):
    cases = [("d2", a, b) for a in EDGES for b in EDGES] + [("sq64", a) for a in EDGES]
    check(driver, cases)
    assert py("d2", I32_MIN, I32_MIN) == 2**63  # the largest: exact in uint64


def test_d2_random(driver):
    rnd = random.Random(16)
    cases = []
    for _ in range(4000):
        s = rnd.choice([8, 16, 20, 24, 31])
        cases.append(("d2", rnd.randint(-(2**s), 2**s - 1), rnd.randint(-(2**s), 2**s - 1)))
    check(driver, cases)


def test_div_in_words(driver):
    """fx_div's 32/32 steps (|b| < 2^24) and its 64-bit rest, against the
    exact truncated quotient: each divisor length around its edges (one
    step, two, the 2^24 switch), every sign, the word's ends, quotients
    that wrap."""
    rnd = random.Random(24)
    bs = [s * (v + d) for v in [1 << k for k in range(0, 32)] for d in (-1, 0, 1) for s in (1, -1)]
    bs = [b for b in bs if I32_MIN <= b <= I32_MAX] + [I32_MIN, I32_MAX, 0]
    cases = [("div", a, b) for a in EDGES for b in bs]
    for _ in range(4000):
        sa, sb = rnd.choice([4, 12, 17, 20, 24, 31]), rnd.choice([1, 8, 16, 17, 18, 23, 24, 25, 31])
        cases.append(("div", rnd.randint(-(2**sa), 2**sa - 1), rnd.randint(-(2**sb), 2**sb - 1)))
    check(driver, cases)
    assert py("div", -1, 3 << 15) == 0 and py("div", I32_MIN, 1) == 0  # truncation; 2^46 wraps to 0


def test_means_by_a_reciprocal(driver):
    """fx_acc32_mean_by and fx_acc32_mean_about_by (the generated code's
    table of floor((2^32 - 1) / n)) against the exact means, for every n up
    to 1100 on the sums that stress the one correction (multiples of n and
    their neighbours, the word's ends) and on random sums and bases."""
    rnd = random.Random(1100)
    cases = []
    for n in range(1, 1101):
        sums = {0, 1, -1, I32_MAX, I32_MIN, I32_MIN + 1, n, -n, n - 1, 1 - n, n + 1, -n - 1}
        k = (I32_MAX // n) * n
        sums |= {k, k - 1, -k, 1 - k, -k - 1, rnd.randint(I32_MIN, I32_MAX)}
        for sm in sums:
            cases.append(("mean_by", sm, n))
            cases.append(("mean_about_by", sm, n, rnd.choice([0, 1, -1, I32_MAX, I32_MIN, rnd.randint(I32_MIN, I32_MAX)])))
    check(driver, cases)


def zones_case(dx, dy, r, r2):
    return ("zones", dx, dy, r2 * 2**32 + (r % 2**32))


def zr(case):
    """(r, r2) of a zones case."""
    c = case[3]
    return (c + 2**31) % 2**32 - 2**31, c >> 32


def test_d2_zones(driver):
    """fx_d2_zones against exact integers: on the edges of each radius (d2 =
    r^2 - 1, r^2, r^2 + 1), at the word's ends (dx, dy never -2^31: the box
    test's promise), radii of either sign, equal or crossed."""
    radii = [0, 1, 2, 3, 5, 46340, 65536, 655360, 2**20 + 3, 13107200, 2**30 - 1]
    ds = [0, 1, -1, 3, -4, 46340, -46341, 65535, -65536, 655359, 2**30, -(2**30), I32_MAX, I32_MIN + 1]
    cases = []
    for r in radii[::2]:
        for r2 in radii[1::2]:
            for s in (1, -1):
                cases += [zones_case(a, b, s * r, r2) for a in ds for b in ds[::3]]
    for r in radii:  # d2 on either side of r^2: dy^2 = r^2 - dx^2 + {-1, 0, 1} where that is a square
        for dx in (0, r // 3, r // 2, r):
            rest = r * r - dx * dx
            for e in (-1, 0, 1):
                dy = math.isqrt(max(rest + e, 0))
                cases += [zones_case(dx, dy, r, r2) for r2 in (r, r + 1, 2 * r + 1)]
                cases += [zones_case(dx, dy, r2, r) for r2 in (0, max(r - 1, 0))]
    rnd = random.Random(2)
    for _ in range(3000):
        r, r2 = rnd.randint(-(2**29), 2**29), rnd.randint(-(2**29), 2**29)
        s = rnd.choice([16, 24, 30, 31])
        cases.append(zones_case(rnd.randint(-(2**s) + 1, 2**s - 1), rnd.randint(-(2**s) + 1, 2**s - 1), r, r2))
    # the generator's promise: r2 - r and r2 + r fit a word
    cases = [c for c in cases if all(I32_MIN <= v <= I32_MAX for v in (zr(c)[1] - zr(c)[0], zr(c)[1] + zr(c)[0]))]
    got = run(driver, cases)
    assert len(cases) > 4000 and {0, 1, 2, 3} <= set(got)  # every outcome occurs
    for case, g in zip(cases, got):
        assert g == py(*case), f"{case}: C {g}, Python {py(*case)}"


def _zone_cases(op: str) -> list:
    """(op, dx, dy, r): on either side of r^2 for each radius, at the word's
    ends (dx, dy never -2^31, as fx_d2_zones), radii of either sign, and
    random ones."""
    radii = [0, 1, 2, 3, 5, 46340, 65536, 655360, 2**20 + 3, 13107200, 2**30 - 1, I32_MAX]
    ds = [0, 1, -1, 3, -4, 46340, -46341, 65535, -65536, 655359, 2**30, -(2**30), I32_MAX, I32_MIN + 1]
    cases = [(op, a, b, s * r) for r in radii for s in (1, -1) for a in ds for b in ds[::2]]
    for r in radii:
        for dx in (0, r // 3, r // 2, r):
            rest = r * r - dx * dx
            for e in (-1, 0, 1):
                dy = math.isqrt(max(rest + e, 0))
                cases += [(op, dx, dy, r), (op, -dx, dy, -r), (op, dy, -dx, r)]
    rnd = random.Random(3)
    for _ in range(2000):
        s = rnd.choice([16, 24, 30, 31])
        cases.append((op, rnd.randint(-(2**s) + 1, 2**s - 1), rnd.randint(-(2**s) + 1, 2**s - 1),
                      rnd.randint(I32_MIN, I32_MAX)))
    return cases


def test_d2_within(driver):
    """fx_d2_within (the outer zone alone) against exact integers."""
    cases = _zone_cases("within")
    got = run(driver, cases)
    assert {0, 1} <= set(got) and sum(got) > 500  # both outcomes, often
    for case, g in zip(cases, got):
        assert g == py(*case), f"{case}: C {g}, Python {py(*case)}"


def test_d2_by_high_words(driver):
    """fx_d2_hi is d2's high word, and FX_D2_BELOW_HI (the own band's window
    test of pairs apart, fixed_zones.h) is d2 < r^2 exactly: decided by the
    high words where they differ, by the whole test where they are equal
    (the driver says which: 1 or 2); on the same cases as fx_d2_within, where
    equal high words occur on both sides of r^2."""
    cases = _zone_cases("below_hi")
    got = run(driver, cases)
    for (_, a, b, r), g in zip(cases, got):
        d2, r2 = a * a + b * b, r * r
        assert g == (0 if d2 >= r2 else 1 if d2 >> 32 < r2 >> 32 else 2), f"{(a, b, r)}: C {g}"
    equal = [d2 < r2 for _, a, b, r in cases if (d2 := a * a + b * b) >> 32 == (r2 := r * r) >> 32]
    assert True in equal and False in equal and got.count(2) == equal.count(True)
    his = [("d2hi", a, b) for _, a, b, _ in cases[::7]]
    for (_, a, b), g in zip(his, run(driver, his)):
        assert g == (a * a + b * b) >> 32, (a, b)


def test_acc32(driver):
    ns = [0, 1, -1, 2, -2, 3, 7, 99, 100, 499, 1000, I32_MAX, I32_MIN]
    cases = [("acc32_mean", a, n) for a in EDGES for n in ns]
    cases += [("acc32_sum", a, b, c) for a in EDGES[::3] for b in EDGES[::2] for c in (I32_MAX, I32_MIN, 1, -7)]
    rnd = random.Random(32)
    cases += [("acc32_mean", rnd.randint(I32_MIN, I32_MAX), rnd.randint(-200, 2000)) for _ in range(3000)]
    check(driver, cases)


def test_widths_default_spec():
    """The default spec (capacity 200): every sum of velocities or offsets
    32-bit, each read wrapped in both emitters' IR; cohesion's sums of absolute
    positions stay 64-bit (their bound rests on the assumed position margin,
    which extreme parameters break: test_shadow_check); at capacity 500 the
    velocity sums stay 32-bit too (the speed limit compares the exact squared
    speed and rescales by a saturated root, codegen/passes/roots.py, so the
    analysis keeps the speed bound), and the report says what would unlock
    the others."""
    from codegen.lang.ir import Op
    from codegen.passes.widths import narrowed, report, sum_widths
    from codegen.output.pipeline import load

    m = load(ROOT / "spec" / "boids.yaml")
    ws = sum_widths(m)
    assert {(w.rule, w.sum) for w in ws if w.bits == 32} == {
        ("alignment", "sum_vx"), ("alignment", "sum_vy"), ("separation", "close_dx"), ("separation", "close_dy")}
    assert {(w.rule, w.sum) for w in ws if w.on_positions} == {("cohesion", "sum_x"), ("cohesion", "sum_y")}
    # ... and the emitters take them as offsets from the boid (offsets.py): 32 bits
    from codegen.passes.offsets import offset

    assert "a sum of positions, taken as offsets" in "\n".join(report(m))
    assert {(w.rule, w.sum) for w in sum_widths(offset(m)) if w.bits == 64} == set()
    n = narrowed(m)
    ali = next(r for r in n.rules if r.name == "alignment").ir
    assert all(s.bits == 32 for s in ali.sums)
    assert all(st.op == "acc32_add" for st in ali.each)
    text = repr(ali.apply)
    assert "sum_wrap32" in text and isinstance(ali.apply[0].cond, Op)
    big = load(ROOT / "spec" / "boids.yaml", capacity=500)
    wide = {(w.rule, w.sum): w.bits for w in sum_widths(big)}
    assert wide[("cohesion", "sum_x")] == 64 and wide[("separation", "close_dx")] == 32
    assert wide[("alignment", "sum_vx")] == 64  # the rules as written: mag() may wrap, no speed bound
    from codegen.analysis.roots_rewrite import rooted

    m2, res, _ = rooted(big)  # as the emitters print them
    assert {(w.rule, w.sum): w.bits for w in sum_widths(m2, res)}[("alignment", "sum_vx")] == 32
    lines = "\n".join(report(big))
    assert "cohesion.sum_x" in lines and "taken as offsets" in lines


def test_mean_about(driver):
    """sum_mean_about (codegen/passes/offsets.py) in 32 and 64 bits against the
    simulator, and the simulator's against the mean of the positions the
    offsets came from (sum_mean of their own sum)."""
    ns = [0, 1, -1, 2, -2, 3, 7, 99, 100, 499, I32_MAX, I32_MIN]
    bases = [0, 1, -1, 7, -7, 2**20, -(2**20), I32_MAX, I32_MIN]
    cases = [("acc32_mean_about", d, n, b) for d in EDGES for n in ns for b in bases]
    cases += [("acc_mean_about", d * k, n, b) for d in EDGES[::2] for k in (1, 99, -499)
              for n in ns[:10] for b in bases]
    rnd = random.Random(48)
    for _ in range(3000):
        n = rnd.randint(1, 500)
        base = rnd.randint(-(2**25), 2**25)
        pos = [base + rnd.randint(-(2**21), 2**21) for _ in range(n)]
        d = sum(p - base for p in pos)
        cases.append(("acc32_mean_about", d, n, base))
        assert py("acc32_mean_about", d, n, base) == int(F.fx_acc_mean(np.int64(sum(pos)), np.int64(n)))
    check(driver, cases)


def test_positions_about(driver):
    """fx_acc32_about (codegen/passes/c_positions.py): the C sums cohesion's
    positions modulo 2^32 and takes them about the boid where read; that is
    the offsets' sum the simulator keeps, wrapped, for any positions, and
    so the same mean."""
    ns = [0, 1, -1, 2, 3, 99, 100, 499, 500, I32_MAX, I32_MIN]
    bases = [0, 1, -1, 7, -7, 2**20, -(2**20), 2**25, I32_MAX, I32_MIN]
    cases = [("about", p, n, b) for p in EDGES for n in ns for b in bases]
    rnd = random.Random(49)
    for _ in range(2000):
        n = rnd.randint(0, 500)
        base = rnd.choice([rnd.randint(-(2**25), 2**25), rnd.randint(I32_MIN, I32_MAX)])
        pos = [F.fx_wrap32(np.int64(base + rnd.randint(-(2**21), 2**21))) for _ in range(n)]
        p = F.fx_wrap32(np.int64(sum(int(v) for v in pos)))  # the C's sum, wrapping as it goes
        offsets = sum(int(F.fx_wrap32(np.int64(int(v) - base))) for v in pos)  # the IR's: sum -= dx
        assert py("about", int(p), n, base) == int(F.fx_wrap32(np.int64(offsets)))
        cases.append(("about", int(p), n, base))
    check(driver, cases)


def test_mul_by_one_product(driver):
    """fx_mul through fx_smul64 (one `mult` on the M4K; GCC at -O1 built the
    product from three) against the simulator on every pair of edges, signs
    and random words."""
    cases = [("mul", a, b) for a in EDGES for b in EDGES]
    rnd = random.Random(50)
    cases += [("mul", rnd.randint(I32_MIN, I32_MAX), rnd.randint(I32_MIN, I32_MAX)) for _ in range(3000)]
    cases += [("mul", rnd.randint(-(2**20), 2**20), rnd.randint(-(2**16), 2**16)) for _ in range(1000)]
    check(driver, cases)
