"""A cycle model of the PIC32MX250's M4K core at 40 MHz, from the executed
instruction mix (codegen/drivers/pic32/budget/m4k_trace.py), in place of a flat CPI.

Each instruction costs one cycle (the M4K issues one instruction a cycle
down a 5-stage pipeline), plus the stalls below. Every number is an
assumption written down with where it comes from; BENCHMARKS.md ("The
cycle model") quotes the sources. Where no source could be found, the
assumption says so and gives its reasoning.

- load-use: +LOAD_USE when the next instruction reads a load's result
  (4K-family pipeline: data returns after the M and A stages; the
  instruction right behind a load waits for the bypass).
- 32-bit multiplies (mult, multu, madd, maddu, msub, msubu): +MULT_EXTRA:
  the 4K-family MDU takes a 32x16 multiply every cycle and a 32x32 one
  every other cycle, and HI/LO are ready one cycle later than an ALU
  result; our operands are full 32-bit fixed-point values.
- mul (result to a register): +MUL_EXTRA (a 32x32 MUL stalls the pipeline
  two cycles to keep its register-file write slot), +1 more when the next
  instruction reads the result.
- div, divu: +DIV_EXTRA: iterative, one bit a cycle, 35 cycles for a 32-bit
  dividend (early-in for a shorter one; the operands here are full words,
  so the worst case is charged).
- taken branches and jumps: +FLASH_WS, the wait state of a flash fetch the
  prefetch buffer did not predict (straight-line code streams from the
  prefetch at no wait; a taken branch to a line it does not hold waits).
  Pessimistic for loops small enough to stay in the prefetch lines.
- data RAM: no wait states; SFR (peripheral) accesses in the drawing code:
  no extra wait either (both assumptions).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from codegen.drivers.pic32.budget.m4k_trace import Insn

LOADS = {"lw", "lh", "lhu", "lb", "lbu", "lwl", "lwr", "ll"}
STORES = {"sw", "sh", "sb", "swl", "swr", "sc"}
JUMPS = {"j", "jal", "jr", "jalr", "jr.hb", "jalr.hb"}
MULTS = {"mult", "multu", "mad", "madd", "madu", "maddu", "msub", "msubu"}
DIVS = {"div", "divu"}
HILO = {"mfhi", "mflo", "mthi", "mtlo"}
CLASSES = ("load", "store", "branch", "jump", "mult", "mul", "div", "hilo", "alu")

_REG = re.compile(r"^(zero|at|v[01]|a[0-3]|t[0-9]|s[0-8]|k[01]|gp|sp|fp|ra|\$\d+)$")
_BASE = re.compile(r"\((\$?\w+)\)$")


def classify(mnem: str) -> str:
    """The class of one instruction, from qemu's disassembly mnemonic
    (qemu spells madd `mad` and blez `bgeuc`; any b* but break is a branch)."""
    m = mnem.lower()
    if m in LOADS:
        return "load"
    if m in STORES:
        return "store"
    if m in JUMPS:
        return "jump"
    if m.startswith("b") and m not in ("break",):
        return "branch"
    if m in MULTS:
        return "mult"
    if m == "mul":
        return "mul"
    if m in DIVS:
        return "div"
    if m in HILO:
        return "hilo"
    return "alu"


def _regs(op: str) -> list[str]:
    op = op.strip()
    if _REG.match(op):
        return [op]
    m = _BASE.search(op)
    return [m.group(1)] if m and _REG.match(m.group(1)) else []


def writes(ins: Insn) -> str | None:
    """The register an instruction writes (loads, ALU ops, mul, mfhi/mflo)."""
    c = classify(ins.mnem)
    if c in ("load", "alu", "mul") or ins.mnem in ("mfhi", "mflo"):
        return ins.ops[0] if ins.ops and _REG.match(ins.ops[0]) else None
    return None


def reads(ins: Insn) -> set:
    """The registers an instruction reads."""
    c = classify(ins.mnem)
    ops = list(ins.ops)
    if c in ("store", "branch", "jump", "mult", "div") or ins.mnem in ("mthi", "mtlo"):
        src = ops
    else:
        src = ops[1:]
    out = set()
    for o in src:
        out.update(_regs(o))
    out.discard("zero")
    return out


@dataclass(frozen=True)
class CycleModel:
    load_use: int = 1
    mult_extra: int = 1
    mul_extra: int = 2
    div_extra: int = 34
    flash_ws: int = 1

    def static_cost(self, ins: Insn, nxt: Insn | None) -> int:
        """Cycles of one execution of `ins`, `nxt` the instruction after it
        in the same block (None at a block's end), taken branches apart."""
        c = classify(ins.mnem)
        cyc = 1
        dest = writes(ins)
        if c == "load" and nxt is not None and dest and dest in reads(nxt):
            cyc += self.load_use
        elif c == "mult":
            cyc += self.mult_extra
        elif c == "mul":
            cyc += self.mul_extra + (1 if nxt is not None and dest and dest in reads(nxt) else 0)
        elif c == "div":
            cyc += self.div_extra
        return cyc


def block_costs(model: CycleModel, block: list) -> list[int]:
    """Cycles of each instruction of a block, per execution."""
    return [model.static_cost(ins, block[i + 1] if i + 1 < len(block) else None) for i, ins in enumerate(block)]


def branch_index(block: list) -> int:
    """The instruction a taken exit is charged to: the branch before the
    delay slot when the block ends in one, else the last."""
    if len(block) >= 2 and classify(block[-2].mnem) in ("branch", "jump"):
        return len(block) - 2
    return len(block) - 1


@dataclass
class Mix:
    """Executed instructions by class, and the cycles of the model."""
    counts: dict
    cycles: int
    insns: int

    def line(self) -> str:
        parts = [f"{c} {self.counts.get(c, 0) / max(self.insns, 1) * 100:.1f} %" for c in CLASSES if self.counts.get(c)]
        return ", ".join(parts)


def segment_mix(model: CycleModel, blocks: dict, runs: dict, taken: dict) -> Mix:
    counts: dict[str, int] = {}
    cycles = insns = 0
    for pc, k in runs.items():
        blk = blocks[pc]
        for ins, cyc in zip(blk, block_costs(model, blk)):
            cl = classify(ins.mnem)
            counts[cl] = counts.get(cl, 0) + k
            cycles += cyc * k
            insns += k
        cycles += taken.get(pc, 0) * model.flash_ws
    return Mix(counts, cycles, insns)
