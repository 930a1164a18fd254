"""The frame's reserve: what a frame period must hold besides the flock's
erase, update and draw, on the PIC32 at 40 MHz, each part measured on the
M4K code and priced by the same cycle model as the frame
(codegen/drivers/pic32/budget/m4k_cycles.py, flash model `taken`).

- the 1 kHz tick: pic32_timer2_isr, ceil(1000 / fps) times a frame;
- the UART: pic32_uart2_isr once a byte each way at the spec's line rate
  (8N1: baud / 10 bytes a second), the worst traffic the link can carry;
- the status line, once a second (stats_line.h at its widest: the CPU by
  execution in the run's image, its SPI bytes counted by the host): the
  frame it falls in holds it whole;
- the serial thread's worst command line (commands.py: every line of the
  command table, executed and answered by the firmware's own code);
- the lockstep's digest while `watch` is on (state_digest, by execution,
  every frame of the run: the worst).

The interrupt handlers are counted from their -O1 code (platform_pic32.c
compiled as `make m4k-check` compiles it, with the interrupt attribute's
own prologue and epilogue): every instruction once, each branch and jump
taken, which bounds one interrupt that moves one byte each way; entering
and leaving it are charged as two more taken jumps (the vector's and
eret's refetch).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from codegen.drivers.pic32.budget.m4k_cycles import CycleModel, block_costs, classify
from codegen.drivers.pic32.budget.m4k_trace import Insn
from codegen.drivers.pic32.budget.measure import F_CPU, MIPS_CC, RUNTIME_DIR, _run, m4k_cflags

ISRS = ("pic32_timer2_isr", "pic32_uart2_isr")
_OBJDUMP_INSN = re.compile(r"^\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+(\S+)\s*(.*)$")


def objdump_functions(obj: Path, names) -> dict:
    """name -> [Insn] of each function's code in an object file."""
    text = _run(["mipsel-linux-gnu-objdump", "-d", obj]).stdout
    out: dict[str, list] = {}
    cur = None
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <(\w+)>:$", line)
        if m:
            cur = out.setdefault(m.group(1), []) if m.group(1) in names else None
            continue
        mi = _OBJDUMP_INSN.match(line)
        if cur is not None and mi:
            ops = tuple(o.strip() for o in mi.group(3).split("#")[0].split(",")) if mi.group(3).strip() else ()
            cur.append(Insn(int(mi.group(1), 16), mi.group(2), ops))
    return out


def handler_cycles(insns: list, model: CycleModel) -> int:
    """Every instruction once, every branch and jump taken, and the entry's
    and exit's refetch."""
    taken = sum(1 for ins in insns if classify(ins.mnem) in ("branch", "jump"))
    return sum(block_costs(model, insns)) + (taken + 2) * model.flash_ws


def isr_cycles(fw: Path, work: Path, model: CycleModel) -> dict:
    """name -> cycles of one run of each interrupt handler, from the PIC32
    layer compiled for the M4K at -O1."""
    obj = work / "platform_pic32.o"
    _run([MIPS_CC, *m4k_cflags("-O1", fw, RUNTIME_DIR / "core", RUNTIME_DIR / "pic32"), "-c",
          RUNTIME_DIR / "pic32" / "platform_pic32.c", "-o", obj])
    funcs = objdump_functions(obj, ISRS)
    missing = [n for n in ISRS if not funcs.get(n)]
    if missing:
        raise RuntimeError(f"{obj}: no code for {', '.join(missing)}")
    return {n: handler_cycles(funcs[n], model) for n in ISRS}


@dataclass
class Reserve:
    """Cycles a frame period keeps for each part; `watch` the digest's."""
    parts: dict = field(default_factory=dict)  # name -> (cycles, how)
    watch: tuple = (0, "")

    def ms(self, with_watch: bool = True) -> float:
        c = sum(c for c, _ in self.parts.values()) + (self.watch[0] if with_watch else 0)
        return c / F_CPU * 1000

    def lines(self) -> list:
        out = [f"  {name}: {c / F_CPU * 1000:.2f} ms ({c:,} cycles: {how})" for name, (c, how) in self.parts.items()]
        out.append(f"  watch on (the lockstep's digest): {self.watch[0] / F_CPU * 1000:.2f} ms "
                   f"({self.watch[0]:,} cycles: {self.watch[1]})")
        return out


def reserve(isr: dict, fps: int, baud: int, status_cycles: int, status_bytes: int, spi_hz: int,
            digest_worst: int, n: int, commands: list) -> Reserve:
    """commands: [commands.CommandCost] of the serial thread's lines."""
    ticks = math.ceil(1000 / fps)
    uart_bytes = math.ceil(baud / 10 / fps)
    r = Reserve()
    r.parts["tick"] = (ticks * isr["pic32_timer2_isr"], f"{ticks} x {isr['pic32_timer2_isr']} a 1 kHz tick")
    r.parts["UART"] = (2 * uart_bytes * isr["pic32_uart2_isr"],
                       f"2 x {uart_bytes} bytes at {baud} baud x {isr['pic32_uart2_isr']} an interrupt")
    spi_cycles = status_bytes * 8 * F_CPU // spi_hz
    r.parts["status line"] = (status_cycles + spi_cycles,
                              f"{status_cycles:,} CPU + {status_bytes:,} SPI bytes, once a second, whole")
    worst = max((c for c in commands if not c.once), key=lambda c: c.cycles)
    once = ", ".join(f"{c.line.split()[0]} {c.cycles:,}" for c in commands if c.once)
    r.parts["serial command"] = (worst.cycles, f"the worst line while tuning, `{worst.line}`; answered once, not "
                                               f"reserved: {once} cycles")
    r.watch = (digest_worst, f"the worst frame's CRC-32 of the state at {n} boids")
    return r
