"""Hostile inputs to the RP2040 tools (issue 50, items 1, 2, 3, 4, 9 and 11):
JavaScript the emulator would load from the folder one stands in, a forged
cmake build folder, build folders linked out of the project, project folder
names cmake cannot carry, an emulator that dies at once, pins the Pico's
header does not have.

Each refusal is one line naming where (file:line:col for a spec, the path or
variable otherwise), exit 2, nothing written outside the project. No test
here builds the pico-sdk project: each is refused (or, for the forged build
folder and the emulator's death, driven) before cmake or ninja would run."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from codegen.commands.cli import main

from .conftest import ROOT, require_tool

SCOUTS = (ROOT / "spec" / "scouts_vga.yaml").read_text(encoding="utf-8")


def _project(where: Path, text: str = SCOUTS) -> Path:
    spec = where / "spec" / "scouts_vga.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(text, encoding="utf-8")
    return spec


def _error_lines(err: str) -> list[str]:
    assert "Traceback" not in err and "internal error" not in err, err
    return [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(("warning:", "boidsgen: "))]


def _snapshot(root: Path) -> dict[str, bytes | str]:
    """Every entry under root (links not followed): a file's bytes, a link's target."""
    out: dict[str, bytes | str] = {}
    for top, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            p = Path(top) / name
            rel = p.relative_to(root).as_posix()
            out[rel] = ("-> " + os.readlink(p)) if p.is_symlink() else (p.read_bytes() if p.is_file() else "dir")
    return out


# ---------------------------------------------------------------- 11: pins the Pico's header does not carry

@pytest.mark.parametrize("board, where, needles", [
    ("{target: rp2040, rp2040: {rgb_base: 27}}", "rgb_base", ("rgb_base 27 needs GP27-GP30", "GP29", "GP30")),
    ("{target: rp2040, rp2040: {rgb_base: 20}}", "rgb_base", ("GP23 is not on the Pico's header",)),
    ("{target: rp2040, rp2040: {hsync: 23, vsync: 24}}", "hsync", ("GP23", "regulator")),
    ("{target: rp2040, rp2040: {hsync: 25}}", "hsync", ("GP25", "LED")),
])
def test_pins_off_the_picos_header_are_refused_where_they_are_written(tmp_path, capsys, board, where, needles):
    spec = tmp_path / "s.yaml"
    text = SCOUTS.replace("board: {target: rp2040}", f"board: {board}")
    assert text != SCOUTS
    spec.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("board:"))
    col = text.splitlines()[line - 1].index(f"{where}:") + len(where) + 3  # the value, 1-based
    capsys.readouterr()
    assert main(["check", str(spec)]) == 2
    lines = _error_lines(capsys.readouterr().err)
    first = lines[0]
    assert first.startswith(f"{spec}:{line}:{col}: board.rp2040.{where}: "), lines
    for n in needles:
        assert n in first, first
    assert "GP0-GP22 or GP26-GP28" in first


def test_the_header_pins_still_build_their_spec(tmp_path, capsys):
    """The last run that fits (GP19-GP22) and GP26-GP28 are accepted."""
    spec = tmp_path / "s.yaml"
    spec.write_text(SCOUTS.replace("board: {target: rp2040}", "board: {target: rp2040, rp2040: {rgb_base: 19, "
                                   "hsync: 26, vsync: 27, uart_tx: 28}}"), encoding="utf-8")
    assert main(["check", str(spec)]) == 0, capsys.readouterr().err


def test_the_schema_says_which_pins_the_header_carries():
    from codegen.spec.schema import Spec

    board = Spec.model_json_schema()["$defs"]["BoardRp2040"]["properties"]
    assert "GP0-GP22 or GP26-GP28" in board["hsync"]["description"]
    assert "header" in board["rgb_base"]["description"]
