"""A target is a record (issue 51): every board and host build is declared once in
codegen/boards/registry.py, and commands, the schema and the passes ask it.
No board's name is compared, listed or keyed anywhere else outside its own
folders; each part a record names exists; what a record says is what its
commands offer."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from codegen.boards import registry
from codegen.boards.record import Entry
from codegen.commands import cli
from codegen.commands.cli import main
from codegen.commands.parser import build as build_parser

from .conftest import ROOT

SOURCES = ("codegen", "pysim")


def _own(path: Path, board: str) -> bool:
    """The registry's folder, or the board's own folders: its printers and project under codegen/targets/,
    its drivers (build, budget) under codegen/drivers/."""
    rel = path.relative_to(ROOT).parts
    return rel[:2] == ("codegen", "boards") or rel[:3] in (("codegen", "targets", board), ("codegen", "drivers", board))


def test_no_board_name_is_a_literal_outside_the_registry_and_its_own_folders():
    """A string that is exactly a board's name ("rp2040" == target, choices=["pic32", ...], {"rp2040": ...})
    is a comparison the registry should answer. Prose that names a board (help, docstrings) is not one."""
    boards = set(registry.boards())
    found = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                if isinstance(node, ast.Constant) and node.value in boards and not _own(path, node.value):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not found, "board names outside the registry (ask codegen/boards/registry.py):\n" + "\n".join(found)


def test_the_check_sees_a_planted_comparison(tmp_path):
    """The scan above finds the kind of line it forbids."""
    tree = ast.parse('if target == "rp2040":\n    pass\n')
    assert any(isinstance(n, ast.Constant) and n.value in registry.boards() for n in ast.walk(tree))


@pytest.mark.parametrize("name", list(registry.TARGETS))
def test_every_part_a_record_names_exists(name):
    t = registry.target(name)
    entries = {f: getattr(t, f) for f in t.__dataclass_fields__ if isinstance(getattr(t, f), Entry)}
    assert entries, f"{name}: a target with no part"
    for field, entry in entries.items():
        assert callable(entry.load()), f"{name}.{field}: {entry.path}"
    if t.templates:
        assert (ROOT / "codegen" / "targets" / t.templates / "templates").is_dir()
    if t.board:
        assert t.clock_hz > 0 and t.flash_bytes > 0 and t.ram_bytes > 0 and t.cores >= 1 and t.passes


def test_the_commands_offer_what_the_records_have():
    sub = next(a for a in build_parser(cli)._actions if a.dest == "cmd").choices
    option = {cmd: next(a for a in sub[cmd]._actions if a.dest == "target") for cmd in ("build", "parity", "budget")}
    assert tuple(option["build"].choices) == registry.boards()
    assert tuple(option["parity"].choices) == registry.with_part("trace")
    assert tuple(option["budget"].choices) == registry.with_part("budget")
    from codegen.spec.schema import Board

    assert Board().targets == (registry.DEFAULT_BOARD,)
    for name in registry.boards():
        assert Board(target=name).targets == (name,)
    with pytest.raises(ValueError):
        Board(target=registry.HOST.name)  # a host build is not a board a spec names


def test_targets_lists_every_target_with_its_pipeline(capsys):
    assert main(["targets"]) == 0
    out = capsys.readouterr().out
    for name, t in registry.TARGETS.items():
        assert f"\n{name} (" in "\n" + out, name
        if t.passes:
            for mode in ("fast", "plain"):
                names = ", ".join(p.name for p in t.passes.load()(_spec(name, mode)))
                assert f"  passes ({mode}): {names}\n" in out


def _spec(board: str, mode: str):
    from codegen.commands.targets import _spec_with

    return _spec_with(board, mode)


def test_each_board_runs_its_own_pass_list(monkeypatch):
    """The RP2040's list carries no pass that exists for GCC -O1 on the M4K, and its committed output no M4K
    hint; the PIC32's keeps both. A list holding another compiler's pass is refused when it is run."""
    from dataclasses import replace

    from codegen.targets.c import lowering

    pic32, rp2040 = registry.target("pic32"), registry.target("rp2040")
    for mode in ("fast", "plain"):
        assert all(p.only_for in (None, rp2040.compiler) for p in rp2040.passes.load()(_spec("rp2040", mode)))
    assert any(p.only_for == pic32.compiler for p in pic32.passes.load()(_spec("pic32", "fast")))
    hints = ("FX_LOADED(", "FX_LIKELY(")
    flock = {name: (ROOT / "generated" / name / "firmware" / "boids_flock.c").read_text() for name in
             ("scouts_vga", "predator_vga", "boids")}
    assert not any(h in flock["scouts_vga"] + flock["predator_vga"] for h in hints)
    assert any(h in flock["boids"] for h in hints)
    monkeypatch.setitem(registry.TARGETS, rp2040.name, replace(rp2040, passes=pic32.passes))
    with pytest.raises(lowering.PassForAnotherCompiler, match="rp2040's pass list holds ring_sched"):
        lowering.passes_for(_spec("rp2040", "fast"))
