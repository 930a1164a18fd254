"""Hostile experiment files (issue 32): each file in tests/hostile/experiments/
is a case (README there): `boidsgen experiment` must refuse it with exit 2,
one located line meeting its `# expect:`, no traceback, nothing written, no
value of a file that is not a spec echoed, and quickly."""
from __future__ import annotations

import contextlib
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from codegen.commands.cli import main

from .conftest import ROOT

CASES = Path(__file__).resolve().parent / "hostile" / "experiments"
NAME_RE = re.compile(r"^[a-z0-9]+__[a-z0-9_]+\.yaml$")
EXPECT_RE = re.compile(r"^# expect: (\d+) (\S.*?)\s*$")
SECRET = "tok_abcdef"  # in the project's notes.yaml: no error may print it
SECONDS = 10.0  # each case must return within this (most take well under a second)
HARD_STOP = 15  # then SIGALRM interrupts it: a hang fails its case, not the suite


def cases() -> list[Path]:
    return sorted(CASES.glob("*.yaml"))


def expectation(path: Path) -> tuple[int, str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        m = EXPECT_RE.match(line)
        if m:
            return int(m.group(1)), m.group(2)
        if not line.startswith("#"):
            break
    raise AssertionError(f"{path.name}: no '# expect: LINE substring' line in its header")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile_experiments")
    (root / "spec").mkdir()
    (root / "experiments").mkdir()
    for name in ("scouts_vga.yaml", "boids.yaml"):
        shutil.copy(ROOT / "spec" / name, root / "spec" / name)
    (root / "notes.yaml").write_text(f"name: notes\napi_token: {SECRET}\nflock: {{size: {SECRET}}}\n",
                                     encoding="utf-8")
    return root


def tree(root: Path) -> dict:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in root.rglob("*")}


@contextlib.contextmanager
def hard_stop(seconds: int):
    def stop(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_the_corpus_is_well_formed():
    assert len(cases()) >= 20
    for path in cases():
        assert NAME_RE.match(path.name), f"{path.name}: name it <class>__<case>.yaml"
        assert path.read_text(encoding="utf-8").startswith("# hostile: "), path.name
        expectation(path)


@pytest.mark.parametrize("case", cases(), ids=[p.stem for p in cases()])
def test_hostile_experiment_is_refused_at_its_line(project, case, capsys):
    line, sub = expectation(case)
    f = project / "experiments" / case.name
    shutil.copy(case, f)
    before = tree(project)
    try:
        t0 = time.monotonic()
        with hard_stop(HARD_STOP):
            rc = main(["experiment", str(f), "--workers", "0"])
        took = time.monotonic() - t0
        out, err = capsys.readouterr()
    finally:
        f.unlink()
    assert rc == 2, err
    assert "Traceback" not in err and SECRET not in err + out, err
    assert max(map(len, err.splitlines())) < 500, "an error line quotes too much of the file"
    located = [ln for ln in err.splitlines() if ln.startswith(f"{f}:")]
    rest = [ln for ln in err.splitlines() if not ln.startswith(f"{f}:")]
    assert len(located) == 1, f"not one located line:\n{err}"
    assert rest == ["boidsgen: 1 error(s); nothing written"], err
    m = re.match(rf"{re.escape(str(f))}:(\d+):(\d+): (\S+: )?(.*)$", located[0])
    assert m and int(m.group(1)) == line, f"expected line {line}:\n{located[0]}"
    assert sub.lower() in m.group(4).lower(), f"expected '{sub}' in the reason:\n{located[0]}"
    after = tree(project)
    after[f"experiments/{case.name}"] = before[f"experiments/{case.name}"]
    assert after == before, "a refused experiment wrote into the project"
    assert took < SECONDS, f"{case.name} took {took:.1f} s"
