"""Synchronous update of a large flock without the N x N matrix of pairs.

The generated `update(A, P, K, W, me, oth, not_self)` looks at a pair only
when |dx| < pair_box(P) and |dy| < pair_box(P) (the box test comes first in
every zone). So bin the boids into square cells of side >= that box over the
screen (positions off the screen clamp to the edge cells: clamping never
moves two boids further apart) and call `update` once per occupied cell, with
`me` the boids of the cell and `oth` the boids of the 3 x 3 cells around it.
Every pair `update` would accept is in `oth`; the pairs left out could only
have been masked out. The neighbour sums are exact 64-bit integers in fixed
point, so the result is the dense path's, bit for bit (tests/test_fast_sim.py
checks it against the dense path and against the C). In float the sums'
rounding would depend on which zeros are added, hence: fixed point only.

The C firmware's grid (performance.grid) is its own code over the same
idea; the simulator uses this method whatever the spec says.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

# Below this many boids the dense (N x N) path is as fast; see BENCHMARKS.md.
DENSE_BELOW = 400
# Fixed-point positions must stay inside this (raw) for fx_sub never to wrap:
# then a pair's box test sees the same dx, dy as an unwrapped difference.
_SAFE_RAW = 1 << 30
# Cells of side box / SPLIT, searched SPLIT cells around: fewer pairs
# computed ((2 + 1/SPLIT)^2 box^2 per boid) for more, smaller calls.
SPLIT = 1
# A call's boids: a row's cells are merged until they hold this many.
MIN_BLOCK = 24


def usable(A, box, x, y, width, height) -> bool:
    """Whether the cell method gives exactly the dense result here."""
    if A.name != "fixed" or box is None:
        return False
    box = int(box)
    if box <= 0 or box >= max(width, height):
        return False  # nothing or everything is near: the dense path is as good
    if len(x) and (np.abs(x).max() >= _SAFE_RAW or np.abs(y).max() >= _SAFE_RAW):
        return False
    return True


def cell_layout(x, y, side: int, width: int, height: int):
    """(order, start, cols, rows): boid indices sorted by cell (row-major,
    stable), and start[c] .. start[c + 1] the positions in `order` of cell c.
    Cells have side `side` (raw), the last row and column possibly narrower."""
    cols = (width - 1) // side + 1
    rows = (height - 1) // side + 1
    cx = np.clip(x, 0, width - 1) // side
    cy = np.clip(y, 0, height - 1) // side
    cell = cy * cols + cx
    order = np.argsort(cell, kind="stable")
    counts = np.bincount(cell, minlength=cols * rows)
    start = np.zeros(cols * rows + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    return order, start, cols, rows


def step_cells(model, A, P, K, W, b: dict, box, width: int, height: int, split: int = SPLIT) -> dict:
    """One synchronous frame of all boids (b: field -> array, the
    arithmetic's units), cell by cell. Returns the new arrays, as `update`
    names them, in the boids' own order. Cells have side ceil(box / split),
    so a boid's box lies within `split` cells of its own on each axis."""
    n = len(b["x"])
    reach = int(split)
    side = -(-int(box) // reach)
    order, start, cols, rows = cell_layout(b["x"], b["y"], side, width, height)
    srt = {k: v[order] for k, v in b.items()}
    srt["idx"] = order
    out = {k: np.empty_like(v) for k, v in b.items()}
    calls = 0
    for gy in range(rows):
        row0 = gy * cols
        ry = range(max(gy - reach, 0), min(gy + reach, rows - 1) + 1)
        gx = 0
        while gx < cols:
            if start[row0 + gx + 1] == start[row0 + gx]:
                gx += 1
                continue
            # a block of this row's cells, widened while it holds few boids:
            # fewer calls of `update` for a few more pairs looked at
            ge = gx
            while ge + 1 < cols and start[row0 + ge + 1] - start[row0 + gx] < MIN_BLOCK:
                ge += 1
            lo, hi = int(start[row0 + gx]), int(start[row0 + ge + 1])
            x0, x1 = max(gx - reach, 0), min(ge + reach, cols - 1)
            spans = [(int(start[r * cols + x0]), int(start[r * cols + x1 + 1])) for r in ry]
            if len(spans) == 1:
                oth = SimpleNamespace(**{k: v[spans[0][0]:spans[0][1]] for k, v in srt.items()})
            else:
                oth = SimpleNamespace(**{k: np.concatenate([v[a:e] for a, e in spans]) for k, v in srt.items()})
            me = SimpleNamespace(**{k: v[lo:hi] for k, v in srt.items()})
            not_self = me.idx[:, None] != oth.idx[None, :]
            res = model.update(A, P, K, W, me, oth, not_self)
            for k in out:
                out[k][me.idx] = res[k]
            calls += 1
            gx = ge + 1
    assert n == 0 or calls, "every boid is in some cell"
    return out
