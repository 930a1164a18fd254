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


# ---------------------------------------------------------------- 1: JavaScript only from the tool's own copy

def _forged_rp2040js(folder: Path, version: str = "1.4.1") -> Path:
    """folder/node_modules/rp2040js: a package whose entry module, when imported, writes a file beside it."""
    pkg = folder / "node_modules" / "rp2040js"
    (pkg / "dist" / "esm").mkdir(parents=True)
    (pkg / "package.json").write_text(f'{{"name": "rp2040js", "version": "{version}"}}', encoding="utf-8")
    (pkg / "dist" / "esm" / "index.js").write_text(
        "import { writeFileSync } from 'node:fs';\n"
        f"writeFileSync({str(folder / 'RAN')!r}, 'forged rp2040js ran');\n"
        "export class Simulator {}\nexport class ConsoleLogger {}\nexport const LogLevel = {};\n", encoding="utf-8")
    return pkg


def _tools_own_rp2040js() -> None:
    require_tool("node")
    if not (ROOT / "node_modules" / "rp2040js").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("rp2040js is not installed: `npm ci` (tools/setup.sh)")
        pytest.skip("rp2040js is not installed: `npm ci` (tools/setup.sh)")


def test_node_modules_of_the_working_folder_never_run(tmp_path, monkeypatch):
    """A project (or any folder one stands in) carrying node_modules/rp2040js: the emulator loads the tool's
    own pinned copy; the forged module never runs, even when the image it is given is not an image."""
    from codegen.targets.host.make_run import BuildError
    from codegen.targets.rp2040 import tools
    from codegen.targets.rp2040.emulator import run_image

    _tools_own_rp2040js()
    monkeypatch.delenv("BOIDSGEN_RP2040JS", raising=False)
    _forged_rp2040js(tmp_path)
    monkeypatch.chdir(tmp_path)
    elf = tmp_path / "not.elf"
    elf.write_bytes(b"not an ELF")
    with pytest.raises(BuildError):
        run_image(elf)
    assert not (tmp_path / "RAN").exists()
    assert tools.emulator()[1] == (ROOT / "node_modules" / "rp2040js" / "dist" / "esm" / "index.js").resolve()


def test_a_named_rp2040js_must_be_the_pinned_version(tmp_path, monkeypatch):
    from codegen.targets.host.make_run import BuildError
    from codegen.targets.rp2040 import tools

    require_tool("node")
    pkg = _forged_rp2040js(tmp_path, version="1.3.0")
    monkeypatch.setenv(tools.RP2040JS_ENV, str(pkg))
    with pytest.raises(BuildError) as e:
        tools.emulator()
    msg = str(e.value)
    assert "\n" not in msg and tools.RP2040JS_ENV in msg and str(pkg) in msg and "1.3.0" in msg, msg
    assert "not the pinned 1.4.1" in msg
    (pkg / "package.json").write_text('{"name": "rp2040js", "version": "1.4.1"}', encoding="utf-8")
    assert tools.emulator()[1] == (pkg / "dist" / "esm" / "index.js").resolve()  # the one the user named
    monkeypatch.setenv(tools.RP2040JS_ENV, str(tmp_path / "nothing"))
    with pytest.raises(BuildError, match="is not an rp2040js package"):
        tools.emulator()


def test_the_tools_own_copy_is_checked_and_the_pin_is_one(tmp_path, monkeypatch):
    """package.json, package-lock.json and tools.RP2040JS_VERSION pin one version; a copy of another version
    in the tool's own node_modules is refused as a named one is."""
    import json

    from codegen.targets.host.make_run import BuildError
    from codegen.targets.rp2040 import tools

    require_tool("node")
    assert json.loads((ROOT / "package.json").read_text())["dependencies"]["rp2040js"] == tools.RP2040JS_VERSION
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/rp2040js"]["version"] == tools.RP2040JS_VERSION
    monkeypatch.delenv(tools.RP2040JS_ENV, raising=False)
    _forged_rp2040js(tmp_path / "tool", version="9.9.9")
    monkeypatch.setattr(tools, "TOOL_ROOT", tmp_path / "tool")
    with pytest.raises(BuildError, match=r"holds rp2040js 9\.9\.9, not the pinned 1\.4\.1"):
        tools.emulator()


def test_an_installed_tool_says_how_to_install_rp2040js_and_name_it(tmp_path, monkeypatch):
    from codegen.targets.host.make_run import BuildError
    from codegen.targets.rp2040 import tools

    require_tool("node")
    monkeypatch.delenv(tools.RP2040JS_ENV, raising=False)
    _forged_rp2040js(tmp_path)  # in the working folder: not looked at
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tools, "TOOL_ROOT", tmp_path / "site-packages")  # a wheel: no package.json around it
    with pytest.raises(BuildError) as e:
        tools.emulator()
    msg = str(e.value)
    assert "\n" not in msg and "npm install rp2040js@1.4.1" in msg and "BOIDSGEN_RP2040JS=" in msg, msg
