"""A cache of host builds keyed by what they are made from ($BOIDSGEN_BUILD_CACHE).

make rebuilds by file times, inside one build folder. A test suite, a CI
job or an experiment builds the same firmware in many folders (a spec copied
into a fresh project, a variant rendered again), and each would compile it
from scratch. With BOIDSGEN_BUILD_CACHE naming a folder, an executable that
`make host` or `make host-mipsel` made is kept there under a key of
everything the build reads, and a later build with the same key copies it
instead of compiling:

- every file of the generated firmware folder (the Makefile among them);
- every file of the runtime folder the Makefile names (RUNTIME);
- the make target and its extra variables (HOST_CFLAGS ...);
- the compiler's own `--version` text.

Unset (the default), nothing changes. The folder holds programs that are
run, so it must be the user's own and writable by nobody else (refused
otherwise, as the kernel cache is: pysim/kernel_cache.py). Two processes that
miss the same key take turns (folder_lock): the second finds the first's.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from codegen.spec.folder_lock import folder_lock

ENV = "BOIDSGEN_BUILD_CACHE"
# the targets whose one output is an executable, and the compiler each runs ($(CC), $(MIPS_CC))
OUTPUTS = {"host": ("boids_host", "gcc"), "host-mipsel": ("boids_host_mipsel", "mipsel-linux-gnu-gcc")}
_RUNTIME = re.compile(r"(?m)^RUNTIME \?= *(\S+)")
_DEFAULTED = re.compile(r"(?m)^(\w+) \?=")  # make takes these from the environment when it has them


def root() -> Path | None:
    """The cache folder (private, created if missing), or None when the variable is unset."""
    from pysim.kernel_cache import private_dir

    env = os.environ.get(ENV)
    if not env:
        return None
    path = Path(env).absolute()
    path.parent.mkdir(parents=True, exist_ok=True)
    return private_dir(path, ("build cache", "boidsgen runs the programs it finds there", ENV))


@lru_cache(maxsize=None)
def _compiler_version(cc: str) -> bytes:
    try:
        return subprocess.run([cc, "--version"], capture_output=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return b"?"


def _hash_tree(h, folder: Path, label: str, skip: Path) -> None:
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts and skip not in p.parents:
            h.update(f"\0{label}/{p.relative_to(folder).as_posix()}\0".encode())
            h.update(p.read_bytes())


def key(fw_dir: Path, target: str, extra: list[str], build: Path) -> str | None:
    """The build's key, or None when this build is not one the cache keeps."""
    if target not in OUTPUTS or any(x.startswith("RUNTIME=") for x in extra):
        return None
    fw_dir = Path(fw_dir)
    makefile = (fw_dir / "Makefile").read_text(encoding="utf-8", errors="replace")
    m = _RUNTIME.search(makefile)
    runtime = (fw_dir / m.group(1)).resolve() if m else None
    if runtime is None or not runtime.is_dir():
        return None
    h = hashlib.sha256()
    h.update("\0".join([target, *extra]).encode())
    env = sorted((v, os.environ[v]) for v in set(_DEFAULTED.findall(makefile)) - {"RUNTIME"} if v in os.environ)
    h.update(repr(env).encode())
    cc = os.environ.get("CC", "gcc") if target == "host" else os.environ.get("MIPS_CC", OUTPUTS[target][1])
    h.update(_compiler_version(cc))
    for folder, label in ((fw_dir, "firmware"), (runtime, "runtime")):
        _hash_tree(h, folder, label, Path(build).absolute())  # not the outputs, if built inside
    return h.hexdigest()[:40]


def _place(src: Path, dest: Path) -> None:
    """src copied to dest atomically (a running copy of dest keeps its old file)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.")
    os.close(fd)
    try:
        shutil.copy2(src, tmp)
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Entry:
    """One build's place in the cache: hit when its output was copied into the
    build folder (make need not run); keep() stores what make made."""

    def __init__(self, folder: Path | None, name: str, build: Path):
        self.folder, self.name, self.build = folder, name, Path(build)
        self.hit = folder is not None and (folder / name).is_file()
        if self.hit:
            _place(folder / name, self.build / name)

    def keep(self) -> None:
        if self.folder is not None and not self.hit and (self.build / self.name).is_file():
            _place(self.build / self.name, self.folder / self.name)


@contextmanager
def cached(fw_dir: Path, target: str, build: Path, extra: list[str]):
    """Around one make run (the entry's lock held: a second process missing
    the same key waits, then finds this one's output)."""
    base = root()
    k = key(fw_dir, target, extra, build) if base is not None else None
    if k is None:
        yield Entry(None, "", build)
        return
    entry = base / k
    entry.mkdir(mode=0o700, exist_ok=True)
    with folder_lock(entry):
        yield Entry(entry, OUTPUTS[target][0], build)
