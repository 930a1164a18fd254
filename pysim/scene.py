"""What a view draws: the simulation's entities in pixels (floats), whatever
the arithmetic. The GUI and picture writers read only this."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Scene:
    width: int
    height: int
    boids: np.ndarray  # (N, 4): x, y, vx, vy
    predators: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))  # (P, 4)
    obstacles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (O, 3): x, y, radius
    food: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))  # (F, 2)
    perches: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))  # (K, 4): x0, y0, x1, y1 ledges
    target: tuple[float, float] | None = None
    groups: np.ndarray | None = None  # (N,) scout group per boid (0 = none), when the spec has groups
