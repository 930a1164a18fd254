"""The kernel's world: the predators' and the food's own motion, and the
state's initial values. Twins of boids_flock.c's predators_step and
food_step, statement for statement: the hunt (centroid or nearest boid,
over the boids' new positions), then the library's `edges` with the
predators' margins and the spec's `predators.speed` rule if any (their IR,
emitted with the predator's variables; with neighbours over the boids, its
own loop over them first: _boids_loop), then the move; food drifts and bounces.
"""
from __future__ import annotations

from codegen.targets.numba.emit import INDENT, Emitter
from codegen.targets.numba.names import ENTITY, Names


def state_vars(rules) -> list:
    """[(name, type, initial expr, rule)] in first-declaration order."""
    seen: dict = {}
    for r in rules:
        for sv in r.ir.state:
            seen.setdefault(sv.name, (sv.name, sv.type, sv.initial, r))
    return list(seen.values())


def predators_step(b) -> None:
    m, fl = b.m, b.arith == "float"
    pr = m.spec.predators
    e = b.plumbing("predators")
    c = lambda name, args, text, **kw: b.call(e, name, args, text, **kw)  # noqa: E731
    b.emit(1, "# predators: hunt, their own rules (" + ", ".join(r.name for r in m.predator_motion) + "), move")
    b.emit(1, "for k in range(px.shape[0]):")
    d = 2
    b.emit(d, "ex = px[k]", "ey = py[k]", "evx = pvx[k]", "evy = pvy[k]")
    if pr.hunt:
        rng, fac = f"p_{pr.hunt.range}", f"p_{pr.hunt.factor}"
        b.emit(d, f"h2 = {c('sq64', [rng], 'sq(hunt.range)')}")
        if pr.hunt.mode == "centroid":
            zero = "0.0" if fl else "0"
            b.emit(d, f"hsx = {zero}", f"hsy = {zero}", "seen = 0", "for j in range(n):")
            b.emit(d + 1, f"hx = {c('sub', ['x[j]', 'ex'], 'boid.x - x')}",
                   f"hy = {c('sub', ['y[j]', 'ey'], 'boid.y - y')}",
                   f"if {c('d2', ['hx', 'hy'], 'hx * hx + hy * hy')} < h2:")
            b.emit(d + 2, f"hsx = {c('acc_add', ['hsx', 'hx'], 'hsx + hx')}",
                   f"hsy = {c('acc_add', ['hsy', 'hy'], 'hsy + hy')}", "seen += 1")
            b.emit(d, "if seen > 0:")
            for v, s in (("evx", "hsx"), ("evy", "hsy")):
                mean = c("acc_mean", [s, "seen"], f"{s} / seen")
                b.emit(d + 1, f"{v} = {c('add', [v, c('mul', [mean, fac], f'mean * hunt.factor', fb=True)], 'v + ...')}")
        else:
            b.emit(d, "best = -1", "bd2 = h2", "for j in range(n):")
            hx, hy = c("sub", ["x[j]", "ex"], "boid.x - x"), c("sub", ["y[j]", "ey"], "boid.y - y")
            b.emit(d + 1, f"hd2 = {c('d2', [hx, hy], 'd2')}", "if hd2 < bd2:", f"{INDENT}bd2 = hd2",
                   f"{INDENT}best = j")
            b.emit(d, "if best >= 0:")
            for v, a, s in (("evx", "x", "ex"), ("evy", "y", "ey")):
                off = c("sub", [f"{a}[best]", s], f"boid.{a} - {a}")
                b.emit(d + 1, f"{v} = {c('add', [v, c('mul', [off, fac], 'offset * hunt.factor', fb=True)], 'v + ...')}")
    me = {"x": "ex", "y": "ey", "vx": "evx", "vy": "evy"}
    for k, mr in enumerate(m.predator_motion):
        names = Names(0, mr.refs, mr.ir.role_types, b.arith, m.spec, self_names=me, prefix=f"pm{k}",
                      count=f"pm{k}_count", kind=_kind(mr))
        if mr.ir.neighbours:
            names.block = "each"
            em = Emitter(b.arith, m.frac_bits, names, sites=b.sites, rule=f"predators: {mr.name}", path="")
            _boids_loop(b, mr, k, d, em)
            names.block = "apply"
        em = Emitter(b.arith, m.frac_bits, names, sites=b.sites, rule=f"predators: {mr.name}", path="")
        b.take(em, em.block(mr.ir.apply, d))
    b.emit(d, "pvx[k] = evx", "pvy[k] = evy", f"px[k] = {c('add', ['ex', 'evx'], 'x + vx')}",
           f"py[k] = {c('add', ['ey', 'evy'], 'y + vy')}")
    b.record(d, "predator", "k")


