"""The drawing's SPI timeline (codegen/drivers/pic32/budget/spi_timeline.py) on hand-made
blocks: bytes shift while the CPU computes, waits last until the bytes
they wait for are out, in whole poll turns."""
from __future__ import annotations

from codegen.drivers.pic32.budget.m4k_cycles import CycleModel
from codegen.drivers.pic32.budget.m4k_trace import Insn
from codegen.drivers.pic32.budget.spi_timeline import FIFO_BYTES, POLL_CYCLES, draw_time

M = CycleModel()
BYTE = 16.0  # 20 MHz SPI, 40 MHz CPU


def alu(addr):
    return Insn(addr, "addu", ("v0", "v0", "v1"))


def store(addr):
    return Insn(addr, "sb", ("v0", "0(a0)"))


def load(addr):
    return Insn(addr, "lw", ("v1", "0(a1)"))


def run(block, events, order=None):
    blocks = {block[0].addr: block}
    return draw_time(blocks, order or [block[0].addr], 0, events, M, BYTE)


def test_a_wait_right_after_the_bytes_spins_until_they_are_out():
    b = [store(0x100), store(0x104), load(0x108)]
    dt = run(b, {0x100: "push", 0x104: "push", 0x108: "idle"})
    # bytes end at 1 + 16 and 17 + 16 = 33; the status is read at 2
    assert dt.cpu_cycles == 3 and dt.spi_bytes == 2 and dt.busy_cycles == 32
    assert dt.wait_cycles == -(-(33 - 2) // POLL_CYCLES) * POLL_CYCLES


def test_work_between_the_bytes_and_the_wait_hides_the_shift():
    work = [alu(0x104 + 4 * k) for k in range(40)]
    b = [store(0x100)] + work + [load(0x104 + 4 * 40)]
    dt = run(b, {0x100: "push", b[-1].addr: "idle"})
    assert dt.wait_cycles == 0 and dt.cycles == dt.cpu_cycles == 42
    short = [store(0x100)] + work[:5] + [load(0x118)]
    dt = run(short, {0x100: "push", 0x118: "idle"})
    assert 0 < dt.wait_cycles and dt.cycles >= 1 + BYTE


def test_a_full_fifo_makes_the_next_byte_wait_for_room():
    n = FIFO_BYTES + 1  # one shifting, FIFO_BYTES waiting
    b = [store(0x100 + 4 * k) for k in range(n)] + [load(0x100 + 4 * n), store(0x104 + 4 * n)]
    ev = {s.addr: "push" for s in b if s.mnem == "sb"}
    ev[0x100 + 4 * n] = "room"
    dt = run(b, ev)
    # byte 0 shifts from cycle 1, byte 1 from 1 + 16; the status is read at
    # cycle n: full until byte 1 starts, so one poll turn (17 - n <= 8)
    room = -(-(1 + BYTE - n) // POLL_CYCLES) * POLL_CYCLES
    t_end = n + room + 2
    last_end = 1 + BYTE * (n + 1)  # back to back from byte 0
    drain = -(-(last_end - t_end) // POLL_CYCLES) * POLL_CYCLES
    assert dt.cpu_cycles == n + 2 and dt.spi_bytes == n + 1
    assert dt.wait_cycles == room + drain and room > 0
    # unchecked, the byte would go at once (and on the board be lost): only the drain
    without = run(b, {k: v for k, v in ev.items() if v == "push"})
    assert without.wait_cycles == -(-(last_end - (n + 2)) // POLL_CYCLES) * POLL_CYCLES


def test_taken_exits_cost_a_flash_wait_each():
    a = [alu(0x100), Insn(0x104, "b", ("0x200",)), alu(0x108)]
    c = [alu(0x200)]
    blocks = {0x100: a, 0x200: c}
    dt = draw_time(blocks, [0x100, 0x200, 0x100], 3, {}, M, BYTE)
    # two taken exits in the order, a third into the marker after it
    assert dt.cpu_cycles == 3 + 1 + 3 + 3 * M.flash_ws and dt.wait_cycles == 0
