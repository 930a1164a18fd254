"""Hostile project layouts (issue 32): links, device files, FIFOs and folder
names that make and the shell would expand. boidsgen writes only inside the
spec's own generated/<name>/ and build/<name>/, never through a link out of
them (refused, naming the link, exit 2, nothing written), reads only regular
files of bounded size, and no project path reaches make or /bin/sh
(codegen/spec/safe_paths.py, pysim/bounded_read.py, codegen/drivers/host_build.py).

Each case builds its project in tmp_path: spec/boids.yaml copied from the
repository; the project has no firmware_runtime/ of its own, so its output
carries a copy (codegen/spec/runtime_files.py)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.commands.cli import main

from .conftest import ROOT, require_tool
from .deadline import RUN

BOIDS = (ROOT / "spec" / "boids.yaml").read_text(encoding="utf-8")


def _project(where: Path, text: str = BOIDS) -> Path:
    """An empty project: where/spec/boids.yaml. Returns the spec's path."""
    spec = where / "spec" / "boids.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(text, encoding="utf-8")
    return spec


def _snapshot(root: Path) -> dict[str, bytes | str]:
    """Every entry under root (links not followed): a file's bytes, a link's target."""
    out: dict[str, bytes | str] = {}
    for top, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            p = Path(top) / name
            rel = p.relative_to(root).as_posix()
            out[rel] = ("-> " + os.readlink(p)) if p.is_symlink() else (p.read_bytes() if p.is_file() else "dir")
    return out


