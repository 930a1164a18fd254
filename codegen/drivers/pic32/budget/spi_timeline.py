"""How long drawing a frame takes on the board: the CPU's cycles (the
cycle model, codegen/drivers/pic32/budget/m4k_cycles.py) and the SPI's byte times on one
timeline, from the drawing's blocks in the order qemu ran them
(codegen/drivers/pic32/budget/m4k_trace.py, `ordered`).

The budget's stub SPI port (firmware_runtime/pic32/budget/budget_tft_port.c)
always reads "idle", so every wait loop runs its test once. Here each of
the port's SPI accesses is an event at its place in the timeline:

- push: a store to SPIxBUF. The byte enters the transmit FIFO and shifts
  out when the byte before it is done: start = max(store, last end), end =
  start + 8 bits at the SPI clock. No gap between bytes (enhanced buffer
  mode streams back to back; an assumption, BENCHMARKS.md).
- idle: the status read of a wait for idle (before D/C or CS moves). If a
  byte is still shifting, the CPU spins until the last one ends, in whole
  turns of the poll loop (POLL_CYCLES: status load, two tests and their
  branches, the received byte's read).
- room: the status read before a byte beyond the burst: waits, likewise,
  while the FIFO (FIFO_BYTES) holds bytes that have not started.

Between events the CPU runs on: what it computes while bytes shift is
hidden by them, and only the waits add to its cycles. Drawing code that
waits before every D/C switch and computes nothing between gets the SPI
time added in full, as the plain budget assumes; code that computes the
next pixel while this one's bytes go out gets the overlap.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from codegen.drivers.pic32.budget.m4k_cycles import CycleModel, block_costs

# One turn of a wait loop (platform_pic32.c's spi_wait_idle): the status
# load, its mask test and branch with its delay slot, the receive test and
# its (taken on the board) read, the jump back and its slot, + the taken
# branch's flash wait: 8 cycles.
POLL_CYCLES = 8
# The transmit FIFO the driver counts on (platform_pic32.c: ENHBUF, "at
# least TFT_PORT_BURST bytes"); a deeper one only shortens 'room' waits.
FIFO_BYTES = 8


@dataclass
class DrawTime:
    cpu_cycles: int  # the drawing's instructions in the cycle model
    wait_cycles: int  # spinning in the wait loops for the SPI
    spi_bytes: int  # bytes pushed
    busy_cycles: float  # the bytes' time on the wire, in CPU cycles

    @property
    def cycles(self) -> int:
        return self.cpu_cycles + self.wait_cycles


def _spin(t: float, until: float) -> float:
    """Cycles a poll loop entered at t spins until `until` has passed."""
    return math.ceil((until - t) / POLL_CYCLES) * POLL_CYCLES if until > t else 0


def draw_time(blocks: dict, order: list, taken_total: int, events: dict, model: CycleModel,
              byte_cycles: float) -> DrawTime:
    """The timeline of one segment: `order` its blocks as run, `events`
    instruction address -> 'push' | 'idle' | 'room', `taken_total` its
    taken exits (m4k_trace's count, the last one into the marker included)."""
    plan: dict[int, list] = {}
    for pc in set(order):
        blk = blocks[pc]
        plan[pc] = [(cyc, events.get(ins.addr)) for ins, cyc in zip(blk, block_costs(model, blk))]
    t = 0.0
    cpu = wait = 0
    pushed = 0
    last_end = 0.0
    pending: deque = deque()  # start times of bytes still in the FIFO
    taken = 0
    for k, pc in enumerate(order):
        for cyc, ev in plan[pc]:
            if ev == "idle":
                s = _spin(t, last_end)
                t += s
                wait += s
            elif ev == "room":
                while pending and pending[0] <= t:
                    pending.popleft()
                if len(pending) >= FIFO_BYTES:
                    s = _spin(t, pending[len(pending) - FIFO_BYTES])
                    t += s
                    wait += s
            t += cyc
            cpu += cyc
            if ev == "push":
                start = max(t, last_end)
                last_end = start + byte_cycles
                pending.append(start)
                pushed += 1
        if k + 1 < len(order) and order[k + 1] != blocks[pc][-1].addr + 4:
            t += model.flash_ws
            cpu += model.flash_ws
            taken += 1
    rest = (taken_total - taken) * model.flash_ws  # the exit into the marker
    cpu += rest
    t += rest
    s = _spin(t, last_end)  # the frame is drawn when its last byte is out
    return DrawTime(cpu, wait + s, pushed, pushed * byte_cycles)
