"""Where the generated firmware finds firmware_runtime/ (codegen/spec/runtime_files.py):
a fact of the spec's project, never of where the tool runs from."""
from __future__ import annotations

import shutil
from pathlib import Path

from codegen.commands.cli import main
from codegen.spec.runtime_files import RUNTIME_FOLDER, TOOL_RUNTIME, runtime_files

from .conftest import ROOT, RUNTIME


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def _makefile_runtime(out: Path) -> str:
    line = next(ln for ln in (out / "firmware" / "Makefile").read_text().splitlines() if ln.startswith("RUNTIME ?="))
    return line.split("=", 1)[1].strip()


def test_the_tool_runtime_is_the_repositorys():
    assert TOOL_RUNTIME == RUNTIME.resolve()
    # every file of the runtime is one the copy (and the wheel's package data) takes
    tracked = sorted(p.relative_to(RUNTIME) for p in RUNTIME.rglob("*") if p.is_file())
    assert runtime_files(RUNTIME) == tracked


def test_another_project_with_its_runtime_gets_the_committed_bytes(tmp_path, capsys):
    """The tool from here generating into a clone elsewhere writes what it writes in place."""
    (tmp_path / "spec").mkdir()
    shutil.copy2(ROOT / "spec" / "boids.yaml", tmp_path / "spec" / "boids.yaml")
    shutil.copytree(RUNTIME, tmp_path / RUNTIME_FOLDER)
    assert main(["generate", str(tmp_path / "spec" / "boids.yaml")]) == 0
    here, there = _tree(ROOT / "generated" / "boids"), _tree(tmp_path / "generated" / "boids")
    assert sorted(there) == sorted(here) and there == here
    assert _makefile_runtime(tmp_path / "generated" / "boids") == "../../../firmware_runtime"


def test_a_spec_alone_gets_a_self_contained_folder(tmp_path, capsys):
    spec = tmp_path / "boids.yaml"
    shutil.copy2(ROOT / "spec" / "boids.yaml", spec)
    assert main(["generate", str(spec)]) == 0
    out = tmp_path / "generated" / "boids"
    assert _makefile_runtime(out) == "../firmware_runtime"
    copy = out / RUNTIME_FOLDER
    assert runtime_files(copy) == runtime_files(TOOL_RUNTIME)
    for rel in runtime_files(TOOL_RUNTIME):
        first, rest = (copy / rel).read_text().split("\n", 1)
        assert first.startswith("/* DO NOT EDIT: ") and "boidsgen 0." in first and first.endswith("*/")
        assert rest == (TOOL_RUNTIME / rel).read_text()
    before = _tree(out)
    assert main(["generate", str(spec)]) == 0 and _tree(out) == before  # byte-identical on every run
    assert main(["generate", str(spec), "--check"]) == 0
    # the check covers the copy: an edit and a stray file in a subfolder are named
    (copy / "core" / "fixed.h").write_text((copy / "core" / "fixed.h").read_text() + "/* edit */\n")
    (copy / "pic32" / "m4k_check" / "stray.c").write_text("")
    capsys.readouterr()
    assert main(["generate", str(spec), "--check"]) == 1
    said = capsys.readouterr().out
    assert "firmware_runtime/core/fixed.h" in said
    assert "firmware_runtime/pic32/m4k_check/" + "stray.c (not generated any more)" in said  # split: no such file
    assert main(["generate", str(spec)]) == 0 and _tree(out) == before
    # the project gains its own runtime: the copy goes, the Makefile names the project's
    shutil.copytree(RUNTIME, tmp_path / RUNTIME_FOLDER)
    assert main(["generate", str(spec)]) == 0
    assert not copy.exists() and _makefile_runtime(out) == "../../../firmware_runtime"
    assert main(["generate", str(spec), "--check"]) == 0


def test_output_outside_the_project_carries_the_projects_runtime(tmp_path, capsys):
    proj, out = tmp_path / "proj", tmp_path / "elsewhere" / "out"
    (proj / "spec").mkdir(parents=True)
    shutil.copy2(ROOT / "spec" / "boids.yaml", proj / "spec" / "boids.yaml")
    shutil.copytree(RUNTIME, proj / RUNTIME_FOLDER)
    (proj / RUNTIME_FOLDER / "extra.h").write_text("/* the project's own */\n")
    assert main(["generate", str(proj / "spec" / "boids.yaml"), "-o", str(out)]) == 0
    assert _makefile_runtime(out) == "../firmware_runtime"
    assert (out / RUNTIME_FOLDER / "extra.h").read_text().endswith("/* the project's own */\n")
    # -o inside the project: named relatively, whatever the folder is called
    inside = proj / "my out #1"
    assert main(["generate", str(proj / "spec" / "boids.yaml"), "-o", str(inside)]) == 0
    assert _makefile_runtime(inside) == "../../firmware_runtime" and not (inside / RUNTIME_FOLDER).exists()
