"""Work shared between processes is done once: the second waits its turn
(pysim/file_lock.py). numba's first compile of a kernel (kernel_cache's
compile_turn: the waiter reads back the first's machine code) and an
RP2040 build's pico-sdk steps (compiler_cache's sdk_turn: the waiter takes
the first's objects from ccache). Each wait is bounded and ends in one line."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from .conftest import ROOT
from .deadline import RUN, read_line
from .test_hostile_rp2040_tools import _fake_tools, _project

try:
    import fcntl
except ImportError:  # no flock: nothing is serialised there (file_lock's docstring)
    fcntl = None

pytestmark = pytest.mark.skipif(fcntl is None, reason="no advisory locks on this platform")

FIRST_STEP = """
import sys
from pysim.engine import Simulation
from pysim.model_support import load_model
sim = Simulation(load_model(sys.argv[1]), "fixed", seed=1)
print("ready", flush=True)
sys.stdin.readline()
sim.step()
print(sum(sim.kernel.step_fixed.stats.cache_misses.values()), flush=True)
"""


def test_two_processes_compile_a_kernel_once(tmp_path):
    """Two simulators start the same kernel's first frame together on an empty cache: one compiles it,
    the other waits and reads the machine code back (numba's cache misses: one in all)."""
    env = dict(os.environ, BOIDSGEN_KERNEL_CACHE=str(tmp_path / "kernels"))
    model = ROOT / "generated" / "boids" / "python" / "boids_model.py"
    procs = [subprocess.Popen([sys.executable, "-c", FIRST_STEP, str(model)], cwd=ROOT, env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)]
    try:
        for p in procs:  # both have loaded the kernel's text before either runs a frame
            assert read_line(p.stdout, RUN, "a simulator's start").strip() == "ready"
        for p in procs:
            p.stdin.write("\n")
            p.stdin.flush()
        misses = [int(p.communicate(timeout=RUN)[0].strip()) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert sorted(misses) == [0, 1], misses


def _held(path: Path):
    """A lock on path held by this process through another open file (flock conflicts between them)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def test_a_kernel_compiled_elsewhere_too_long_is_one_line(tmp_path, monkeypatch):
    from pysim import kernel_cache

    kernel = SimpleNamespace(__file__=str(tmp_path / "boids_kernel.py"))
    fn = SimpleNamespace(signatures=[])
    monkeypatch.setattr(kernel_cache, "COMPILE_WAIT", 0.2)
    fd = _held(tmp_path / ".compile.lock")
    try:
        with pytest.raises(kernel_cache.KernelBusy, match=rf"^{tmp_path}/\.compile\.lock: another process") as e:
            with kernel_cache.compile_turn(kernel, fn):
                pass
        assert "\n" not in str(e.value)
        with kernel_cache.compile_turn(kernel, SimpleNamespace(signatures=["compiled"])):
            pass  # compiled in this process already: no wait
    finally:
        os.close(fd)


def test_an_rp2040_build_configures_and_builds_in_its_turn(tmp_path, monkeypatch):
    """cmake and ninja run while the build holds the pico-sdk turn; another holder past the bound is one
    line naming the lock, and nothing ran."""
    from codegen.output.pipeline import checked_model
    from codegen.targets.host import compiler_cache
    from codegen.targets.host.make_run import BuildError
    from codegen.targets.rp2040.build import build_rp2040

    if not compiler_cache.available():
        pytest.skip("no ccache: builds share nothing, so they take no turns")
    spec = _project(tmp_path / "proj")
    m = checked_model(spec)
    out, bdir = tmp_path / "proj" / "generated" / "scouts_vga", tmp_path / "proj" / "build" / "scouts_vga"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    lock = tmp_path / "cache" / "boidsgen" / "locks" / "pico-sdk.lock"
    held_while: list = []

    def configure(folder: Path) -> None:
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held_while.append(False)
        except BlockingIOError:
            held_while.append(True)
        finally:
            os.close(fd)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "CMakeCache.txt").write_text("ours\n", encoding="utf-8")

    ran: list = []
    _fake_tools(monkeypatch, ran, configure, lambda folder: (folder / "boids_rp2040.bin").write_bytes(b"\0" * 8))
    build_rp2040(spec, m, out, bdir)
    assert [r[0] for r in ran] == ["cmake", "ninja"] and held_while == [True]

    monkeypatch.setattr(compiler_cache, "TURN_WAIT", 0.2)
    ran.clear()
    fd = _held(lock)
    try:
        with pytest.raises(BuildError, match=rf"^{lock}: another boidsgen has been building the pico-sdk") as e:
            build_rp2040(spec, m, out, bdir)
    finally:
        os.close(fd)
    assert "\n" not in str(e.value) and ran == []