def _one_error_line(err: str, *needles: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected one error line, got: {err!r}"
    assert "Traceback" not in err and "internal error" not in err, err
    for n in needles:
        assert n in lines[0], f"{n!r} not in {lines[0]!r}"
    return lines[0]


def _outside(tmp_path: Path) -> Path:
    """A folder outside the project, holding a file of its own."""
    d = tmp_path / "outside"
    d.mkdir()
    (d / "frame.png").write_bytes(b"not yours")
    (d / "secret.txt").write_text("private", encoding="utf-8")
    return d


# ---------------------------------------------------------------- writes through links

def test_ide_folder_linked_out_is_refused(tmp_path, capsys):
    """generated/boids/firmware/boids.X -> a folder elsewhere: nothing is copied from it or written."""
    spec = _project(tmp_path / "proj")
    assert main(["generate", str(spec)]) == 0
    fw = tmp_path / "proj" / "generated" / "boids" / "firmware"
    shutil.rmtree(fw / "boids.X")
    outside = _outside(tmp_path)
    (fw / "boids.X").symlink_to(outside, target_is_directory=True)
    spec.write_text(BOIDS.replace("seed: 1", "seed: 5"), encoding="utf-8")  # every banner changes: a rewrite
    before, outside_before = _snapshot(tmp_path / "proj"), _snapshot(outside)
    capsys.readouterr()
    assert main(["generate", str(spec)]) == 2
    _one_error_line(capsys.readouterr().err, "boids.X", "symbolic link")
    assert _snapshot(tmp_path / "proj") == before
    assert _snapshot(outside) == outside_before


def test_output_folder_linked_to_another_project_is_refused(tmp_path, capsys):
    """generated/boids -> another project's generated/boids (same spec path in both banners)."""
    theirs = _project(tmp_path / "theirs")
    assert main(["generate", str(theirs)]) == 0
    mine = _project(tmp_path / "mine", BOIDS.replace("seed: 1", "seed: 7"))
    (tmp_path / "mine" / "generated").mkdir()
    (tmp_path / "mine" / "generated" / "boids").symlink_to(tmp_path / "theirs" / "generated" / "boids")
    before = _snapshot(tmp_path / "theirs")
    capsys.readouterr()
    assert main(["generate", str(mine)]) == 2
    _one_error_line(capsys.readouterr().err, str(tmp_path / "mine" / "generated" / "boids"), "symbolic link")
    assert _snapshot(tmp_path / "theirs") == before


def test_generated_folder_linked_out_is_refused(tmp_path, capsys):
    """A link higher up: generated -> elsewhere."""
    spec = _project(tmp_path / "proj")
    outside = _outside(tmp_path)
    (tmp_path / "proj" / "generated").symlink_to(outside)
    capsys.readouterr()
    assert main(["generate", str(spec)]) == 2
    _one_error_line(capsys.readouterr().err, "generated", "symbolic link")
    assert sorted(p.name for p in outside.iterdir()) == ["frame.png", "secret.txt"]


def test_build_folder_linked_out_is_refused(tmp_path, capsys):
    """build/boids -> elsewhere: no boids_host, frame.png or frame.ppm lands there; nothing is generated."""
    spec = _project(tmp_path / "proj")
    outside = _outside(tmp_path)
    (tmp_path / "proj" / "build").mkdir()
    (tmp_path / "proj" / "build" / "boids").symlink_to(outside)
    before = _snapshot(outside)
    capsys.readouterr()
    assert main(["build", str(spec)]) == 2
    _one_error_line(capsys.readouterr().err, str(tmp_path / "proj" / "build" / "boids"), "symbolic link")
    assert _snapshot(outside) == before
    assert sorted(p.name for p in (tmp_path / "proj").iterdir()) == ["build", "spec"]


def test_parity_variants_folder_linked_out_is_refused(tmp_path, capsys):
    """build/boids/variants -> elsewhere: parity's other-order build goes nowhere."""
    spec = _project(tmp_path / "proj")
    outside = _outside(tmp_path)
    (tmp_path / "proj" / "build" / "boids").mkdir(parents=True)
    (tmp_path / "proj" / "build" / "boids" / "variants").symlink_to(outside)
    before = _snapshot(outside)
    capsys.readouterr()
    assert main(["parity", str(spec), "--frames", "2", "--seed", "1", "--order", "synchronous"]) == 2
    _one_error_line(capsys.readouterr().err, "variants", "symbolic link")
    assert _snapshot(outside) == before


def test_output_option_follows_the_same_rule(tmp_path, capsys):
    """generate -o DIR: the folder the user names may itself be a link (their
    choice), but nothing inside it may lead out of it."""
    spec = _project(tmp_path / "proj")
    real = tmp_path / "real_out"
    (tmp_path / "named").symlink_to(real.name)
    real.mkdir()
    assert main(["generate", str(spec), "-o", str(tmp_path / "named")]) == 0
    assert (real / "firmware" / "boids_config.h").is_file()
    outside = _outside(tmp_path)
    (real / "python" / "__pycache__").symlink_to(outside)
    spec.write_text(BOIDS.replace("seed: 1", "seed: 9"), encoding="utf-8")
    capsys.readouterr()
    assert main(["generate", str(spec), "-o", str(tmp_path / "named")]) == 2
    _one_error_line(capsys.readouterr().err, "__pycache__", "symbolic link")
    assert sorted(p.name for p in outside.iterdir()) == ["frame.png", "secret.txt"]


def test_a_spec_that_is_a_link_builds_where_the_link_is(tmp_path, capsys):
    """spec/boids.yaml -> another project's spec: the output is this project's, theirs is untouched."""
    theirs = _project(tmp_path / "theirs")
    mine = tmp_path / "mine" / "spec" / "boids.yaml"
    mine.parent.mkdir(parents=True)
    mine.symlink_to(theirs)
    assert main(["generate", str(mine)]) == 0
    assert (tmp_path / "mine" / "generated" / "boids" / "firmware" / "boids_config.h").is_file()
    assert sorted(p.name for p in (tmp_path / "theirs").iterdir()) == ["spec"]


# ---------------------------------------------------------------- bounded reads

def _cli(args: list[str], cwd: Path, env: dict | None = None, timeout: float = RUN) -> subprocess.CompletedProcess:
    """The CLI in its own process: a read that blocks fails the case at the
    timeout instead of hanging the suite."""
    try:
        return subprocess.run([sys.executable, "-m", "codegen.commands.cli", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"boidsgen {' '.join(args)} did not return within {timeout} s")


def test_a_file_linked_out_of_the_output_is_refused(tmp_path):
    """generated/boids/firmware/boids_config.h -> /dev/zero: refused as a link
    out, before it is read (in its own process: a regression reads for ever)."""
    spec = _project(tmp_path / "proj")
    assert _cli(["generate", str(spec)], tmp_path).returncode == 0
    cfg = tmp_path / "proj" / "generated" / "boids" / "firmware" / "boids_config.h"
    cfg.unlink()
    cfg.symlink_to("/dev/zero")
    res = _cli(["generate", str(spec)], tmp_path, timeout=60)
    assert res.returncode == 2, res.stderr
    _one_error_line(res.stderr, "boids_config.h", "symbolic link")
    assert cfg.is_symlink()


def test_generated_files_that_are_not_regular_or_too_large_are_refused(tmp_path):
    """A FIFO (whose open would block) or a 64 MB file where boids_config.h
    was: one line naming it, exit 2; the file is left as it is."""
    spec = _project(tmp_path / "proj")
    assert _cli(["generate", str(spec)], tmp_path).returncode == 0
    cfg = tmp_path / "proj" / "generated" / "boids" / "firmware" / "boids_config.h"
    cfg.unlink()
    os.mkfifo(cfg)
    res = _cli(["generate", str(spec)], tmp_path, timeout=60)
    assert res.returncode == 2, res.stderr
    _one_error_line(res.stderr, str(cfg), "FIFO")
    cfg.unlink()
    with open(cfg, "wb") as fh:  # sparse: 64 MB of zeros on disk costs nothing
        fh.truncate(64 << 20)
    res = _cli(["generate", str(spec)], tmp_path, timeout=60)
    assert res.returncode == 2, res.stderr
    _one_error_line(res.stderr, str(cfg), "bytes")
    assert cfg.stat().st_size == 64 << 20
    # generate --check reads it bounded too (it once read the whole file): it differs, named
    res = _cli(["generate", str(spec), "--check"], tmp_path, timeout=60)
    assert res.returncode == 1 and "firmware/boids_config.h" in res.stdout, res.stdout + res.stderr


def test_a_model_that_is_a_fifo_is_refused_by_sim(tmp_path):
    spec = _project(tmp_path / "proj")
    assert _cli(["generate", str(spec)], tmp_path).returncode == 0
    model = tmp_path / "proj" / "generated" / "boids" / "python" / "boids_model.py"
    model.unlink()
    os.mkfifo(model)
    res = _cli(["sim", str(spec), "--frames", "1", "--seed", "1"], tmp_path, timeout=60)
    assert res.returncode == 1, res.stderr
    _one_error_line(res.stderr, "boids_model.py", "FIFO")


# ---------------------------------------------------------------- paths to make and the shell

HOSTILE_FOLDERS = {
    "expansions": "mk$(shell touch PWNED_BY_MAKE)bt`touch PWNED_BY_SH`x",
    "student": "my flock 'v2\" a:b",  # a space, quotes and ':' just work
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_FOLDERS))
def test_project_folder_names_never_reach_make_or_the_shell(kind, tmp_path):
    require_tool("make")
    require_tool("gcc")
    proj = tmp_path / HOSTILE_FOLDERS[kind]
    spec = _project(proj)
    res = _cli(["build", "spec/boids.yaml"], proj)
    pwned = [str(p) for p in tmp_path.rglob("PWNED*")] + [str(p) for p in Path.cwd().glob("PWNED*")]
    assert not pwned, f"make or sh ran a command from the folder's name: {pwned}"
    assert [p.name for p in tmp_path.iterdir()] == [proj.name], "a path was split and its prefix created"
    if res.returncode == 0:
        assert (proj / "build" / "boids" / "boids_host").is_file()
        assert (proj / "build" / "boids" / "frame.png").is_file()
    else:
        _one_error_line(res.stderr, str(proj))
    assert spec.is_file()
    if kind == "student":
        assert res.returncode == 0, res.stderr


def test_a_path_make_cannot_spell_even_relative_is_refused_naming_it(tmp_path):
    """The one case relative paths do not cover: the other folder itself
    under such a name. One line naming it, not a make error."""
    from codegen.drivers.host_build import BuildError, make_relative

    fw = tmp_path / "plain" / "firmware"
    fw.mkdir(parents=True)
    odd = tmp_path / "tools $(shell touch PWNED)" / "firmware_runtime"
    odd.mkdir(parents=True)
    assert make_relative(tmp_path / "plain" / "build", fw, "build folder") == "../build"
    with pytest.raises(BuildError) as e:
        make_relative(odd, fw, "firmware_runtime")
    assert str(odd) in str(e.value) and "\n" not in str(e.value) and "'$'" in str(e.value)
