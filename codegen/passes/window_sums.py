"""The grid's own band by its window's sums (issue 16; each pair once).

In the once-only loop (pairs_once.py) a pair in range adds to both boids'
sums: the boid's in registers, the other's through the ring, a load, an add
and a store a field. In its own band a boid's in-range neighbours are
nearly all of its window, the band's boids within the box in x (94 % of the
default flock's at 500 boids): the rest are outside the zone's circle, in
an inner zone, or (edge bands) outside the box in y. So for one zone group
whose every statement of `each` adds a field of the other boid to a 32-bit
sum (`sum = fx_add(sum, o->vx)`, the count `n++`), the own band is summed
the other way round:

- the window's sums slide along the band: the band's boids are sorted by x,
  so the window's ends only move forward; a boid entering adds its fields,
  one leaving subtracts them (`band_sums`, flock_grid.j2), the boid's own
  fields are in it and are taken out again, and the count is the window's
  length less one;
- the pair loop still visits the band after the boid (each pair once); a
  pair in the group's zone does nothing more for the group (its branch
  ends the visit), every other pair takes the window's terms back on both
  sides (`corrections`: the same `each`, subtracted).

Every pair of the window counted once from each side, less every pair out
of the zone from each side: the sums of exactly the pairs in the zone, as
before. They are 32-bit wrapping sums, so terms added and taken back
cancel modulo 2^32 whatever their order, and the simulator keeps its loop.
A pair of the band below (or above) keeps the ring's path: about half its
candidates are out of range there, and a correction costs what a term
costs.

The group's test must end the pair loop's body (the seed's zone chain with
no radius zone after it, or the last radius zone): its branch ends the
visit with `continue`. Not for 64-bit sums (the window's running sums
would be 64-bit too) or an `each` that does anything else.
"""
from __future__ import annotations

from dataclasses import replace

from codegen.passes.pipeline import Pass
from codegen.targets.c import pairs as emit_c_pairs
from codegen.passes import pairs_once
from codegen.lang.ir import Accumulate, Ref, Type
from codegen.targets.c.mirror import mirror

_FLIP = {"acc32_add": "acc32_sub", "acc32_sub": "acc32_add"}


def terms(g) -> list | None:
    """(rule, sum, field, sign) of each statement of the group's `each`, if
    every one adds or subtracts a fixed-point field of the other boid to a
    32-bit sum (None: the group does not qualify)."""
    out = []
    for r in g.rules:
        for st in r.ir.each:
            v = getattr(st, "value", None)
            if not (isinstance(st, Accumulate) and st.op in _FLIP and isinstance(v, Ref) and v.kind == "other"
                    and v.type == Type.FIXED):
                return None
            out.append((r, st.sum, v.name, 1 if st.op == "acc32_add" else -1))
    return out


def group(plan):
    """The zone group the own band sums by its window (None: none)."""
    if not (plan.once and plan.grid):
        return None
    if plan.radius:
        p, coincident = plan.radius[-1]
        last = [g for g in plan.groups.values() if g.key[0] == ("radius", p, coincident)]
    else:
        last = [g for g in plan.groups.values() if g.key[0][0] == "seed"]
    best = None
    for g in last:
        t = None if g.near else terms(g)
        if t and (best is None or len(t) > len(best[1])):
            best = (g, t)
    return best[0] if best else None


def fields(g) -> list:
    """The other's fields the group's sums read, once each."""
    return list(dict.fromkeys(f for _, _, f, _ in terms(g)))


def struct(g) -> list:
    """The window's running sums (flock_grid.j2), kept in memory between
    boids like band_win."""
    return ["static volatile struct {", f"    fx {', '.join(fields(g))};", "} band_sums;"]


def reset(g) -> list:
    """At a band's start: an empty window."""
    return [" = ".join(f"band_sums.{f}" for f in fields(g)) + " = 0;"]


