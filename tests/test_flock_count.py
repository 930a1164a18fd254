"""Growing and shrinking the flock at run time: the `boids N` command on the
firmware and Simulation.set_count agree (same PRNG stream, newest first)."""
from __future__ import annotations

import re
import subprocess

from pysim.engine import Simulation

from .conftest import DEFAULT_CAPACITY


def test_set_count_twin(default_build):
    m, exe, model = default_build
    # firmware: reset with 5 boids, grow to 9, shrink to 7, then dump positions via get? -> use the trace:
    # the trace's frame 0 is after set_count(--boids); a grown flock equals a fresh spawn of the same size.
    sim = Simulation(model, "fixed", seed=11, boids=5)
    sim.set_count(9)
    fresh = Simulation(model, "fixed", seed=11, boids=9)
    assert (sim.x == fresh.x).all() and (sim.vy == fresh.vy).all()
    sim.set_count(7)
    assert sim.count == 7 and (sim.x == fresh.x[:7]).all()
    assert sim.set_count(10_000) == model.CAPACITY


def test_boids_command(default_build):
    exe, cap = default_build[1], DEFAULT_CAPACITY
    res = subprocess.run([str(exe)], input=f"boids 7\nstats\nboids {cap + 1}\nboids -1\nboids x\nboids +{cap}\nboids -3\n".encode(),
                         capture_output=True, timeout=20)
    out = res.stdout.decode().splitlines()
    assert re.fullmatch(r"ok boids=7 frame=\d+", out[0]), out
    assert " boids=7 " in out[1]
    assert out[2] == f"err boids: {cap + 1} outside [0, {cap}]"
    assert re.fullmatch(r"ok boids=6 frame=\d+", out[3]), out  # -1: one fewer
    assert out[4] == "err boids: N must be a whole number"
    assert re.fullmatch(rf"ok boids={cap} frame=\d+", out[5]), out  # +N is clamped to the capacity
    assert re.fullmatch(rf"ok boids={cap - 3} frame=\d+", out[6]), out


def test_add_boid_at_a_point(default_build):
    model = default_build[2]
    sim = Simulation(model, "float", seed=2, boids=3)
    assert sim.add_boid(100.0, 50.0)
    assert sim.count == 4 and (sim.x[-1], sim.y[-1], sim.vx[-1], sim.vy[-1]) == (100.0, 50.0, 3.0, 0.0)
    sim.step()  # the new boid flies with the others
    assert sim.x[-1] != 100.0
    sim.set_count(model.CAPACITY)
    assert not sim.add_boid(1.0, 1.0) and sim.count == model.CAPACITY
