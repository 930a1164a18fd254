"""Square roots only where a rule reads the magnitude (codegen/passes/roots.py,
issue 16): fixed.h's fx_mag2, fx_mag_root and fx_mag_lt ... fx_mag_ne against
their twins (pysim/fx_mag.py, served by pysim/fxops.py) bit for bit on edge
and random values, natively (GCC's spellings and FX_PORTABLE's) and as the
M4K runs them (-march=m4k -O1 under qemu-mipsel: fx_sq64 is a `mult` there),
both against floor(sqrt(s)) computed by Python's math.isqrt; which rules the
rewrite touches; and the rewritten default flock against the flock as
written, frame for frame, at its defaults and at extreme parameters."""
from __future__ import annotations

import random
import subprocess
from math import isqrt
from pathlib import Path

import numpy as np
import pytest

from pysim import fxops as F

from .conftest import ROOT, RUNTIME, RUNTIME_INCLUDES, RUNTIME_I_FLAGS, compile_c, require_tool
from .deadline import RUN

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
U64_MAX = 2**64 - 1
CMP = {"mag_lt": lambda r, m: r < m, "mag_le": lambda r, m: r <= m, "mag_gt": lambda r, m: r > m,
       "mag_ge": lambda r, m: r >= m, "mag_eq": lambda r, m: r == m, "mag_ne": lambda r, m: r != m}
MS = [0, 1, -1, 2, -2, 3, 7, 46340, 46341, 65535, 65536, 2 << 15, 3 << 15, 10 << 15, 1 << 30, I32_MAX - 1,
      I32_MAX, I32_MIN, I32_MIN + 1, -(3 << 15)]


def _squares_near(m: int) -> set:
    """s just below, at and above m^2 and (m + 1)^2 (within uint64)."""
    out = set()
    for k in (m, m + 1):
        if k >= 0:
            out |= {k * k - 1, k * k, k * k + 1}
    return {s for s in out if 0 <= s <= U64_MAX}


S_EDGES = sorted({0, 1, 2, 3, 4, I32_MAX, I32_MAX + 1, 2**32, 2**62 - 1, 2**62, 2**62 + 1, 2**63, U64_MAX,
                  (I32_MAX + 1) ** 2 - 1, (2**32 - 1) ** 2, (2**32 - 1) ** 2 - 1}
                 | set().union(*(_squares_near(abs(m)) for m in MS)))
XY = [0, 1, -1, 2, 46340, -46341, 65536, 1 << 30, I32_MAX, I32_MIN, I32_MIN + 1, 3 << 15, -(10 << 15)]


