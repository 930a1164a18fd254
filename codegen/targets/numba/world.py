"""The kernel's world: the predators' and the food's own motion, and the
state's initial values. Twins of boids_flock.c's predators_step and
food_step, statement for statement: a predator runs its own rules in order
(m.predator_motion: the hunt, the library's `edges` with its margins, then
`predators.rules`), then moves; a food source runs its rules (m.food_motion)
on its velocity, then drifts and bounces. A rule with neighbours has its own
loop over them first (neighbour_loop); each mover updates in place, in
index order, as the C does.
"""
from __future__ import annotations

from codegen.targets.numba.emit import INDENT, Emitter
from codegen.targets.numba.names import ENTITY, Names

ME = {"x": "ex", "y": "ey", "vx": "evx", "vy": "evy"}
# a mover kind's state: (its arrays' prefix, its copy's prefix, its init function, the kernel's table of it)
MOVER_STATE = {"predators": ("pa_", "ps_", "init_pstate", "PREDATOR_STATE"),
               "food": ("fa_", "fs_", "init_fstate", "FOOD_STATE")}


def motion(m, kind: str) -> tuple:
    return m.predator_motion if kind == "predators" else m.food_motion


def mover_arrays(m) -> str:
    """The movers' state arrays, as the step functions take them after the boids'."""
    return "".join(f"{MOVER_STATE[kind][0]}{name}, " for kind in MOVER_STATE
                   for name, *_ in state_vars(motion(m, kind)))


def state_vars(rules) -> list:
    """[(name, type, initial expr, rule)] in first-declaration order."""
    seen: dict = {}
    for r in rules:
        for sv in r.ir.state:
            seen.setdefault(sv.name, (sv.name, sv.type, sv.initial, r))
    return list(seen.values())


def predators_step(b) -> None:
    m = b.m
    e = b.plumbing("predators")
    c = lambda name, args, text: b.call(e, name, args, text)  # noqa: E731
    b.emit(1, "# predators: their own rules (" + ", ".join(r.name for r in m.predator_motion) + "), move")
    b.emit(1, "for k in range(px.shape[0]):")
    d = 2
    b.emit(d, "ex = px[k]", "ey = py[k]", "evx = pvx[k]", "evy = pvy[k]")
    mover_rules(b, m.predator_motion, "predators", "pm", d)
    b.emit(d, "pvx[k] = evx", "pvy[k] = evy", f"px[k] = {c('add', ['ex', 'evx'], 'x + vx')}",
           f"py[k] = {c('add', ['ey', 'evy'], 'y + vy')}")
    b.record(d, "predator", "k")


def mover_rules(b, motion, kind: str, p: str, d: int) -> None:
    """A mover's rules in order, on ex ey evx evy (the mover k of `kind`): a
    rule with neighbours first visits them (itself skipped in its own kind);
    its state copied in before them and back after."""
    arr, cp = MOVER_STATE[kind][:2]
    sv = state_vars(motion)
    b.emit(d, *(f"{cp}{name} = {arr}{name}[k]" for name, *_ in sv))
    for j, mr in enumerate(motion):
        nb = mr.ir.neighbours
        names = Names(0, mr.refs, mr.ir.role_types, b.arith, b.m.spec, self_names=ME, prefix=f"{p}{j}",
                      count=f"{p}{j}_count", kind=None if nb is None else "flock" if nb.of == "boids" else nb.of,
                      state_prefix=cp)
        if nb:
            names.block = "each"
            em = Emitter(b.arith, b.m.frac_bits, names, sites=b.sites, rule=f"{kind}: {mr.name}", path="")
            arrays = ("x", "y") if nb.of == "boids" else ENTITY[nb.of]
            loop = "for q in range(n):" if nb.of == "boids" else f"for q in range({arrays[0]}.shape[0]):"
            neighbour_loop(b, em, mr, f"{p}{j}", ("ex", "ey"), arrays, loop, d, skip="k" if nb.of == kind else None)
            names.block = "apply"
        em = Emitter(b.arith, b.m.frac_bits, names, sites=b.sites, rule=f"{kind}: {mr.name}", path="")
        b.take(em, em.block(mr.ir.apply, d))
    b.emit(d, *(f"{arr}{name}[k] = {cp}{name}" for name, *_ in sv))


