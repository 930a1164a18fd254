"""Each pair once (synchronous order): the pair loop visits every unordered
pair of boids one time, and the visit adds to both boids' sums.

A boid's `each` runs for every neighbour in range; in synchronous order every
boid reads only the previous frame, so the visit of (i, j) and the visit of
(j, i) read the same two boids. They are selected by the same test: the box
test and every zone and radius test read only |dx|, |dy| and d2, and dx, dy
of (j, i) are the wrapping negations of (i, j)'s, which have the same
absolute value and square (-2^31 included: its negation is itself). So the
loop visits j only after i (with the grid: the boid's band after it and the
band below, each within the box in x; without: j > i),
runs i's `each` as before, and then the same `each` from j's side (the
"mirror": self and other swapped, dx = other.x - x) into j's sums, which
wait in a ring of accumulators until j's own turn. Every sum is an integer
sum (64-bit exact, or 32-bit wrapping where widths.py proved it cannot
leave 32 bits), so the order of its terms does not change a bit of it: the
simulator keeps its one loop.

The ring: j's sums are live from i's visit until j's turn, so at most the
slots from the first boid that visits j to j; the ring holds RING(capacity)
of them, entry = slot masked. Without the grid, a flock of more than the
ring refuses the frame before anything is written, and boids_step runs
the full loop (boids_flock.c.j2).

With the grid, the bands tell before anything is written whose sums would
outlive the ring, and only those boids pay (boids_step_flagged, the once
copy's twin, run for such frames after the once copy sorted the bands and
refused). j's visitors are the band above's boids within the box in x
(their band-below window) and its own band's boids before it within the
box in x (their own-band window); w(j) is the first of the first kind,
else of the second, w2(j) the first of the second. j is flagged when
j - w(j) >= RING: the band above's visitors do not mirror into it (each
window's run over the flagged boids visits them from the visitor's side
only) and j visits the band above back, its own side only, over the same
candidates. When even j - w2(j) >= RING (`all`, among the flagged), its
own band does not mirror into it either, and it visits its own band
before it back too (with the window sums: the same body as the boids
after it, its window counting in-zone pairs both ways). A band's flagged
boids are kept as one run of slots, first to last: a boid between them
is flagged too, which only costs its visit back.

Each unordered pair {i, j}, i visiting j, is counted once for each side:
i's side in i's visit (every boid visits forward as before, into its own
sums), j's side either by i's mirror into j's entry (j not flagged by
i's kind of visit) or by j's visit back over exactly the boids of that
kind that visit it (the same box, zone and radius tests, which read only
|dx|, |dy| and d2), never both. The slots stay distinct: an entry is
written only by the visitors that still mirror into it, from W(j) on
(w(j), or w2(j) when only the band above is cut off, or none), and
W(j) > j - RING for every boid written to; so a boid k = j - m*RING before
j has had its turn (and cleared its entry) before j's first write, and
an entry nobody writes stays zero, which its boid reads as an empty start.
The sums are integer sums, so the order of their terms does not matter:
the simulator does not change. The full loop still runs where the guard
on the widths (guards.py) says so.

This module decides (refusal, the ring's size and its entry's layout, from
the rules' IR: codegen/lang/zone_groups.py) and records a RingPlan on
Lowered; codegen/targets/c/ring.py prints it.

Not for: sequential order (later boids see earlier boids' new state), a
`pick: nearest` group (its choice is not a sum), an `each` that reads
`index` (j's index is not at hand), a `before` that can `return` (that
boid visits no neighbours, but every other boid still visits it).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from codegen.boards import registry
from codegen.passes.pipeline import Pass
from codegen.lang.ir import If, Return
from codegen.lang.zone_groups import boid_bytes, zone_form

RING_BYTES = registry.target(registry.DEFAULT_BOARD).ring_bytes  # ring_size's default: the default board's
MAX_PLANES = 8


@dataclass(frozen=True)
class RingPlan:
    """The ring as decided: `size` entries, each `planes` (each a tuple of
    (bits, key): key ('count', group key) or ('sum', rule position, sum
    name)) of `plane_bytes` bytes; `by_address`: a plane is a boid_t, so a
    boid's entry is found from its address in `previous`."""
    size: int
    planes: tuple
    plane_bytes: int
    by_address: bool

    @property
    def entry_bytes(self) -> int:
        return self.plane_bytes * len(self.planes)


def ring_bytes(m) -> int:
    """The ring's most RAM: the least that any of the spec's boards allows (its record's ring_bytes: 8 KB of
    the PIC32MX250's 32, 20 KB of the RP2040's 264)."""
    return min(t.ring_bytes for t in registry.spec_targets(m.spec))


