"""A lower bound on one frame of the default flock on the M4K: the work its
rules cannot avoid, each operation at the cheapest way this core can do it,
counted by instruction class (m4k_cycles.CLASSES) and priced by the same
cycle model (codegen/drivers/pic32/budget/m4k_cycles.py). The classes let
a test hold the bound against the code: for every class the bound counts no
more than the generated code executes (tests/test_budget_profile.py), so no
optimisation of ours can beat it without the bound being wrong.

Cheapest, where the code has a choice: a mean is a multiply by a reciprocal
(mean_table), never a division; a pair's terms are computed once for both
boids (pairs_once); a boid's sums can come from a window's running sums
(window_sums), so a pair in range adds nothing of its own; a speed inside
its limits needs no root and no division. Not counted at all: candidate
pairs outside every range, the grid, the frame's set-up, load-use stalls
(scheduling can hide them).

Per in-range pair (ordered: i sees j), half of one visit of the unordered
pair, which loads j's x, y, vx, vy (4), forms dx, dy (2), d2 (mult, madd),
tests it on HI (mfhi, 2 branches) and steps the loop (add, branch):
  load 2, alu 1.5, mult 1, hilo 0.5, branch 1.5; the loop's branch taken 0.5
Per boid:
  load and store x, y, vx, vy; the loop                 load 4, store 4, alu 1, branch 1 (taken)
  its count and four sums, one op each                  alu 5
  four means: a reciprocal's load, multu + mfhi each    load 1, mult 4, hilo 4
  four (mean - v) * factor and adds: sub, mult, mfhi,
    mflo, two shifts, or, add each                      alu 20, mult 4, hilo 8
  separation: two products and adds                     alu 8, mult 2, hilo 4
  edges: four tests, two adds                           alu 2, branch 4
  speed limit: squared speed (mult, madd, mfhi, mflo),
    two tests                                           mult 2, hilo 2, branch 2
  position: two adds                                    alu 2
Per drawn pixel (erase + draw; 8 SPI bytes, the fewest the ILI9340 takes
for a lone pixel whose row's page window is already set: CASET + 4, RAMWR,
2): a store a byte, two commands' D/C switches and idle waits (a status load
and a branch each), about 10 to place it: store 8, load 2, branch 2, alu 18;
the 8 bytes on the wire. The pixels' instructions can run while earlier
bytes shift (spi_timeline.py), so the drawing takes the longer of the two.
"""
from __future__ import annotations

from dataclasses import dataclass

from codegen.boards.pic32.clock import SYSCLK_HZ

PAIR = {"load": 2, "alu": 1.5, "mult": 1, "hilo": 0.5, "branch": 1.5}
PAIR_TAKEN = 0.5
BOID = {"load": 5, "store": 4, "alu": 38, "mult": 12, "hilo": 18, "branch": 7}
BOID_TAKEN = 1
PIXEL = {"store": 8, "load": 2, "branch": 2, "alu": 18}
PIXEL_BYTES = 8
PAIR_INSNS = sum(PAIR.values())
BOID_INSNS = sum(BOID.values())
PIXEL_INSNS = sum(PIXEL.values())


@dataclass
class Bound:
    n: int
    pixels: int
    insns: float
    cycles: float
    spi_ms: float
    pixel_cycles: float = 0.0  # of cycles: the pixels' share
    update: dict | None = None  # class -> the update's instructions (pairs and boids, no pixels)

    @property
    def frame_ms(self) -> float:
        ms = 1000 / SYSCLK_HZ
        return (self.cycles - self.pixel_cycles) * ms + max(self.pixel_cycles * ms, self.spi_ms)

    @property
    def update_cycles(self) -> float:
        return self.cycles - self.pixel_cycles


def _cycles(counts: dict, taken: float, model) -> float:
    return (sum(counts.values()) + counts.get("mult", 0) * model.mult_extra
            + counts.get("div", 0) * model.div_extra + taken * model.flash_ws)


def update_counts(in_range: int, n: int) -> dict:
    """class -> instructions the update cannot do without."""
    return {c: in_range * PAIR.get(c, 0) + n * BOID.get(c, 0) for c in dict.fromkeys([*PAIR, *BOID])}


def lower_bound(pairs, n: int, spi_bytes: int, spi_hz: int, model, pixels: int | None = None) -> Bound:
    """The bound for n boids with `pairs` (pair_counts.PairCounts) in range;
    the pixels are those erasing every old and drawing every new boid pixel
    takes (budget_host's `pixels=`: boids off the panel are clipped; without
    it, spi_bytes / PIXEL_BYTES), each at the fewest bytes a lone pixel takes
    (or fewer: the bytes the driver sent, where neighbours shared a window)."""
    if pixels is None:
        pixels = spi_bytes // PIXEL_BYTES
    upd = update_counts(pairs.in_range, n)
    upd_cycles = _cycles(upd, pairs.in_range * PAIR_TAKEN + n * BOID_TAKEN, model)
    pix_cycles = pixels * _cycles(PIXEL, 0, model)
    insns = sum(upd.values()) + pixels * PIXEL_INSNS
    # adjacent pixels share a window, so the driver may need fewer bytes than lone pixels would
    wire = min(pixels * PIXEL_BYTES, spi_bytes)
    return Bound(n, pixels, insns, upd_cycles + pix_cycles, wire * 8 / spi_hz * 1000, pix_cycles, upd)
