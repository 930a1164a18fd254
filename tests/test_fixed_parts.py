"""fixed.h's Cortex-M0+ products (FX_M0_PARTS: 16 x 16 partial products
in place of __aeabi_lmul calls, issue 36) against the exact integers, on
edge cases and random operands: the same driver built with them
(-DFX_PARTIAL_PRODUCTS, on the host) and with the portable products, both
held to Python's arithmetic. On the RP2040 itself they run in every rp2040js
parity test (tests/test_rp2040.py, tests/test_rp2040_split.py); that
arm-none-eabi-gcc for the Cortex-M0+ selects them is checked here too, and
fixed_sums.h's FX_M0_SUMS (its 64-bit sums: predator_vga's in rp2040js). So is the zone tests' prefilter (FX_M0_D2_PREFILTER, fixed_zones.h): the
same answers as the exact tests, on pairs at every zone's edge."""
from __future__ import annotations

import math
import random
import subprocess

import pytest

from tests.conftest import RUNTIME, compile_c, require_tool
from tests.deadline import RUN

EDGES = [0, 1, 2, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x10001, 0x1FFFF, 0xFFFF0000, 0xFFFF8000, 0x7FFFFFFF,
         0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0x00FFFFFF, 0x40000000, 0x3FFFFFFF, 0xC0000000]
FRAC = 16


def s32(u: int) -> int:
    return u - (1 << 32) if u & 0x80000000 else u


def expected(a: int, b: int, r: int) -> str:
    sa, sb, sr = s32(a), s32(b), s32(r)
    d2 = sa * sa + sb * sb
    inner = outer = within = 0
    if abs(sa) < 1 << 30 and abs(sb) < 1 << 30 and abs(sr) < 1 << 30:
        inner = -1 if d2 < sr * sr else 0
        outer = -1 if d2 < sr * sr + (sr >> 1) * (sr >> 2) else 0
        within = -1 if d2 < sr * sr else 0
    mul = s32(((sa * sb) >> FRAC) & 0xFFFFFFFF)
    return f"{a * b} {sa * sb} {(a * b) >> 32} {d2} {sa * sa} {inner} {outer} {within} {mul}"


@pytest.fixture(scope="module")
def operands():
    rng = random.Random(36)
    rows = [(a, b, r) for a in EDGES for b in EDGES for r in (0, 1, 0x28_0000, 0x7FFF_FFFF)]
    rows += [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(24)) for _ in range(20_000)]
    rows += [(rng.getrandbits(rng.randint(1, 32)), rng.getrandbits(rng.randint(1, 32)), rng.getrandbits(23))
             for _ in range(20_000)]  # small words too: the partial products' carries at every width
    return rows


