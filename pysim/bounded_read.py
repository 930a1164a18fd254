"""The one way boidsgen reads a file it generated or a project file it
inspects: a regular file of bounded size, as text.

A generated file can be replaced by anything a user (or an attacker with
write access to the project) puts there: a link to /dev/zero would be read
for ever, a FIFO would block the open, a huge file would exhaust memory.
So the file is opened without blocking, asked what it is (fstat on the open
descriptor, so the answer is about what is read), and read only up to the
bound. codegen/spec/safe_paths.py re-exports this for the generator.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from pysim.one_line import one_line

# far above any generated file (the largest, a kernel or a boids_flock.c, are under 100 KB)
MAX_FILE_BYTES = 8 << 20


class UnreadableFile(OSError):
    """Not a regular file, or larger than boidsgen reads; str() is one line
    naming it (the path escaped: pysim/one_line.py). `kind` says what it is
    instead ("a FIFO", ...) or `size` how large it is, for a caller that
    words its own refusal (a spec's is located at line 1)."""

    def __init__(self, message: str, kind: str | None = None, size: int | None = None) -> None:
        super().__init__(message)
        self.kind, self.size = kind, size


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def open_regular(path: str | Path):
    """`path` opened for reading in binary, if it is a regular file: opened
    without blocking (a FIFO cannot hang the open), then asked what it is on
    the open descriptor (so the answer is about what is read). UnreadableFile
    (one line, naming the path) for a folder, FIFO, device or socket;
    FileNotFoundError and other OSErrors as open() raises them. For readers
    that read line by line (experiment rows); read_bytes_bounded for whole files."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
            raise UnreadableFile(f"{one_line(path)}: {kind}, not a regular file; boidsgen reads only regular files "
                                 "here", kind=kind)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes_bounded(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. UnreadableFile
    (one line, naming the path) for anything else; FileNotFoundError and other
    OSErrors as open() raises them."""
    with open_regular(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            raise UnreadableFile(f"{one_line(path)}: {size} bytes, more than the {limit} boidsgen reads here; "
                                 "not a file it generated", size=size)
        data = fh.read(limit + 1)  # one byte more than allowed tells a file that grew
        if len(data) > limit:
            raise UnreadableFile(f"{one_line(path)}: more than the {limit} bytes boidsgen reads here; not a file it "
                                 "generated", size=len(data))
        return data


def read_text_bounded(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """read_bytes_bounded as UTF-8 text; UnreadableFile if it is not UTF-8."""
    data = read_bytes_bounded(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UnreadableFile(f"{one_line(path)}: not UTF-8 text (byte {e.start}); not a file boidsgen generated") from None
