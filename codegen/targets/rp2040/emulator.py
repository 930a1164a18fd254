"""Run an RP2040 image in rp2040js through our runner (runner/run.mjs):
input for UART0 in, what UART0 sent out, the cycles it took, memory dumps."""
from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from codegen.targets.host.make_run import BuildError
from codegen.targets.rp2040.tools import RUNNER, emulator

RUN_TIMEOUT = 1800  # seconds: 300 frames of 100 boids take well under a minute here


@dataclass(frozen=True)
class EmulatorRun:
    uart: bytes
    cycles: int
    end: str  # "bkpt": the image stopped itself; "budget": --max-cycles ran out
    pc: dict = field(default_factory=dict)  # pc_counts' names -> cycles spent with the PC in their range


def run_image(elf: Path, uart_in: str = "", max_cycles: int | None = None, pio: bool = False,
              dumps: tuple[tuple, ...] = (), gpio_log: tuple[Path, int, int, int] | None = None,
              marks: Path | None = None, pc_counts: tuple[tuple[str, int, int], ...] = (),
              pc_hist: Path | None = None, hist_frames: tuple[int, int] | None = None) -> EmulatorRun:
    """dumps: (address, size, file) at the end or (address, size, file, cycle) once cycle cycles have run;
    gpio_log: (file, first GPIO, how many, from cycle): their changes; marks: a file for the BKPT #n marks
    (runner/run.mjs); pc_counts: (name, start, end) address ranges whose cycles are counted; pc_hist: a file
    for the cycles spent at each address (a profile: profile.py), with hist_frames (a, b) in frames a..b-1 only."""
    node, lib = emulator()
    with tempfile.TemporaryDirectory(prefix="boidsgen-rp2040-") as tmp:
        feed = Path(tmp) / "uart0.in"
        feed.write_text(uart_in)
        cmd = [node, str(RUNNER), "--rp2040js", str(lib), "--elf", str(elf), "--input", str(feed)]
        if max_cycles is not None:
            cmd += ["--max-cycles", str(max_cycles)]
        if pio:
            cmd.append("--pio")
        for d in dumps:
            cmd += ["--dump", ":".join(str(v) for v in d)]
        if marks:
            cmd += ["--marks", str(marks)]
        if pc_hist:
            cmd += ["--pc-hist", str(pc_hist)]
            if hist_frames:
                cmd += ["--hist-frames", f"{hist_frames[0]}:{hist_frames[1]}"]
        for name, start, end in pc_counts:
            cmd += ["--pc-count", f"{name}:{start}:{end}"]
        if gpio_log:
            path, first, count, start = gpio_log
            cmd += ["--gpio-log", str(path), "--gpio-first", str(first), "--gpio-count", str(count),
                    "--log-from", str(start)]
        try:
            res = subprocess.run(cmd, capture_output=True, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise BuildError(f"rp2040js: {elf.name} did not stop within {RUN_TIMEOUT} s") from None
    err = res.stderr.decode(errors="replace").strip().splitlines()
    try:
        last = json.loads(err[-1])
    except (IndexError, ValueError):
        raise BuildError(f"rp2040js runner failed ({res.returncode}): {' '.join(err[-5:])}") from None
    return EmulatorRun(res.stdout, int(last["cycles"]), str(last["end"]),
                       {str(k): int(v) for k, v in last.get("pc", {}).items()})


def symbols(elf: Path) -> dict[str, tuple[int, int, str]]:
    """name -> (address, size, nm's type letter) of the image's sized symbols (arm-none-eabi-nm -S);
    a Thumb function's address without its mode bit."""
    res = subprocess.run(["arm-none-eabi-nm", "-S", str(elf)], capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        raise BuildError(f"arm-none-eabi-nm {elf} failed: {res.stderr.strip()}")
    out = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4:
            addr = int(parts[0], 16)
            out[parts[3]] = (addr & ~1 if parts[2] in "tT" else addr, int(parts[1], 16), parts[2])
    return out


def symbol(elf: Path, name: str) -> tuple[int, int]:
    """(address, size) of a data symbol of the image (arm-none-eabi-nm)."""
    found = symbols(elf).get(name)
    if found is None:
        raise BuildError(f"{elf}: no symbol {name}")
    return found[0], found[1]