@pytest.mark.parametrize("parts", [True, False], ids=["partial-products", "portable"])
def test_the_products_are_the_exact_integers(tmp_path, operands, parts):
    exe = compile_c([RUNTIME.parent / "tests" / "c" / "parts_driver.c"], tmp_path / "parts",
                    {"FX_FRAC_BITS": FRAC, **({"FX_PARTIAL_PRODUCTS": 1} if parts else {})}, [RUNTIME / "core"])
    feed = "".join(f"{a:x} {b:x} {r:x}\n" for a, b, r in operands)
    res = subprocess.run([str(exe)], input=feed, capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    assert ("parts" in res.stderr) == parts  # the path under test is the one compiled
    got = res.stdout.splitlines()
    assert len(got) == len(operands)
    for (a, b, r), line in zip(operands, got):
        assert line == expected(a, b, r), (hex(a), hex(b), hex(r))


def test_the_cortex_m0plus_build_selects_them(tmp_path):
    gcc = require_tool("arm-none-eabi-gcc")
    src = tmp_path / "t.c"
    src.write_text('#include "fixed.h"\n')
    res = subprocess.run([gcc, "-mcpu=cortex-m0plus", "-mthumb", "-DFX_FRAC_BITS=16", f"-I{RUNTIME / 'core'}",
                          "-dM", "-E", str(src)], capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    assert "#define FX_M0_PARTS 1" in res.stdout
    assert "#define FX_M0_SUMS 1" in res.stdout  # fixed_sums.h's ADDS/ADCS: run by every rp2040js parity test
    res = subprocess.run(["gcc", "-DFX_FRAC_BITS=16", f"-I{RUNTIME / 'core'}", "-dM", "-E", str(src)],
                         capture_output=True, text=True, timeout=RUN)
    assert "FX_M0_PARTS" not in res.stdout  # the host keeps its own products
    assert "FX_M0_SUMS" not in res.stdout  # and its own sums


def edge_cases(rng: random.Random) -> list[tuple[int, int, int, int]]:
    """(dx, dy, r, v): pairs whose d2 is at, just inside or just outside
    r^2 or v^2 (the prefilter's undecided cases and their neighbours), far
    from both, and of |dx| or |dy| at 2^22 (where the prefilter stands aside)."""
    rows = []
    for _ in range(6_000):
        dx, dy = rng.randint(-(1 << 22) + 1, (1 << 22) - 1), rng.randint(-(1 << 22) + 1, (1 << 22) - 1)
        if rng.random() < 0.3:
            dx, dy = dx >> rng.randint(0, 20), dy >> rng.randint(0, 20)
        edge = math.isqrt(dx * dx + dy * dy)
        near = [edge + k for k in (-1, 0, 1, 2)]
        r = rng.choice(near + [rng.randint(0, 1 << 22)])
        v = rng.choice(near + [r + rng.randint(0, 1 << 22)])
        rows.append((dx, dy, r, max(r, v)))
    for k in (-1, 0, 1):
        rows += [((1 << 22) + k, 5, 1 << 22, (1 << 22) + 9), (-(1 << 22) - k, -(1 << 22), 3 << 21, 1 << 23),
                 (0, 0, 0, 0), (1, 0, 1, 1), (255, 255, 360, 361), (256, 0, 256, 257)]
    rows += [(rng.randint(-(1 << 23), 1 << 23), rng.randint(-(1 << 23), 1 << 23), rng.randint(0, 1 << 24),
              rng.randint(1 << 24, 1 << 29)) for _ in range(2_000)]  # ranges of any size: words saturated
    return rows


def test_the_prefilter_answers_as_the_exact_tests(tmp_path):
    exe = compile_c([RUNTIME.parent / "tests" / "c" / "prefilter_driver.c"], tmp_path / "prefilter",
                    {"FX_FRAC_BITS": FRAC, "FX_PARTIAL_PRODUCTS": 1}, [RUNTIME / "core"])
    rows = edge_cases(random.Random(3602))
    res = subprocess.run([str(exe)], input="".join(f"{dx} {dy} {r} {v}\n" for dx, dy, r, v in rows),
                         capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    assert "prefilter" in res.stderr  # the prefilter is the path under test
    got = res.stdout.splitlines()
    assert len(got) == len(rows)
    decided_by_it = 0
    for (dx, dy, r, v), line in zip(rows, got):
        d2 = dx * dx + dy * dy
        want = [-1 if d2 < r * r else 0, -1 if d2 < v * v else 0, -1 if d2 < v * v else 0]
        words = [int(w) for w in line.split()]
        assert words[:3] == want == words[3:], (dx, dy, r, v, line)
        decided_by_it += max(abs(dx), abs(dy)) < 1 << 22
    assert decided_by_it > len(rows) // 2  # most rows go through the prefilter, not around it


def test_exact_index_is_the_quotient(tmp_path):
    """fx_exact_index (the pair ring's slot from a byte offset: a multiply, no
    division) against bytes / size, for element sizes even and odd."""
    src = tmp_path / "index.c"
    src.write_text('#include <stdio.h>\n#include "fixed.h"\nint main(void) {\n'
                   '    static const uint32_t sizes[] = {1, 3, 4, 12, 16, 20, 24, 28, 36, 44, 64, 100};\n'
                   '    unsigned bad = 0, n = 0;\n'
                   '    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)\n'
                   '        for (uint32_t k = 0; k < 70000u; k += 1 + k / 256, n++)\n'
                   '            bad += fx_exact_index(k * sizes[s], sizes[s]) != k;\n'
                   '    printf("%u %u\\n", bad, n);\n    return 0;\n}\n')
    exe = compile_c([src], tmp_path / "index", {"FX_FRAC_BITS": FRAC}, [RUNTIME / "core"])
    res = subprocess.run([str(exe)], capture_output=True, text=True, timeout=RUN)
    bad, n = map(int, res.stdout.split())
    assert res.returncode == 0 and n > 15_000 and bad == 0
