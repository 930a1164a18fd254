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
    return [ln for ln in err.splitlines()
            if ln.strip() and not ln.startswith("warning:") and not re.match(r"boidsgen: \d+ error\(s\)", ln)]


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


# ---------------------------------------------------------------- 9: an emulator that dies at once

def test_emulate_says_when_the_emulator_dies_and_exits_non_zero(tmp_path, monkeypatch, capsys):
    """The runner ends at once (the image is not an ELF): emulate says so in one line, with the runner's
    error, and exits 1, instead of printing the pty's path and exiting 0. Nothing is built: the build is
    replaced by an image that is not one."""
    from codegen.output import pipeline
    from codegen.targets.rp2040 import build
    from codegen.targets.rp2040.build import Rp2040Build

    _tools_own_rp2040js()
    monkeypatch.delenv("BOIDSGEN_RP2040JS", raising=False)
    spec = _project(tmp_path / "proj")
    elf = tmp_path / "broken.elf"
    elf.write_bytes(bytes(64))
    monkeypatch.setattr(pipeline, "emit", lambda *a, **k: [])
    monkeypatch.setattr(build, "build_rp2040", lambda *a, **k: Rp2040Build(elf, elf, elf, 0, 0))
    capsys.readouterr()
    rc = main(["emulate", str(spec), "--seconds", "60"])
    cap = capsys.readouterr()
    assert rc == 1, cap
    lines = _error_lines(cap.err)
    assert len(lines) == 1, cap.err
    assert "the emulator (rp2040js) stopped on its own" in lines[0] and "not a 32-bit little-endian ELF" in lines[0]


# ---------------------------------------------------------------- 3: one write guard, links refused

def _outside(tmp_path: Path) -> Path:
    d = tmp_path / "outside"
    d.mkdir()
    (d / "boids_rp2040.uf2").write_bytes(b"not yours")
    (d / "cmake").mkdir()
    (d / "cmake" / "CMakeCache.txt").write_text("CMAKE_HOME_DIRECTORY:INTERNAL=/elsewhere\n", encoding="utf-8")
    return d


@pytest.mark.parametrize("argv", [["emulate", "--seconds", "1"], ["budget", "--target", "rp2040", "--boids", "10"],
                                  ["build", "--target", "rp2040"], ["parity", "--target", "rp2040", "--frames", "2"]])
def test_a_linked_build_folder_is_refused_by_every_rp2040_command(tmp_path, capsys, argv):
    """build/scouts_vga -> a folder outside: refused in one line naming the link, exit 2, before anything is
    written (no generated/ either) and nothing outside touched."""
    spec = _project(tmp_path / "proj")
    outside = _outside(tmp_path)
    (tmp_path / "proj" / "build").mkdir()
    link = tmp_path / "proj" / "build" / "scouts_vga"
    link.symlink_to(outside)
    before = _snapshot(outside)
    capsys.readouterr()
    assert main([argv[0], str(spec), *argv[1:]]) == 2
    lines = _error_lines(capsys.readouterr().err)
    assert len(lines) == 1 and str(link) in lines[0] and "symbolic link" in lines[0], lines
    assert _snapshot(outside) == before
    assert sorted(p.name for p in (tmp_path / "proj").iterdir()) == ["build", "spec"]


def _fake_tools(monkeypatch, ran: list, configure=None, build=None):
    """build_rp2040 without the pico-sdk: its tools found, cmake and ninja recorded (and faked by configure
    and build, each given the cmake folder), the image's sizes made up. The build records in a private
    folder of the test's own."""
    from codegen.targets.rp2040 import build as rp_build
    from codegen.targets.rp2040.tools import Toolchain

    monkeypatch.setattr(rp_build, "build_tools", lambda: Toolchain(Path("/no/sdk")))
    monkeypatch.setattr(rp_build, "sizes", lambda elf: (1, 1))

    def run(cmd, cwd=None, env=None):
        folder = Path(cmd[cmd.index("-B") + 1] if cmd[0] == "cmake" else cmd[-1])
        ran.append((cmd[0], sorted(p.name for p in folder.iterdir()) if folder.is_dir() else None))
        hook = configure if cmd[0] == "cmake" else build
        if hook is None:
            raise rp_build.BuildError(f"{cmd[0]} ran")
        hook(folder)

    monkeypatch.setattr(rp_build, "_run", run)


