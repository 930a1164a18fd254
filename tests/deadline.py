"""Bounded waits for the tests: nothing in the suite may wait forever (issue 12).

Every wait on another process, a pipe or a port has a monotonic-clock deadline
and fails naming what it waited for. pytest-timeout (pyproject.toml) is only
the backstop behind these."""
from __future__ import annotations

import os
import select
import subprocess
import time

PROC_EXIT = 5.0  # seconds for a process to exit once terminated or killed
RUN = 120.0  # seconds for one subprocess.run of a compiler, a test driver or the CLI (each takes < 10 s)


def read_line(stream, seconds: float, what: str) -> str:
    """One line from a pipe (e.g. a subprocess's stdout), like readline() but
    waiting at most `seconds`: AssertionError naming `what` if no full line came.
    At end of file, what was read so far (possibly ""), as readline() does.
    Reads the descriptor itself (select + os.read, one byte at a time so
    nothing past the line is taken): do not mix with the stream's own buffered
    reads before this call."""
    fd = stream.fileno()
    deadline = time.monotonic() + seconds
    buf = b""
    while not buf.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {what} within {seconds} s; got so far {buf!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        byte = os.read(fd, 1)
        if not byte:  # end of file: the writer is gone
            break
        buf += byte
    return buf.decode(errors="replace")


def reap(proc: subprocess.Popen, what: str, seconds: float = PROC_EXIT) -> int:
    """Wait for a process already terminated or killed: its exit status, or
    AssertionError naming `what` if it is still there after `seconds`."""
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{what} (pid {proc.pid}) still running {seconds} s after it was stopped") from None


def terminate(proc: subprocess.Popen, what: str, seconds: float = PROC_EXIT) -> int:
    """SIGTERM, then SIGKILL after `seconds`; the exit status (bounded too)."""
    proc.terminate()
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        return reap(proc, what, seconds)


class Deadline:
    """A monotonic-clock deadline for a loop: `check()` fails naming what was awaited."""

    def __init__(self, seconds: float, what: str) -> None:
        self.seconds, self.what = seconds, what
        self.end = time.monotonic() + seconds

    def expired(self) -> bool:
        return time.monotonic() >= self.end

    def check(self, detail: object = None) -> None:
        if self.expired():
            more = f"; {detail}" if detail is not None else ""
            raise AssertionError(f"no {self.what} within {self.seconds} s{more}")


def read_rest(stream, seconds: float = PROC_EXIT) -> str:
    """What is left in a pipe up to end of file, or what came within `seconds`
    (for error messages: whatever came, never a wait without end)."""
    fd = stream.fileno()
    end = time.monotonic() + seconds
    buf = b""
    while True:
        left = end - time.monotonic()
        ready = select.select([fd], [], [], left)[0] if left > 0 else []
        if not ready:
            buf += f"\n[pipe still open after {seconds} s]".encode()
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buf += chunk
    return buf.decode(errors="replace")
