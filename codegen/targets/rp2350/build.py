"""`boidsgen build --target rp2350`: the RP2040's pico-sdk project (the same firmware, VGA and
pins: the Pico 2 keeps the Pico's header) built for PICO_BOARD=pico2, always rendered into
build/<name>/rp2350/project/, and its UF2 in the RP2350's Arm family. The VGA's pixel clock is
derived from clk_sys (150 MHz here; firmware_runtime/rp2040/vga.c)."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from codegen.boards.registry import RP2350
from codegen.targets.rp2040.build import Pico, Rp2040Build, build_rp2040
from codegen.targets.rp2040.build import check_build as check_pico_build

UF2_FAMILY = 0xE48BFF59  # RP2350, Arm, secure: what its boot ROM takes over BOOTSEL
RP2350_PICO = Pico(RP2350, "pico2", UF2_FAMILY)


def check_build(spec_path, outdir: Path, bdir: Path) -> Path:
    """Its record's `check_folders`: build/<name>/rp2350/ refused before anything is written."""
    return check_pico_build(spec_path, outdir, bdir, RP2350_PICO)


def build_rp2350(spec_path, m, outdir: Path, bdir: Path) -> Rp2040Build:
    return build_rp2040(spec_path, m, outdir, bdir, RP2350_PICO)


def report(spec_path, m, outdir: Path, bdir: Path, run_demo: bool = True) -> Rp2040Build:
    """`boidsgen build`'s RP2350 part: build, then say what was made and how to flash it (no emulator
    runs the RP2350's peripherals: `boidsgen parity --target rp2350` checks its flock code on QEMU)."""
    t0 = time.perf_counter()
    b = build_rp2350(spec_path, m, outdir, bdir)
    elf = b.uf2.with_suffix(".elf")  # beside its UF2 under the board's name (the project's target keeps the RP2040's)
    shutil.copyfile(b.elf, elf)
    print(f"RP2350 image: {elf} and {b.uf2} (pico-sdk, PICO_BOARD=pico2, built in "
          f"{time.perf_counter() - t0:.1f} s): flash {b.flash} of {RP2350.flash_bytes} B, RAM {b.ram} of "
          f"{RP2350.ram_bytes} B at {m.spec.flock.capacity} boids (UF2 family {UF2_FAMILY:#010x})")
    print(f"RP2350: hold BOOTSEL while plugging the Pico 2 in, then copy {b.uf2.name} to the RP2350 drive "
          "(docs/flashing.md)")
    return b
