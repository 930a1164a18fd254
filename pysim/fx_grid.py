"""The synchronous grid of the simulator's kernels (fixed point): cells at
least the pair box wide, so a boid's box lies in the 3 x 3 cells around its
own; positions clamp to the screen (never moving two boids apart); exact
while |x|, |y| < 2^30 raw (no fx_sub wraps). Twin of the C's
performance.grid, in the simulator's own form.

Every kernel calls these with its screen's size (w, h, raw): one compiled
copy per machine (pysim/jit_call.py), not one per kernel as when each
generated kernel carried its own (0.9 s of numba compile time apiece).
"""
from __future__ import annotations

import numpy as np

from pysim.fxops import _jit
from pysim.jit_call import call

GRID_SAFE = 1 << 30
GRID_MAX_COLS = 128  # the smallest cell: the larger side over 128, plus 1


@_jit
def grid_coord(v, limit, cell):
    if v < 0:
        return 0
    if v >= limit:
        v = limit - 1
    return v // cell


@call
def grid_sort(on, box, w, h, x, y, vx, vy, ox, oy, ovx, ovy, order):
    """Sort the frame's copy (ox ...) by cell, order[slot] = boid; ->
    (used, cell, cols, rows, start): cell c holds slots start[c] .. start[c + 1]."""
    n = x.shape[0]
    min_cell = max(w, h) // GRID_MAX_COLS + 1
    cell = box if box > min_cell else min_cell
    cols = (w - 1) // cell + 1
    rows = (h - 1) // cell + 1
    start = np.zeros(cols * rows + 1, np.int64)
    if not on:
        return False, cell, cols, rows, start
    for q in range(n):
        if x[q] >= GRID_SAFE or x[q] <= -GRID_SAFE or y[q] >= GRID_SAFE or y[q] <= -GRID_SAFE:
            return False, cell, cols, rows, start
    cellof = np.empty(n, np.int64)
    for q in range(n):
        c = grid_coord(y[q], h, cell) * cols + grid_coord(x[q], w, cell)
        cellof[q] = c
        start[c + 1] += 1
    for c in range(cols * rows):
        start[c + 1] += start[c]
    fill = start.copy()
    for q in range(n):
        s = fill[cellof[q]]
        fill[cellof[q]] += 1
        order[s] = q
        ox[s] = x[q]
        oy[s] = y[q]
        ovx[s] = vx[q]
        ovy[s] = vy[q]
    return True, cell, cols, rows, start


@call
def grid_segments(bx, by, w, h, cell, cols, rows, start, seg_lo, seg_hi):
    """The slot ranges of the 3 x 3 cells around (bx, by): one per row; -> how many."""
    gx = grid_coord(bx, w, cell)
    gy = grid_coord(by, h, cell)
    x0 = gx - 1 if gx > 0 else 0
    x1 = gx + 1 if gx + 1 < cols else cols - 1
    y0 = gy - 1 if gy > 0 else 0
    y1 = gy + 1 if gy + 1 < rows else rows - 1
    k = 0
    for gr in range(y0, y1 + 1):
        seg_lo[k] = start[gr * cols + x0]
        seg_hi[k] = start[gr * cols + x1 + 1]
        k += 1
    return k
