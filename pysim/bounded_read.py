"""The one way boidsgen reads a file it generated or a project file it
inspects: a regular file of bounded size, as text.

A generated file can be replaced by anything a user (or an attacker with
write access to the project) puts there: a link to /dev/zero would be read
for ever, a FIFO would block the open, a huge file would exhaust memory.
So the file is opened without blocking, asked what it is (fstat on the open
descriptor, so the answer is about what is read), and read only up to the
bound. codegen/output/safe_paths.py re-exports this for the generator.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

# far above any generated file (the largest, a kernel or a boids_flock.c, are under 100 KB)
MAX_FILE_BYTES = 8 << 20


class UnreadableFile(OSError):
    """Not a regular file, or larger than boidsgen reads; str() is one line naming it."""


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def read_bytes_bounded(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. UnreadableFile
    (one line, naming the path) for anything else; FileNotFoundError and other
    OSErrors as open() raises them."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
            raise UnreadableFile(f"{path}: {kind}, not a regular file; boidsgen reads only regular files here")
        if st.st_size > limit:
            raise UnreadableFile(f"{path}: {st.st_size} bytes, more than the {limit} boidsgen reads here; "
                                 "not a file it generated")
        chunks, left = [], limit + 1  # one byte more than allowed tells a file that grew
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise UnreadableFile(f"{path}: more than the {limit} bytes boidsgen reads here; not a file it generated")
        return data
    finally:
        os.close(fd)


def read_text_bounded(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """read_bytes_bounded as UTF-8 text; UnreadableFile if it is not UTF-8."""
    data = read_bytes_bounded(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UnreadableFile(f"{path}: not UTF-8 text (byte {e.start}); not a file boidsgen generated") from None
