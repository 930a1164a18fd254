"""`boidsgen budget`: the qemu log arithmetic, the table's interpolation,
and one real run (cross-compiled m4k frame under qemu-mipsel)."""
from __future__ import annotations

import pytest

import re

from codegen.drivers.pic32.budget.measure import Budget, BudgetError, Row, count_instructions, count_segments
from codegen.commands.cli import main

from .conftest import DEFAULT_SPEC, require_tool

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: the firmware under qemu

LOG = """\
IN: budget_mark
0x00400100:  jr ra
0x00400104:  nop

IN: boids_step
0x00400200:  addiu sp,sp,-8
0x00400204:  lw v0,0(a0)
0x00400208:  bnez v0,0x400300

IN: loop
0x00400300:  addiu v0,v0,-1
0x00400304:  bnez v0,0x400300

Trace 0: 0x7f00 [00000000/00400200/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00400100/00000000/ff000000] budget_mark
Trace 0: 0x7f00 [00000000/00400200/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00400300/00000000/ff000000] loop
Trace 0: 0x7f00 [00000000/00400300/00000000/ff000000] loop
Trace 0: 0x7f00 [00000000/00400100/00000000/ff000000] budget_mark
Trace 0: 0x7f00 [00000000/00400300/00000000/ff000000] loop
"""


def test_count_instructions_between_the_markers(tmp_path):
    log = tmp_path / "q.log"
    log.write_text(LOG)
    assert count_instructions(log, 0x400100) == 3 + 2 + 2


def test_count_segments_gives_the_frame_then_the_digest(tmp_path):
    """mark; frame; mark; digest; mark: two segments, each its own count."""
    log = tmp_path / "q.log"
    log.write_text(LOG + "Trace 0: 0x7f00 [00000000/00400200/00000000/ff000000] boids_step\n"
                   "Trace 0: 0x7f00 [00000000/00400100/00000000/ff000000] budget_mark\n")
    assert count_segments(log, 0x400100, 2) == [3 + 2 + 2, 2 + 3]
    with pytest.raises(BudgetError, match="3 of 4"):
        count_segments(log, 0x400100, 3)


def test_largest_n_interpolates_the_frame_time():
    rows = [Row("grid", n, {"-O1": n * 1000}, spi_bytes=0) for n in (100, 200, 400)]
    b = Budget("x", 20_000_000, 30, 1.0, 40_000_000, rows, {"grid": (36.0, 2000)}, 0)
    # 1,333,333 cycles a frame at 1000 instructions per boid: 1333 boids, beyond the measured N
    assert b.fits("grid", "-O1").startswith(">= 400")
    rows.append(Row("grid", 2000, {"-O1": 2_000_000}, spi_bytes=0))
    assert b.fits("grid", "-O1") == "~1333"
    assert b.fits("grid", "-O1") != b.fits("nothing", "-O1")


def test_budget_cli_measures_a_frame(capsys):
    for tool in ("gcc", "make", "mipsel-linux-gnu-gcc", "qemu-mipsel"):
        require_tool(tool)
    assert main(["budget", DEFAULT_SPEC, "--boids", "40", "120", "--warmup", "20"]) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\| (brute \(sequential\)|grid \(synchronous\)) \| (\d+) \| ([\d,]+) \| ([\d,]+) \|.*?\| ([\d,]+) \| [\d.]+ \|", line)
        if m:
            rows[(m.group(1)[:4], int(m.group(2)))] = tuple(int(g.replace(",", "")) for g in m.group(3, 4, 5))
    assert set(rows) == {("brut", 40), ("brut", 120), ("grid", 40), ("grid", 120)}, out
    for (v, n), (o1, o2, spi) in rows.items():
        assert o1 > 100 * n and o2 > 100 * n
        # pixels: erase + draw, 11 to 13 SPI bytes each (a few may be clipped)
        assert 15 * n <= spi <= 26 * n, (v, n, spi)
    # start-up counted once, apart from the frames: tft_init (TFT_INIT_BYTES) and
    # the first black screen (one window, 2 bytes a pixel)
    assert re.search(r"start-up, once and not in any frame: 57 SPI bytes of ILI9340 initialisation "
                     r"\+ 153,611 clearing the panel", out), out
    # the brute-force pair loop grows faster than linearly
    assert rows[("brut", 120)][0] > 4 * rows[("brut", 40)][0]
    # per boid: x, y, vx, vy (4 x 4 B) and its place in the drawn pixel set (draw.h: 2 x 2 B)
    assert re.search(r"brute \(sequential\): largest N at 30 fps: .*RAM 20 B per boid", out), out
    assert re.search(r"grid \(synchronous\): largest N at 30 fps: .*RAM \d+ B per boid.*at most \d+ boids in 32 KB", out)
    # plain beside fast (performance.optimize): the same variants, the same flocks (SPI bytes), no pair ring
    plain = {}
    for line in out.splitlines():
        m = re.match(r"\| (brute \(sequential\)|grid \(synchronous\)), plain \| (\d+) \| ([\d,]+) \| [\d,]+ \|.*?"
                     r"\| ([\d,]+) \| [\d.]+ \|", line)
        if m:
            plain[(m.group(1)[:4], int(m.group(2)))] = (int(m.group(3).replace(",", "")), int(m.group(4).replace(",", "")))
    assert set(plain) == set(rows), out
    for k, (o1, spi) in plain.items():
        assert spi == rows[k][2] and o1 > 100 * k[1]
    # what the passes buy the grid: each pair once, the window's sums (fewer instructions at 120 boids)
    assert plain[("grid", 120)][0] > rows[("grid", 120)][0]
    assert re.search(r"grid \(synchronous\), plain: largest N at 30 fps: .*RAM \d+ B per boid \+ [\d,]+ B \(image, "
                     r"1 KB stack\) -> at most", out), out


def test_budget_variants_plain_beside_fast():
    from codegen.drivers.pic32.budget.measure import variants_for
    from codegen.output.pipeline import load

    spec = load(DEFAULT_SPEC).spec
    assert variants_for(spec, "both") == [("brute (sequential)", {}),
                                          ("grid (synchronous)", {"order": "synchronous", "grid": True})]
    assert variants_for(spec, "both", "both") == [
        ("brute (sequential)", {}), ("brute (sequential), plain", {"optimize": "plain"}),
        ("grid (synchronous)", {"order": "synchronous", "grid": True}),
        ("grid (synchronous), plain", {"order": "synchronous", "grid": True, "optimize": "plain"})]
    assert variants_for(spec, "spec", "plain") == [("brute (sequential), plain", {"optimize": "plain"})]
    # a plain spec: its own rows are the plain ones, the fast ones an override
    plain = load(DEFAULT_SPEC, optimize="plain").spec
    assert variants_for(plain, "spec", "both") == [("brute (sequential)", {"optimize": "fast"}),
                                                   ("brute (sequential), plain", {})]
