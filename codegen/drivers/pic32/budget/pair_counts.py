"""How many pairs one frame's pair loop visits, for `budget --profile`:
counted in Python on the warmed-up state the budget's images load
(firmware_runtime/pic32/budget/budget_state.h: a header, flock_t, rng_t,
boids_params_t), with the box, the ranges and the grid read from the
generated code:

- candidates: the pairs the loop visits (brute force: every other boid;
  grid: the other boids of the band and the bands above and below within
  the box in x, the windows of boids_step's sort by band and x);
- in box: the candidates inside the +/- box square (the box test passes);
- in range: inside the largest range (d2 < range^2: a neighbour of some
  rule), and of those inside the smallest (the protected range).

Counted on the frame's starting positions: exact for synchronous order; in
sequential order the pair loop sees the boids already moved this frame
(each by at most max_speed), so its counts differ by a little.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HEADER = struct.Struct("<5I")


@dataclass
class PairCounts:
    n: int
    candidates: int
    in_box: int
    in_range: int
    protected: int
    once: bool = False  # each pair once (codegen/passes/pairs_once.py): the loop visits half the ordered pairs

    def per_boid(self, k: int) -> float:
        return k / max(self.n, 1)


def _params(fw: Path) -> list[str]:
    text = (fw / "boids_params.h").read_text()
    m = re.search(r"typedef struct \{(.*?)\} boids_params_t;", text, re.S)
    return re.findall(r"^\s*fx (\w+);", m.group(1), re.M) if m else []


def pair_counts(state: Path, fw: Path) -> PairCounts:
    flock_h = (fw / "boids_flock.h").read_text()
    code = (fw / "boids_flock.c").read_text()
    mb = re.search(r"typedef struct \{\s*fx ([\w, ]+);\s*\} boid_t;", flock_h)
    if not mb or not re.search(r"typedef struct \{\s*int32_t count;\s*boid_t b\[", flock_h):
        raise ValueError("boids_flock.h: flock_t is not {count, b[]} of fx fields")
    fields = [f.strip() for f in mb.group(1).split(",")]
    raw = state.read_bytes()
    _magic, fsize, rsize, psize, _h = HEADER.unpack_from(raw, 0)
    off = HEADER.size
    n = struct.unpack_from("<i", raw, off)[0]
    b = np.frombuffer(raw, dtype="<i4", count=n * len(fields), offset=off + 4).reshape(n, len(fields)).astype(np.int64)
    x, y = b[:, fields.index("x")], b[:, fields.index("y")]
    pnames = _params(fw)
    pvals = dict(zip(pnames, struct.unpack_from(f"<{len(pnames)}i", raw, off + fsize + rsize)))
    mbox = re.search(r"const fx seed_box = P->(\w+);", code) or re.search(r"fx box = P->(\w+);", code)
    box = pvals[mbox.group(1)]
    # the ranges: squared (fx_sq64), or the zones' radii fx_d2_zones takes (codegen/passes/zones.py zones_in_hilo)
    rnames = set(re.findall(r"fx_sq64\(P->(\w+)\)", code))
    for pr, vr in re.findall(r"const fx \w+ = P->(\w+), \w+ = fx_sub\(P->(\w+), \w+\)", code):
        rnames |= {pr, vr}
    ranges = sorted(pvals[p] for p in rnames)
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    off_diag = ~np.eye(n, dtype=bool)
    inbox = (np.abs(dx) < box) & (np.abs(dy) < box) & off_diag
    d2 = dx * dx + dy * dy
    in_range = inbox & (d2 < ranges[-1] ** 2) if ranges else inbox
    prot = inbox & (d2 < ranges[0] ** 2) if ranges else np.zeros_like(inbox)
    mring = re.search(r"#define BOIDS_PAIR_RING (\d+)", code)  # each pair once (pairs_once.py)
    ring = int(mring.group(1)) if mring else None
    mcell = re.search(r"#define BOIDS_GRID_MIN_CELL_FX \(\(fx\)(\d+)\)", flock_h)
    if mcell and "band_sort" in code:
        h = int(re.search(r"#define BOIDS_HEIGHT_FX \(\(fx\)(\d+)\)", flock_h).group(1))
        cell = max(box, int(mcell.group(1)))
        rows = h // cell + 2 if h >= cell else 1  # flock_grid.j2's grid_band: the screen's bands (the last to
        gy = np.where(y < 0, 0, np.where(y >= h, rows - 1, np.minimum(1 + y // cell, rows - 2)))  # the height), one
        gy = gy if rows > 1 else np.zeros_like(y)  # off each edge; a screen less than a cell tall: one band
        near = (np.abs(gy[:, None] - gy[None, :]) <= 1) & (np.abs(dx) < box) & off_diag
        cand = int(near.sum())
        once = ring is not None and _ring_holds(x, gy, rows, box, ring)
    else:
        cand = n * (n - 1)
        once = ring is not None and n <= ring
    return PairCounts(n, cand, int(inbox.sum()), int(in_range.sum()), int(prot.sum()), once)


def _ring_holds(x, gy, rows: int, box: int, ring: int) -> bool:
    """boids_flock.c.j2's check (ties in x aside): every boid's ring entry
    is live from the first boid of the band above within the box in x (else
    of its own band) to the boid itself, fewer than `ring` slots."""
    order = np.lexsort((x, gy))
    xs, bs = x[order], gy[order]
    starts = np.searchsorted(bs, np.arange(rows + 1))
    for b in range(rows):
        p0, p1, e = (starts[b - 1] if b else starts[b]), starts[b], starts[b + 1]
        if e - p0 <= ring:
            continue
        w, w2 = p0, p1
        for s in range(p1, e):
            while w < p1 and xs[s] - xs[w] >= box:
                w += 1
            while w2 < s and xs[s] - xs[w2] >= box:
                w2 += 1
            if s - (w if w < p1 else w2) >= ring:
                return False
    return True
