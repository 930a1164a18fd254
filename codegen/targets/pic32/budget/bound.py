"""A lower bound on one frame of the default flock on the M4K: the work its
rules cannot avoid, at the fewest instructions we can argue for, and the
cycles the cycle model (codegen/targets/pic32/budget/m4k_cycles.py) gives them. BENCHMARKS.md
("A lower bound") argues each count; the generated code's ratio to the
bound is what the optimisation half of issue 16 works down.

Unavoidable: each in-range pair's accumulations (a pair outside every range
adds nothing; a perfect neighbour structure would never visit it), each
boid's update, each boid's pixels. Not counted: candidate pairs outside the
ranges, the grid, the frame's set-up.

Per in-range pair (i sees j; the rules of spec/boids.yaml):
  load x_j, y_j, vx_j, vy_j                     4
  dx, dy                                        2  (shared by i->j and j->i
  d2 = dx*dx + dy*dy into HI:LO (mult, madd)    2   when each pair is
  range tests on HI (mfhi, branch; protected)   3   computed once: 7 / 2)
  n += 1, four 32-bit sums (vx, vy, dx, dy)     5
  loop step and branch                          2
  -> 4 + 3.5 + 5 + 2 = 14.5 instructions
Per boid:
  load and store x, y, vx, vy; loop             10
  alignment, cohesion: four means (32/32 div in hardware + mflo), four
    (mean - v) * factor (sub, mult, mfhi, mflo, 2 shifts, or), four adds  36, 4 div
  separation: two sums * factor, two adds       14
  edges: four compares and branches, two adds   10
  speed limit: squared speed (mult, madd, mfhi, mflo), two range tests
    (inside the limits no root and no division is needed)              8
  position: two adds                             2
  -> 80 instructions, 4 of them divisions
Per drawn pixel (erase + draw; 8 SPI bytes, the fewest the ILI9340 takes
for a lone pixel whose row's page window (PASET) is already set: CASET + 4,
RAMWR, 2): a store per byte, two commands' D/C switches and idle waits (a
status load and a branch each), about 10 to place it -> 30 instructions,
and the 8 bytes on the wire. The pixels' instructions can run while
earlier bytes shift (codegen/targets/pic32/budget/spi_timeline.py), so the drawing takes the
longer of the two, not their sum.
"""
from __future__ import annotations

from dataclasses import dataclass

from codegen.targets.pic32.clock import SYSCLK_HZ

PAIR_INSNS = 14.5
PAIR_MULTS = 1.0  # mult + madd once per pair computed once: 2 / 2
PAIR_TAKEN = 1.0  # the loop's backward branch
BOID_INSNS = 80
BOID_DIVS = 4
BOID_MULTS = 6  # four factor products, the squared speed's two
BOID_TAKEN = 4
PIXEL_BYTES = 8
PIXEL_INSNS = 30


@dataclass
class Bound:
    n: int
    pixels: int
    insns: float
    cycles: float
    spi_ms: float
    pixel_cycles: float = 0.0  # of cycles: the pixels' share

    @property
    def frame_ms(self) -> float:
        ms = 1000 / SYSCLK_HZ
        return (self.cycles - self.pixel_cycles) * ms + max(self.pixel_cycles * ms, self.spi_ms)


def lower_bound(pairs, n: int, spi_bytes: int, spi_hz: int, model, pixels: int | None = None) -> Bound:
    """The bound for n boids with `pairs` (pair_counts.PairCounts) in range;
    the pixels are those erasing every old and drawing every new boid pixel
    takes (budget_host's `pixels=`: boids off the panel are clipped; without
    it, spi_bytes / PIXEL_BYTES), each at the fewest bytes a lone pixel takes
    (or fewer: the bytes the driver sent, where neighbours shared a window)."""
    if pixels is None:
        pixels = spi_bytes // PIXEL_BYTES
    insns = pairs.in_range * PAIR_INSNS + n * BOID_INSNS + pixels * PIXEL_INSNS
    cycles = (insns
              + pairs.in_range * (PAIR_MULTS * model.mult_extra + PAIR_TAKEN * model.flash_ws)
              + n * (BOID_DIVS * model.div_extra + BOID_MULTS * model.mult_extra + BOID_TAKEN * model.flash_ws))
    # adjacent pixels share a window, so the driver may need fewer bytes than lone pixels would
    wire = min(pixels * PIXEL_BYTES, spi_bytes)
    return Bound(n, pixels, insns, cycles, wire * 8 / spi_hz * 1000, pixels * PIXEL_INSNS)
