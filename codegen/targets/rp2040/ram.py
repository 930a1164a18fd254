"""Where the RP2040's 264 KB of SRAM go in a board image: read from the ELF's
symbols (arm-none-eabi-nm) and the pico-sdk linker script's marks (__end__,
__HeapLimit, the scratch banks' stacks). Printed by `boidsgen budget
--target rp2040`."""
from __future__ import annotations

import subprocess
from pathlib import Path

from codegen.targets.host.make_run import BuildError
from codegen.targets.rp2040.emulator import symbols

SRAM_BASE = 0x2000_0000
SRAM_MAIN_END = 0x2004_0000  # the four striped 64 KB banks; then scratch X and Y (4 KB each)
SCRATCH_X, SCRATCH_Y, SRAM_END = 0x2004_0000, 0x2004_1000, 0x2004_2000

# (what, the symbols it is made of): the flock's parts by the names the generated code and runtime give them
PARTS = (
    ("VGA framebuffer (4 bits a pixel, 640x480)", ("fb4_pixels",)),
    ("the flock (boids_flock: boids, entities, counts)", ("boids_flock",)),
    ("the previous frame, sorted (synchronous order)", ("previous",)),
    ("the grid's band order, bands, windows", ("band_order", "band_of", "band_start", "band_win", "band_sums", "band_flag",
                                               "split_band")),
    ("each pair once: the ring(s) of sums", ("pair_ring",)),
    ("drawing: the pixel sets (flock_draw.h)", ("fdraw",)),
    ("serial: UART0's receive ring, the command line", ("rx_ring", "line_buf")),
)


def _marks(elf: Path) -> dict[str, int]:
    res = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        raise BuildError(f"arm-none-eabi-nm {elf} failed: {res.stderr.strip()}")
    return {p[2]: int(p[0], 16) for p in (ln.split() for ln in res.stdout.splitlines()) if len(p) == 3}


def ram_rows(elf: Path) -> list[tuple[str, int]]:
    """(what, bytes) rows summing to the whole SRAM (270,336 B)."""
    syms, marks = symbols(elf), _marks(elf)
    end = marks.get("__end__")
    if end is None or not SRAM_BASE < end <= SRAM_MAIN_END:
        raise BuildError(f"{elf}: no __end__ in the main SRAM (not a pico-sdk image?)")
    rows, named = [], 0
    for what, names in PARTS:
        size = sum(syms[n][1] for n in names if n in syms and SRAM_BASE <= syms[n][0] < SRAM_MAIN_END)
        if size:
            rows.append((what, size))
            named += size
    rows.append(("the SDK, the runtime's other data, code run from RAM", end - SRAM_BASE - named))
    rows.append(("free: the heap, up to the striped banks' end (nothing allocates)", SRAM_MAIN_END - end))
    rows.append(("core 1's stack (scratch X)", SCRATCH_Y - SCRATCH_X))
    rows.append(("core 0's stack and the rest of scratch Y", SRAM_END - SCRATCH_Y))
    return rows


def ram_table(elf: Path, capacity: int) -> list[str]:
    rows = ram_rows(elf)
    total = sum(b for _, b in rows)
    lines = [f"RAM of the board image at capacity {capacity} ({elf.name}): {total:,} B of SRAM"]
    lines += [f"  {b:9,d} B  {b / total * 100:5.1f} %  {what}" for what, b in rows]
    return lines
