"""A whole qemu-mipsel run counted block by block: blocks_plugin.c
(firmware_runtime/pic32/budget/) records, per segment between executions of
the marker block, how often each translation block ran and how often it
left by a taken branch; this module builds the plugin, runs an image under
it, and prices every segment under the M4K cycle model
(codegen/drivers/pic32/budget/m4k_cycles.py) and each flash model.

The counts are the ones m4k_trace.py reads out of a `-d in_asm,exec,nochain`
log, block for block (tests/test_budget_runs.py holds the two equal on one
frame), without writing that log: a 500-boid frame runs ~100,000 blocks.

Flash models (the one thing the cycle model cannot settle from the sources
found; BENCHMARKS.md, "The cycle model"): a wait state is charged
- `none`: never (a prefetch that always has the next instruction);
- `taken` (the headline): once a taken branch or jump, whose target line
  the prefetch did not predict; straight code streams at no wait;
- `lines`: as `taken`, and once more for every 16-byte flash line (four
  instructions) the core runs into: no prefetch, one line buffer, one wait
  state at 40 MHz. A taken branch to the first word of a line pays both.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from codegen.drivers.pic32.budget.m4k_cycles import CycleModel, block_costs
from codegen.drivers.pic32.budget.m4k_trace import parse_insn
from codegen.drivers.pic32.budget.measure import BUDGET_DIR, QEMU, BudgetError, _run, symbol_address

PLUGIN_C = BUDGET_DIR / "blocks_plugin.c"
RUN_TIMEOUT = 3600  # seconds for one qemu run (10,000 frames of 500 boids: a few minutes)


@dataclass(frozen=True)
class FlashModel:
    name: str
    taken_ws: int  # waits a taken branch or jump pays
    line_ws: int  # waits each 16-byte line the core runs into pays
    what: str


FLASH_MODELS = (
    FlashModel("none", 0, 0, "no flash wait state"),
    FlashModel("taken", 1, 0, "one wait state a taken branch (the headline)"),
    FlashModel("lines", 1, 1, "one wait state a taken branch and one every 16-byte line (no prefetch)"),
)
HEADLINE = "taken"
LINE_BYTES = 16  # a flash line: 128 bits, four MIPS32 instructions


def build_plugin(out: Path) -> Path:
    _run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2", "-shared", "-fPIC",
          "-fvisibility=hidden", f"-I{BUDGET_DIR}", PLUGIN_C, "-o", out])
    return out


@dataclass
class BlockTable:
    """Per block id: instructions, cycle-model cycles a run (taken exits
    apart) and the flash lines a run enters (instructions at a line's start)."""
    insns: np.ndarray
    cycles: np.ndarray
    lines: np.ndarray


def read_blocks(path: Path, model: CycleModel) -> BlockTable:
    blocks: dict[int, list] = {}
    cur: list = []
    with open(path, errors="replace") as fh:
        for line in fh:
            if line.startswith("B "):
                cur = blocks.setdefault(int(line.split()[1]), [])
            else:
                ins = parse_insn(line)
                if ins is None:
                    raise BudgetError(f"{path}: not an instruction: {line.strip()[:80]}")
                cur.append(ins)
    k = max(blocks) + 1 if blocks else 0
    insns, cycles, lines = (np.zeros(k, dtype=np.int64) for _ in range(3))
    for i, blk in blocks.items():
        insns[i] = len(blk)
        cycles[i] = sum(block_costs(model, blk))
        lines[i] = sum(1 for ins in blk if ins.addr % LINE_BYTES == 0)
    return BlockTable(insns, cycles, lines)


@dataclass
class Segments:
    """Per segment (in the order the run closed them; the first is what ran
    before the first marker): instructions, the cycle model's cycles under
    each flash model (name -> array)."""
    insns: np.ndarray
    cycles: dict


def read_segments(path: Path, table: BlockTable) -> Segments:
    data = np.fromfile(path, dtype="<u4")
    starts, i = [], 0
    while i < len(data):
        starts.append(i)
        i += 1 + 3 * int(data[i])
    if i != len(data):
        raise BudgetError(f"{path}: truncated")
    nseg = len(starts)
    seg_of = np.zeros(len(data), dtype=np.int64)  # the segment each word belongs to
    mask = np.zeros(len(data), dtype=bool)
    for s, a in enumerate(starts):
        seg_of[a + 1:a + 1 + 3 * int(data[a])] = s
        mask[a + 1:a + 1 + 3 * int(data[a])] = True
    trip = data[mask].reshape(-1, 3).astype(np.int64)
    seg = seg_of[mask][0::3]
    ids, runs, taken = trip[:, 0], trip[:, 1], trip[:, 2]

    def per_segment(w):
        return np.bincount(seg, weights=w, minlength=nseg).astype(np.int64)

    insns = per_segment(table.insns[ids] * runs)
    base = per_segment(table.cycles[ids] * runs)
    taken_n = per_segment(taken)
    lines = per_segment(table.lines[ids] * runs)
    return Segments(insns, {fm.name: base + fm.taken_ws * taken_n + fm.line_ws * lines for fm in FLASH_MODELS})


def run_counted(elf: Path, plugin: Path, work: Path, model: CycleModel) -> Segments:
    """Run the image under the plugin; its segments priced."""
    counts, blocks = work / (elf.name + ".counts"), work / (elf.name + ".blocks")
    mark = symbol_address(elf, "budget_mark")
    try:
        res = subprocess.run([QEMU, "-plugin", f"{plugin},mark={mark:#x},counts={counts},blocks={blocks}", str(elf)],
                             capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BudgetError(f"{elf} under {QEMU} did not finish within {RUN_TIMEOUT} s") from None
    try:
        if res.returncode != 0:
            raise BudgetError(f"{elf} under {QEMU} exited {res.returncode} (1: its run ends unlike the host's)"
                              f"{': ' + res.stderr.strip()[:300] if res.stderr.strip() else ''}")
        return read_segments(counts, read_blocks(blocks, model))
    finally:
        counts.unlink(missing_ok=True)
        blocks.unlink(missing_ok=True)
