"""The synchronous update split in two parts (firmware_runtime/core/split.h:
the RP2040's two cores; the host's two-thread build; one after the other
elsewhere), printed into boids_flock.c when wants_split says so.

Exact because every boid reads the previous frame: the grid's bands split
at one band (chosen a frame by the boids each part updates), each part
writes only its own boids, and each part has its own band windows and
(each pair once) its own ring of sums. Each pair once visits the band
below a boid's, so the second part first walks the band before its own,
keeping only those visits' sums for its first band. A frame whose sums
outlive a ring runs the flagged twin (pairs_once.py), split the same way:
the frame flags each band's boids once, each part reads its own bands'
runs (band_win's part offset), and the band walked before the second part
does not visit back (its sums are the first part's).

Printed only for a spec whose board.target names a board with a second
core (its record's `cores`: the RP2040; every other spec's output stays as it was), in
synchronous order with the grid. The own band's window sums
(window_sums.py) slide along a band like the band windows, so each part has
its own."""
from __future__ import annotations

from codegen.boards import registry

PARTS = 2


def wants_split(m, *copies) -> bool:
    """Whether the step copies (FlockC, each one the step prints) get the two-part update."""
    if all(t.cores < 2 for t in registry.spec_targets(m.spec)) or m.spec.update_order != "synchronous":
        return False
    live = [c for c in copies if c is not None]
    return bool(live) and all(c.grid for c in live)


def ring_lines(lines: list) -> list:
    """The ring's typedef lines (ring.typedef) with one ring a part: the step's
    `ring` (the part's) in place of the one ring."""
    out = []
    for ln in lines:
        if ln == "static pair_ring_t pair_ring;":
            ln = f"static pair_ring_t pair_ring[{PARTS}]; /* one a part (split.h): the step's ring is its part's */"
        out.append(ln.replace("(char *)&pair_ring + ", "(char *)ring + ").replace("&pair_ring.plane0[", "&ring->plane0["))
    return out


def window_lines(lines: list) -> list:
    """The window's printed lines (window.py: struct, reset, walk) with one window a part: the band
    windows' part offset `wk` (flock_step_grid.j2) and the part's running sums."""
    out = []
    for ln in lines:
        if ln == "} band_sums;":
            ln = f"}} band_sums[{PARTS}]; /* one a part (split.h) */"
        for k in ("end", "hi", "lo"):
            ln = ln.replace(f"band_win.{k}[1]", f"band_win.{k}[wk + 1]")
        out.append(ln.replace("band_sums.", "band_sums[part > 0]."))
    return out
