"""One writer at a time in a spec's build folder.

Two boidsgen processes may build the same spec at once: a terminal and the
GUI, two `parity` runs, or the test suite's workers. make, cmake and ninja
all write into the build folder, and two of them there at once corrupt each
other's outputs, so every build takes the folder's lock first (an advisory
lock on `.boidsgen.lock` inside it, released when the build ends or its
process dies). The second one waits, then finds the first one's outputs up
to date. The wait is bounded: a lock held longer than any build fails with
one line naming the folder.

Where the platform has no flock (Windows), builds are not serialised."""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path

from codegen.output.safe_paths import OutputError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks of this kind
    fcntl = None

LOCK_NAME = ".boidsgen.lock"
WAIT_SECONDS = 1800.0  # longer than any build step (make's and the pico-sdk's 900 s bounds)
POLL = 0.05  # seconds between tries


class FolderBusy(OutputError):
    """Another process held the folder's lock past WAIT_SECONDS (one line, exit status 2)."""


@contextmanager
def folder_lock(folder: Path, wait: float = WAIT_SECONDS):
    """Hold folder's lock for the body (the folder exists, checked by the caller)."""
    if fcntl is None:
        yield
        return
    fd = os.open(Path(folder) / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise FolderBusy(f"{folder}: another boidsgen has been building here for {wait:.0f} s; "
                                     "wait for it to finish, or stop it") from None
                time.sleep(POLL)
        yield
    finally:
        os.close(fd)  # closing releases the lock
