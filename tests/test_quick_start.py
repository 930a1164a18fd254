"""The README's quick start on the distribution's own Python (issue 33).

The two commands are taken from README.md as text and run, unchanged, in a
fresh copy of the project with a PATH on which `python3` is Debian's
/usr/bin/python3 (PEP 668: no pip install outside a virtualenv; no tkinter
unless python3-tk is installed). Only the test command's pytest run is
narrowed to one small file: the whole suite inside the suite would double it."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT
from .test_readme import quick_start_commands

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: a virtualenv and an install

SYSTEM_PYTHON = Path("/usr/bin/python3")
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SETUP_AND_RUN = 900  # seconds: a fresh virtualenv's pip install (numba, dask, matplotlib) plus one build


def fresh_copy(dest: Path) -> Path:
    """The project's tracked files as they are in the work tree (a fresh clone of what is being tested)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                           timeout=60).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def run_line(line: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYENV", "PYTHON"))}
    env["PATH"] = SYSTEM_PATH
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=SETUP_AND_RUN)


@pytest.mark.slow
@pytest.mark.timeout(2 * SETUP_AND_RUN)
def test_the_quick_start_works_on_the_system_python(tmp_path):
    if not SYSTEM_PYTHON.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SYSTEM_PYTHON} is absent: the quick start cannot be tried on the distribution's Python")
        pytest.skip(f"{SYSTEM_PYTHON} is absent")
    if os.geteuid() != 0 and os.environ.get("CI") != "true":
        pytest.skip("setup.sh installs system packages as root")
    project = fresh_copy(tmp_path / "clone")
    build, tests = quick_start_commands()

    res = run_line(build, project)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    venv_python = subprocess.run([str(project / ".venv" / "bin" / "python"), "-c",
                                  "import sys, tkinter; print(sys.base_prefix, sys.prefix != sys.base_prefix)"],
                                 capture_output=True, text=True, timeout=60)
    assert venv_python.returncode == 0, venv_python.stderr  # tkinter is there: the GUI can start
    assert venv_python.stdout.split() == ["/usr", "True"], venv_python.stdout  # a virtualenv of Debian's Python
    assert (project / "build" / "boids" / "frame.png").stat().st_size > 0
    assert "PIC32 compile check" in res.stdout

    narrowed = tests.replace("pytest -q", "pytest -q -p no:cacheprovider tests/test_fxdecimal.py")
    assert narrowed != tests, tests
    res = run_line(narrowed, project)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert " passed" in res.stdout.splitlines()[-1]
