"""Each pair once (codegen/passes/pairs_once.py), printed: the zone's visit
from the other boid's side, into the other's ring entry."""
from __future__ import annotations

from codegen.passes import pairs_once
from codegen.passes.ring_sched import pipelined
from codegen.targets.c.expr import block
from codegen.targets.c.names import RuleNames, finish, ind, wrap


def mirror(plan, groups: list, count_op: str = "++") -> list:
    """The zone's visit from the other boid's side, into its ring entry
    (count_op "--": window_sums.py's corrections, the rules negated)."""
    body = []
    for g in groups:
        if g.count:
            body.append(f"{pairs_once.ref(plan, 'q', g.count)}{count_op};")
        for r in g.rules:
            lines = block(r.ir.each, plan.locals_of(r, "each"), RuleNames(plan, r, "each", "mirror"))
            body += finish(wrap(lines, r.name), r.prefix)
    if not body:
        return []
    if "ring_sched" in plan.on:  # GCC -O1's scheduling (ring_sched.py)
        body = pipelined(plan, body, dict((n, t) for t, n in pairs_once.fields(plan)))
    pair = set()
    for g in groups:
        for r in g.rules:
            pair |= r.ir.reads_each.pair
    head = ["/* the other's sums (each pair once) */"] + pairs_once.pointers(plan, "q", "o", body)
    want = [v for v in ("dx", "dy") if v in pair or "dist" in pair]
    if want:
        head.append("const fx " + ", ".join(f"m{v} = fx_sub(o->{v[1]}, {v[1]})" for v in want) + ";")
    if "dist" in pair:
        head.append("const fx mdist = fx_hypot(mdx, mdy);")
    return ["{"] + ind(head + body) + ["}"]
