"""Which cmake build folders boidsgen configured itself.

A configured cmake folder is a program: ninja runs whatever its build.ninja
says, and the objects and the pioasm it finds there are linked and run. A
project folder from someone else can carry build/<name>/rp2040/cmake/ with
a forged CMakeCache.txt and build.ninja, so a folder is reused only if
boidsgen made it: after each configure and build, the folder's digest (every
entry's name, kind, size and time, and the bytes of each CMakeCache.txt and
.ninja file cmake wrote, with the source folder it was configured for) is
recorded under the folder's absolute path, outside the project, in a private
per-user folder held to the kernel cache's rule (pysim/kernel_cache.py):
~/.cache/boidsgen/cmake-builds/ (or $XDG_CACHE_HOME's). A folder without a
matching record (foreign, or changed since) is removed whole and configured
afresh: nothing in it, objects included, is trusted. Without a usable home
folder the records live in this process only (each run configures afresh).
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

from pysim.bounded_read import UnreadableFile, read_text_bounded
from pysim.kernel_cache import user_cache_folder

WHAT = ("RP2040 build records", "boidsgen reuses (and runs) the build folders they name", "XDG_CACHE_HOME")
MAX_ENTRIES = 50_000  # a build folder is a few hundred entries; a larger one is not ours
CONTENT = ("CMakeCache.txt", ".ninja")  # what cmake wrote that says what ninja runs: hashed whole
_in_memory: dict[str, str] = {}


def _records() -> Path | None:
    """The private records folder, or None (no usable home: records in memory)."""
    return user_cache_folder("cmake-builds", WHAT)


def _key(cmake_dir: Path) -> str:
    return hashlib.sha256(os.fsencode(os.path.realpath(cmake_dir))).hexdigest()[:40]  # one folder, one key


def digest(cmake_dir: Path, src: Path) -> str | None:
    """The folder's digest as configured for src, or None when it is not one to reuse (too large)."""
    h = hashlib.sha256(os.fsencode(str(src)) + b"\0")
    count = 0
    for top, dirs, files in os.walk(cmake_dir, followlinks=False):
        dirs.sort()
        for name in sorted(dirs + files):
            count += 1
            if count > MAX_ENTRIES:
                return None
            p = Path(top) / name
            st = os.lstat(p)
            rel = os.fsencode(p.relative_to(cmake_dir).as_posix())
            h.update(rel + f"\0{stat.S_IFMT(st.st_mode)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
            if stat.S_ISREG(st.st_mode) and name.endswith(CONTENT):
                with open(p, "rb") as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
    return h.hexdigest()


def matches(cmake_dir: Path, src: Path) -> bool:
    """Whether cmake_dir is, entry for entry, the folder boidsgen last configured and built for src."""
    folder = _records()
    key = _key(cmake_dir)
    if folder is None:
        recorded = _in_memory.get(key)
    else:
        try:
            recorded = read_text_bounded(folder / key, 256).strip()  # read back as untrusted: bounded
        except (OSError, UnreadableFile):
            recorded = None
    return recorded is not None and recorded == digest(cmake_dir, src)


def record(cmake_dir: Path, src: Path) -> None:
    """cmake_dir as boidsgen's own, as it is now (after configuring and building it for src)."""
    now = digest(cmake_dir, src)
    if now is None:
        return
    folder = _records()
    if folder is None:
        _in_memory[_key(cmake_dir)] = now
        return
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".record-")
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(now + "\n")
        os.replace(tmp, folder / _key(cmake_dir))
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def forget(cmake_dir: Path) -> None:
    """No record for cmake_dir (before it is removed or configured afresh)."""
    _in_memory.pop(_key(cmake_dir), None)
    folder = _records()
    if folder is not None:
        (folder / _key(cmake_dir)).unlink(missing_ok=True)
