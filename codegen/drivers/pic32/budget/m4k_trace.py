"""What a qemu-mipsel run executed, instruction by instruction: the
`-d in_asm,exec,nochain` log of the budget's m4k image read into, per
segment between executions of the marker block (budget_mark), how often
each translation block ran, how often it left by a taken branch, and from
which caller block a library routine was entered.

qemu's in_asm part prints each translation block once, when translated:

    IN: boids_step
    0x00400200:  addiu	sp,sp,-8
    0x00400204:  lw	v0,0(a0)

and with nochain every execution of a block is logged (`Trace 0: 0x...
[.../00400200/...] boids_step`), so a block's instructions ran as often as
its Trace lines. A block ends after a branch and its delay slot, or before
qemu's size limit; when the next block executed does not start right after
the last instruction of the one before, that branch was taken (what the
cycle model charges a flash fetch for: codegen/drivers/pic32/budget/m4k_cycles.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

_INSN = re.compile(r"^0x([0-9a-f]+):\s+(\S+)\s*(.*)$")
_EXEC = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


class TraceError(RuntimeError):
    pass


@dataclass
class Insn:
    addr: int
    mnem: str
    ops: tuple  # operand strings as the disassembler prints them


@dataclass
class Segment:
    """One segment's executions: block start -> runs, runs that left by a
    taken branch, and for blocks inside library routines (the `callee`
    predicate), runs per caller block (the last block outside them)."""
    runs: dict = field(default_factory=dict)
    taken: dict = field(default_factory=dict)
    via: dict = field(default_factory=dict)  # (block, caller block) -> runs
    order: list | None = None  # the blocks in the order they ran (read_trace's `ordered`)

    def instructions(self, blocks: dict) -> int:
        return sum(len(blocks[pc]) * n for pc, n in self.runs.items())


@dataclass
class Trace:
    blocks: dict  # block start -> [Insn] (the last translation of it)
    segments: list  # [Segment]


def parse_insn(line: str) -> Insn | None:
    m = _INSN.match(line.rstrip("\n"))
    if not m:
        return None
    ops = tuple(o.strip() for o in m.group(3).split(",")) if m.group(3).strip() else ()
    return Insn(int(m.group(1), 16), m.group(2), ops)


def read_trace(log: Path, mark: int, n: int, callee: Callable[[int], bool] = lambda pc: False,
               ordered: tuple = ()) -> Trace:
    """The first n segments between executions of the block at `mark`; the
    segments numbered in `ordered` (0 first) also keep their blocks' order
    (the SPI timeline of the drawing: codegen/drivers/pic32/budget/spi_timeline.py)."""
    blocks: dict[int, list] = {}
    segs = [Segment(order=[] if k in ordered else None) for k in range(n)]
    cur: list | None = None
    marks = 0
    prev_pc = None  # the block executed before, in this segment
    caller = None
    with open(log, "r", errors="replace") as fh:
        for line in fh:
            if line.startswith("Trace"):
                mt = _EXEC.match(line)
                if not mt:
                    continue
                pc = int(mt.group(1), 16)
                if 1 <= marks <= n and prev_pc is not None:
                    seg = segs[marks - 1]
                    last = blocks[prev_pc][-1].addr
                    if pc != last + 4:
                        seg.taken[prev_pc] = seg.taken.get(prev_pc, 0) + 1
                if pc == mark:
                    marks += 1
                    prev_pc = None
                    if marks == n + 1:
                        break
                    continue
                if 1 <= marks <= n:
                    seg = segs[marks - 1]
                    seg.runs[pc] = seg.runs.get(pc, 0) + 1
                    if seg.order is not None:
                        seg.order.append(pc)
                    if callee(pc):
                        key = (pc, caller)
                        seg.via[key] = seg.via.get(key, 0) + 1
                    else:
                        caller = pc
                    prev_pc = pc
            elif line.startswith("IN:"):
                cur = None
            elif line.startswith("0x"):
                ins = parse_insn(line)
                if ins is None:
                    continue
                if cur is None:
                    cur = []
                    blocks[ins.addr] = cur
                cur.append(ins)
    if marks < n + 1:
        raise TraceError(f"{log}: the markers were not all executed ({marks} of {n + 1})")
    return Trace(blocks, segs)


def insn_counts(trace: Trace, seg: Segment) -> dict:
    """Instruction address -> executions in the segment."""
    out: dict[int, int] = {}
    for pc, k in seg.runs.items():
        for ins in trace.blocks[pc]:
            out[ins.addr] = out.get(ins.addr, 0) + k
    return out