def neighbour_loop(b, e, r, p: str, me: tuple, arrays: tuple, loop: str, d: int, skip: str | None = None) -> None:
    """Rule r's own loop over a kind (a boid's rule over predators, food or
    obstacles at its turn: kernel.entity_loop; a predator's rule: above):
    its count `{p}_count` and sums `{p}_<sum>` zeroed, the range test, pick
    nearest, then its each. `me`: the self position's names; `arrays`: the
    kind's x and y arrays, indexed by q; `loop`: the for line over q;
    `skip`: the mover's own index, left out of its own kind."""
    nb, ir = r.ir.neighbours, r.ir
    zero = "0.0" if b.arith == "float" else "ZERO64"
    b.emit(d, f"{p}_count = 0")
    for sm in ir.sums:
        b.emit(d, f"{p}_{sm.name} = {b.zero_sum(sm.type)}")
    tests = []
    if nb.within:
        b.emit(d, f"{p}_w2 = {b.call(e, 'sq64', ['p_' + r.refs[nb.within]], f'sq({nb.within})')}")
        tests.append(f"d2 < {p}_w2")
    if not nb.coincident:
        tests.append(f"d2 != {zero}")
    need_d2 = bool(tests) or "d2" in ir.reads_each.pair or nb.pick == "nearest"
    tests = ([f"q != {skip}"] if skip else []) + tests
    head = [f"dx = {b.call(e, 'sub', [me[0], arrays[0] + '[q]'], 'x - other.x')}",
            f"dy = {b.call(e, 'sub', [me[1], arrays[1] + '[q]'], 'y - other.y')}"]
    if need_d2:
        head.append(f"d2 = {b.call(e, 'd2', ['dx', 'dy'], 'dx * dx + dy * dy')}")
    dist = f"dist = {b.call(e, 'hypot', ['dx', 'dy'], 'dist')}" if ir.needs_dist else None
    body = d + 1
    if nb.pick == "nearest":
        b.emit(d, f"{p}_best = -1", f"{p}_bd2 = {f'{p}_w2' if nb.within else zero}", loop)
        b.emit(d + 1, *head)
        better = f"d2 < {p}_bd2" if nb.within else f"({p}_best < 0 or d2 < {p}_bd2)"
        b.emit(d + 1, f"if {' and '.join(tests + [better])}:", f"{INDENT}{p}_bd2 = d2", f"{INDENT}{p}_best = q")
        b.emit(d, f"if {p}_best >= 0:", f"{INDENT}q = {p}_best")
        b.emit(d + 1, *head)
    else:
        b.emit(d, loop)
        b.emit(d + 1, *head)
        if tests:
            b.emit(d + 1, f"if {' and '.join(tests)}:")
            body = d + 2
    if dist:
        b.emit(body, dist)
    b.emit(body, f"{p}_count += 1")
    b.take(e, e.block(ir.each, body))


def food_step(b) -> None:
    fl = b.arith == "float"
    e = b.plumbing("food")
    c = lambda name, args, text: b.call(e, name, args, text)  # noqa: E731
    w, h, zero = ("W_FL", "H_FL", "0.0") if fl else ("W_FX", "H_FX", "0")
    m = b.m
    rules = ", ".join(r.name for r in m.food_motion)
    b.emit(1, f"# food: {'its own rules (' + rules + '), then ' if rules else ''}drift, bounce off the edges",
           "for k in range(fdx.shape[0]):")
    if m.food_motion:
        b.emit(2, "ex = fdx[k]", "ey = fdy[k]", "evx = fdvx[k]", "evy = fdvy[k]")
        mover_rules(b, m.food_motion, "food", "fm", 2)
        b.emit(2, "fdvx[k] = evx", "fdvy[k] = evy")
    b.emit(2, f"nx = {c('add', ['fdx[k]', 'fdvx[k]'], 'x + vx')}", f"ny = {c('add', ['fdy[k]', 'fdvy[k]'], 'y + vy')}")
    for a, v, lim in (("x", "vx", w), ("y", "vy", h)):
        b.emit(2, f"if n{a} < {zero} or n{a} >= {lim}:",
               f"{INDENT}fd{v}[k] = {c('neg', [f'fd{v}[k]'], '-' + v)}",
               f"{INDENT}n{a} = {c('add', [f'fd{a}[k]', f'fd{v}[k]'], f'{a} + {v}')}")
    b.emit(2, "fdx[k] = nx", "fdy[k] = ny")
    b.record(2, "food", "k")


def init_function(m, arith: str, kind: str = "boids") -> tuple[str, set]:
    """`init_state_<arith>(lo, hi, arrays..., PF, PI, tx, ty, ton)`: the
    state's initial values of boids lo..hi-1 (at spawn); for a mover kind
    `init_pstate_<arith>` / `init_fstate_<arith>`, its movers' (MOVER_STATE)."""
    sv = state_vars(m.rules if kind == "boids" else motion(m, kind))
    pre, fn = ("a_", "init_state") if kind == "boids" else (MOVER_STATE[kind][0], MOVER_STATE[kind][2])
    arrays = "".join(f"{pre}{name}, " for name, *_ in sv)
    lines = ["@njit(cache=True)", f"def {fn}_{arith}(lo, hi, {arrays}PF, PI, tx, ty, ton):"]
    lines += [f"{INDENT}p_{p.name} = {'PF' if p.type == 'fixed' else 'PI'}[{p.index}]" for p in m.params]
    lines.append(f"{INDENT}for i in range(lo, hi):")
    used: set = set()
    for name, _, init, r in sv:
        names = Names(getattr(r, "index", 0), r.refs, r.ir.role_types, arith, m.spec)
        names.block = "init"
        em = Emitter(arith, m.frac_bits, names)
        lines.append(f"{INDENT * 2}{pre}{name}[i] = {em.expr(init)}")
        used |= em.used
    return "\n".join(lines) + "\n", used
