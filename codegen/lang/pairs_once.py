"""Each pair once (synchronous order): the pair loop visits every unordered
pair of boids one time, and the visit adds to both boids' sums.

A boid's `each` runs for every neighbour in range; in synchronous order every
boid reads only the previous frame, so the visit of (i, j) and the visit of
(j, i) read the same two boids. They are selected by the same test: the box
test and every zone and radius test read only |dx|, |dy| and d2, and dx, dy
of (j, i) are the wrapping negations of (i, j)'s, which have the same
absolute value and square (-2^31 included: its negation is itself). So the
loop visits j only after i (the forward half of the 3 x 3 cells, or j > i),
runs i's `each` as before, and then the same `each` from j's side (the
"mirror": self and other swapped, dx = other.x - x) into j's sums, which
wait in a ring of accumulators until j's own turn. Every sum is an integer
sum (64-bit exact, or 32-bit wrapping where widths.py proved it cannot
leave 32 bits), so the order of its terms does not change a bit of it: the
simulator keeps its one loop.

The ring: j's sums are live from i's visit until j's turn, so at most the
slots from the boid being updated to the end of its forward cells; the ring
holds RING(capacity) of them. When a frame's flock needs more (the grid's
counts tell before anything is written), the copy refuses and boids_step
runs the full loop (boids_flock.c.j2).

Not for: sequential order (later boids see earlier boids' new state), a
`pick: nearest` group (its choice is not a sum), an `each` that reads
`index` (j's index is not at hand), a `before` that can `return` (that
boid visits no neighbours, but every other boid still visits it).
"""
from __future__ import annotations

from .emit_c_expr import block
from .emit_c_names import finish, ind, wrap
from .ir import If, Return

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


def _field_bytes(plan) -> int:
    return sum(8 if t == "fx_acc" else 4 for t, _ in fields(plan))


def entry_bytes(plan) -> int:
    return _field_bytes(plan) + 4 * entry_pad(plan)


def entry_pad(plan) -> int:
    """32-bit words that round the entry up to a power of two bytes, so a
    slot's entry is a shift of its offset, not a multiply (M4K: 2 fewer
    instructions each pair in range)."""
    size = _field_bytes(plan)
    p2 = 4
    while p2 < size:
        p2 *= 2
    return (p2 - size) // 4


def boid_decls(plan, slot: str) -> list:
    """The boid's counts and sums, started from what earlier boids' visits
    left in its ring entry, which is then cleared for a later slot."""
    out = [f"pair_acc_t *const a = &pair_acc[({slot}) & (BOIDS_PAIR_RING - 1)];"]
    if not plan.start_locals and any(r.ir.reads_each.other_fields for g in plan.groups.values() for r in g.rules):
        out.append(f"const boid_t *const me = others + {slot}; /* the boid as the others read it */")
    out += [f"{ctype} {name} = a->{name};" for ctype, name in fields(plan)]
    out += [f"a->{name} = 0;" for _, name in fields(plan)]
    return out


def mirror(plan, groups: list) -> list:
    """The zone's visit from the other boid's side, into its ring entry."""
    from .emit_c_names import RuleNames

    body = []
    for g in groups:
        if g.count:
            body.append(f"q->{g.count}++;")
        for r in g.rules:
            lines = block(r.ir.each, plan.locals_of(r, "each"), RuleNames(plan, r, "each", "mirror"))
            body += finish(wrap(lines, r.name), r.prefix)
    if not body:
        return []
    pair = set()
    for g in groups:
        for r in g.rules:
            pair |= r.ir.reads_each.pair
    head = ["/* the other's sums (each pair once) */",
            "pair_acc_t *const q = &pair_acc[(o - others) & (BOIDS_PAIR_RING - 1)];"]
    want = [v for v in ("dx", "dy") if v in pair or "dist" in pair]
    if want:
        head.append("const fx " + ", ".join(f"m{v} = fx_sub(o->{v[1]}, {v[1]})" for v in want) + ";")
    if "dist" in pair:
        head.append("const fx mdist = fx_hypot(mdx, mdy);")
    return ["{"] + ind(head + body) + ["}"]


def typedef(plan) -> list:
    """The ring's entry type and the ring (boids_flock.c)."""
    fs = fields(plan)
    pad = [f"    uint32_t pad[{entry_pad(plan)}]; /* a power of two bytes */"] if entry_pad(plan) else []
    return ([f"typedef struct {{ /* entry: {entry_bytes(plan)} B */"] + [f"    {t} {n};" for t, n in fs] + pad
            + ["} pair_acc_t;", "static pair_acc_t pair_acc[BOIDS_PAIR_RING];"])
