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
    import codegen.spec.safe_paths as sp

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


# ---------------------------------------------------------------- 6: a poisoned resume

@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> tuple[Path, Path]:
    """(experiment file, its --out) of one small finished run: two rows."""
    root = tmp_path_factory.mktemp("resume")
    f = _experiment(root)
    out = root / "out"
    assert main(["experiment", str(f), "--workers", "0", "--out", str(out)]) == 0
    return f, out


def _row(out: Path) -> dict:
    return json.loads((out / "rows.jsonl").read_text(encoding="utf-8").splitlines()[0])


def _line(**change) -> str:
    return json.dumps(change, separators=(",", ":"))


def _poisons(out: Path) -> list[tuple[str, str, str]]:
    """(name, the line put in place of the first row, what the refusal says)."""
    r = _row(out)
    nan = dict(r, metrics={"polarisation": float("nan")})
    return [
        ("deep", "[" * 100000 + "]" * 100000, "longer than"),
        ("nested", "[" * 5000 + "]" * 5000, "nested deeper than a row"),
        ("nan", json.dumps(nan, separators=(",", ":")), "NaN is not a number"),
        ("inf", json.dumps(r).replace(json.dumps(r["metrics"]), '{"polarisation": 1e999}'), "beyond any"),
        ("infinity", json.dumps(r).replace(json.dumps(r["metrics"]), '{"polarisation": -Infinity}'), "Infinity"),
        ("bool", _line(**dict(r, point=True)), "'point' is not a whole number"),
        ("extra key", _line(**dict(r, code="x")), "not the keys a row has"),
        ("list", "[1, 2]", "not a row"),
        ("digits", _line(**dict(r, metrics={"polarisation": 0})).replace(':0}', ":" + "9" * 5000 + "}"), "not JSON"),
        ("range", _line(**dict(r, metrics={"polarisation": 5.0})), "polarisation 5.0 is outside"),
        ("point", _line(**dict(r, point=7)), "point 7 is not one of this experiment's"),
        ("seed", _line(**dict(r, seed=(r["seed"] + 1) % (1 << 32))), "its seed is not trial"),
        ("at", _line(**dict(r, at={"boids": 11})), "its values are not point 0's"),
    ]


def test_a_poisoned_resume_is_refused_at_its_line(finished, capsys):
    """rows.jsonl is read back as untrusted input: deep nesting was an internal RecursionError;
    NaN or 1e999 was accepted and summarised as `nan [nan, nan]`."""
    f, out = finished
    good = (out / "rows.jsonl").read_text(encoding="utf-8")
    rest = good.split("\n", 1)[1]
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    try:
        for name, line, why in _poisons(out):
            (out / "rows.jsonl").write_text(line + "\n" + rest, encoding="utf-8")
            files["rows.jsonl"] = (out / "rows.jsonl").read_bytes()
            capsys.readouterr()
            rc = _run(["experiment", str(f), "--workers", "0", "--out", str(out), "--resume"])
            err = capsys.readouterr().err
            assert rc == 2, (name, err)
            _one_line(err, f"boidsgen: {out / 'rows.jsonl'}:1: ", why)
            assert {p.name: p.read_bytes() for p in out.iterdir()} == files, f"{name}: the refusal changed the folder"
    finally:
        (out / "rows.jsonl").write_text(good, encoding="utf-8")


def test_rows_that_are_no_regular_file_are_refused(finished, capsys):
    f, out = finished
    rows = out / "rows.jsonl"
    good = rows.read_bytes()
    rows.unlink()
    os.mkfifo(rows)  # `rows.exists()` and a non-empty stat passed it to open(), which blocked
    try:
        capsys.readouterr()
        assert _run(["experiment", str(f), "--workers", "0", "--out", str(out), "--resume"]) == 2
        _one_line(capsys.readouterr().err, str(rows), "a FIFO")
    finally:
        rows.unlink()
        rows.write_bytes(good)


