"""Hostile inputs, round three (issue 50): files and folders boidsgen reads or
writes. Each refusal is one line naming its place, exit status 2, nothing
written, and it comes before anything is built or run:

  5  a spec path that is a FIFO, a device or a folder (every reader of a
     spec's text goes through pysim/bounded_read.py)
  6  a poisoned rows.jsonl under `experiment --resume` (every row checked as
     untrusted input: pysim/experiments/rows.py)
  8  alias amplification: the characters aliases add are bounded
     (codegen/spec/yaml_guard.py), not only the nodes
 10  `preferred:` naming a distance, or one direction twice
 12  a command whose optional extra is not installed (codegen/commands/extras.py)
 13  `experiment --out /`: a folder that is not ours is refused before it is walked
 14  a newline in a folder name: every path in a message shown escaped
     (pysim/one_line.py)
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from codegen.commands.cli import main

from .conftest import ROOT
from .test_hostile_specs import HARD_STOP, Hung, hard_stop

BOIDS = (ROOT / "spec" / "boids.yaml").read_text(encoding="utf-8")


def _project(where: Path) -> Path:
    spec = where / "spec" / "boids.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(BOIDS, encoding="utf-8")
    return spec


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _run(argv: list[str]) -> int:
    """main(argv), a hang interrupted (SIGALRM) so that it fails its test, not the suite."""
    try:
        with hard_stop(HARD_STOP, "boidsgen " + " ".join(argv)):
            return main(argv)
    except Hung as e:
        pytest.fail(str(e))


def _one_line(err: str, *needles: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("boidsgen: 1 error(s)")]
    assert len(lines) == 1, f"expected one error line, got: {err!r}"
    assert "Traceback" not in err and "internal error" not in err, err
    for n in needles:
        assert n in lines[0], f"{n!r} not in {lines[0]!r}"
    return lines[0]


# ---------------------------------------------------------------- 5: a spec that is no regular file

SPEC_COMMANDS = (["check"], ["generate"], ["build"], ["sim", "--frames", "5"], ["parity", "--frames", "5"],
                 ["compare"], ["commands"])


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_spec_that_is_no_regular_file_is_refused_by_every_command(tmp_path, monkeypatch, capsys, kind):
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "boids.yaml"
    if kind == "fifo":
        os.mkfifo(spec)  # open() blocked here for ever
    elif kind == "folder":
        spec.mkdir()
    else:
        spec = Path("/dev/zero")
    what = {"fifo": "a FIFO", "folder": "a folder", "device": "a character device"}[kind]
    monkeypatch.chdir(tmp_path)
    before = _tree(tmp_path)
    for cmd in SPEC_COMMANDS:
        argv = [cmd[0], str(spec)] + cmd[1:]
        capsys.readouterr()
        assert _run(argv) == 2, argv
        line = _one_line(capsys.readouterr().err, f"{spec}:1:1: ", what)
        assert "not a regular file" in line
    assert _tree(tmp_path) == before


def test_the_rule_readers_of_a_spec_are_bounded_too(tmp_path, monkeypatch):
    """The lines of a spec's rule_defs are read again after its YAML: through the same bounded reader."""
    from codegen.spec import yaml_read
    from codegen.spec.errors import SpecError

    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    for read in (yaml_read.read_text, yaml_read.read_source, yaml_read.read_yaml):
        with hard_stop(HARD_STOP, read.__name__), pytest.raises(SpecError, match="a FIFO, not a regular file"):
            read(fifo)


# ---------------------------------------------------------------- 13: --out a folder that is not ours

EXPERIMENT = """spec: ../spec/boids.yaml
seed: 1
trials: 2
frames: 20
warmup: 0
sample_every: 10
boids: 10
metrics: [polarisation]
"""


def _experiment(tmp_path: Path, text: str = EXPERIMENT) -> Path:
    _project(tmp_path)
    f = tmp_path / "experiments" / "x.yaml"
    f.parent.mkdir()
    f.write_text(text, encoding="utf-8")
    return f


@pytest.mark.parametrize("out", ["/", "home"])
def test_experiment_out_a_folder_not_ours_is_refused_before_it_is_walked(tmp_path, monkeypatch, capsys, out):
    """`--out /` walked the whole filesystem for links, and ended in "Permission denied: '/proc/1/cwd'"."""
    import codegen.output.safe_paths as sp

    f = _experiment(tmp_path)
    if out == "home":
        home = tmp_path / "home"
        (home / "notes").mkdir(parents=True)
        (home / "notes" / "a.txt").write_text("mine", encoding="utf-8")
        out = str(home)

    def no_walk(*a, **k):
        raise AssertionError(f"{a[0]} walked before it was refused")

    monkeypatch.setattr(sp.os, "walk", no_walk)
    before = _tree(tmp_path)
    capsys.readouterr()
    assert _run(["experiment", str(f), "--out", out, "--workers", "0"]) == 2
    _one_line(capsys.readouterr().err, f"--out: {out} exists and is not an experiment's output")
    assert _tree(tmp_path) == before


# ---------------------------------------------------------------- 14: a newline in a folder name

FORGED = "proj\nspec/boids.yaml:1:1: forged"


def test_a_newline_in_a_folder_name_cannot_forge_a_line(tmp_path, capsys):
    """A link refusal named the project's folder as it is: three lines, one a forged `spec/boids.yaml:1:1:`."""
    spec = _project(tmp_path / FORGED)
    outside = tmp_path / "outside"
    outside.mkdir()
    (spec.parent.parent / "generated").symlink_to(outside, target_is_directory=True)
    capsys.readouterr()
    assert _run(["generate", str(spec)]) == 2
    line = _one_line(capsys.readouterr().err, "symbolic link", "proj\\nspec/boids.yaml:1:1: forged")
    assert line.startswith("boidsgen: ")
    assert list(outside.iterdir()) == []


def test_an_unreadable_file_names_its_path_on_one_line(tmp_path):
    """pysim/bounded_read.py's refusals (generated files, the spec's bytes) escape the path too."""
    from pysim.bounded_read import UnreadableFile, read_bytes_bounded

    d = tmp_path / "a\nb:1:1: forged"
    d.mkdir()
    with pytest.raises(UnreadableFile) as e:
        read_bytes_bounded(d)
    assert "\n" not in str(e.value) and "a\\nb:1:1: forged" in str(e.value)


# ---------------------------------------------------------------- 8: alias amplification

def test_aliases_may_not_add_more_characters_than_a_file_holds(tmp_path):
    """The issue's shape: one long string aliased thousands of times, far under the node limit
    (tests/hostile/specs/alias__long_string_amplified.yaml runs a small one through every command)."""
    from codegen.spec.yaml_guard import MAX_ALIAS_CHARS, MAX_NODES, event_issue

    text = BOIDS + 'notes: &n "' + "x" * 20000 + '"\nmore: [' + ", ".join(["*n"] * 3000) + "]\n"
    assert 3000 < MAX_NODES
    issue = event_issue("spec/boids.yaml", text)
    assert issue is not None and "expands the document by more than" in issue.reason, issue
    line = text.split("\n").index(next(ln for ln in text.split("\n") if ln.startswith("more: "))) + 1
    assert (issue.line, issue.col) == (line, len("more: [") + 1 + 4 * (MAX_ALIAS_CHARS // 20000)), issue
    # the same text once, and a few short aliases, are fine
    assert event_issue("s.yaml", BOIDS + 'notes: &n "' + "x" * 20000 + '"\nmore: [*n, *n]\n') is None
