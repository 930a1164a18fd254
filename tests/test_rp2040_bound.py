"""The RP2040's lower bound on the update (codegen/targets/rp2040/bound.py):
its pair count against a brute-force one, its worst frame, and its line."""
from __future__ import annotations

import numpy as np

from codegen.targets.rp2040 import bound
from codegen.targets.rp2040.budget import Frame


def test_the_sweep_counts_the_pairs_in_range_as_all_pairs_do():
    rng = np.random.default_rng(7)
    for n, r in ((1, 5), (60, 40), (400, 90), (300, 1)):
        x = rng.integers(-50, 700, n)
        y = rng.integers(-50, 500, n)
        x[: n // 3] = x[0]  # ties in x: the sort's order must not matter
        dx, dy = x[:, None] - x[None, :], y[:, None] - y[None, :]
        brute = int(np.count_nonzero(np.triu(dx * dx + dy * dy < r * r, 1)))
        assert bound.pairs_in_range(x, y, r) == brute, (n, r)


def test_the_bound_takes_the_worst_frame_and_checks_itself_against_every_frame():
    frames = [Frame(update=900_000, draw=10, parts=(400_000, 400_000)),
              Frame(update=2_000_000, draw=10, parts=(900_000, 1_000_000))]
    b = bound.bound_of(1000, [20_000, 45_000], frames)
    assert b.worst_pairs == 45_000 and b.median_pairs == 32_500
    assert b.worst_cycles == (45_000 * bound.PAIR_CYCLES + 1000 * bound.BOID_CYCLES) / 2
    assert (b.measured_pairs, b.measured_update) == (45_000, frames[1].update_two) and b.above == 0
    assert bound.bound_of(1000, [200_000, 45_000], frames).above == 1  # a bound above a measured frame: flagged
    line = bound.bound_lines([b], 4_166_666, {1000: 200_000})[-1].split()
    assert line[0] == "1000" and line[5] == "yes" and line[-1] == "0", line
    seq = bound.bound_of(1000, [20_000, 45_000], frames, visits=2)  # sequential: each ordered pair a visit
    assert seq.worst_cycles == (2 * 45_000 * bound.PAIR_CYCLES + 1000 * bound.BOID_CYCLES) / 2
    assert "each ordered pair" in bound.bound_lines([seq], 4_166_666, {1000: 0}, visits=2)[0]
