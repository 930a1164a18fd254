"""The same generated C on a second target: the host firmware built for
32-bit little-endian MIPS Linux (the PIC32's instruction set, with Debian's
cross gcc) and run under qemu-mipsel must write the very same trace as the
x86-64 build and the simulator (no int-size, shift or endianness assumption
hides in the code)."""
from __future__ import annotations

import subprocess

import pytest

from codegen.drivers.host_build import make
from codegen.commands.parity import firmware_trace, prepare, simulator_trace
from codegen.spec.project import build_dir, output_dir

from .conftest import ROOT, require_tool


@pytest.mark.parametrize("spec", ["boids", "obstacles", "extensions", "combo_scouts_predators_obstacles"])
def test_mipsel_build_under_qemu_writes_the_same_trace(spec, tmp_path):
    require_tool("mipsel-linux-gnu-gcc")
    qemu = require_tool("qemu-mipsel")
    path = str(ROOT / "spec" / f"{spec}.yaml")
    m, exe, model = prepare(path)
    bdir = build_dir(path, m.name)
    make(output_dir(path, m.name) / "firmware", "host-mipsel", bdir)
    mips = bdir / "boids_host_mipsel"
    head = mips.read_bytes()[:20]
    assert head[:4] == b"\x7fELF" and head[4] == 1 and head[5] == 1  # 32-bit, little-endian
    assert int.from_bytes(head[18:20], "little") == 8  # e_machine EM_MIPS
    wrapper = tmp_path / "boids_host_mipsel"
    wrapper.write_text(f"#!/bin/sh\nexec {qemu} {mips} \"$@\"\n")
    wrapper.chmod(0o755)
    frames, boids = (80, 30) if model.UPDATE_ORDER == "sequential" else (200, 50)
    t_mips = firmware_trace(wrapper, frames, 5, boids, [("visual_range", "37.5")] if spec == "boids" else [])
    t_x86 = firmware_trace(exe, frames, 5, boids, [("visual_range", "37.5")] if spec == "boids" else [])
    assert t_mips == t_x86
    assert t_mips == simulator_trace(model, frames, 5, boids, [("visual_range", "37.5")] if spec == "boids" else [])
