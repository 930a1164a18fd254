"""The one write pipeline (codegen/output/pipeline.py): output follows the spec's
path, one spec cannot take another's folder, a refused spec writes nothing
through any command, a failed write leaves the old output whole, and the
CLI answers misuse with a sentence and exit status 2."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.output import pipeline
from codegen.commands.cli import main

from .conftest import OVERFLOWS, ROOT, require_tool

BOIDS = (ROOT / "spec" / "boids.yaml").read_text(encoding="utf-8")
assert OVERFLOWS.count("300") == 2  # the README's example: capacity and protected_range.max


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _spec(root: Path, name: str = "boids.yaml", text: str = BOIDS, folder: str = "spec") -> Path:
    path = root / folder / name if folder else root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_output_follows_the_spec_not_the_working_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the project's own generated/boids must not be touched
    before = _tree(ROOT / "generated" / "boids")
    in_project = _spec(tmp_path / "a")
    loose = _spec(tmp_path / "b", folder="")
    assert main(["generate", str(in_project)]) == 0
    assert main(["generate", str(loose)]) == 0
    assert (tmp_path / "a" / "generated" / "boids" / "firmware" / "boids_flock.c").is_file()
    assert (tmp_path / "b" / "generated" / "boids" / "python" / "boids_model.py").is_file()
    assert _tree(ROOT / "generated" / "boids") == before
    head = (tmp_path / "b" / "generated" / "boids" / "firmware" / "boids_config.h").read_text().splitlines()[0]
    assert "from boids.yaml (spec 'boids'" in head


def test_two_specs_with_one_name_cannot_share_a_folder(tmp_path, capsys):
    first = _spec(tmp_path)
    second = _spec(tmp_path, "copy.yaml", BOIDS.replace("seed: 1", "seed: 2"))
    assert main(["generate", str(first)]) == 0
    before = _tree(tmp_path / "generated")
    capsys.readouterr()
    for cmd in (["generate"], ["build"], ["parity", "--frames", "3"]):
        assert main(cmd + [str(second)]) == 2
        err = capsys.readouterr().err
        assert f"{second}:3:7: name:" in err and "spec/boids.yaml" in err and "Traceback" not in err
        assert _tree(tmp_path / "generated") == before
    assert not (tmp_path / "build").exists()


@pytest.mark.parametrize("cmd", [["generate"], ["build"], ["parity", "--frames", "3"], ["sim", "--frames", "3"],
                                 ["compare", "--frames", "3"], ["check"]])
def test_a_spec_the_range_gate_refuses_writes_nothing(tmp_path, capsys, cmd):
    spec = _spec(tmp_path, text=OVERFLOWS)
    assert main(cmd + [str(spec)]) == 2
    err = capsys.readouterr().err
    assert "narrow params.protected_range.max" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec"]


def test_a_failed_write_leaves_the_previous_output_whole(tmp_path, monkeypatch, capsys):
    spec = _spec(tmp_path)
    assert main(["generate", str(spec)]) == 0
    out = tmp_path / "generated" / "boids"
    before = _tree(out)
    spec.write_text(BOIDS.replace("seed: 1", "seed: 5"), encoding="utf-8")  # every file's banner hash changes
    real_open, calls = open, []

    def failing_open(file, mode="r", *a, **kw):
        if "w" in mode and ".firmware.new-" in str(file):
            calls.append(file)
            if len(calls) == 3:
                raise OSError(28, "No space left on device")
        return real_open(file, mode, *a, **kw)

    monkeypatch.setattr("builtins.open", failing_open)
    assert main(["generate", str(spec)]) == 1
    monkeypatch.undo()
    assert "No space left on device" in capsys.readouterr().err
    assert _tree(out) == before
    # no temporary folder left (firmware_runtime: the copy a spec outside this repository carries)
    assert sorted(p.name for p in out.iterdir()) == ["firmware", "firmware_runtime", "python"]


def test_rewrites_keep_unchanged_files_and_caches(tmp_path, capsys):
    spec = _spec(tmp_path)
    assert main(["generate", str(spec)]) == 0
    out = tmp_path / "generated" / "boids"
    cache = out / "python" / "__pycache__" / "x.pyc"
    cache.parent.mkdir()
    cache.write_bytes(b"cache")
    make = out / "firmware" / "Makefile"
    os.utime(make, (1_000_000, 1_000_000))
    spec.write_text(BOIDS.replace("seed: 1", "seed: 3"), encoding="utf-8")
    assert main(["generate", str(spec)]) == 0
    assert cache.read_bytes() == b"cache"
    assert make.stat().st_mtime != 1_000_000  # its banner's hash changed
    os.utime(make, (1_000_000, 1_000_000))
    assert main(["generate", str(spec)]) == 0  # nothing changed: nothing rewritten
    assert make.stat().st_mtime == 1_000_000


def test_output_option_misuse(tmp_path, capsys):
    spec = _spec(tmp_path)
    a_file = tmp_path / "file.txt"
    a_file.write_text("mine")
    assert main(["generate", str(spec), "-o", str(a_file)]) == 2
    assert "is a file" in capsys.readouterr().err and a_file.read_text() == "mine"
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "cat.jpg").write_bytes(b"jpg")
    assert main(["generate", str(spec), "-o", str(foreign)]) == 2
    assert "not a boidsgen output folder" in capsys.readouterr().err
    assert sorted(p.name for p in foreign.iterdir()) == ["cat.jpg"]


@pytest.mark.parametrize("args", [["sim", "--frames", "-3"], ["sim", "--frames", "0"], ["compare", "--every", "0"],
                                  ["sim", "--frames", "2", "--seed", "-1"], ["budget", "--boids", "0"],
                                  ["budget", "--cpi", "nan"], ["sim", "--frames", "x"]])
def test_bad_numbers_on_the_command_line(args, capsys):
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_output_piped_into_head_is_quiet(tmp_path):
    spec = _spec(tmp_path)
    exe = [sys.executable, "-m", "codegen.commands.cli"]
    res = subprocess.run(" ".join(exe + ["check", str(spec)]) + " | head -1", shell=True, capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert res.stdout.startswith(str(spec)) and "Traceback" not in res.stderr and "BrokenPipe" not in res.stderr


def test_a_spec_outside_the_project_builds_where_it_is(tmp_path, monkeypatch, capsys):
    require_tool("gcc")
    require_tool("make")
    monkeypatch.chdir(tmp_path)
    spec = _spec(tmp_path / "elsewhere", "flock.yaml", BOIDS.replace("name: boids", "name: my_flock"), folder="")
    assert main(["build", str(spec)]) == 0
    assert (tmp_path / "elsewhere" / "build" / "my_flock" / "boids_host").is_file()
    fw = tmp_path / "elsewhere" / "generated" / "my_flock" / "firmware"
    res = subprocess.run(["make", "-s", "-C", str(fw), "host", f"BUILD={tmp_path / 'b'}"], capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr  # its own Makefile finds the runtime from where it is
    assert main(["generate", str(spec), "--check"]) == 0
    assert pipeline.owner(fw.parent) == "flock.yaml"
