"""The board firmware, PIC32 layer included, compiles with -Werror for the
PIC32's MIPS32 M4K core and links into the PIC32MX250F128B's 128 KB flash and
32 KB RAM, for every spec (no XC32, no board: mipsel-linux-gnu-gcc)."""
from __future__ import annotations

import re

import pytest

from .conftest import ROOT, require_tool

SPECS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "spec").glob("*.yaml"))


@pytest.fixture(autouse=True)
def tools():
    require_tool("mipsel-linux-gnu-gcc")
    require_tool("mipsel-linux-gnu-size")
    require_tool("make")


@pytest.mark.parametrize("spec", SPECS)
def test_image_fits_the_part(spec):
    from codegen.drivers.pic32.compile_check import check_image

    r = check_image(str(ROOT / spec))
    assert 4096 < r["text"] and r["flash"] == r["text"] + r["data"] <= r["flash_max"] == 128 * 1024
    assert r["ram"] == r["data"] + r["bss"] <= r["ram_max"] == 32 * 1024
    # the flock array is in RAM: at least capacity x 4 words
    assert r["bss"] >= r["capacity"] * 16
    # docs/flashing.md's size table says what the image is today (tools/docs_blocks.py rewrites it)
    from codegen.drivers.pic32.compile_check import size_row

    r["spec"] = spec
    assert size_row(r) in (ROOT / "docs" / "flashing.md").read_text().splitlines(), size_row(r)


def test_a_flock_too_big_for_the_ram_fails(tmp_path):
    from codegen.drivers.pic32.compile_check import Pic32CheckError, check_image

    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    text, n = re.subn(r"capacity:\s*\d+", "capacity: 2500", (ROOT / "spec" / "boids.yaml").read_text())
    assert n == 1
    # narrow the protected range so the range analysis accepts 2500 neighbours' sums
    text, n = re.subn(r"(protected_range: \{default: 2, +min: 0, +max:) 100", r"\1 15", text)
    assert n == 1
    (spec_dir / "big.yaml").write_text(text)  # 2500 boids x 16 bytes > 32 KB
    with pytest.raises(Pic32CheckError, match="does not fit a PIC32MX250F128B"):
        check_image(str(spec_dir / "big.yaml"))


def test_size_parsing():
    from codegen.drivers.pic32.compile_check import Pic32CheckError, parse_size

    out = "   text\t   data\t    bss\t    dec\t    hex\tfilename\n  16946\t     48\t   3432\t  20426\t   4fca\tx.elf\n"
    assert parse_size(out) == {"text": 16946, "data": 48, "bss": 3432}
    with pytest.raises(Pic32CheckError):
        parse_size("garbage")
