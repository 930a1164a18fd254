"""The C emitter's loops (codegen/targets/c/emit.py): the fused pair loop over
boids built from the rules' `neighbours` (the seed's zone chain, one test per
radius zone (within, coincident), pick nearest), and a rule's own loop over
predators, obstacles or food, run at its turn just before its apply.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from codegen.targets.c.mirror import mirror
from codegen.targets.c.expr import block
from codegen.targets.c.names import KINDS, MOVER_KIND, Rule, RuleNames, finish, ind, offsets, ph, then, wrap


@dataclass
class Group:
    """Rules of one pair-loop test over boids that share a count."""
    key: tuple  # (test, coincident, pick); test: ('seed', zone) | ('radius', param, coincident)
    name: str  # for its variables: visual, protected, r_<p>, in_<p>, ...
    rules: list = field(default_factory=list)
    count: str | None = None
    near: str | None = None  # pick nearest: the nearest's slot (-1: none yet)
    near_d2: str | None = None  # and its squared distance


def entity_rule(plan, r: Rule, where: str = "boid") -> list:
    """A rule over predators, obstacles or food at its turn: its own loop
    over the kind, then its apply. `where`: predator or food for a mover's
    own rule (predators_step, food_step: MOVER_KIND), whose kind may be boids
    or its own (the mover `p` itself skipped)."""
    nb = r.ir.neighbours
    arr, cnt, elem = KINDS[nb.of]
    pair = r.ir.reads_each.pair
    own = ["o != p"] if MOVER_KIND.get(where) == nb.of else []
    test = (["d2 != 0"] if not nb.coincident else []) + (["d2 < r2"] if nb.within else [])
    need_d2 = bool(test) or "d2" in pair
    test = own + test
    each_lines = block(r.ir.each, plan.locals_of(r, "each"), RuleNames(plan, r, "each", "entity"))
    out = []
    if r.ir.sums:
        out.append("fx_acc " + ", ".join(f"{ph('sum', s.name)} = 0" for s in r.ir.sums) + ";")
    if nb.pick == "nearest":
        out.append("int32_t k, k_best = -1;" if not r.count else f"int32_t k, k_best = -1, {r.count} = 0;")
        out.append("uint64_t d2_best = " + (f"fx_sq64(P->{r.refs[nb.within]});" if nb.within else "UINT64_MAX;"))
        out.append(f"for (k = 0; k < f->{cnt}; k++) {{")
        out.append(f"    const {elem} *o = &f->{arr}[k];")
        out.append("    const uint64_t d2 = fx_d2(fx_sub(x, o->x), fx_sub(y, o->y));")
        out.append(f"    if ({' && '.join(own + (['d2 != 0'] if not nb.coincident else []) + ['d2 < d2_best'])}) {{")
        out += ["        d2_best = d2;", "        k_best = k;", "    }", "}"]
        body = [f"const {elem} *o = &f->{arr}[k_best];"] + offsets(pair, False)
        if "d2" in pair:
            body.append("const uint64_t d2 = d2_best;")
        if "dist" in pair:
            body.append("const fx dist = fx_hypot(dx, dy);")
        if r.count:
            body.append(f"{r.count} = 1;")
        out += ["if (k_best >= 0) {"] + ind(then(body, each_lines)) + ["}"]
    else:
        out.append(f"int32_t k{', ' + r.count + ' = 0' if r.count else ''};")
        if nb.within:
            out.append(f"const uint64_t r2 = fx_sq64(P->{r.refs[nb.within]});")
        out.append(f"for (k = 0; k < f->{cnt}; k++) {{")
        loop = [f"const {elem} *o = &f->{arr}[k];"] + offsets(pair, need_d2)
        if need_d2:
            loop.append("const uint64_t d2 = fx_d2(dx, dy);")
        inner = []
        if "dist" in pair:
            inner.append("const fx dist = fx_hypot(dx, dy);")
        if r.count:
            inner.append(f"{r.count}++;")
        inner = then(inner, each_lines)
        if test:
            loop += [f"if ({' && '.join(test)}) {{"] + ind(inner) + ["}"]
        else:
            loop += inner
        out += ind(loop) + ["}"]
    apply = block(r.ir.apply, plan.locals_of(r, "apply"), RuleNames(plan, r, "apply", where))
    return ["{"] + ind(then(out, apply)) + ["}"]


def each(plan, r: Rule) -> list:
    """A rule's each over boids, as it lands in the pair loop."""
    lines = block(r.ir.each, plan.locals_of(r, "each"), RuleNames(plan, r, "each", "pair"))
    return finish(wrap(lines, r.name), r.prefix)


def branch(plan, groups: list, window=None, mirrored: bool = True) -> list:
    """The body of one zone test: dist if read, then each group (the window
    group, codegen/passes/window_sums.py: nothing, and the visit ends);
    `mirrored`: with each pair once, the other's side too (mirror.py)."""
    out, tail = [], []
    if any("dist" in r.ir.reads_each.pair for g in groups if not g.near for r in g.rules):
        out.append("const fx dist = fx_hypot(dx, dy);")
    for g in groups:
        seed_apart = g.key[0][0] == "seed" and not g.key[1]
        if g.near:
            better = f"d2 < {g.near_d2}"
            if plan.grid:  # ties: the lower index (slots are in band and x order)
                better = (f"{better} || (d2 == {g.near_d2} && {g.near} >= 0"
                          f" && band_order[band_cur][o - others] < band_order[band_cur][{g.near}])")
            if seed_apart:
                better = f"d2 != 0 && ({better})"
            out += [f"if ({better}) {{", f"    {g.near_d2} = d2;", f"    {g.near} = (int32_t)(o - others);", "}"]
            continue
        if g is window:  # its terms are the window's: the visit ends, after the zone's other groups
            tail = ["continue; /* in the zone: the window's sums hold it */"]
            if seed_apart:
                tail = ["if (d2 != 0) {"] + ind(tail) + ["}"]
            continue
        body = [f"{g.count}++;"] if g.count else []
        for r in g.rules:
            body += each(plan, r)
        body = (plan.hints.visit(body) if plan.hints else []) + body  # PIC32: gcc_o1.loads_ahead
        if plan.once and mirrored:
            body += mirror(plan, [g])
        out += ["if (d2 != 0) {"] + ind(body) + ["}"] if seed_apart else body
    return out + tail


