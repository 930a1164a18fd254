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

from contextlib import contextmanager
from pathlib import Path

from codegen.spec.safe_paths import OutputError
from pysim.file_lock import file_lock

LOCK_NAME = ".boidsgen.lock"
WAIT_SECONDS = 1800.0  # longer than any build step (make's and the pico-sdk's 900 s bounds)


class FolderBusy(OutputError):
    """Another process held the folder's lock past WAIT_SECONDS (one line, exit status 2)."""


@contextmanager
def folder_lock(folder: Path, wait: float = WAIT_SECONDS):
    """Hold folder's lock for the body (the folder exists, checked by the caller)."""
    def busy(_path: str) -> FolderBusy:
        return FolderBusy(f"{folder}: another boidsgen has been building here for {wait:.0f} s; "
                          "wait for it to finish, or stop it")

    with file_lock(Path(folder) / LOCK_NAME, wait, busy):
        yield
