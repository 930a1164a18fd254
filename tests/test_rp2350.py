"""The Pico 2 (RP2350), added by declaring it: its record (codegen/boards/registry.py), its folder
codegen/targets/rp2350/ and its platform folder firmware_runtime/rp2350/. Its pico-sdk image and
UF2 (PICO_BOARD=pico2, the RP2350's Arm family), and its flock code bit-exact with the simulator
on QEMU's Cortex-M33 in both update orders (codegen/targets/rp2350/qemu.py says what that checks
and what it does not). Each test works on its own copy of scouts_vga.yaml."""
from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from codegen.commands.cli import main
from codegen.targets.rp2040.uf2 import parse_uf2
from tests.conftest import ROOT, require_tool
from tests.deadline import RUN

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: a pico-sdk build, QEMU runs

SCOUTS = ROOT / "spec" / "scouts_vga.yaml"
RP2350_FAMILY = 0xE48BFF59  # the RP2350 datasheet's UF2 family for its Arm cores (secure)
IMAGE_DEF_START = 0xFFFFDED3  # PICOBIN_BLOCK_MARKER_START: the boot ROM wants a block in the first 4 KB


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    copy = tmp_path / "scouts_vga.yaml"
    shutil.copy(SCOUTS, copy)
    return copy


@pytest.fixture(scope="module")
def qemu():
    require_tool("arm-none-eabi-gcc")
    return require_tool("qemu-system-arm")


@pytest.mark.timeout(900)  # cold: the pico-sdk for the RP2350, about a minute
def test_build_makes_an_elf_and_a_uf2_of_the_rp2350s_family(pico_sdk, spec, capsys):
    assert main(["build", str(spec), "--target", "rp2350"]) == 0
    out = capsys.readouterr().out
    assert "RP2350 image" in out and "PICO_BOARD=pico2" in out and "boids_rp2350.uf2" in out, out
    assert "boids_rp2350.elf" in out and "boids_rp2040" not in out, out
    rp = spec.parent / "build" / "scouts_vga" / "rp2350"
    data = (rp / "boids_rp2350.uf2").read_bytes()
    families = {struct.unpack_from("<I", data, off + 28)[0] for off in range(0, len(data), 512)}
    assert families == {RP2350_FAMILY}, families
    blocks = parse_uf2(data)
    addresses = sorted(blocks)
    assert addresses == [0x10000000 + 256 * n for n in range(len(addresses))]  # the flash image, whole
    image = b"".join(blocks[a] for a in addresses)
    assert image.rstrip(b"\0") == (rp / "cmake" / "boids_rp2040.bin").read_bytes().rstrip(b"\0")
    assert 0 <= image.find(struct.pack("<I", IMAGE_DEF_START)) < 4096  # the boot ROM accepts it
    assert (rp / "boids_rp2350.elf").read_bytes() == (rp / "cmake" / "boids_rp2040.elf").read_bytes()
    attrs = subprocess.run(["arm-none-eabi-readelf", "-A", str(rp / "boids_rp2350.elf")],
                           capture_output=True, text=True, timeout=RUN).stdout
    assert "v8-M.mainline" in attrs, attrs  # the Cortex-M33's architecture, not the RP2040's v6-M


def test_parity_on_the_m33_is_bit_exact_in_both_orders(qemu, spec, capsys):
    """The issue's command: 300 frames, both orders, the M33's code against the simulator."""
    assert main(["parity", str(spec), "--target", "rp2350", "--frames", "300", "--order", "both"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2, lines
    for line, order in zip(lines, ("sequential", "synchronous")):
        assert "300 frames x 100 boids bit-exact" in line and f", {order}," in line, line
        assert "Cortex-M33" in line, line


def test_the_m33_multiplies_and_divides_in_one_instruction(qemu, spec, capsys):
    """The fixed-point layer's M33 path is fixed.h's portable C, which GCC compiles for the M33 into its
    32 x 32 -> 64 multiply (SMULL, SMLAL) and its 32-bit divide (SDIV): no library call for either (the
    RP2040's M0+ has neither and takes FX_M0_PARTS). A quotient of a 64-bit dividend (fx_div's) still
    calls libgcc: the M33 has no 64 / 32 divide."""
    assert main(["parity", str(spec), "--target", "rp2350", "--frames", "2"]) == 0
    capsys.readouterr()
    elf = spec.parent / "build" / "scouts_vga" / "rp2350" / "m33" / "boids_rp2350_m33.elf"
    code = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], capture_output=True, text=True,
                          timeout=RUN).stdout
    step = code[code.index("<boids_step>:"):]
    step = step[:step.index("\n\n")]
    assert "\tsmull\t" in step and "\tsdiv\t" in step, "the step has no SMULL or no SDIV"
    assert "__aeabi_lmul" not in step and "__aeabi_idiv" not in step, "a library call for a multiply or divide"


def test_a_refused_set_and_a_missing_qemu_are_one_line(qemu, spec, monkeypatch, capsys):
    assert main(["parity", str(spec), "--target", "rp2350", "--frames", "5", "--set", "nosuch=1"]) != 0
    err = capsys.readouterr().err
    assert "unknown parameter 'nosuch'" in err and len(err.strip().splitlines()) == 1, err
    from codegen.targets.rp2350 import qemu as runner

    monkeypatch.setattr(runner.shutil, "which", lambda name: None if name == "qemu-system-arm" else qemu)
    assert main(["parity", str(spec), "--target", "rp2350", "--frames", "5"]) != 0
    err = capsys.readouterr().err
    assert "apt-get install qemu-system-arm" in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
