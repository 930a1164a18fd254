"""The same generated C on a second ABI: the host firmware built for 32-bit
x86 (gcc -m32) must write the very same trace as the 64-bit build and the
simulator (no int-size or shift assumptions hide in the code)."""
from __future__ import annotations

import subprocess

import pytest

from codegen.build import make
from codegen.parity import firmware_trace, prepare, simulator_trace
from codegen.project import build_dir, output_dir

from .conftest import ROOT, require_tool


def has_multilib() -> bool:
    res = subprocess.run(["gcc", "-m32", "-x", "c", "-", "-o", "/dev/null"], input="int main(void){return 0;}",
                         capture_output=True, text=True)
    return res.returncode == 0


@pytest.mark.parametrize("spec", ["boids", "obstacles", "extensions", "combo_scouts_predators_obstacles"])
def test_m32_build_writes_the_same_trace(spec):
    require_tool("gcc")
    if not has_multilib():
        import os

        msg = "gcc -m32 cannot link: install gcc-multilib (tools/setup.sh does)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    path = str(ROOT / "spec" / f"{spec}.yaml")
    m, exe, model = prepare(path)
    bdir = build_dir(path, m.name)
    make(output_dir(path, m.name) / "firmware", "host32", bdir)
    exe32 = bdir / "boids_host32"
    frames, boids = (80, 30) if model.UPDATE_ORDER == "sequential" else (200, 50)
    t64 = firmware_trace(exe, frames, 5, boids, [])
    t32 = firmware_trace(exe32, frames, 5, boids, [])
    assert t32 == t64
    assert t32 == simulator_trace(model, frames, 5, boids, [])
    assert "ELF 32-bit" in subprocess.run(["file", str(exe32)], capture_output=True, text=True).stdout \
        or open(exe32, "rb").read(5)[4] == 1  # EI_CLASS = ELFCLASS32