def walk(plan, g) -> list:
    """Per boid: the own band's window slid to the boid's x (o_end: its end,
    the once-only loop's too), and its sums, the boid's own taken out, added
    to the boid's group sums and count."""
    fs = fields(g)
    win = {f: plan.alloc_name(f"win_{f}") for f in fs}

    def step(sign: str, at: str) -> list:
        return [f"    {win[f]} = fx_{sign}({win[f]}, {at}->{f});" for f in fs]

    # the boid enters its window first (a band's first boid; any, were box <= 0), so
    # the window holds it and lo stops there
    out = ["const boid_t *const w_end = band_win.end[1];",
           "const boid_t *o_end = band_win.hi[1], *lo = band_win.lo[1];",
           "fx " + ", ".join(f"{win[f]} = band_sums.{f}" for f in fs) + ";",
           "if (o_end == me) {"]
    out += step("add", "o_end") + ["    o_end++;", "}", "for (; o_end != w_end && fx_sub(o_end->x, x) < box; o_end++) {"]
    out += step("add", "o_end") + ["}", "for (; lo != me && fx_sub(x, lo->x) >= box; lo++) {"]
    out += step("sub", "lo") + ["}", "band_win.hi[1] = o_end;", "band_win.lo[1] = lo;"]
    out += [f"band_sums.{f} = {win[f]};" for f in fs]
    if g.count:
        out.append(f"{g.count} += (int32_t)(o_end - lo) - 1; /* the window less the boid */")
    for r, s, f, sign in terms(g):
        c = r.sums[s]
        own = f if plan.start_locals and f in ("x", "y", "vx", "vy") else f"me->{f}"  # as the mirror reads it
        out.append(f"{c} = fx_{'add' if sign > 0 else 'sub'}({c}, fx_sub({win[f]}, {own}));")
    return out


def _negated(r):
    """The rule with its `each` subtracting what it added (and back)."""
    each = tuple(replace(st, op=_FLIP[st.op]) for st in r.ir.each)
    return replace(r, ir=replace(r.ir, each=each))


def corrections(plan, g) -> list:
    """A visited pair of the own band out of the group's zone: the window's
    terms taken back from the boid's sums and from the other's ring entry."""
    rules = [_negated(r) for r in g.rules]
    body = [f"{g.count}--;"] if g.count else []
    for r in rules:
        body += emit_c_pairs.each(plan, r)
    body = (emit_c_pairs.loads_ahead(body) if plan.hints else []) + body
    return ["/* out of the zone: the window counted it, taken back on both sides */"] + body + \
        mirror(plan, [replace(g, rules=rules)], count_op="--")


def report(fast, guard=None) -> list:
    """`boidsgen check`'s lines on the pair loop's shape, for the fast copy's
    FlockC (`guard`: guards.py's, when that copy is the guarded one): each
    pair once or why not, and which group (if any) the own band sums by its
    window."""
    if not fast.has_pairs:
        return []
    why = pairs_once.refusal(fast)
    if why:
        return [f"pair loop: every pair from both sides (each pair once: not for {why}; codegen/passes/pairs_once.py)"]
    if not fast.once:
        return ["pair loop: every pair from both sides (performance.optimize: plain: none of the target's passes; "
                "codegen/targets/pic32/pass_list.py)"]
    out = [f"pair loop: each pair once, the other boid's sums through a ring of {fast.ring} entries of "
           f"{pairs_once.entry_bytes(fast)} B (codegen/passes/pairs_once.py)"
           + (f"; in the guarded copy ({guard.param} <= its bound)" if guard else "")
           + ("; a frame whose flock needs more runs the full loop" if fast.refuses else "")]
    if not fast.grid:
        return out
    if fast.apart:
        out.append(f"  pairs apart by x (the own band) or y (the band below) at least "
                   f"{fast.zone_range['protected']} skip the protected zone's test (codegen/targets/c/pairs.py)")
    elif {"protected", "visual"} <= set(fast.zone_range):
        out.append(f"  every pair takes the protected zone's test: {fast.zone_range['protected']}'s range "
                   f"reaches below 0 (codegen/targets/c/pairs.py)")
    g = fast.window
    if g is None:
        out.append("  the own band pair by pair: no zone group's each only adds the other boid's fields to "
                   "32-bit sums (codegen/passes/window_sums.py)")
        return out
    sums = [f"{r.name}.{s}" for r, s, _, _ in terms(g)] + ([f"its count {g.count}"] if g.count else [])
    out.append(f"  the own band by its window's sums: the {g.name} zone's {', '.join(sums)}; a pair of the "
               f"band touches them only when out of the zone, to take its terms back (codegen/passes/window_sums.py)")
    return out


class WindowSums(Pass):
    """window_sums: in the once-only grid loop, one zone group's own-band
    sums come from the band window's running sums, less the pairs of the
    window out of the zone (the printer picks the group: `group`).

    Assumes: pairs_once and the grid; a group whose every `each` statement
    adds a fixed-point field of the other boid to a 32-bit sum. Preserves:
    every bit: 32-bit wrapping sums, terms added and taken back cancel
    modulo 2^32 in any order."""
    name = "window_sums"
    stage = "c"
