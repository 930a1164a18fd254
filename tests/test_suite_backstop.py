"""The suite cannot hang (issue 12). Every wait has a deadline of its own
(tests/deadline.py); behind them, pytest-timeout fails any test still running
after the default in pyproject.toml, and the rest of the suite goes on."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

from .conftest import ROOT
from .deadline import Deadline, read_line, read_rest, reap, terminate


def test_pytest_timeout_is_loaded_with_a_default(request):
    assert request.config.pluginmanager.hasplugin("timeout"), "pytest-timeout is not installed (pip install -e .[test])"
    assert float(request.config.getini("timeout")) >= 300
    assert request.config.getini("timeout_method") == "signal"  # fails one test, not the whole run


def test_a_hung_test_fails_and_the_next_one_still_runs(tmp_path):
    """Our configuration (pyproject.toml), its timeout cut to 1 s, on a test
    blocked for ever in a read from a pipe nobody writes to (in one process:
    xdist's workers would only add their start-up)."""
    (tmp_path / "test_hang.py").write_text(textwrap.dedent("""
        import os

        def test_blocked_in_a_read():
            r, w = os.pipe()
            os.read(r, 1)  # nobody ever writes

        def test_after_it():
            pass
    """))
    start = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
                          str(ROOT / "pyproject.toml"), "-o", "timeout=1", "-n", "0", str(tmp_path / "test_hang.py")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "Timeout" in res.stdout and "1 failed, 1 passed" in res.stdout, res.stdout
    assert time.monotonic() - start < 60


def test_read_line_gives_up_at_its_deadline_naming_what_it_awaited():
    r, w = os.pipe()
    with os.fdopen(r, "rb") as fh:
        os.write(w, b"pt")
        start = time.monotonic()
        with pytest.raises(AssertionError, match=r"no 'pty: \.\.\.' line within 0.2 s; got so far b'pt'"):
            read_line(fh, 0.2, "'pty: ...' line")
        assert time.monotonic() - start < 5
        os.write(w, b"y: /dev/pts/9\nrest")
        assert read_line(fh, 5, "line") == "y: /dev/pts/9\n"  # nothing past the line is taken
        os.close(w)
        assert read_line(fh, 5, "line") == "rest"  # end of file: what came, as readline()
        assert read_line(fh, 5, "line") == ""
        assert read_rest(fh) == ""


def test_read_rest_and_deadline_are_bounded():
    r, w = os.pipe()
    try:
        with os.fdopen(r, "rb") as fh:
            os.write(w, b"partial")
            assert read_rest(fh, 0.2) == "partial\n[pipe still open after 0.2 s]"
    finally:
        os.close(w)
    d = Deadline(0.05, "thing")
    d.check()
    time.sleep(0.06)
    with pytest.raises(AssertionError, match=r"^no thing within 0.05 s; seen 3$"):
        d.check("seen 3")


def test_terminate_and_reap_are_bounded():
    proc = subprocess.Popen([sys.executable, "-c", "import signal, time; "
                             "signal.signal(signal.SIGTERM, signal.SIG_IGN); print(flush=True); time.sleep(60)"],
                            stdout=subprocess.PIPE)
    try:
        assert read_line(proc.stdout, 30, "start-up line") == "\n"  # SIGTERM is ignored from here on
        start = time.monotonic()
        assert terminate(proc, "a child ignoring SIGTERM", seconds=0.3) == -9  # killed after 0.3 s
        assert time.monotonic() - start < 5
        assert reap(proc, "the same child") == -9
    finally:
        proc.kill()
        proc.wait(timeout=5)
        proc.stdout.close()
