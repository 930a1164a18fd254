"""The simulator's frame as one numba function per arithmetic, from the rules' IR.

The shape is the C's (boids_flock.c's boids_step), loop for loop:

    for each boid i (index order):
        load it; its rules' PRNG draws (every rule's, in spec order, whether
        its code reaches them or not: docs/rules.md); its rules' `before` blocks (a `return` stores it and goes on
        to the next boid, unmoved)
        the fused pair loop over the other boids (all rules over boids share it):
            skip itself; dx, dy = self - other; skip unless |dx|, |dy| < box
            (the largest boid range); d2 exactly
            the seed's zones: [inside |dx|, |dy| < the seed box, when other
            ranges exist] if d2 < protected^2: protected rules' `each`,
            elif d2 < visual^2: visual rules' `each`
            every other range group: [d2 != 0 and] d2 < r^2: its rules' `each`
        each rule in spec order: its loop over predators, obstacles or food
        (if it has one: at its own turn, seeing the velocity so far), its `apply`
        store the velocity and state; move
    predators_step, food_step (world.py)

Sequential order: the other boids are the arrays being updated (earlier boids
already moved), so the order is exact by construction. Synchronous: a copy of
the frame's start, as the C's `previous`. With `grid` (synchronous, fixed
point only) the copy is sorted by cells at least the box wide and each boid
visits the 3 x 3 cells around its own: the same pairs in the box, and since
every sum is exact in 64 bits, the same result bit for bit. (The C's
performance.grid sorts bands by x and visits windows of them instead: the
M4K's pair loop then tests y only; the same pairs in the box again.)
The pair loop walks slots of `order` in one or more segments either way.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from codegen.targets.numba.names import ENTITY, Names, source_path
from codegen.targets.numba.emit import INDENT, Emitter, Sites
from codegen.lang.ir import Type
from codegen.targets.numba.world import food_step, mover_arrays, neighbour_loop, predators_step, state_vars

WORLD_ARGS = "px, py, pvx, pvy, fdx, fdy, fdvx, fdvy, obx, oby, obr, tx, ty, ton"
CHECK_WHO = {"boid": 0, "predator": 1, "food": 2}


@dataclass
class Group:
    """Boid rules sharing one neighbour test and one count: within a seed
    zone or a range, (coincident, pick nearest) alike."""
    name: str  # protected / visual / protected_apart ... / g0 g1 ...
    param: str  # the range parameter
    zone: str | None = None  # protected | visual: the seed's chain
    coincident: bool = True
    nearest: bool = False
    rules: list = field(default_factory=list)

    @property
    def count(self) -> str:
        return f"n_{self.name}"

    @property
    def r2(self) -> str:
        """The squared range (64-bit) the pair's d2 is compared with."""
        return f"{self.zone}2" if self.zone else f"r2_{self.name}"

    @property
    def needs_dist(self) -> bool:
        return any(r.ir.needs_dist for r in self.rules)


def boid_groups(rules) -> tuple[dict, list]:
    """({'protected'|'visual': [Group]}, [Group]) for the rules over boids:
    one group per (zone or range, coincident) of rules visiting every
    neighbour, one per rule that picks the nearest."""
    seed: dict = {}
    groups: list = []
    for r in rules:
        nb = r.ir.neighbours
        if nb is None or nb.of != "boids":
            continue
        param, nearest = r.refs[nb.within], nb.pick == "nearest"
        pool = seed.setdefault(nb.zone, []) if nb.zone else groups
        g = None if nearest else next((g for g in pool if not g.nearest and (g.param, g.coincident)
                                       == (param, nb.coincident)), None)
        if g is None:
            if nb.zone:
                name = nb.zone + ("" if nb.coincident else "_apart") + (f"_near{r.index}" if nearest else "")
            else:
                name = f"g{len(groups)}"
            g = Group(name, param, nb.zone, nb.coincident, nearest)
            pool.append(g)
        g.rules.append(r)
    return seed, groups


