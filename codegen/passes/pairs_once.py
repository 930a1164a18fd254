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
of them. When a frame's flock needs more (the grid's bands tell before
anything is written), the copy refuses and boids_step runs the full loop
(boids_flock.c.j2).

Not for: sequential order (later boids see earlier boids' new state), a
`pick: nearest` group (its choice is not a sum), an `each` that reads
`index` (j's index is not at hand), a `before` that can `return` (that
boid visits no neighbours, but every other boid still visits it).
"""
from __future__ import annotations

from dataclasses import replace

from codegen.passes.pipeline import Pass
from codegen.lang.ir import If, Return

RING_BYTES = 8192  # the ring's most RAM: 256 entries of the default rules' 32 B


def ring_size(capacity: int, entry: int = 32) -> int:
    """Accumulator sets in the ring: a power of two (the index is a mask),
    the capacity's if RING_BYTES allows, else as many as fit in it."""
    r = 1
    while r < capacity and 2 * r * entry <= RING_BYTES:
        r *= 2
    return r


def _returns(stmts) -> bool:
    for s in stmts:
        if isinstance(s, Return):
            return True
        if isinstance(s, If) and (_returns(s.then) or _returns(s.orelse)):
            return True
    return False


def refusal(plan) -> str | None:
    """Why the spec's pair loop cannot visit each pair once (None: it can)."""
    if plan.m.spec.update_order != "synchronous":
        return "sequential order: later boids see earlier boids' new state"
    if not plan.has_pairs:
        return "no pair loop"
    for g in plan.groups.values():
        if g.near:
            return f"rule {g.rules[0].name} picks the nearest neighbour"
        for r in g.rules:
            if r.ir.reads_each.index:
                return f"rule {r.name}'s each reads index"
    for r in plan.rules:
        if _returns(r.ir.before):
            return f"rule {r.name}'s before can return"
    return None


def fields(plan) -> list:
    """(C type, name) of one boid's ring entry: the 64-bit sums first (no
    holes), then the 32-bit sums and the zone counts."""
    wide, narrow = [], [("int32_t", g.count) for g in plan.groups.values() if g.count]
    for r in plan.rules:
        if r.group is None:
            continue
        for s in r.ir.sums:
            (narrow if s.bits == 32 else wide).append(("fx_acc32" if s.bits == 32 else "fx_acc", r.sums[s.name]))
    return wide + narrow


def _bytes(fs) -> int:
    return sum(8 if t == "fx_acc" else 4 for t, _ in fs)


def boid_bytes(plan) -> int:
    """sizeof(boid_t): x, y, vx, vy and the rules' state, 4 bytes each."""
    return 4 * (4 + len(plan.state))


MAX_PLANES = 8


def layout(plan) -> tuple:
    """(planes, a plane's bytes) of the entry. Planes of sizeof(boid_t)
    bytes, when that is a power of two: the boid's entry is then found from
    its address in `previous` (typedef's BOIDS_PAIR_ENTRY), and one base
    register and constant offsets reach every field (M4K: 3 fewer
    instructions each pair in range). Otherwise one plane: the entry, padded
    to a power of two bytes (a shift of the slot, not a multiply)."""
    fs, width = fields(plan), boid_bytes(plan)
    out, cur = [], []
    for f in fs:
        if cur and _bytes(cur + [f]) > width:
            out.append(cur)
            cur = []
        cur.append(f)
    out.append(cur)
    if not width & (width - 1) and len(out) <= MAX_PLANES:
        return out, width
    p2 = 4
    while p2 < _bytes(fs):
        p2 *= 2
    return [fs], p2


def planes(plan) -> list:
    return layout(plan)[0]


def by_address(plan) -> bool:
    return layout(plan)[1] == boid_bytes(plan)


def entry_bytes(plan) -> int:
    pl, width = layout(plan)
    return width * len(pl)


def plane_of(plan) -> dict:
    """Field name -> its plane."""
    return {n: k for k, pl in enumerate(planes(plan)) for _, n in pl}


def ref(plan, who: str, name: str) -> str:
    """A field of the entry `who` (a: the boid's own, q: the other's)."""
    return f"{who}{plane_of(plan)[name]}->{name}"


def pointers(plan, who: str, at: str, lines: list) -> list:
    """The entry's plane pointers the lines use, all from one address: each
    plane at a constant offset from it, one base register in the loop."""
    used = [k for k in range(len(planes(plan))) if any(f"{who}{k}->" in ln for ln in lines)]
    if not used:
        return []
    return [f"char *const {who} = BOIDS_PAIR_ENTRY({at});"] + [
        f"pair_plane{k}_t *const {who}{k} = BOIDS_PAIR_PLANE({k}, {who});" for k in used]


def boid_decls(plan, at: str) -> list:
    """The boid's counts and sums, started from what earlier boids' visits
    left in its ring entry, which is then cleared for a later slot. `at`:
    the boid's address in `others` (the grid's loop walks it as `me`)."""
    out = []
    if at != "me" and not plan.start_locals and any(r.ir.reads_each.other_fields
                                                    for g in plan.groups.values() for r in g.rules):
        out.append(f"const boid_t *const me = {at}; /* the boid as the others read it */")
    out += [f"{ctype} {name} = {ref(plan, 'a', name)};" for ctype, name in fields(plan)]
    out += [f"{ref(plan, 'a', name)} = 0;" for _, name in fields(plan)]
    return pointers(plan, "a", at, out) + out


def typedef(plan) -> list:
    """The ring's planes, the ring, and the address of a boid's entry (boids_flock.c)."""
    pls, width = layout(plan)
    out = []
    for k, pl in enumerate(pls):
        pad = (width - _bytes(pl)) // 4
        out += ([f"typedef struct {{ /* plane {k}: {width} B */"] + [f"    {t} {n};" for t, n in pl]
                + ([f"    uint32_t pad[{pad}];"] if pad else []) + [f"}} pair_plane{k}_t;"])
    arrays = " ".join(f"pair_plane{k}_t plane{k}[BOIDS_PAIR_RING];" for k in range(len(pls)))
    out += [f"typedef struct {{ /* entry: {entry_bytes(plan)} B */ {arrays} }} pair_ring_t;",
            "static pair_ring_t pair_ring;",
            "#define BOIDS_PAIR_PLANE(k, e) ((pair_plane##k##_t *)((e) + offsetof(pair_ring_t, plane##k)))"]
    if by_address(plan):
        out += ["/* the entry of the boid at `at` in `previous`: its address masked to the",
                " * ring, so slot s gets (floor(&previous[0] / sizeof(boid_t)) + s) mod",
                " * BOIDS_PAIR_RING, distinct for any BOIDS_PAIR_RING slots in a row */",
                "#define BOIDS_PAIR_ENTRY(at) ((char *)&pair_ring + ((uintptr_t)(at) & ((BOIDS_PAIR_RING - 1u) * sizeof(boid_t))))",
                "typedef char pair_plane_is_a_boid[sizeof(pair_plane0_t) == sizeof(boid_t) ? 1 : -1];"]
    else:
        out += ["/* the entry of the boid at `at` in `previous`: its slot in the ring */",
                "#define BOIDS_PAIR_ENTRY(at) ((char *)&pair_ring.plane0[((at) - others) & (BOIDS_PAIR_RING - 1)])"]
    return out


class PairsOnce(Pass):
    """pairs_once: the fast copy of the step visits every unordered pair
    once and adds the visit to both boids' sums, the other's through a ring
    of accumulators; a frame that needs more ring than there is runs the
    full loop (the printer asks `refusal` whether the rules allow it).

    Assumes: synchronous order, sums only (no nearest pick, no `index` in
    `each`, no `before` that returns). Preserves: every bit: every sum is an
    integer sum (64-bit exact or 32-bit wrapping), whose order of terms
    changes nothing; the simulator keeps its one loop."""
    name = "pairs_once"
    stage = "c"

    def apply(self, low):
        return replace(low, once=True)
