"""The host build cache (codegen/targets/host/build_cache.py) and the build
folder's lock (codegen/spec/folder_lock.py): one compile per content, any
folder; a key of everything the build reads; two builders take turns."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading

import pytest

from codegen.spec.folder_lock import FolderBusy, folder_lock
from codegen.targets.host import build_cache
from codegen.targets.host.make_run import make
from pysim.kernel_cache import UnsafeCache

from .conftest import DEFAULT_SPEC, ROOT, require_tool
from .deadline import RUN


@pytest.fixture
def project(tmp_path):
    """A project holding a copy of the default spec, generated (no build yet)."""
    from codegen.commands.cli import main

    (tmp_path / "spec").mkdir()
    shutil.copy(DEFAULT_SPEC, tmp_path / "spec" / "boids.yaml")
    assert main(["generate", str(tmp_path / "spec" / "boids.yaml")]) == 0
    return tmp_path


def test_the_second_folder_takes_the_first_ones_build(project, tmp_path_factory, monkeypatch):
    require_tool("gcc")
    cache = tmp_path_factory.mktemp("cache") / "builds"
    monkeypatch.setenv(build_cache.ENV, str(cache))
    fw = project / "generated" / "boids" / "firmware"
    first = project / "build" / "a"
    make(fw, "host", first)
    other = tmp_path_factory.mktemp("other")  # the same firmware rendered into another project
    shutil.copytree(project / "generated", other / "generated")  # with the runtime it carries
    with build_cache.cached(other / "generated" / "boids" / "firmware", "host", other / "b", []) as e:
        assert e.hit
    assert (other / "b" / "boids_host").read_bytes() == (first / "boids_host").read_bytes()
    res = subprocess.run([str(other / "b" / "boids_host"), "--frames", "3", "--trace", "-"], capture_output=True,
                         text=True, timeout=RUN)
    assert res.returncode == 0 and res.stdout.count("\n") > 3


def test_the_key_is_everything_the_build_reads(project, monkeypatch, tmp_path):
    fw = project / "generated" / "boids" / "firmware"
    b = tmp_path / "b"
    k = build_cache.key(fw, "host", [], b)
    assert k == build_cache.key(fw, "host", [], b)
    assert build_cache.key(fw, "host", ["HOST_CFLAGS=-O1"], b) != k  # make's variables
    assert build_cache.key(fw, "host-mipsel", [], b) != k  # the target
    monkeypatch.setenv("HOST_CFLAGS", "-O0")  # make takes a `?=` variable from the environment
    assert build_cache.key(fw, "host", [], b) != k
    monkeypatch.delenv("HOST_CFLAGS")
    (fw / "boids_flock.c").write_text((fw / "boids_flock.c").read_text() + "\n")  # a generated file
    k2 = build_cache.key(fw, "host", [], b)
    assert k2 != k
    rel = re.search(r"(?m)^RUNTIME \?= (\S+)", (fw / "Makefile").read_text()).group(1)
    draw = (fw / rel / "core" / "draw.c").resolve()  # a file of the runtime the Makefile names (outside fw)
    assert fw not in draw.parents
    draw.write_text(draw.read_text() + "\n")
    assert build_cache.key(fw, "host", [], b) not in (k2, k)
    assert build_cache.key(fw, "m4k-check", [], b) is None  # not a target the cache keeps
    assert build_cache.key(fw, "host", [f"RUNTIME={ROOT / 'firmware_runtime'}"], b) is None


def test_a_failed_build_is_not_kept(project, tmp_path_factory, monkeypatch):
    require_tool("gcc")
    cache = tmp_path_factory.mktemp("cache") / "builds"
    monkeypatch.setenv(build_cache.ENV, str(cache))
    fw = project / "generated" / "boids" / "firmware"
    (fw / "boids_flock.c").write_text((fw / "boids_flock.c").read_text() + "\n#error planted\n")
    assert make(fw, "host", project / "build" / "x", check=False).returncode != 0
    assert not any(cache.rglob("boids_host"))


def test_a_cache_others_can_write_is_refused(tmp_path, monkeypatch):
    if not hasattr(os, "getuid"):
        pytest.skip("no mode bits on this platform")
    cache = tmp_path / "shared"
    cache.mkdir(mode=0o777)
    os.chmod(cache, 0o777)
    monkeypatch.setenv(build_cache.ENV, str(cache))
    with pytest.raises(UnsafeCache, match=r"^build cache .*shared: writable by group or others .*BOIDSGEN_BUILD"):
        build_cache.root()


def test_a_held_folder_waits_then_fails_naming_it(tmp_path):
    """A second holder waits while the first builds; past its bound, one line names the folder."""
    code = ("import sys, time; from pathlib import Path; from codegen.spec.folder_lock import folder_lock\n"
            "with folder_lock(Path(sys.argv[1])):\n    print('held', flush=True); sys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        from .deadline import read_line

        assert read_line(holder.stdout, RUN, "the holder's 'held'") == "held\n"
        with pytest.raises(FolderBusy, match=f"^{tmp_path}: another boidsgen has been building here"):
            with folder_lock(tmp_path, wait=0.2):
                pass
    finally:
        holder.stdin.close()
        holder.wait(timeout=RUN)
    with folder_lock(tmp_path, wait=0.2):  # released when its holder ended
        pass


def test_two_builders_of_one_folder_take_turns(project):
    """Two makes into the same build folder at once (two workers, or a terminal and the GUI): both
    succeed and the program runs."""
    require_tool("gcc")
    fw = project / "generated" / "boids" / "firmware"
    build = project / "build" / "boids"
    errors = []

    def one():
        try:
            make(fw, "host", build, ["HOST_CFLAGS=-O1"])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(RUN)
    assert not errors and not any(t.is_alive() for t in threads), errors
    res = subprocess.run([str(build / "boids_host"), "--frames", "2", "--trace", "-"], capture_output=True,
                         timeout=RUN)
    assert res.returncode == 0
