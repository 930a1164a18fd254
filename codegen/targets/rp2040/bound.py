"""A lower bound on the RP2040's update (issue 36), as issue 35's for the
PIC32 (codegen/drivers/pic32/budget/bound.py): the work the spec's rules
cannot avoid in a frame, each operation at the fewest Cortex-M0+ cycles it
can take, so that no code, ours or anyone's, updates the flock faster.

The work: every unordered pair of boids within the largest range (a
neighbour of some rule) is visited once (each pair once, pairs_once.py),
and every boid applies its rules once. Counted per frame on the
simulator's positions at the frame's start (bit-exact with the firmware,
so the same frames the budget runs: `bench FRAMES SEED N` from the spawn),
by an x-sorted sweep; a pair in range is d2 < range^2.

Cheapest, where the code has a choice (so the bound is generous, never
tight): the sums cost nothing of their own (a window's running sums,
window_sums.py, can give a boid its neighbours' sums); the range test
squares dx and dy with one MULS each, as if 32 bits held d2 (they do not:
at a 40 px range in s15.16, d2 needs 44 bits); candidates outside the range,
the sort, the bands and the frame's set-up are not counted. Cortex-M0+
cycles (ARM DDI 0484: LDR, STR 2; LDM, STM 1 + words; ALU 1; MULS 1, the
RP2040's single-cycle multiplier; a taken branch 2, not taken 1).

Per unordered pair in range (PAIR_CYCLES):
  the other's x, y (LDM of two words)            3
  dx, dy (SUBS x2)                               2
  d2 < r^2: MULS x2, ADDS, CMP, Bcc not taken    5
  the loop: ADDS to the next boid, CMP, Bcc      4
Per boid (BOID_CYCLES):
  x, y, vx, vy loaded and stored (LDM, STM)     10
  four means (a reciprocal: MULS) and their
    factors: MULS, SUBS, MULS, ASRS, ADDS x4    20
  separation: MULS, ASRS, ADDS x2                6
  edges: CMP, Bcc x4                             8
  speed limit: MULS x2, ADDS, CMP x2, Bcc x2     7
  position (ADDS x2), the loop (3)               5

Both cores, the bound's split is perfect: half the work each, no hand-over.
In sequential order a boid sees the boids before it as they are after
their turn, so no code visits a pair once for both: each ordered pair
costs a visit (`visits` 2), counted on the frame's starting positions
(the boids before move by at most max_speed meanwhile).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

PAIR_CYCLES = 3 + 2 + 5 + 4
BOID_CYCLES = 10 + 20 + 6 + 8 + 7 + 5


def pairs_in_range(x, y, r: int) -> int:
    """Unordered pairs with dx^2 + dy^2 < r^2 (raw integers): the boids sorted
    by x, each compared with the next k-th while any of them lies within r in x."""
    order = np.argsort(x, kind="stable")
    xs, ys = np.asarray(x, dtype=np.int64)[order], np.asarray(y, dtype=np.int64)[order]
    n, r2, count = len(xs), int(r) * int(r), 0
    for k in range(1, n):
        dx = xs[k:] - xs[:-k]
        near = dx < r
        if not near.any():
            break
        dy = ys[k:] - ys[:-k]
        count += int(np.count_nonzero(near & (dx * dx + dy * dy < r2)))
    return count


def largest_range(m, model) -> int:
    """The raw default of the largest range the rules' pair loop tests (their zones and radii)."""
    from codegen.lang.zone_groups import zone_form

    form = zone_form(m.rules)
    names = set(form.zone_range.values()) | {p for p, _ in form.radius}
    raw = {p.name: p.default_raw for p in model.PARAMS}
    return max(raw[p] for p in names)


def frame_pairs(model, m, n: int, frames: int, seed: int) -> list[int]:
    """Pairs in range at the start of each of `frames` frames of n boids from the spawn of `seed`."""
    from pysim.engine import Simulation

    r = largest_range(m, model)
    sim = Simulation(model, "fixed", seed=seed, boids=n)
    sim.reset(seed, n)
    out = []
    for _ in range(frames):
        out.append(pairs_in_range(sim.b["x"], sim.b["y"], r))
        sim.step()
    return out


def update_cycles(pairs: int, n: int, cores: int = 1, visits: int = 1) -> float:
    """The bound on one frame's update, on `cores` cores; `visits` a pair (2: sequential order)."""
    return (pairs * visits * PAIR_CYCLES + n * BOID_CYCLES) / cores


@dataclass(frozen=True)
class Bound:
    n: int
    median_pairs: int
    worst_pairs: int
    worst_cycles: float  # the bound's worst frame, both cores (cycles of one core)
    measured_pairs: int  # the pairs of the measured worst two-core frame
    measured_update: int  # that frame's update, both cores (computed), cycles
    measured_one: int  # and on one core
    above: int  # frames whose bound exceeds their measured update on both cores: 0, or the bound is wrong


def bound_of(n: int, pairs: list[int], frames, visits: int = 1) -> Bound:
    """The bound for n boids over the measured frames (budget.Frame, in the same order as `pairs`);
    `visits` a pair: 1 (synchronous, each pair once) or 2 (sequential)."""
    if len(pairs) != len(frames):
        raise ValueError(f"{len(pairs)} frames of pair counts for {len(frames)} measured")
    worst = max(range(len(frames)), key=lambda k: frames[k].update_two)
    above = sum(update_cycles(p, n, 2, visits) > f.update_two for p, f in zip(pairs, frames))
    return Bound(n, int(statistics.median(pairs)), max(pairs), update_cycles(max(pairs), n, 2, visits),
                 pairs[worst], frames[worst].update_two, frames[worst].update, above)


def bound_lines(rows: list[Bound], budget: int, rest: dict, visits: int = 1) -> list[str]:
    """The printed bound: per N, against the frame budget less the measured drawing and serial share
    (`rest`: N -> their worst, cycles)."""
    ms = lambda c: f"{c / 125_000:6.2f}"  # noqa: E731 - cycles at 125 MHz
    each = "an unordered pair in range" if visits == 1 else "each ordered pair in range (sequential order)"
    lines = [f"lower bound on the update, 2 cores (bound.py: {PAIR_CYCLES} cycles {each}, "
             f"{BOID_CYCLES} a boid, half on each core; pairs in range counted on the simulator's same frames); "
             "ms, against the frame less the worst drawing and serial",
             "     N  pairs in range med/max  bound worst  left   fits  measured worst: pairs  update 2 cores  "
             "1-core cycles a pair  frames under it (0: sound)"]
    for b in rows:
        left = budget - rest[b.n]
        lines.append(f"{b.n:6d}  {b.median_pairs:13,d} {b.worst_pairs:8,d}       {ms(b.worst_cycles)} {ms(left)}   "
                     f"{'yes' if b.worst_cycles <= left else 'no '}  {b.measured_pairs:21,d}  "
                     f"{ms(b.measured_update):>14}  {b.measured_one / max(b.measured_pairs, 1):20.0f}  "
                     f"{b.above:27d}")
    return lines