def test_a_partial_last_line_is_cut_only_after_every_row_is_checked(tmp_path):
    from pysim.experiments.rows import RowError, RowFile

    p = tmp_path / "rows.jsonl"
    p.write_bytes(b"NaN\n{\"point\": 0, \"tri")
    with pytest.raises(RowError, match=":1: not a row written"):
        RowFile(p).done()
    assert p.read_bytes() == b"NaN\n{\"point\": 0, \"tri"


# ---------------------------------------------------------------- 12: a command without its extra

def test_experiment_without_its_extra_says_so_before_printing_anything(tmp_path, monkeypatch, capsys):
    """A wheel installed without [experiment] printed the header and an empty progress bar, then
    ModuleNotFoundError, and its hint was a clone's `pip install -e .[experiment]`."""
    import sys

    f = _experiment(tmp_path)
    for module in ("dask", "distributed"):
        monkeypatch.setitem(sys.modules, module, None)  # not installed: find_spec None, import fails
    before = _tree(tmp_path)
    capsys.readouterr()
    assert _run(["experiment", str(f), "--workers", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    _one_line(err, "boidsgen: experiment needs the 'experiment' extra (dask, distributed not installed): pip install ",
              "[experiment]'")  # the wheel's command from a wheel, the clone's in a clone: the test below
    assert _tree(tmp_path) == before


def test_the_gui_without_its_extra_or_tk_says_so(monkeypatch, capsys):
    import sys

    from codegen.commands import gui

    monkeypatch.delenv("DISPLAY", raising=False)  # (before the fix the window was tried, and failed on this)
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert gui.main([]) == 2
    _one_line(capsys.readouterr().err, "boids-gui: boids-gui needs the 'gui' extra (pillow not installed): "
                                       "pip install ", "[gui]'")
    monkeypatch.setitem(sys.modules, "tkinter", None)
    assert gui.main([]) == 2
    _one_line(capsys.readouterr().err, "needs Tk for Python (tkinter")


def test_the_extras_named_are_pyprojects_and_each_install_is_told_its_own_command(monkeypatch):
    import tomllib

    from codegen.commands import extras

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = declared["optional-dependencies"]
    for extra, modules in extras.EXTRAS.items():
        packages = " ".join(declared[extra]).replace("[distributed]", " distributed")
        for _, package in modules:
            assert package in packages, (extra, package)
    assert set(extras.NEEDS.values()) <= set(extras.EXTRAS)
    assert extras.install_command("experiment") == f"pip install -e '{ROOT}[experiment]'"  # this is a clone
    monkeypatch.setattr(extras, "_clone", lambda: None)  # as installed from the wheel
    assert extras.install_command("experiment") == "pip install 'boidsgen[experiment]'"
    assert extras.plot_hint() == "it needs matplotlib: pip install 'boidsgen[plot]'"


def test_every_message_names_a_path_on_one_line(tmp_path, finished, capsys):
    """The experiment's own messages, a board's port, a build folder make cannot spell: each one line."""
    from codegen.targets.host.make_run import BuildError, make_relative

    f, done_out = finished
    out = tmp_path / FORGED
    shutil.copytree(done_out, out)
    capsys.readouterr()
    assert _run(["experiment", str(f), "--workers", "0", "--out", str(out)]) == 2  # rows there, no --resume
    _one_line(capsys.readouterr().err, "proj\\nspec/boids.yaml:1:1: forged/rows.jsonl holds the rows")

    port = str(tmp_path / "tty\nspec/boids.yaml:1:1: forged")
    assert _run(["watch", port, "--spec", str(ROOT / "spec" / "boids.yaml")]) == 2
    _one_line(capsys.readouterr().err, "tty\\nspec/boids.yaml:1:1: forged")

    with pytest.raises(BuildError) as e:
        make_relative(tmp_path / "a b\nspec/boids.yaml:1:1: forged" / "build", tmp_path / "fw", "build folder")
    assert "\n" not in str(e.value) and "a b\\nspec/boids.yaml:1:1: forged" in str(e.value)
