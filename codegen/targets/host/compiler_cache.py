"""ccache for the C builds, where it is installed.

The host, host-mipsel and m4k builds (the generated Makefile, make_run.py)
compile each file to its own object through `$(CCACHE)`: the runtime's files
preprocess to the same text for most specs, so they are compiled once.

Every spec's first RP2040 build compiles the whole pico-sdk (about a minute
here) though its sources and flags are the same for every spec; only the
generated files differ. With ccache on PATH the SDK's objects are compiled
once per machine and taken from its cache after that (a build of a second
spec takes seconds). What ccache keys an object by (the preprocessed
source, the flags, the compiler) is what the object is made from, so a hit
is the object the compiler would have made.

Two settings make builds in different folders share objects, each unless
the user has set it: CCACHE_BASEDIR, the project root, so paths inside the
project (the build folder's generated headers) are hashed relative to the
folder being built; and CCACHE_NOHASHDIR, so the folder itself is not part
of the key (the SDK compiles with -g: the debug info of a hit names the
folder it was first built in, not this one). Without ccache nothing changes.

Builds that share the cache take turns (`sdk_turn`): two first builds at
once (two terminals, the suite's workers) would both miss every SDK object
and compile the SDK twice; the second now waits and takes the first's."""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

LAUNCHED = ("C", "CXX")  # CMake's launcher variables; the SDK's assembly is a handful of small files


def available() -> bool:
    return shutil.which("ccache") is not None


def make_variables() -> list[str]:
    """The generated Makefile's launcher variable, where ccache is installed."""
    return ["CCACHE=ccache"] if available() else []


def environment(project_root: Path) -> dict[str, str]:
    """The configure and build steps' environment. CMake reads the launcher from
    CMAKE_<LANG>_COMPILER_LAUNCHER in the environment (3.17 and later), so the
    project the SDK builds pioasm in, configured during the build, gets it too."""
    env = dict(os.environ)
    if not available():
        return env
    for lang in LAUNCHED:
        env.setdefault(f"CMAKE_{lang}_COMPILER_LAUNCHER", "ccache")
    env.setdefault("CCACHE_BASEDIR", str(Path(project_root).resolve()))
    env.setdefault("CCACHE_NOHASHDIR", "true")
    return env


TURN_WAIT = 1800.0  # seconds: longer than a build's configure and ninja steps (900 s each)


@contextmanager
def sdk_turn(error=RuntimeError):
    """The body (a pico-sdk configure and build) while no other boidsgen's runs
    (a lock in ~/.cache/boidsgen/locks/); no lock without ccache or a
    writable home, where nothing is shared to wait for. A wait past
    TURN_WAIT raises error(one line naming the lock)."""
    from pysim.file_lock import file_lock
    from pysim.kernel_cache import user_cache_folder

    folder = user_cache_folder("locks") if available() else None
    if folder is None:
        yield
        return

    def busy(path: str) -> Exception:
        return error(f"{path}: another boidsgen has been building the pico-sdk for {TURN_WAIT:.0f} s; "
                     "wait for it to finish, or stop it")

    with file_lock(folder / "pico-sdk.lock", TURN_WAIT, busy):
        yield