@pytest.fixture(scope="module", params=["host", "host-portable", "m4k"])
def driver(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("roots")
    src = ROOT / "tests" / "c" / "roots_driver.c"
    if request.param.startswith("host"):
        defines = {"FX_FRAC_BITS": 15} | ({"FX_PORTABLE": 1} if request.param == "host-portable" else {})
        return [str(compile_c([src], tmp / "rd", defines=defines, includes=RUNTIME_INCLUDES))]
    cc = require_tool("mipsel-linux-gnu-gcc")
    qemu = require_tool("qemu-mipsel")
    exe = tmp / "rd_m4k"
    flags = ["-march=m4k", "-O1", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-DFX_FRAC_BITS=15",
             *RUNTIME_I_FLAGS]
    res = subprocess.run([cc, *flags, "-static", str(src), "-o", str(exe)], capture_output=True, text=True,
                         timeout=RUN)
    assert res.returncode == 0, res.stderr
    asm = subprocess.run([cc, *flags, "-S", str(src), "-o", "-"], capture_output=True, text=True, timeout=RUN,
                         check=True).stdout
    assert "\tmult\t" in asm  # the HI:LO squares are the spelling under test
    return [qemu, str(exe)]


def run(cmd, cases) -> list[int]:
    text = "".join(f"{op} {a} {b}\n" for op, a, b in cases)
    out = subprocess.run(cmd, input=text, capture_output=True, text=True, check=True, timeout=RUN).stdout.split()
    assert len(out) == len(cases)
    return [int(v) for v in out]


def py(op: str, a: int, b: int, plain: bool = False) -> int:
    """The simulator's value (numba, or with `plain` its plain-Python body)."""
    fn = getattr(F, "fx_" + op)
    fn = fn.py_func if plain else fn
    if op == "mag2":
        return int(fn(np.int64(a), np.int64(b)))
    if op in ("mag_root", "isqrt64"):
        return int(fn(np.uint64(a)))
    return int(bool(fn(np.uint64(a), np.int64(b))))


def truth(op: str, a: int, b: int) -> int:
    """What ops.py says, from exact integers."""
    if op == "mag2":
        return a * a + b * b
    if op == "mag_root":
        return min(isqrt(a), I32_MAX)
    if op == "isqrt64":
        return isqrt(a)
    return int(CMP[op](isqrt(a), b))


def check(cmd, cases):
    for (op, a, b), got in zip(cases, run(cmd, cases)):
        want = truth(op, a, b)
        assert got == want, f"{op}({a}, {b}): C {got}, exact {want}"
        assert py(op, a, b) == want, f"{op}({a}, {b}): Python {py(op, a, b)}, exact {want}"


def _edge_cases() -> list:
    cases = [(op, s, m) for op in CMP for s in S_EDGES for m in MS]
    cases += [(op, s, m) for op in CMP for m in MS for s in _squares_near(m)]  # m's own neighbourhood
    cases += [("mag_root", s, 0) for s in S_EDGES]
    cases += [("mag2", x, y) for x in XY for y in XY]
    return cases


def test_mag_ops_edges(driver):
    check(driver, _edge_cases())


def test_mag_ops_random(driver):
    rnd = random.Random(62)
    cases = []
    for _ in range(3000):
        m = rnd.choice([rnd.randint(-100, 100), rnd.randint(0, 1 << 20), rnd.randint(I32_MIN, I32_MAX)])
        s = rnd.choice([rnd.randint(0, U64_MAX), rnd.randint(0, 1 << 40), max(m, 0) ** 2 + rnd.randint(-3, 3)])
        cases.append((rnd.choice(list(CMP)), max(s, 0), m))
        cases.append(("mag_root", rnd.randint(0, 1 << rnd.choice([20, 40, 62, 63, 64])) % (U64_MAX + 1), 0))
        cases.append(("mag2", rnd.randint(I32_MIN, I32_MAX), rnd.randint(I32_MIN, I32_MAX)))
    check(driver, cases)


def _isqrt_cases() -> list:
    """fx_isqrt64 itself (the roots mag_root saturates too): around the square
    of every root length, where its word-sized first stage hands over to the
    bit-by-bit second, and on random values of every length."""
    rnd = random.Random(64)
    vals = set(S_EDGES)
    for j in range(33):
        for k in (2**j - 1, 2**j, 2**j + 1, rnd.randint(2**j, 2 ** (j + 1))):
            vals |= {v for v in _squares_near(k) if v <= U64_MAX}
    vals |= {rnd.randint(0, (1 << rnd.randint(1, 64)) - 1) for _ in range(3000)}
    return [("isqrt64", v, 0) for v in sorted(vals)]


def test_isqrt64(driver):
    check(driver, _isqrt_cases())


def test_isqrt_table_is_its_formula():
    """fixed_roots.h's estimate table, against the formula its comment gives:
    entry t - 64 is ceil(sqrt((t + 1) * 2^24)) - 1, never below the root of
    any word with top byte t, and the one Newton step from it lands at most
    one above the root (the bound fx_isqrt_word's comment states); and the
    step's reciprocal table, floor((2^32 - 1) / (entry + 1))."""
    import re

    text = (RUNTIME / "core" / "fixed_roots.h").read_text()
    body = re.search(r"fx_isqrt_est\[192\] = \{([^}]*)\}", text).group(1)
    table = [int(v) for v in body.replace(",", " ").split()]
    want = []
    for t in range(64, 256):
        n = (t + 1) << 24
        r = isqrt(n)
        want.append(r + (r * r < n) - 1)
    assert table == want
    # the step's reciprocals (fx_isqrt_rec), the divisor fx_udiv_by takes them for
    body = re.search(r"fx_isqrt_rec\[192\] = \{([^}]*)\}", text).group(1)
    assert [int(v.rstrip("u")) for v in body.replace(",", " ").split()] == [(2**32 - 1) // (e + 1) for e in table]
    rnd = random.Random(30)
    for t in range(64, 256):
        for x in (t << 24, ((t + 1) << 24) - 1, rnd.randint(t << 24, ((t + 1) << 24) - 1)):
            r0 = table[t - 64] + 1
            r1 = (r0 + x // r0) >> 1
            assert r0 >= isqrt(x) and isqrt(x) <= r1 <= isqrt(x) + 1 and r1 < 1 << 16, (t, x)


def test_plain_python_bodies_agree():
    """NUMBA_DISABLE_JIT runs the functions' own bodies: the same values."""
    for op, a, b in _edge_cases()[::7]:
        assert py(op, a, b, plain=True) == truth(op, a, b), (op, a, b)


def test_mag_root_is_hypot_below_2_62():
    """Where fx_hypot does not wrap, the root of the squared magnitude is it."""
    rnd = random.Random(7)
    for _ in range(2000):
        x, y = rnd.randint(-(1 << 30), 1 << 30), rnd.randint(-(1 << 30), 1 << 30)
        s = F.fx_mag2(np.int64(x), np.int64(y))
        assert int(s) < 2**62 and F.fx_mag_root(s) == F.fx_hypot(np.int64(x), np.int64(y))
    big = F.fx_mag2(np.int64(I32_MIN), np.int64(I32_MIN))  # 2^63: fx_hypot wraps, the root saturates
    assert F.fx_hypot(np.int64(I32_MIN), np.int64(I32_MIN)) < 0 and F.fx_mag_root(np.uint64(big)) == I32_MAX


# ------------------------------------------------------------------ the rewrite

RULE = """\
r:
  description: test
  roles: {{lim: fixed}}
  apply: |
{body}
"""


def _rule(tmp_path: Path, body: str):
    from codegen.lang.library import load_rule_file

    path = tmp_path / "r.yaml"
    path.write_text(RULE.format(body="\n".join("    " + ln for ln in body.strip().splitlines())))
    return load_rule_file(path, 15)


def _text(ir) -> str:
    from codegen.targets.numba.emit import Emitter

    e = Emitter("fixed", 15, lambda r: r.name)
    return "\n".join(e.block(ir.apply, 0))


def test_speed_limit_rewritten_only_for_an_exact_magnitude():
    from codegen.lang.library import load_library
    from codegen.analysis.roots_rewrite import rewrite_rule

    lib = load_library(frac_bits=15)
    ir, done = rewrite_rule(lib["speed_limit"], exact=True)
    assert done == [("apply", "speed", "speed_sq")]
    text = _text(ir)
    assert "fx_mag(" not in text and text.count("fx_mag_root(speed_sq)") == 2
    assert "fx_mag_lt(speed_sq, min)" in text and "fx_mag_eq(speed_sq, 0)" in text
    assert "fx_mag_gt(speed_sq, max)" in text
    assert rewrite_rule(lib["speed_limit"], exact=False)[1] == []  # alpha-max-plus-beta-min: as written


@pytest.mark.parametrize("body, rewritten", [
    ("m = hypot(vx, vy)\nif m > lim:\n    vx = vx / m", True),
    ("m = hypot(vx, vy)\nif lim < m:\n    vx = vx / m", True),  # the compare flips
    ("m = hypot(vx, vy)\nvx = vx / m", False),  # read right away: nothing to gain
    ("m = hypot(vx, vy)\nif m == 0:\n    vx = lim\nelse:\n    vx = vx / m", False),  # only against 0
    ("m = hypot(vx, vy)\nif m > lim:\n    vx = lim\nvy = vy / m", False),  # every path reads it
    ("m = hypot(vx, vy)\nif m + lim > lim:\n    vx = vx / m", False),  # read in arithmetic
])
def test_what_is_rewritten(tmp_path, body, rewritten):
    from codegen.analysis.roots_rewrite import rewrite_rule

    ir, done = rewrite_rule(_rule(tmp_path, body), exact=False)
    assert bool(done) == rewritten, _text(ir)
    if rewritten:
        text = _text(ir)
        assert "fx_mag_gt(m_sq, lim)" in text and "fx_hypot" not in text


def test_check_reports_the_rewrite():
    from codegen.passes.widths import report
    from codegen.output.pipeline import load

    lines = "\n".join(report(load(ROOT / "spec" / "boids.yaml")))
    assert "root on demand  speed_limit.speed" in lines and "bit for bit the rule as written" in lines
    assert "square roots" not in "\n".join(report(load(ROOT / "spec" / "obstacles.yaml")))  # alpha-max-beta-min


def test_generated_code_takes_the_root_only_where_read():
    c = (ROOT / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    block = c[c.index("/* speed_limit */"):]
    block = block[:block.index("vx = ", block.index("fx_mag_gt"))]
    assert "BOIDS_MAG" not in block and block.count("fx_mag_root(speed_sq)") == 2
    assert block.index("fx_mag_lt(speed_sq") < block.index("fx_mag_root")


# ------------------------------------------------------- the same flock as written

def _models(tmp_path_factory):
    """(rewritten, as written) simulator models of the default spec."""
    from codegen.passes import roots
    from codegen.analysis.ranges import analyse
    from codegen.output.pipeline import load
    from codegen.output.render import render_python
    from pysim.model_support import load_model

    m = load(ROOT / "spec" / "boids.yaml")
    out = []
    for name, rooted in (("rooted", roots.rooted), ("written", lambda m, assume=None: (m, analyse(m), []))):
        folder = tmp_path_factory.mktemp(name)
        saved, roots.rooted = roots.rooted, rooted
        try:
            files = render_python(m)
        finally:
            roots.rooted = saved
        for rel, text in files.items():
            (folder / Path(rel).name).write_text(text)
        out.append(load_model(folder / "boids_model.py", expect_hash=m.hash))
    assert "fx_mag_lt" in Path(out[0].__file__).with_name("boids_kernel.py").read_text()
    assert "fx_mag_lt" not in Path(out[1].__file__).with_name("boids_kernel.py").read_text()
    return out


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    return _models(tmp_path_factory)


@pytest.mark.parametrize("params", [
    {},
    {"max_speed": "10", "min_speed": "0", "avoid_factor": "1", "protected_range": "100"},
    {"max_speed": "0", "min_speed": "10", "matching_factor": "1", "turn_factor": "2"},
    {"max_speed": "0.5", "min_speed": "0", "centering_factor": "1", "visual_range": "200"},
])
def test_rewritten_flock_is_the_flock_as_written(models, params):
    from pysim.engine import Simulation

    sims = [Simulation(mod, "fixed", seed=11, boids=100) for mod in models]
    for s in sims:
        for k, v in params.items():
            s.params.set(k, v)
    for frame in range(150):
        for s in sims:
            s.step()
        for k in sims[0].b:
            assert np.array_equal(sims[0].b[k], sims[1].b[k]), (frame, k, params)
