"""Only code rendered from the spec runs (issue 32): no planted bytecode
(.pyc beside the cached kernel or the generated model) runs, the kernel
cache is used only in a private folder (refused otherwise, naming it) and
never under a predictable shared name, a model runs only after its text is
checked, and a kernel only if it hashes to what its model names
(pysim/model_support.py, pysim/kernel_cache.py, codegen/spec/project.py).

The simulator runs in its own process with a cache folder of the test's
own; only the planted-bytecode case gets as far as compiling a kernel
(once, a few seconds), the others are refused before."""
from __future__ import annotations

import importlib.util
import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.commands.cli import main

from .conftest import ROOT
from .deadline import RUN

BOIDS = (ROOT / "spec" / "boids.yaml").read_text(encoding="utf-8")
MARK = "boidsgen_was_made_to_run_this"


def _project(tmp_path: Path) -> Path:
    spec = tmp_path / "proj" / "spec" / "boids.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(BOIDS, encoding="utf-8")
    assert main(["generate", str(spec)]) == 0
    return spec


def _private_cache(tmp_path: Path) -> Path:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    return cache


def _sim(spec: Path, cache: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, BOIDSGEN_KERNEL_CACHE=str(cache), PYTHONPATH=str(ROOT))
    env.pop("PYTHONPYCACHEPREFIX", None)  # Python's default, which the planted .pyc aims at: __pycache__ beside the source
    return subprocess.run([sys.executable, "-m", "codegen.commands.cli", "sim", str(spec), "--frames", "1", "--seed", "1",
                           "--trace", "-"], cwd=cwd, env=env, capture_output=True, text=True, timeout=RUN)


def _evil(marker: Path) -> str:
    return f"open({str(marker)!r}, 'w').write('ran')\n"


def _one_line(err: str, *needles: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in lines[0], f"{n!r} not in {lines[0]!r}"


def _plant_pyc(source: Path, marker: Path) -> Path:
    """Bytecode that Python's import would run for `source` whatever the
    source says: an unchecked hash-based .pyc in its __pycache__."""
    evil = source.with_name("evil_src.py")
    evil.write_text(_evil(marker), encoding="utf-8")
    pyc = source.parent / "__pycache__" / Path(importlib.util.cache_from_source(str(source))).name
    pyc.parent.mkdir(exist_ok=True)
    py_compile.compile(str(evil), cfile=str(pyc), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    evil.unlink()
    return pyc


def test_planted_bytecode_never_runs(tmp_path):
    """A .pyc beside the cached kernel copy and one beside the generated model."""
    spec, cache = _project(tmp_path), _private_cache(tmp_path)
    first = _sim(spec, cache, tmp_path)
    assert first.returncode == 0, first.stderr
    copies = sorted(cache.rglob("boids_kernel.py"))
    assert len(copies) == 1, copies
    marker = tmp_path / MARK
    _plant_pyc(copies[0], marker)
    _plant_pyc(spec.parent.parent / "generated" / "boids" / "python" / "boids_model.py", marker)
    res = _sim(spec, cache, tmp_path)
    assert not marker.exists(), "planted bytecode ran"
    assert res.returncode == 0, res.stderr
    assert _trace(res.stdout) == _trace(first.stdout) != []


def _trace(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if not ln.startswith("sim:")]  # the last line: its timing


@pytest.mark.parametrize("how", ["group_writable", "a_link", "not_a_folder"])
def test_a_cache_folder_that_is_not_private_is_refused(how, tmp_path):
    spec = _project(tmp_path)
    private = _private_cache(tmp_path)
    if how == "group_writable":
        cache = tmp_path / "shared"
        cache.mkdir()
        os.chmod(cache, 0o777)
        why = "writable by group or others"
    elif how == "a_link":
        cache = tmp_path / "link"
        cache.symlink_to(private)
        why = "symbolic link"
    else:
        cache = tmp_path / "afile"
        cache.write_text("x")
        why = "not a folder"
    res = _sim(spec, cache, tmp_path)
    assert res.returncode == 1, res.stderr
    _one_line(res.stderr, str(cache), why)
    assert not any(private.iterdir()) and (not cache.is_dir() or cache.is_symlink() or not any(cache.iterdir()))


def test_a_folder_of_another_user_is_refused(tmp_path):
    """Owned by someone else: a folder given away when we are root, '/' otherwise."""
    spec = _project(tmp_path)
    if os.geteuid() == 0:
        theirs = tmp_path / "theirs"
        theirs.mkdir(mode=0o755)
        os.chown(theirs, 65534, 65534)
    else:
        theirs = Path("/")
    res = _sim(spec, theirs, tmp_path)
    assert res.returncode == 1, res.stderr
    _one_line(res.stderr, str(theirs), "owned by user id")
    assert theirs == Path("/") or not any(theirs.iterdir())


def test_no_predictable_shared_cache_name(tmp_path, monkeypatch):
    """No usable cache home: a folder for this process alone, never
    $TMPDIR/boidsgen-kernels-<uid> (which anyone could have made first)."""
    import tempfile

    from pysim.model_support import kernel_cache_root

    blocker = tmp_path / "not_a_folder"
    blocker.write_text("x")
    monkeypatch.delenv("BOIDSGEN_KERNEL_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    root = kernel_cache_root()
    assert root != Path(tempfile.gettempdir()) / f"boidsgen-kernels-{os.getuid()}"
    st = os.lstat(root)
    assert st.st_uid == os.getuid() and (st.st_mode & 0o777) == 0o700, oct(st.st_mode)


def test_an_edited_model_never_runs(tmp_path, capsys):
    """A line added to the committed model runs neither with a wrong SPEC_HASH
    (refused before any of it runs) nor with the right one (its text is not
    the fresh render)."""
    spec = _project(tmp_path)
    model = spec.parent.parent / "generated" / "boids" / "python" / "boids_model.py"
    good = model.read_text(encoding="utf-8")
    marker = tmp_path / MARK
    for text, why in ((good.replace('SPEC_HASH = "', 'SPEC_HASH = "0') + _evil(marker), "spec hash"),
                      (_evil(marker) + good, "not the text")):
        model.write_text(text, encoding="utf-8")
        capsys.readouterr()
        assert main(["sim", str(spec), "--frames", "1", "--seed", "1"]) == 1
        assert not marker.exists(), f"the edited model ran ({why})"
        _one_line(capsys.readouterr().err, str(model), why)


def test_a_kernel_is_paired_with_its_model_by_hash(tmp_path):
    """A kernel with a line added but its KERNEL_HASH line kept does not run."""
    spec, cache = _project(tmp_path), _private_cache(tmp_path)
    kernel = spec.parent.parent / "generated" / "boids" / "python" / "boids_kernel.py"
    marker = tmp_path / MARK
    kernel.write_text(_evil(marker) + kernel.read_text(encoding="utf-8"), encoding="utf-8")
    res = _sim(spec, cache, tmp_path)
    assert not marker.exists(), "an edited kernel ran"
    assert res.returncode == 1, res.stderr
    _one_line(res.stderr, str(kernel), "not the kernel generated with")
