"""Flock metrics over a simulation's state, in pixels (either arithmetic)."""
from __future__ import annotations

import math

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


# ---- Couzin et al. 2005's measures (spec/couzin2005.yaml; directions in turns) ----

def direction(cxs, cys) -> float:
    """The group's direction of travel in turns, in [-1/2, 1/2]: the angle of
    its centroid's displacement from the first sampled frame to the last
    (atan2(dy, dx) as the rules' own atan2: 0 is +x, 1/4 is +y). 0 when it
    did not move."""
    if len(cxs) < 2:
        return 0.0
    return math.atan2(cys[-1] - cys[0], cxs[-1] - cxs[0]) / (2 * math.pi)


def angle_between(a: float, b: float) -> float:
    """|a - b| around the circle, in turns: within [0, 1/2]."""
    d = (a - b) % 1.0
    return min(d, 1.0 - d)


def accuracy(heading: float, g: float) -> float:
    """Couzin's accuracy: 1 - (the angle from g) / pi; 1 along g, 1/2 at
    right angles, 0 opposite."""
    return 1.0 - angle_between(heading, g) / 0.5


def bisector(g1: float, g2: float) -> float:
    """The direction halfway between g1 and g2 along the shorter way round."""
    d = ((g2 - g1 + 0.5) % 1.0) - 0.5
    return g1 + d / 2


def chose(heading: float, g1: float, g2: float) -> int:
    """1 when the group went one of the two preferred ways rather than
    between them: its direction is nearer g1 or g2 than their bisector
    (more than a quarter of their angle from the bisector). 0 when they
    are one direction."""
    gap = angle_between(g1, g2)
    return int(gap > 0 and angle_between(heading, bisector(g1, g2)) > gap / 4)


def toward_majority(heading: float, g1: float, g2: float, n1: int, n2: int) -> int:
    """1 when the direction is nearer the larger informed group's preferred
    direction than the other's (group 1's on a tie, so chance is 1/2)."""
    big, small = (g2, g1) if n2 > n1 else (g1, g2)
    return int(angle_between(heading, big) < angle_between(heading, small))


def side_gap(x, y, width: float, height: float) -> float:
    """The distance from the boid nearest a side of the world to that side."""
    if not len(x):
        return 0.0
    return float(min(x.min(), y.min(), width - x.max(), height - y.max()))
