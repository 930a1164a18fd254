"""Shared test helpers: real tools or a clear failure under CI."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.deadline import RUN

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "firmware_runtime"
# the host build's include folders: the portable core, then the host platform
RUNTIME_INCLUDES = [RUNTIME / "core", RUNTIME / "host"]
RUNTIME_I_FLAGS = [f"-I{d}" for d in RUNTIME_INCLUDES]
DEFAULT_SPEC = str(ROOT / "spec" / "boids.yaml")
_FLOCK_CAPACITY = re.compile(r"(?m)^(  capacity: )(\d+)")  # the flock's; other entities' are in flow maps


def with_capacity(text: str, capacity: int) -> str:
    """A spec's text with its flock's capacity set (tests that study a
    capacity say which, whatever the default spec holds)."""
    out, k = _FLOCK_CAPACITY.subn(rf"\g<1>{capacity}", text, count=1)
    assert k == 1, "no '  capacity: N' line in the spec"
    return out


# the README's example of a spec the range analysis refuses: capacity 300,
# protected_range up to 300 px (the separation sum wraps in s16.15)
OVERFLOWS = re.sub(r"(protected_range: \{default: 2, +min: 0, +max:) 100", r"\1 300",
                   with_capacity(Path(DEFAULT_SPEC).read_text(encoding="utf-8"), 300))

# the default spec's flock capacity: what its board answers `boids N` past
DEFAULT_CAPACITY = int(_FLOCK_CAPACITY.search(Path(DEFAULT_SPEC).read_text()).group(2))

# The suite runs from the project's virtualenv (`.venv/bin/python -m pytest`)
# without it being activated: the tests that start `boidsgen` or `boids-gui` by
# name must find that environment's scripts, not another Python's.
os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")

# The suite's own caches, shared by its workers (pytest-xdist) and kept between runs: the host
# builds (codegen/targets/host/build_cache.py: one compile per generated firmware, whichever
# folder a test renders it into), numba's compiled kernels (pysim/kernel_cache.py, keyed by each
# kernel's text) and ccache's objects for the pico-sdk builds (keyed by the preprocessed source
# and the flags). Each entry is keyed by what it was made from, so a stale one is never used;
# `rm -rf build/.suite` starts cold, as a fresh clone does. A variable already set is kept.
SUITE_CACHE = ROOT / "build" / ".suite"
os.environ.setdefault("BOIDSGEN_BUILD_CACHE", str(SUITE_CACHE / "hosts"))
os.environ.setdefault("BOIDSGEN_KERNEL_CACHE", str(SUITE_CACHE / "kernels"))
os.environ.setdefault("CCACHE_DIR", str(SUITE_CACHE / "ccache"))
# The generated Makefile's compiler launcher (`CCACHE ?=`, which make takes from the environment):
# the tests that run `make host` by hand share the runtime's objects as boidsgen's builds do.
if shutil.which("ccache"):
    os.environ.setdefault("CCACHE", "ccache")
# Python's own bytecode: where the environment forbids writing it (PYTHONDONTWRITEBYTECODE, set on
# some machines to keep __pycache__ out of the tree), every worker and every boidsgen a test starts
# compiled each module from its source again (collecting the suite: 4.9 s a process against 1.6 s).
# The suite keeps it in a cache of its own instead, outside the source tree; the workers (started
# after this file is read) and every process they start inherit it.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(SUITE_CACHE / "pycache"))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False


def require_tool(name: str) -> str:
    """The tool's path; a skip on a developer machine, a failure under CI=true."""
    path = shutil.which(name)
    if path is None:
        msg = f"{name} is not installed (.ci/run installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return path


def missing(msg: str):
    """A needed thing that is not there: a skip on a developer machine, a failure under CI=true."""
    if os.environ.get("CI") == "true":
        pytest.fail(msg)
    pytest.skip(msg)


@pytest.fixture(scope="session")
def pico_sdk():
    """PICO_SDK_PATH (set to ../shared/pico-sdk when unset and that exists) and what builds with it
    (the RP2040's and the RP2350's images)."""
    shared = ROOT.parent / "shared" / "pico-sdk"
    if not os.environ.get("PICO_SDK_PATH") and (shared / "pico_sdk_init.cmake").is_file():
        os.environ["PICO_SDK_PATH"] = str(shared)
    if not os.environ.get("PICO_SDK_PATH"):
        missing("PICO_SDK_PATH is not set and ../shared/pico-sdk is not there")
    for prog in ("arm-none-eabi-gcc", "cmake", "ninja"):
        require_tool(prog)


def compile_c(sources: list[Path], out: Path, defines: dict | None = None, includes: list[Path] = (),
              extra: list[str] = ()) -> Path:
    cc = require_tool("gcc")
    cmd = [cc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2"]
    cmd += [f"-D{k}={v}" for k, v in (defines or {}).items()]
    cmd += [f"-I{p}" for p in includes] + [str(s) for s in sources] + list(extra) + ["-o", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, f"compile failed: {' '.join(cmd)}\n{res.stderr}"
    return out


@pytest.fixture(scope="session")
def default_build():
    """(GenModel, host exe, model module) for the default spec, built once."""
    require_tool("gcc")
    require_tool("make")
    from codegen.commands.parity import prepare

    return prepare(DEFAULT_SPEC)


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than the cores. Some tests wait on a board, a
    pseudo-terminal or a window (bounded waits, tests/deadline.py); the extra
    worker's tests use the core meanwhile. BOIDSGEN_TEST_WORKERS sets the number."""
    n = os.environ.get("BOIDSGEN_TEST_WORKERS")
    return int(n) if n else (os.cpu_count() or 1) + 1



def pytest_collection_modifyitems(config, items):
    """The files holding slow tests go to the workers first, the most tests first, then the quick tier's
    files the same way (pyproject's --no-loadscope-reorder keeps this order). With `--dist loadfile` a file
    runs whole in one worker, so a long file handed out last would run on alone while the other workers
    sit idle; xdist's own order (fewest tests last) did that with the quick start's and the random rules'
    one-test files. The quick files now fill the workers' ends. Sorting is stable: a file's tests keep
    their order."""
    slow = Counter(item.path for item in items if item.get_closest_marker("slow"))
    tests = Counter(item.path for item in items)
    items.sort(key=lambda item: (not slow[item.path], -tests[item.path], str(item.path)))
