"""`boidsgen budget --frames F`: every frame of whole runs on the M4K, not
one frame.

For each variant, flock size N and seed: the host build of the generated
flock spawns N boids (the seed's flock, the spec's parameters) and runs F
frames as the firmware's animation does them (erase, boids_step, draw),
counting each frame's SPI bytes (host_ili9340.c); the same F frames run in
one freestanding M4K image under qemu-mipsel (budget_m4k.c with
BUDGET_RUN_FRAMES), counted block by block by a qemu plugin
(codegen/drivers/pic32/budget/block_counts.py), which must end on the
host's state. A frame is

    (erase + update + draw cycles) / 40 MHz + SPI bytes x 8 / SPI clock

under the cycle model (m4k_cycles.py) and each flash model: the SPI is
charged in full, as if the CPU waited for every byte (an upper bound of
the one-frame SPI timeline of `--profile`, which overlaps the two). The
lockstep's digest (`watch on`) is counted apart, and the serial thread's
commands in an image of their own (commands.py), for the reserve
(codegen/drivers/pic32/budget/reserve.py).

Each row is built at capacity max(N, the spec's): a row's figures are the
ones a board with that capacity would show (the ring and the tables follow
the capacity).
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from codegen.drivers.pic32.budget.block_counts import FLASH_MODELS, build_plugin, run_counted
from codegen.drivers.pic32.budget.commands import command_costs
from codegen.drivers.pic32.budget.m4k_cycles import CycleModel
from codegen.drivers.pic32.budget.measure import (F_CPU, BudgetError, _run, build_host_driver, build_m4k_driver, host_value,
                                                  missing_tools, render_variant, spec_variant, variants_for)

SEGMENTS = ("erase", "update", "draw", "digest")  # budget_m4k.c's segments of a frame, in order (then one: the status line)


@dataclass
class SeedRun:
    """One seed's frames: instructions and cycles (per flash model) of the
    frame (erase + update + draw) and of the digest, SPI bytes."""
    seed: int
    insns: np.ndarray
    cycles: dict  # flash model -> frame cycles
    digest_cycles: np.ndarray  # headline flash model
    spi_bytes: np.ndarray
    update_cycles: np.ndarray
    status_cycles: int  # the status line once (the reserve's)
    status_bytes: int


@dataclass
class RowRuns:
    variant: str
    n: int
    capacity: int
    seeds: list = field(default_factory=list)  # [SeedRun]
    bounds: dict = field(default_factory=dict)  # 'median', 'worst' -> (seed, frame from 1, its cycles, Bound)
    commands: list = field(default_factory=list)  # [commands.CommandCost] at N boids, watch on


def pick(row: RowRuns, which: str) -> tuple:
    """(seed, frame number from 1, cycles) of the row's median or worst
    frame (headline flash model, CPU cycles: erase + update + draw)."""
    allc = [(int(c), run.seed, k + 1) for run in row.seeds for k, c in enumerate(run.cycles["taken"])]
    allc.sort()
    c, seed, k = allc[-1] if which == "worst" else allc[(len(allc) - 1) // 2]
    return seed, k, c


def bound_at(fw: Path, host: Path, work: Path, n: int, seed: int, k: int, spi_hz: int, model: CycleModel):
    """The lower bound (bound.py) of frame k of a seed's run: its pairs in
    range and pixels, from the host's state before it."""
    from codegen.drivers.pic32.budget.bound import lower_bound
    from codegen.drivers.pic32.budget.pair_counts import pair_counts

    state = work / f"bound_{n}_{seed}_{k}.bin"
    res = _run([host, str(n), str(k - 1), str(seed), state])
    return lower_bound(pair_counts(state, fw), n, host_value(res.stdout, "spi_bytes"), spi_hz, model,
                       pixels=host_value(res.stdout, "pixels"))


def row_capacity(spec, n: int) -> int:
    """The capacity a row of N boids is built at: the spec's, or N when more."""
    return max(n, spec.flock.capacity)


def frame_ms(run: SeedRun, flash: str, spi_hz: int) -> np.ndarray:
    return (run.cycles[flash] / F_CPU + run.spi_bytes * 8 / spi_hz) * 1000


def measure_seed(fw: Path, host: Path, plugin: Path, work: Path, n: int, frames: int, seed: int,
                 model: CycleModel) -> SeedRun:
    state, spi_file = work / f"run_{n}_{seed}.bin", work / f"run_{n}_{seed}.spi"
    res = _run([host, str(n), "0", str(seed), state, str(frames), spi_file])
    status_bytes = host_value(res.stdout, "status_spi_bytes")
    spi = np.loadtxt(spi_file, dtype=np.int64, ndmin=1)
    elf = build_m4k_driver(fw, state, "-O1", work / f"run_{n}.elf", draw=True,
                           defines=(f"BUDGET_RUN_FRAMES={frames}",))
    segs = run_counted(elf, plugin, work, model)
    k = len(SEGMENTS)
    if len(segs.insns) != 2 + k * frames or len(spi) != frames:
        raise BudgetError(f"{elf}: {len(segs.insns)} segments for {frames} frames, {len(spi)} SPI counts")

    def part(arr, name):
        return arr[1 + SEGMENTS.index(name):1 + k * frames:k]

    def frame(arr):
        return part(arr, "erase") + part(arr, "update") + part(arr, "draw")

    cycles = {fm.name: frame(segs.cycles[fm.name]) for fm in FLASH_MODELS}
    return SeedRun(seed, frame(segs.insns), cycles, part(segs.cycles["taken"], "digest"), spi,
                   part(segs.cycles["taken"], "update"), int(segs.cycles["taken"][-1]), status_bytes)


def measure_runs(spec_path: str, boids: list[int], frames: int, seeds: list[int], which: str = "both",
                 progress=None, model: CycleModel | None = None, optimize: str = "spec") -> tuple:
    """(the spec, [RowRuns]) for every variant, N and seed."""
    from codegen.output.pipeline import checked_model

    miss = missing_tools()
    if miss:
        raise BudgetError(f"missing tools: {', '.join(miss)} (bash tools/setup.sh installs them)")
    model = model or CycleModel()
    spec = checked_model(spec_path).spec
    rows = []
    with tempfile.TemporaryDirectory(prefix="boids-runs-") as tmp:
        tmp = Path(tmp)
        plugin = build_plugin(tmp / "blocks_plugin.so")
        for vname, kw in variants_for(spec, which, optimize):
            for cap in sorted({row_capacity(spec, n) for n in boids}):
                vdir = tmp / f"{re.sub(r'[^A-Za-z0-9]+', '_', vname)}_{cap}"
                render_variant(spec_variant(spec, capacity=cap, **kw), spec_path, vdir)
                fw = vdir / "firmware"
                host = build_host_driver(fw, vdir / "budget_host")
                for n in (n for n in boids if row_capacity(spec, n) == cap):
                    row = RowRuns(vname, n, cap)
                    for seed in seeds:
                        row.seeds.append(measure_seed(fw, host, plugin, vdir, n, frames, seed, model))
                        if progress:
                            progress(row, seed)
                    row.commands = command_costs(fw, spec, n, plugin, vdir, model)
                    for which in ("median", "worst"):
                        seed, k, c = pick(row, which)
                        row.bounds[which] = (seed, k, c, bound_at(fw, host, vdir, n, seed, k, spec.board.spi_hz, model))
                    rows.append(row)
    return spec, sorted(rows, key=lambda r: (r.variant, r.n))