def _multiply_slots(m) -> bool:
    return all(t.multiply_slots for t in registry.spec_targets(m.spec))


def entry_padded(size: int, wide: bool, multiply: bool) -> int:
    """A one-plane entry's bytes: a power of two (its slot's address a shift), or where every board of the
    spec multiplies in one cycle (the RP2040's MULS) the next multiple of the entry's alignment (the slot's
    address one more cycle, and the RAM saved holds twice the boids: 40 B entries, not 64, for the default
    rules' 36 B; fewer boids flagged in a dense band)."""
    if multiply:
        return -(-size // 8) * 8 if wide else -(-size // 4) * 4
    p2 = 4
    while p2 < size:
        p2 *= 2
    return p2


def ring_size(capacity: int, entry: int = 32, most: int = RING_BYTES) -> int:
    """Accumulator sets in the ring: a power of two (the index is a mask),
    the capacity's if `most` bytes allow, else as many as fit in them."""
    r = 1
    while r < capacity and 2 * r * entry <= most:
        r *= 2
    return r


def _returns(stmts) -> bool:
    for s in stmts:
        if isinstance(s, Return):
            return True
        if isinstance(s, If) and (_returns(s.then) or _returns(s.orelse)):
            return True
    return False


def refusal(m) -> str | None:
    """Why the model's pair loop cannot visit each pair once (None: it can)."""
    if m.spec.update_order != "synchronous":
        return "sequential order: later boids see earlier boids' new state"
    form = zone_form(m.rules)
    if not form.groups:
        return "no pair loop"
    for g in form.groups:
        if g.nearest:
            return f"rule {m.rules[g.rules[0]].name} picks the nearest neighbour"
        for p in g.rules:
            if m.rules[p].ir.reads_each.index:
                return f"rule {m.rules[p].name}'s each reads index"
            if set(m.rules[p].ir.reads_each.other_fields) - {"x", "y", "vx", "vy"}:
                return f"rule {m.rules[p].name}'s each reads a neighbour's state (the mirror has no copy of it)"
    for r in m.rules:
        if _returns(r.ir.before):
            return f"rule {r.name}'s before can return"
    return None


def fields(m) -> list:
    """(bits, key) of one boid's ring entry: the 64-bit sums first (no
    holes), then the 32-bit sums and the zone counts."""
    form = zone_form(m.rules)
    wide, narrow = [], [(32, ("count", g.key)) for g in form.groups if g.counted]
    grouped = {p for g in form.groups for p in g.rules}
    for p, r in enumerate(m.rules):  # spec order
        if p in grouped:
            for s in r.ir.sums:
                (narrow if s.bits == 32 else wide).append((s.bits, ("sum", p, s.name)))
    return wide + narrow


def _bytes(fs) -> int:
    return sum(bits // 8 for bits, _ in fs)


def plan(m) -> RingPlan:
    """The ring of the model's fields. Planes of sizeof(boid_t) bytes, when
    that is a power of two: the boid's entry is then found from its address
    in `previous` (the printer's BOIDS_PAIR_ENTRY), and one base register
    and constant offsets reach every field (M4K: 3 fewer instructions each
    pair in range). Otherwise one plane: the entry, padded (entry_padded)."""
    fs, width = fields(m), boid_bytes(m.rules)
    out, cur = [], []
    for f in fs:
        if cur and _bytes(cur + [f]) > width:
            out.append(tuple(cur))
            cur = []
        cur.append(f)
    out.append(tuple(cur))
    if not width & (width - 1) and len(out) <= MAX_PLANES:
        planes, plane_bytes = tuple(out), width
    else:
        planes, plane_bytes = (tuple(fs),), entry_padded(_bytes(fs), any(b == 64 for b, _ in fs), _multiply_slots(m))
    return RingPlan(ring_size(m.spec.flock.capacity, plane_bytes * len(planes), ring_bytes(m)), planes, plane_bytes,
                    plane_bytes == width)


class PairsOnce(Pass):
    """pairs_once: the fast copy of the step visits every unordered pair
    once and adds the visit to both boids' sums, the other's through a ring
    of accumulators; with the grid, a boid that needs more ring than there
    is is flagged and visits back the boids that did not mirror into it,
    without it a frame that needs more runs the full loop (the pass records
    `refusal` and the RingPlan).

    Assumes: synchronous order, sums only (no nearest pick, no `index` in
    `each`, no `before` that returns). Preserves: every bit: every sum is an
    integer sum (64-bit exact or 32-bit wrapping), whose order of terms
    changes nothing; the simulator keeps its one loop."""
    name = "pairs_once"
    stage = "c"

    def apply(self, low):
        m = low.fast_m
        why = refusal(m)
        return replace(low, once=True, refusal=why, ring=None if why else plan(m))