def test_a_cmake_folder_that_is_a_link_is_refused_naming_it(tmp_path, monkeypatch):
    """build/<name>/rp2040/cmake a link to a folder beside it (a link that stays inside): not removed through,
    not configured into; one line naming it, not a bare "Cannot call rmtree on a symbolic link"."""
    from codegen.output.pipeline import checked_model
    from codegen.spec.safe_paths import OutputError
    from codegen.targets.rp2040.build import build_rp2040

    spec = _project(tmp_path / "proj")
    m = checked_model(spec)
    rp = tmp_path / "proj" / "build" / "scouts_vga" / "rp2040"
    (rp / "elsewhere").mkdir(parents=True)
    (rp / "elsewhere" / "CMakeCache.txt").write_text("CMAKE_HOME_DIRECTORY:INTERNAL=/x\n", encoding="utf-8")
    (rp / "cmake").symlink_to("elsewhere")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ran: list = []
    _fake_tools(monkeypatch, ran)
    with pytest.raises(OutputError) as e:
        build_rp2040(spec, m, tmp_path / "proj" / "generated" / "scouts_vga", rp.parent)
    assert "\n" not in str(e.value) and str(rp / "cmake") in str(e.value) and "symbolic link" in str(e.value)
    assert (rp / "elsewhere" / "CMakeCache.txt").is_file() and ran == []


def test_removing_goes_through_one_helper_that_refuses_links(tmp_path):
    from codegen.spec.safe_paths import OutputError, remove_file, remove_tree

    (tmp_path / "d").mkdir()
    (tmp_path / "f").write_text("x")
    (tmp_path / "ld").symlink_to("d")
    (tmp_path / "lf").symlink_to("f")
    for fn, p in ((remove_tree, tmp_path / "ld"), (remove_file, tmp_path / "lf")):
        with pytest.raises(OutputError, match=re.escape(str(p))):
            fn(p)
    remove_tree(tmp_path / "d")
    remove_file(tmp_path / "f")
    (tmp_path / "not-a-folder").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    remove_tree(tmp_path / "not-a-folder")  # where a folder should be: removed, not an internal error
    remove_tree(tmp_path / "fifo")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ld", "lf"]


# ---------------------------------------------------------------- 2: a build folder boidsgen did not make

def _forge_cmake_folder(cmake: Path, home: Path) -> None:
    """What a project from someone else can carry: a cache naming the right source folder, a build.ninja that
    runs their command, an object and a pioasm of theirs."""
    (cmake / "pioasm").mkdir(parents=True)
    (cmake / "CMakeCache.txt").write_text(f"CMAKE_HOME_DIRECTORY:INTERNAL={home}\n", encoding="utf-8")
    (cmake / "build.ninja").write_text("rule pwn\n  command = touch PWNED\nbuild all: pwn\ndefault all\n")
    (cmake / "pioasm" / "pioasm").write_bytes(b"\x7fELF theirs")


def test_a_forged_cmake_folder_is_wiped_and_configured_afresh(tmp_path, monkeypatch):
    """A cmake folder whose cache names the expected source folder but which boidsgen never configured: it is
    removed whole before cmake runs, and ninja never runs in it as it came."""
    from codegen.output.pipeline import checked_model
    from codegen.targets.rp2040.build import build_rp2040

    spec = _project(tmp_path / "proj")
    m = checked_model(spec)
    out = tmp_path / "proj" / "generated" / "scouts_vga"
    cmake = tmp_path / "proj" / "build" / "scouts_vga" / "rp2040" / "cmake"
    _forge_cmake_folder(cmake, (out / "firmware" / "rp2040").resolve())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ran: list = []
    _fake_tools(monkeypatch, ran)
    with pytest.raises(Exception, match="cmake ran"):
        build_rp2040(spec, m, out, cmake.parent.parent)
    assert ran == [("cmake", None)], ran  # configured afresh, into a folder that is gone
    assert not cmake.exists()


