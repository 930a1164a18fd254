"""One process at a time: an advisory lock on a file, with a bounded wait.

The generator's build folders (codegen/spec/folder_lock.py), the RP2040's
first pico-sdk build and numba's first compile of a kernel
(pysim/engine.py) all take one. The lock is released when the body ends or
its process dies. Where the platform has no flock (Windows), nothing is
serialised: the work is then merely done twice.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks of this kind
    fcntl = None

POLL = 0.05  # seconds between tries


class LockBusy(Exception):
    """Another process held the lock past the wait's bound."""


@contextmanager
def file_lock(path: Path, wait: float, busy=LockBusy):
    """Hold the lock on `path` (created if missing, never through a link) for
    the body; if another process holds it for `wait` seconds, raises
    busy(str(path)) (the caller's one-line error)."""
    if fcntl is None:
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise busy(str(path)) from None
                time.sleep(POLL)
        yield
    finally:
        os.close(fd)  # closing releases the lock