class ZoneHiLo(NamedTuple):
    """The C names fx_d2_zones works with: a = visual - protected, b =
    visual + protected, r = protected (step constants); the pair's inner
    (protected) and outer (visual) test words; v: visual, for
    fx_d2_within; pre: the step's fx_d2_pre_t."""
    a: str
    b: str
    inner: str
    outer: str
    r: str
    v: str = "seed_box"
    pre: str = "zone_pre"  # fx_d2_pre's words of r^2 and v^2 (the Cortex-M0+'s prefilter; empty elsewhere)


def _likely(plan, test: str, likely: bool) -> str:
    """A zone test most pairs pass, laid out as the fall-through (the
    target's hints: FlockC.likely):
    the window group's (window.py; most own-band pairs pass it and end
    their visit there: 16 k cycles a frame on the M4K's 500-boid grid) and
    the visual test of pairs known apart from the protected zone (inside the
    box, most are within the visual range: 4,681 of the band below's 5,884;
    10 k cycles a frame, the in-zone visit falling into the loop's next
    step instead of jumping back to it)."""
    return plan.likely(test) if likely else test


def pair_lines(plan, window=None, apart=False, mirrored: bool = True) -> list:
    """The pair loop's body after the box test: the seed's zone chain
    (inside the seed's own box when radius zones widen the loop's), then one
    test per radius zone. `window`: the group the own band's window sums
    (window.py), whose branch ends the visit. `apart`: the pair is known
    outside the protected zone (codegen/passes/zones.py), so the chain is the
    visual test alone. `mirrored` False: the boid's own side only (a flagged
    boid's visit of the boids before it, pairs_once.py)."""
    if not plan.has_pairs:
        return []
    by_test: dict = {}
    for g in plan.groups.values():
        by_test.setdefault(g.key[0], []).append(g)
    out = []
    chain = []
    seed = []
    hilo = plan.zone_hilo
    by_high = bool(hilo and apart and window is not None and plan.visual_hi)
    if by_high:  # the window's pairs apart: d2's high word against visual^2's (fixed_zones.h)
        seed.append(f"const int32_t {hilo.outer} = (int32_t)(fx_d2_hi(dx, dy) - {plan.visual_hi});")
    elif hilo and apart:
        seed.append(f"const int32_t {hilo.outer} = fx_d2_within_pre(dx, dy, {hilo.v}, {hilo.pre});")
    elif hilo:
        seed += [f"int32_t {hilo.outer};",
                 f"const int32_t {hilo.inner} = fx_d2_zones_pre(dx, dy, {hilo.r}, {hilo.a}, {hilo.b}, {hilo.pre}, "
                 f"&{hilo.outer});"]
    for z in ("visual",) if apart else ("protected", "visual"):
        gs = by_test.get(("seed", z))
        if gs:
            test = f"{hilo.inner if z == 'protected' else hilo.outer} < 0" if hilo else f"d2 < {z}2"
            test = (f"FX_D2_BELOW_HI({hilo.outer}, dx, dy, {hilo.v}, {hilo.pre})" if by_high  # likely, and exact
                    else _likely(plan, test, window in gs or apart))
            chain.append((test, branch(plan, gs, window, mirrored)))
    for k, (test, body) in enumerate(chain):
        seed.append(f"if ({test}) {{" if k == 0 else f"}} else if ({test}) {{")
        seed += ind(body)
    if chain:
        seed.append("}")
        if plan.radius:
            out += ["if (fx_abs(dx) < seed_box && fx_abs(dy) < seed_box) {"] + ind(seed) + ["}"]
        else:
            out += seed
    for p, coincident in plan.radius:
        gs = by_test[("radius", p, coincident)]
        test = _likely(plan, f"d2 < {plan.r2[p]}" if coincident else f"d2 != 0 && d2 < {plan.r2[p]}", window in gs)
        body = branch(plan, gs, window, mirrored)
        if body:
            out += [f"if ({test}) {{"] + ind(body) + ["}"]
    return out


def after_pairs(plan) -> list:
    """Each pick-nearest group's rules, for the nearest boid found (if any)."""
    out = []
    for g in plan.groups.values():
        if not g.near:
            continue
        pair = set()
        for r in g.rules:
            pair |= r.ir.reads_each.pair
        body = [f"const boid_t *o = &others[{g.near}];"] + offsets(pair, False)
        if "d2" in pair:
            body.append(f"const uint64_t d2 = {g.near_d2};")
        if "dist" in pair:
            body.append("const fx dist = fx_hypot(dx, dy);")
        if g.count:
            body.append(f"{g.count} = 1;")
        for r in g.rules:
            body += each(plan, r)
        out += [f"if ({g.near} >= 0) {{"] + ind(body) + ["}"]
    return out