class StepBuilder:
    """Lines of `step_<arith>` for a GenModel."""

    def __init__(self, m, arith: str, sites: Sites | None) -> None:
        # m as the shared passes left it (codegen/passes/shared.py: offsets, roots, 32-bit sums
        # wrapped where read), the IR the C's passes start from too
        self.m, self.arith, self.sites = m, arith, sites
        self.fb = m.frac_bits
        self.seed, self.groups = boid_groups(m.rules)
        self.state = state_vars(m.rules)
        self.draws = sum(r.ir.draws for r in m.rules)
        self.used: set = set()
        self.lines: list[str] = []

    # --- helpers ---
    def emitter(self, r, block: str, count: str = "", kind=None) -> Emitter:
        """An emitter for rule r's block, its names prefixed by the rule."""
        n = Names(r.index, r.refs, r.ir.role_types, self.arith, self.m.spec, count=count, kind=kind)
        n.block = block
        return Emitter(self.arith, self.fb, n, sites=self.sites, rule=r.name,
                       path=source_path(r.ir.path, self.m.source))

    def plumbing(self, what: str) -> Emitter:
        """An emitter for the generated code around the rules (the pair loop, the move)."""
        return Emitter(self.arith, self.fb, lambda ref: ref.name, sites=self.sites, rule=what)

    def emit(self, depth: int, *lines: str) -> None:
        self.lines.extend(INDENT * depth + ln for ln in lines)

    def take(self, e: Emitter, lines: list[str]) -> None:
        self.used |= e.used
        self.lines.extend(lines)

    def call(self, e: Emitter, name: str, args: list[str], text: str, **kw) -> str:
        s = e.call(name, args, text=text, **kw)
        self.used |= e.used
        return s

    @property
    def fl(self) -> bool:
        return self.arith == "float"

    def zero_sum(self, t) -> str:
        return "0.0" if self.fl and t == Type.SUM_FIXED else "0"

    def record(self, depth: int, who: str, index: str) -> None:
        """Checked: remember which entity the frame's first finding belongs to."""
        if self.arith == "checked":
            self.emit(depth, "if st[0] != 0 and st[5] < 0:", f"{INDENT}st[4] = {CHECK_WHO[who]}",
                      f"{INDENT}st[5] = {index}")

    # --- the function ---
    def build(self) -> str:
        m = self.m
        states = "".join(f"a_{s[0]}, " for s in self.state) + mover_arrays(m)
        rs = ", rs" if self.draws else ""  # the PRNG's state (rs[0]), when a rule draws
        self.emit(0, "@njit(cache=True)",
                  f"def step_{self.arith}(sync, grid, x, y, vx, vy, {states}{WORLD_ARGS}, PF, PI, st{rs}):")
        self.emit(1, "n = x.shape[0]")
        for p in m.params:
            self.emit(1, f"p_{p.name} = {'PF' if p.type == 'fixed' else 'PI'}[{p.index}]")
        if self.seed or self.groups:
            self.pair_setup()
        self.emit(1, "for i in range(n):")
        self.boid_body()
        if m.spec.predators:
            predators_step(self)
        if m.spec.food:
            food_step(self)
        self.emit(1, "return use_grid" if (self.seed or self.groups) and self.arith == "fixed" else "return False")
        return "\n".join(self.lines) + "\n"

    def pair_setup(self) -> None:
        e = self.plumbing("pair loop")
        sb = (self.seed.get("visual") or self.seed.get("protected") or [None])[0]
        first = sb.param if sb else self.groups[0].param
        if sb:
            self.emit(1, f"seed_box = p_{sb.param}")
        self.emit(1, f"box = {'seed_box' if sb else 'p_' + first}")
        for g in self.groups:
            self.emit(1, f"if p_{g.param} > box:", f"{INDENT}box = p_{g.param}")
        for g in [gs[0] for gs in self.seed.values()] + self.groups:
            self.emit(1, f"{g.r2} = {self.call(e, 'sq64', ['p_' + g.param], f'sq({g.param})')}")
        self.emit(1, "order = np.arange(n)", "seg_lo = np.zeros(3, np.int64)", "seg_hi = np.zeros(3, np.int64)",
                  "nseg = 1", "seg_hi[0] = n",
                  "if sync:", f"{INDENT}ox = x.copy()", f"{INDENT}oy = y.copy()", f"{INDENT}ovx = vx.copy()",
                  f"{INDENT}ovy = vy.copy()", "else:", f"{INDENT}ox = x", f"{INDENT}oy = y", f"{INDENT}ovx = vx",
                  f"{INDENT}ovy = vy")
        for name in self.other_state():  # a neighbour's state (other.<state>), by boid: order[s]
            self.emit(1, f"o_{name} = a_{name}.copy() if sync else a_{name}")
        if self.arith == "fixed":
            self.emit(1, "use_grid, cell, cols, rows, start = grid_sort(sync and grid, box, W_FX, H_FX, "
                         "x, y, vx, vy, ox, oy, ovx, ovy, order)")

    def other_state(self) -> list:
        """The state names some rule's each reads of its neighbour."""
        names = {s[0] for s in self.state}
        return [n for n in dict.fromkeys(f for r in self.m.rules for f in r.ir.reads_each.other_fields) if n in names]

    def boid_body(self) -> None:
        m, d = self.m, 2
        self.emit(d, "bx = x[i]", "by = y[i]", "bvx = vx[i]", "bvy = vy[i]")
        for name, *_ in self.state:
            self.emit(d, f"s_{name} = a_{name}[i]")
        for r in m.rules:  # the draws: every one, at the boid's turn, in spec order (docs/rules.md)
            e = self.emitter(r, "apply")
            for k in range(r.ir.draws):
                self.emit(d, f"r{r.index}_d{k} = {self.call(e, 'rng_next', ['rs'], 'random()', int_op=True)}")
        for r in m.rules:
            if r.ir.before:
                self.emit(d, f"# {r.name}: before")
                e = self.emitter(r, "before")
                self.take(e, e.block(r.ir.before, d, self.on_return))
        if self.seed or self.groups:
            self.pair_loop(d)
        for r in m.rules:
            self.emit(d, f"# {r.name}")
            nb = r.ir.neighbours
            count = ""
            if nb is not None and nb.of == "boids":
                count = self.group_of(r).count
            elif nb is not None:
                count = f"r{r.index}_count"
                self.entity_loop(r, d)
            e = self.emitter(r, "apply", count=count)
            self.take(e, e.block(r.ir.apply, d))
        self.store(d, move=True)

    def on_return(self, depth: int) -> list[str]:
        mark = len(self.lines)
        self.store(depth, move=False)
        lines = self.lines[mark:]
        del self.lines[mark:]
        return lines + [INDENT * depth + "continue"]

    def store(self, d: int, move: bool) -> None:
        previous = self.m.spec.move_by == "previous_velocity"
        if move and previous:  # by the velocity the frame started with, still in vx[i]
            self.move(d, "vx[i]", "vy[i]")
        self.emit(d, "vx[i] = bvx", "vy[i] = bvy")
        for name, *_ in self.state:
            self.emit(d, f"a_{name}[i] = s_{name}")
        if move and not previous:
            self.move(d, "bvx", "bvy")
        self.record(d, "boid", "i")

    def move(self, d: int, vx: str, vy: str) -> None:
        e = self.plumbing("move")
        self.emit(d, f"x[i] = {self.call(e, 'add', ['bx', vx], 'x + vx')}",
                  f"y[i] = {self.call(e, 'add', ['by', vy], 'y + vy')}")

    @property
    def all_groups(self) -> list:
        return [g for gs in self.seed.values() for g in gs] + self.groups

    def group_of(self, r) -> Group:
        for g in self.all_groups:
            if r in g.rules:
                return g
        raise KeyError(r.name)

    # --- the pair loop ---
    def zero_sums(self, d: int, rules) -> None:
        for r in rules:
            for sm in r.ir.sums:
                self.emit(d, f"r{r.index}_{sm.name} = {self.zero_sum(sm.type)}")

    def pair_loop(self, d: int) -> None:
        e = self.plumbing("pair loop")
        for g in self.all_groups:
            self.emit(d, f"{g.count} = 0")
            if g.nearest:
                self.emit(d, f"best_{g.name} = -1", f"bs_{g.name} = -1", f"bd2_{g.name} = {g.r2}")
            else:
                self.zero_sums(d, g.rules)
        if self.arith == "fixed":
            self.emit(d, "if use_grid:", f"{INDENT}nseg = grid_segments(bx, by, W_FX, H_FX, cell, cols, rows, "
                                         "start, seg_lo, seg_hi)")
        self.emit(d, "for g in range(nseg):", f"{INDENT}for s in range(seg_lo[g], seg_hi[g]):")
        p = d + 2
        sub = [self.call(e, "sub", ["bx", "ox[s]"], "x - other.x"), self.call(e, "sub", ["by", "oy[s]"], "y - other.y")]
        self.emit(p, "j = order[s]", "if j == i:", f"{INDENT}continue", f"dx = {sub[0]}", f"dy = {sub[1]}")
        ox, oy = (self.call(e, "outside_box", [v, "box"], f"abs({v}) >= box") for v in ("dx", "dy"))
        self.emit(p, f"if {ox} or {oy}:", f"{INDENT}continue",
                  f"d2 = {self.call(e, 'd2', ['dx', 'dy'], 'dx * dx + dy * dy')}")
        zero = "0.0" if self.fl else "ZERO64"
        if self.seed:
            q = p
            if self.groups:
                ax, ay = (self.call(e, "abs", [v], f"abs({v})") for v in ("dx", "dy"))
                self.emit(p, f"if {ax} < seed_box and {ay} < seed_box:")
                q = p + 1
            word = "if"
            for zone in ("protected", "visual"):
                if zone in self.seed:
                    self.emit(q, f"{word} d2 < {zone}2:")
                    for g in self.seed[zone]:
                        self.member(g, q + 1, None if g.coincident else f"d2 != {zero}")
                    word = "elif"
        for g in self.groups:
            self.member(g, p, f"d2 < {g.r2}" if g.coincident else f"d2 != {zero} and d2 < {g.r2}")
        for g in self.all_groups:
            if g.nearest:  # the nearest one's `each`, after the loop (ties: the lower index)
                self.zero_sums(d, g.rules)
                self.emit(d, f"if best_{g.name} >= 0:", f"{INDENT}s = bs_{g.name}")
                self.emit(d + 1, f"dx = {self.call(e, 'sub', ['bx', 'ox[s]'], 'x - other.x')}",
                          f"dy = {self.call(e, 'sub', ['by', 'oy[s]'], 'y - other.y')}",
                          f"d2 = {self.call(e, 'd2', ['dx', 'dy'], 'dx * dx + dy * dy')}")
                self.visit(g, d + 1)

    def member(self, g: Group, d: int, test: str | None) -> None:
        """A neighbour that passed g's range: if `test` also holds, g's
        visit (or, picking the nearest, the nearest so far)."""
        if g.nearest:
            better = f"(best_{g.name} < 0 or d2 < bd2_{g.name} or (d2 == bd2_{g.name} and j < best_{g.name}))"
            self.emit(d, f"if {test + ' and ' if test else ''}{better}:", f"{INDENT}best_{g.name} = j",
                      f"{INDENT}bs_{g.name} = s", f"{INDENT}bd2_{g.name} = d2")
        elif test:
            self.emit(d, f"if {test}:")
            self.visit(g, d + 1)
        else:
            self.visit(g, d)

    def visit(self, g: Group, d: int) -> None:
        """A neighbour in g's range: its count, dist if read, each rule's `each`."""
        self.emit(d, f"{g.count} += 1")
        if g.needs_dist:
            e = self.plumbing("pair loop")
            self.emit(d, f"dist = {self.call(e, 'hypot', ['dx', 'dy'], 'dist')}")
        for r in g.rules:
            e = self.emitter(r, "each", kind="boids")
            self.take(e, e.block(r.ir.each, d))

    # --- predators, obstacles, food: at the rule's own turn ---
    def entity_loop(self, r, d: int) -> None:
        ex, ey = ENTITY[r.ir.neighbours.of]
        e = self.emitter(r, "each", kind=r.ir.neighbours.of)
        neighbour_loop(self, e, r, f"r{r.index}", ("bx", "by"), (ex, ey), f"for q in range({ex}.shape[0]):", d)
