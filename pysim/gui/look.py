"""Colours and sizes shared by the canvas and the picture writer (display
pixels; the view multiplies by its scale)."""
from __future__ import annotations

import numpy as np

BACKGROUND = "#000000"
BACKGROUND_RGB = (0, 0, 0)
BOID = "#ffffff"
BOID_RGB = (255, 255, 255)
PREDATOR = "#ff3030"
OBSTACLE = "#606060"
OBSTACLE_EDGE = "#a0a0a0"
FOOD = "#30d040"
PERCH = "#d08020"
TARGET = "#ffd000"

BOID_LENGTH = 5.0
BOID_HALF_WIDTH = 1.8
PREDATOR_LENGTH = 9.0
PREDATOR_HALF_WIDTH = 3.5
FOOD_RADIUS = 2.5
TARGET_ARM = 4.0

# scout groups: group 0 (none) is white
GROUP_COLOURS = ("#ffffff", "#40c0ff", "#ff80c0", "#80ff80", "#ffb040", "#c080ff", "#ffff60", "#60ffe0")


def group_colours(groups, n: int) -> list[str] | None:
    if groups is None or n == 0:
        return None
    g = np.asarray(groups, dtype=int)[:n]
    return [GROUP_COLOURS[int(k) % len(GROUP_COLOURS)] for k in g]


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