def _kind(mr) -> str | None:
    nb = mr.ir.neighbours
    return None if nb is None else "flock" if nb.of == "boids" else nb.of


def _boids_loop(b, mr, k: int, d: int, e) -> None:
    """A predator's own rule over the boids (their positions as predators_step
    reads them), the food or the obstacles: pairs.entity_rule's twin."""
    nb = mr.ir.neighbours
    arrays = ("x", "y") if nb.of == "boids" else ENTITY[nb.of]
    loop = "for q in range(n):" if nb.of == "boids" else f"for q in range({arrays[0]}.shape[0]):"
    neighbour_loop(b, e, mr, f"pm{k}", ("ex", "ey"), arrays, loop, d)


def neighbour_loop(b, e, r, p: str, me: tuple, arrays: tuple, loop: str, d: int) -> None:
    """Rule r's own loop over a kind (a boid's rule over predators, food or
    obstacles at its turn: kernel.entity_loop; a predator's rule: above):
    its count `{p}_count` and sums `{p}_<sum>` zeroed, the range test, pick
    nearest, then its each. `me`: the self position's names; `arrays`: the
    kind's x and y arrays, indexed by q; `loop`: the for line over q."""
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
    b.emit(1, "# food: drift, bounce off the edges", "for k in range(fdx.shape[0]):")
    b.emit(2, f"nx = {c('add', ['fdx[k]', 'fdvx[k]'], 'x + vx')}", f"ny = {c('add', ['fdy[k]', 'fdvy[k]'], 'y + vy')}")
    for a, v, lim in (("x", "vx", w), ("y", "vy", h)):
        b.emit(2, f"if n{a} < {zero} or n{a} >= {lim}:",
               f"{INDENT}fd{v}[k] = {c('neg', [f'fd{v}[k]'], '-' + v)}",
               f"{INDENT}n{a} = {c('add', [f'fd{a}[k]', f'fd{v}[k]'], f'{a} + {v}')}")
    b.emit(2, "fdx[k] = nx", "fdy[k] = ny")
    b.record(2, "food", "k")


def init_function(m, arith: str) -> tuple[str, set]:
    """`init_state_<arith>(lo, hi, arrays..., PF, PI, tx, ty, ton)`: the
    state's initial values of boids lo..hi-1 (at spawn)."""
    sv = state_vars(m.rules)
    arrays = "".join(f"a_{name}, " for name, *_ in sv)
    lines = ["@njit(cache=True)", f"def init_state_{arith}(lo, hi, {arrays}PF, PI, tx, ty, ton):"]
    lines += [f"{INDENT}p_{p.name} = {'PF' if p.type == 'fixed' else 'PI'}[{p.index}]" for p in m.params]
    lines.append(f"{INDENT}for i in range(lo, hi):")
    used: set = set()
    for name, _, init, r in sv:
        names = Names(r.index, r.refs, r.ir.role_types, arith, m.spec)
        names.block = "init"
        em = Emitter(arith, m.frac_bits, names)
        lines.append(f"{INDENT * 2}a_{name}[i] = {em.expr(init)}")
        used |= em.used
    return "\n".join(lines) + "\n", used
