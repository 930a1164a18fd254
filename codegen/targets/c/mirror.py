"""Each pair once (codegen/passes/pairs_once.py), printed: the zone's visit
from the other boid's side, into the other's ring entry (ring.py)."""
from __future__ import annotations

from codegen.targets.c import ring
from codegen.targets.c.expr import block
from codegen.targets.c.names import RuleNames, finish, ind, wrap


def mirror(plan, groups: list, count_op: str = "++") -> list:
    """The zone's visit from the other boid's side, into its ring entry
    (count_op "--": window.py's corrections, the rules negated)."""
    body = []
    for g in groups:
        if g.count:
            body.append(f"{ring.ref(plan, 'q', g.count)}{count_op};")
        for r in g.rules:
            lines = block(r.ir.each, plan.locals_of(r, "each"), RuleNames(plan, r, "each", "mirror"))
            body += finish(wrap(lines, r.name), r.prefix)
    if not body:
        return []
    if plan.mirror_sched:  # a target's scheduling, as its pass recorded it (PIC32: ring_sched)
        body = plan.mirror_sched(plan, body, dict((n, t) for t, n in ring.fields(plan)))
    pair = set()
    for g in groups:
        for r in g.rules:
            pair |= r.ir.reads_each.pair
    head = ["/* the other's sums (each pair once) */"] + ring.pointers(plan, "q", "o", body)
    want = [v for v in ("dx", "dy") if v in pair or "dist" in pair]
    if want:
        head.append("const fx " + ", ".join(f"m{v} = fx_sub(o->{v[1]}, {v[1]})" for v in want) + ";")
    if "dist" in pair:
        head.append("const fx mdist = fx_hypot(mdx, mdy);")
    return ["{"] + ind(head + body) + ["}"]
