"""One load per command (issue 34): every command reads, validates and
models its spec once, through `load` in codegen/output/pipeline.py; the errors found
after the model is built (the range gate, another spec's output folder) are
located through the model's own Locator, not a second read of the file."""
from __future__ import annotations

import re
import shutil

import pytest

from codegen.commands.cli import main
from codegen.spec import loader

from .conftest import DEFAULT_SPEC, OVERFLOWS, require_tool


@pytest.fixture
def reads(monkeypatch):
    """The spec files the command read, one entry a read."""
    seen: list[str] = []
    real = loader.read_yaml

    def counting(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(loader, "read_yaml", counting)
    return seen


@pytest.fixture
def project(tmp_path):
    spec = tmp_path / "spec" / "boids.yaml"
    spec.parent.mkdir()
    shutil.copy(DEFAULT_SPEC, spec)
    return spec


def _overflowing(spec):
    """The README's example of a spec the range gate refuses."""
    spec.write_text(OVERFLOWS)
    return spec


@pytest.mark.parametrize("args", [["check"], ["generate"], ["sim", "--frames", "3"], ["compare", "--frames", "3"]],
                         ids=lambda a: a[0])
def test_a_command_reads_its_spec_once(project, reads, args, capsys):
    if args[0] in ("sim", "compare"):  # they read the generated model
        assert main(["generate", str(project)]) == 0
        reads.clear()
    assert main([args[0], str(project), *args[1:]]) == 0, capsys.readouterr().err
    assert reads == [str(project)]


@pytest.mark.parametrize("command", ["check", "generate"])
def test_a_refused_spec_is_located_from_the_one_read(project, reads, command, capsys):
    spec = _overflowing(project)
    assert main([command, str(spec)]) == 2
    err = capsys.readouterr().err
    assert re.search(rf"{re.escape(str(spec))}:\d+:\d+: params\.protected_range: ", err), err
    assert reads == [str(spec)]


def test_another_specs_folder_is_named_from_the_one_read(project, reads, capsys):
    other = project.parent / "other.yaml"
    other.write_text(project.read_text())  # the same name: the same output folder
    assert main(["generate", str(other)]) == 0
    reads.clear()
    assert main(["generate", str(project)]) == 2
    assert "another spec with the name 'boids'" in capsys.readouterr().err
    assert reads == [str(project)]


def test_parity_reads_its_spec_once(project, reads, capsys):
    require_tool("gcc")
    require_tool("make")
    assert main(["parity", str(project), "--frames", "5"]) == 0, capsys.readouterr().err
    assert reads == [str(project)]
