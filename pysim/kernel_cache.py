"""Where numba compiles generated kernels: a private cache folder.

numba caches a function's machine code beside its source file (the
__pycache__ of the kernel's copy), keyed by the file's time and size, and
reads back pickles from there: whoever can write the cache folder can make
`boidsgen sim` run their code. So the cache is used only in a folder that is
the user's own and that nobody else can write (refused otherwise, naming
it), never under a predictable shared name: $BOIDSGEN_KERNEL_CACHE, else
~/.cache/boidsgen/kernels, else (no writable home) a folder made for this
process alone by mkdtemp and removed at exit. Each kernel has its folder
named by the hash of its whole text, the running fxops and the tool's
version, so a changed runtime or tool never meets machine code compiled for
another, and the copy is written once, atomically, and keeps its time.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path

from pysim.bounded_read import read_text_bounded
from pysim.file_lock import file_lock

KERNEL_FILE = "boids_kernel.py"


class UnsafeCache(OSError):
    """The kernel cache folder is not private; str() is one line naming it."""


# (what the folder is, what runs from it, the variable that names another): the kernel cache's by
# default; codegen/targets/host/build_cache.py holds its folder to the same rule with its own words
KERNELS = ("kernel cache", "numba runs what it finds there", "BOIDSGEN_KERNEL_CACHE")


def _refuse(path: Path, why: str, cache: tuple = KERNELS) -> UnsafeCache:
    what, runs, env = cache
    return UnsafeCache(f"{what} {path}: {why}; {runs}, so boidsgen uses only a folder of your own that nobody "
                       f"else can write (chmod go-w it, or set {env} to such a folder)")


def check_private(path: Path, cache: tuple = KERNELS) -> Path:
    """path, if it is a real folder (not a link) owned by this user and not
    writable by group or others; UnsafeCache otherwise."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise _refuse(path, "a symbolic link", cache)
    if not stat.S_ISDIR(st.st_mode):
        raise _refuse(path, "not a folder", cache)
    if not hasattr(os, "getuid"):  # Windows: no owner or mode bits here; the profile folder's ACLs guard it
        return path
    if st.st_uid != os.getuid():
        raise _refuse(path, f"owned by user id {st.st_uid}, not by you ({os.getuid()})", cache)
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise _refuse(path, f"writable by group or others (mode {stat.S_IMODE(st.st_mode):o})", cache)
    return path


def private_dir(path: Path, cache: tuple = KERNELS) -> Path:
    """path created (mode 0700) if missing, then check_private."""
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    return check_private(path, cache)


_process_dir: Path | None = None


def _process_private() -> Path:
    """A folder for this process alone (mkdtemp: unpredictable, 0700), removed at exit."""
    global _process_dir
    if _process_dir is None:
        _process_dir = Path(tempfile.mkdtemp(prefix="boidsgen-kernels-"))
        atexit.register(shutil.rmtree, _process_dir, True)
    return _process_dir


def user_cache_folder(name: str, cache: tuple = KERNELS) -> Path | None:
    """~/.cache/boidsgen/<name> (or $XDG_CACHE_HOME's), created private and
    checked (UnsafeCache otherwise); None when there is no writable home (a
    read-only container): the caller then keeps what it caches for this
    process only. The kernel cache's, and codegen/targets/rp2040/build_record.py's."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")).absolute()
    try:
        base.mkdir(parents=True, exist_ok=True)
        folder = private_dir(private_dir(base / "boidsgen", cache) / name, cache)
    except UnsafeCache:
        raise
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def kernel_cache_root() -> Path:
    """The private folder kernels are compiled in (see the module's text)."""
    env = os.environ.get("BOIDSGEN_KERNEL_CACHE")
    if env:
        Path(env).absolute().parent.mkdir(parents=True, exist_ok=True)
        return private_dir(Path(env).absolute())
    return user_cache_folder("kernels") or _process_private()


def cache_key(text: str) -> str:
    """The kernel's folder name: its whole text, the running fxops, the tool,
    Python and numba (numba's cache is machine code for one of each)."""
    from importlib.metadata import PackageNotFoundError, version

    import numba

    from pysim import fxops

    try:
        tool = version("boidsgen")
    except PackageNotFoundError:
        tool = "source"
    parts = (text, fxops.SOURCE_HASH, tool, sys.implementation.cache_tag, numba.__version__)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def cached_copy(text: str) -> tuple[Path, str]:
    """(path, key): the kernel's copy in its private cache folder (checked),
    written (atomically) if missing or different."""
    key = cache_key(text)
    folder = private_dir(kernel_cache_root() / key)
    # numba's cache files go here; made 0700 before numba makes it with the umask's mode (nobody
    # else can reach it anyway: its parent is private)
    (folder / "__pycache__").mkdir(mode=0o700, exist_ok=True)
    copy = folder / KERNEL_FILE
    try:
        same = read_text_bounded(copy) == text
    except OSError:
        same = False
    if not same:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{KERNEL_FILE}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            os.replace(tmp, copy)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    return copy, key


COMPILE_WAIT = 900.0  # seconds: far longer than numba takes to compile any kernel (seconds)


class KernelBusy(OSError):
    """Another process compiled the same kernel past COMPILE_WAIT; str() is one line."""


def compile_turn(kernel, fn):
    """A context for fn's (a numba function of `kernel`) first run in this
    process: another process compiling the same kernel is waited for, so
    its machine code, saved in the cache folder, is read back instead of
    compiled a second time (a cold suite's workers, a GUI beside a `sim`)."""
    if getattr(fn, "signatures", None):  # already compiled or loaded here
        return nullcontext()
    folder = Path(kernel.__file__).parent

    def busy(path: str) -> KernelBusy:
        return KernelBusy(f"{path}: another process has been compiling this kernel for {COMPILE_WAIT:.0f} s")

    return file_lock(folder / ".compile.lock", COMPILE_WAIT, busy)