def test_a_folder_boidsgen_configured_is_reused_until_it_changes(tmp_path, monkeypatch):
    """Configured and built once: the next build skips cmake (the record matches); a build.ninja changed
    since (or an object, or anything) makes it foreign again: wiped, configured afresh. The records are in
    the private folder under XDG_CACHE_HOME, not in the project."""
    from codegen.output.pipeline import checked_model
    from codegen.targets.rp2040.build import build_rp2040

    spec = _project(tmp_path / "proj")
    m = checked_model(spec)
    out = tmp_path / "proj" / "generated" / "scouts_vga"
    bdir = tmp_path / "proj" / "build" / "scouts_vga"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def configure(folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "CMakeCache.txt").write_text("ours\n", encoding="utf-8")
        (folder / "build.ninja").write_text("# ours\n", encoding="utf-8")

    def build(folder: Path) -> None:
        (folder / "boids_rp2040.bin").write_bytes(b"\0" * 300)

    ran: list = []
    _fake_tools(monkeypatch, ran, configure, build)
    build_rp2040(spec, m, out, bdir)
    assert [r[0] for r in ran] == ["cmake", "ninja"]
    records = tmp_path / "cache" / "boidsgen" / "cmake-builds"
    assert len(list(records.iterdir())) == 1 and (records.stat().st_mode & 0o077) == 0
    ran.clear()
    build_rp2040(spec, m, out, bdir)
    assert [r[0] for r in ran] == ["ninja"]  # reused: ours, unchanged
    ran.clear()
    (bdir / "rp2040" / "cmake" / "build.ninja").write_text("rule pwn\n  command = touch PWNED\n", encoding="utf-8")
    build_rp2040(spec, m, out, bdir)
    assert ran == [("cmake", None), ("ninja", ["CMakeCache.txt", "build.ninja"])], ran


# ---------------------------------------------------------------- 4: folder names cmake, ninja and ld cannot carry

@pytest.mark.parametrize("name, ch", [("semi;colon", ";"), ("gen$<1:x>ex", "$"), ("dollar$x", "$"), ("hash#x", "#"),
                                      ('quote"x', '"'), ("sub$(echo x)", "$"), ("new\nline", "\\n"),
                                      ("back\\slash", "\\\\"), ("per%cent", "%"), ("com,ma", ","), ("pi|pe", "|"),
                                      ("less<than", "<"), ("co:lon", ":")])
def test_a_project_folder_the_rp2040_tools_cannot_carry_is_refused_before_anything_runs(tmp_path, monkeypatch,
                                                                                         capsys, name, ch):
    """One line naming the folder (escaped) and the character, saying what to do; exit 2; nothing written,
    no sibling folder made, cmake never run."""
    ran: list = []
    _fake_tools(monkeypatch, ran)
    proj = tmp_path / name
    spec = _project(proj)
    capsys.readouterr()
    assert main(["emulate", str(spec), "--seconds", "1"]) == 2
    lines = _error_lines(capsys.readouterr().err)
    assert len(lines) == 1, lines
    shown = str(proj).replace("\n", "\\n")
    assert f"{shown}: this name holds '{ch}'" in lines[0] and "rename that folder or move the project" in lines[0]
    assert ran == [] and sorted(p.name for p in tmp_path.iterdir()) == [name]
    assert sorted(p.name for p in proj.iterdir()) == ["spec"]


def test_spaces_and_backquotes_pass_and_the_table_is_the_one_make_reads(tmp_path):
    from codegen.spec import escape, tool_paths
    from codegen.targets.rp2040.build import check_build

    spec = _project(tmp_path / "a b `c` (d) [e] {f} &g 'h' @i=j+k~l^m!n")
    root = spec.parent.parent
    assert check_build(spec, root / "generated" / "x", root / "build" / "x") == root / "build" / "x" / "rp2040"
    assert escape._MAKE_SAFE is tool_paths.MAKE_SAFE


def test_a_pico_sdk_path_the_tools_cannot_carry_is_named(tmp_path, monkeypatch):
    from codegen.spec.safe_paths import OutputError
    from codegen.targets.rp2040.build import check_build

    spec = _project(tmp_path / "p")
    monkeypatch.setenv("PICO_SDK_PATH", str(tmp_path / "sdk;x"))
    with pytest.raises(OutputError, match=r"sdk;x: this name holds ';'.*PICO_SDK_PATH reaches them"):
        check_build(spec, tmp_path / "p" / "generated" / "x", tmp_path / "p" / "build" / "x")
