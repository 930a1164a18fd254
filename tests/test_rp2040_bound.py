"""The RP2040's lower bound on the update (codegen/targets/rp2040/bound.py):
its pair count against a brute-force one, its worst frame, and its line;
and the profile of where a frame's cycles go (profile.py), folded from a
real run in rp2040js."""
from __future__ import annotations

import pytest
import tempfile
from pathlib import Path

import numpy as np

from codegen.commands.cli import main
from codegen.targets.rp2040 import bound
from codegen.drivers.rp2040.budget import Frame
from tests.conftest import ROOT
from tests.test_rp2040 import rp2040_tools  # noqa: F401 - the fixture


pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: the RP2040 in rp2040js

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


def test_the_profile_folds_every_cycle_the_core_ran(rp2040_tools, capsys):  # noqa: F811
    from codegen.drivers.rp2040.profile import run_profile

    m, p = run_profile(ROOT / "spec" / "scouts_vga.yaml", 300, 8, 1, grid=True)
    busy = sum(p.by_function.values())
    assert 0 < busy <= p.cycles and sum(p.by_block.values()) == busy == sum(p.by_line.values())
    assert max(p.by_function, key=p.by_function.get).startswith("boids_step")  # the update is most of a frame
    assert "the band below" in p.by_block and any(k.startswith("boids_flock.c:") for k in p.by_line)
    # the flock code's loops hold the pair visits: more cycles there than anywhere outside them
    loops = sum(c for k, c in p.by_block.items() if "outside its labelled loops" not in k and not k.startswith("boids_"))
    assert loops > busy / 3, p.by_block.most_common(5)
    assert main(["budget", str(ROOT / "spec" / "scouts_vga.yaml"), "--target", "rp2040", "--variant", "grid",
                 "--boids", "300", "--frames", "8", "--profile"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("profile: scouts_vga on the RP2040, synchronous, grid, 300 boids, seed 1, 8 frames")
    assert "by function:" in out and any(ln.endswith("the band below") for ln in out)
    # the 8 frames' cycles, each one, are frames 0-3's of the same run and the profile of the last 4 after 4
    from codegen.drivers.rp2040.budget import build_for
    from codegen.targets.rp2040.emulator import run_image
    from codegen.drivers.rp2040.profile import read_hist

    late = run_profile(ROOT / "spec" / "scouts_vga.yaml", 300, 4, 1, grid=True, skip=4)[1]
    b = build_for(ROOT / "spec" / "scouts_vga.yaml", [300], True)[1]
    with tempfile.TemporaryDirectory() as tmp:
        run_image(b.headless_elf, "bench 8 1 300\n", max_cycles=10**10, pc_hist=Path(tmp) / "h", hist_frames=(0, 4))
        first = read_hist(Path(tmp) / "h")
    assert sum(first.values()) + sum(late.by_function.values()) == sum(p.by_function.values())
    assert 0 < sum(late.by_function.values()) <= late.cycles
