"""Flock metrics over a simulation's state, in pixels (either arithmetic)."""
from __future__ import annotations

import numpy as np


def polarisation(vx, vy) -> float:
    """|mean unit velocity|: 1 when all boids head the same way, ~0 when random."""
    s = np.hypot(vx, vy)
    ok = s > 0
    if not ok.any():
        return 0.0
    return float(np.hypot((vx[ok] / s[ok]).mean(), (vy[ok] / s[ok]).mean()))


def _dist(x, y) -> np.ndarray:
    d = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    np.fill_diagonal(d, np.inf)
    return d


def nearest_neighbour(x, y) -> float:
    """Mean distance from each boid to its nearest neighbour."""
    if len(x) < 2:
        return 0.0
    return float(_dist(x, y).min(axis=1).mean())


def groups(x, y, link: float) -> int:
    """Connected groups: boids closer than `link` are in the same group."""
    n = len(x)
    if n == 0:
        return 0
    adj = _dist(x, y) < link
    seen = np.zeros(n, dtype=bool)
    count = 0
    for i in range(n):
        if seen[i]:
            continue
        count += 1
        front = np.zeros(n, dtype=bool)
        front[i] = True
        while front.any():
            seen |= front
            front = adj[front].any(axis=0) & ~seen
    return count


def mean_speed(vx, vy) -> float:
    return float(np.hypot(vx, vy).mean()) if len(vx) else 0.0


def flock_metrics(sim, link: float) -> dict:
    x, y, vx, vy = (sim.to_pixels(a).astype(np.float64) for a in (sim.x, sim.y, sim.vx, sim.vy))
    return {"polarisation": polarisation(vx, vy), "nn_dist": nearest_neighbour(x, y),
            "groups": groups(x, y, link), "speed": mean_speed(vx, vy)}


def divergence(a, b) -> dict:
    """Mean position and velocity distance between the same boids of two runs."""
    n = min(a.count, b.count)
    p = [np.asarray(s.to_pixels(v), dtype=np.float64)[:n] for s in (a, b) for v in (s.x, s.y, s.vx, s.vy)]
    ax, ay, avx, avy, bx, by, bvx, bvy = p
    if n == 0:
        return {"pos": 0.0, "vel": 0.0}
    return {"pos": float(np.hypot(ax - bx, ay - by).mean()), "vel": float(np.hypot(avx - bvx, avy - bvy).mean())}


# ---- the scout lab's decision (experiments: pysim/experiments/trials.py) ----

def centroid(x, y) -> tuple[float, float]:
    """The flock's centre of mass (pixels)."""
    return (float(np.mean(x)), float(np.mean(y))) if len(x) else (0.0, 0.0)


def mean_velocity(vx, vy) -> tuple[float, float]:
    """The flock's mean velocity (pixels/frame): the centroid's own velocity."""
    return (float(np.mean(vx)), float(np.mean(vy))) if len(vx) else (0.0, 0.0)


def informed_side(group1: int, group2: int) -> int:
    """+1 (right) or -1 (left): the side the larger scout group prefers.
    Group 1 is biased right and group 2 left (seed 001); on a tie, or with
    no scouts at all, group 1's side, so the decision's chance level is 1/2."""
    return -1 if group2 > group1 else 1


def side_time(centroid_xs, middle: float, side: int) -> float:
    """The fraction of the sampled frames in which the centroid was strictly
    on `side` (+1 right, -1 left) of `middle`."""
    c = np.asarray(centroid_xs, dtype=np.float64)
    if not len(c):
        return 0.0
    return float(((c - middle) * side > 0).mean())


def decision(centroid_xs, middle: float, side: int) -> int:
    """1 when the flock settled on `side`: its centroid, averaged over the
    sampled frames, lies strictly on that side of `middle`; else 0."""
    c = np.asarray(centroid_xs, dtype=np.float64)
    return int(len(c) > 0 and (c.mean() - middle) * side > 0)
