"""The C emitter: a spec's rules, printed from their IR, placed in boids_step.

`FlockC(m)` is what codegen/templates/firmware/boids_flock.c.j2 (and .h.j2)
render; the template keeps the frame's shape (spawn, update orders, grid,
entities) and takes every rule's code from here:

  state         per-boid state: boid_t fields, their st_ copies, the C of
                their initial value at spawn
  step_consts   boids_step's pair-loop constants (box, squared ranges)
  boid_decls    per boid: zone counts, neighbour sums (fx_acc, zeroed)
  before        per rule with `before`, in spec order (return: the boid is
                stored as it stands and the loop continues)
  pair_lines    the fused pair loop's body after the box test: the seed's
                zone chain (protected / visual else-if), then one test per
                radius zone (within, coincident); every rule's `each` in its zone
  after_pairs   pick-nearest neighbours, visited once the loop is done
  apply         per rule, in spec order: its `apply` (over predators,
                obstacles or food: first its own loop, at its turn)
  predator_motion  the predators' edges and speed_limit (the library rules
                with the predators' parameters)

Names. Sums over boids live beside every other rule's in the boid loop:
`<rule>_<sum>`. A rule's locals (and its sums over other kinds) keep their
own names inside the rule's C block unless the block already uses that
identifier, then `<rule>_<name>`. A rule listed twice is `<rule>_<k>`.
Expressions and statements: codegen/lang/emit_c_expr.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .emit_c_expr import ATOM, EQ, EmitError, Names, block, expr
from .ir import Type

# kind -> (flock_t array, count field, element type)
KINDS = {"predators": ("predator", "predator_count", "mover_t"),
         "obstacles": ("obstacle", "obstacle_count", "obstacle_t"),
         "food": ("food", "food_count", "mover_t")}

# Identifiers the flock code itself declares or reads (boids_flock.c.j2 and
# the code below), so no emitted name takes one.
GENERATED = frozenset("""
f r P n i j k s b o p x y vx vy dx dy d2 dist box seed_box others previous cell cols rows cells
gx gy gr x0 x1 y0 y1 c j_end protected2 visual2 tries lo hi tx ty want range range2 best best_d2
hx hy hd2 sx sy seen grid_order grid_cell grid_start grid_coord spawn_velocity memcpy memset
k_best d2_best r2 fx fx_acc int32_t uint32_t int64_t uint64_t size_t boid_t mover_t obstacle_t
flock_t rng_t boids_params boids_params_t
""".split())
RESERVED_PREFIXES = ("fx_", "boids_", "rng_", "BOIDS_", "FX_")
# What a rule's C block may reference without spelling it: macro expansions
# (BOIDS_MAG -> fx_hypot / fx_amb((x), (y), ((fx)alpha), ...)) and the types.
IMPLICIT = frozenset({"fx", "fx_acc", "int32_t", "uint32_t", "int64_t", "uint64_t"})

_PH = re.compile(r"\x00([a-z]+)\.([a-z0-9_]+)\x00")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def _ph(block_name: str, name: str) -> str:
    return f"\x00{block_name}.{name}\x00"


def _reserved(name: str) -> bool:
    return name in IMPLICIT or name.startswith(RESERVED_PREFIXES)


def _finish(lines: list, prefix: str) -> list:
    """Give the unit's placeholders (locals, block sums) their C names: the
    name itself unless the unit already uses that identifier (or it is the
    generator's), else `<prefix>_<name>`."""
    text = "\n".join(lines)
    keys = list(dict.fromkeys(_PH.findall(text)))
    if not keys:
        return lines
    taken = set(_IDENT.findall(_COMMENT.sub(" ", _PH.sub(" ", text))))
    final = {}
    for key in keys:
        name = key[1]
        cand = name
        if cand in taken or _reserved(cand):
            cand = f"{prefix}_{name}"
        k = 2
        while cand in taken or _reserved(cand):
            cand = f"{prefix}_{name}_{k}"
            k += 1
        taken.add(cand)
        final[key] = cand
    return _PH.sub(lambda mo: final[(mo.group(1), mo.group(2))], text).split("\n")


_DECL = ("fx ", "int32_t ", "int ", "uint64_t ", "fx_acc ", "const ")


def _is_decl(line: str) -> bool:
    return line.lstrip().startswith(_DECL)


def _wrap(lines: list, comment: str | None = None) -> list:
    """A rule's code as its own C block when it declares something at its top."""
    head = [f"/* {comment} */"] if comment else []
    if lines and _is_decl(lines[0]):
        return head + ["{"] + _ind(lines) + ["}"]
    return head + lines


def _then(first: list, code: list) -> list:
    """`first`, then `code`; code in its own block if it declares something
    and `first` holds a statement (declarations stay at a block's top)."""
    if code and _is_decl(code[0]) and any(not _is_decl(ln) for ln in first):
        return first + _wrap(code)
    return first + code


def _offsets(pair: set, need_d2: bool) -> list:
    """The declaration of the offsets (self - other) that are read."""
    want = [v for v in ("dx", "dy") if need_d2 or "dist" in pair or v in pair]
    if not want:
        return []
    axis = {"dx": "x", "dy": "y"}
    return ["const fx " + ", ".join(f"{v} = fx_sub({axis[v]}, o->{axis[v]})" for v in want) + ";"]


def _ind(lines: list, n: int = 1) -> list:
    return [("    " * n + ln) if ln else ln for ln in lines]


@dataclass
class StateField:
    field: str  # boid_t member
    local: str  # its copy in the boid loop (st_<field>)
    ctype: str
    init: str  # C of the initial value at spawn (index: f->count)


@dataclass
class _Rule:
    index: int
    name: str
    ir: object  # RuleIR
    refs: dict
    prefix: str = ""
    state: dict = field(default_factory=dict)  # state name -> StateField
    sums: dict = field(default_factory=dict)  # sum name -> C name (sums over boids)
    count: str | None = None  # C of `count` (zone count, or the rule's own)
    group: tuple | None = None  # its pair-loop group, over boids


class _RuleNames(Names):
    """Names of one rule at one place: `where` is boid (before, apply), pair
    (each over boids), entity (each over another kind), init (a state's
    initial value at spawn) or predator (predators_step)."""

    def __init__(self, plan, rule: _Rule, block_name: str, where: str) -> None:
        super().__init__(plan.fb)
        self.plan, self.rule, self.block_name, self.where = plan, rule, block_name, where

    def ref(self, r):
        k, rule = r.kind, self.rule
        if k == "role":
            p = f"P->{rule.refs[r.name]}"
            return (f"{p} != 0", EQ) if rule.ir.role_types.get(r.name) == Type.BOOL else (p, ATOM)
        if k == "param":
            return f"P->{r.name}", ATOM
        if k == "state":
            return rule.state[r.name].local, ATOM
        if k == "count":
            if rule.count is None:
                raise EmitError(f"rule {rule.name}: count without neighbours")
            return rule.count, ATOM
        if k == "self":
            return r.name, ATOM
        if k == "index":
            return ("f->count" if self.where == "init" else "i"), ATOM
        if k == "screen":
            return {"width": "BOIDS_WIDTH_FX", "height": "BOIDS_HEIGHT_FX"}[r.name], ATOM
        if k == "pair":
            return r.name, ATOM
        if k == "other":
            return f"o->{r.name}", ATOM
        if k == "world":
            section, fld = r.name.split(".")
            if section == "target":
                return ("f->target_on != 0", EQ) if fld == "on" else (f"f->target_{fld}", ATOM)
            return f"P->{getattr(getattr(self.plan.m.spec, section), fld)}", ATOM
        raise EmitError(f"rule {rule.name}: a {k} reference here")

    def local(self, name):
        return _ph(self.block_name, name)

    def sum(self, name):
        if name in self.rule.sums:
            return self.rule.sums[name]
        return _ph("sum", name)

    def ret(self):
        return self.plan.return_lines


@dataclass
class _Group:
    """Rules of one pair-loop test over boids that share a count."""
    key: tuple  # (test, coincident, pick); test: ('seed', zone) | ('radius', param, coincident)
    name: str  # for its variables: visual, protected, r_<p>, in_<p>, ...
    rules: list = field(default_factory=list)
    count: str | None = None
    near: str | None = None  # pick nearest: slot of the nearest, and near_d2_<name>


class FlockC:
    @staticmethod
    def indent(lines: list, n: int) -> str:
        """The lines indented by n spaces, joined (for the templates)."""
        return "\n".join((" " * n + ln) if ln else "" for ln in lines)

    def __init__(self, m) -> None:
        self.m = m
        self.fb = m.frac_bits
        self.grid = bool(m.spec.performance.grid and m.spec.update_order == "synchronous")
        self._taken = set(GENERATED)
        rules = [_Rule(r.index, r.name, r.ir, dict(r.refs)) for r in m.rules]
        seen: dict = {}
        for r in rules:
            seen[r.name] = seen.get(r.name, 0) + 1
        k: dict = {}
        for r in rules:
            k[r.name] = k.get(r.name, 0) + 1
            r.prefix = r.name if seen[r.name] == 1 else f"{r.name}_{k[r.name]}"
        self.rules = rules
        self._zones(rules)
        self._state(rules)
        self._sums(rules)
        self.return_lines = (["b->vx = vx;", "b->vy = vy;"]
                             + [f"b->{s.field} = {s.local};" for s in self.state]
                             + ["continue; /* return: no later code runs, the boid does not move */"])
        self.before = [(r.name, self._boid_block(r, "before")) for r in rules if r.ir.before]
        self.apply = [(r.name, self._apply(r)) for r in rules]
        self.pair_lines = self._pair_lines()
        self.after_pairs = self._after_pairs()
        self.predator_motion = self._predator_motion() if m.spec.predators else []

    # --- names -----------------------------------------------------------
    def _alloc(self, name: str) -> str:
        cand, k = name, 2
        while cand in self._taken:
            cand = f"{name}_{k}"
            k += 1
        self._taken.add(cand)
        return cand

    # --- zones -----------------------------------------------------------
    def _zones(self, rules) -> None:
        self.zone_range: dict = {}  # 'protected' / 'visual' -> range parameter
        self.radius: list = []  # (param, coincident) tests, first use first
        groups: dict = {}
        for r in rules:
            nb = r.ir.neighbours
            if nb is None:
                continue
            if nb.of != "boids":
                if nb.of not in KINDS:
                    raise EmitError(f"rule {r.name}: neighbours of {nb.of}")
                r.count = f"n_{nb.of}" if r.ir.reads_apply.count else None
                continue
            param = r.refs[nb.within]
            if nb.zone:
                self.zone_range.setdefault(nb.zone, param)
                test = ("seed", nb.zone)
                base = nb.zone + ("" if nb.coincident else "_apart")
            else:
                if (param, nb.coincident) not in self.radius:
                    self.radius.append((param, nb.coincident))
                test = ("radius", param, nb.coincident)
                base = ("r_" if not nb.coincident else "in_") + param
            key = (test, nb.coincident, nb.pick)
            if key not in groups:
                groups[key] = _Group(key, base + ("_nearest" if nb.pick == "nearest" else ""))
            g = groups[key]
            g.rules.append(r)
            r.group = key
        self.groups = groups
        for g in groups.values():
            if any(r.ir.reads_apply.count for r in g.rules):
                g.count = self._alloc(f"n_{g.name}")
            if g.key[2] == "nearest":
                g.near = self._alloc(f"near_{g.name}")
                self._alloc(f"near_d2_{g.name}")
            for r in g.rules:
                r.count = g.count
        radius_params = list(dict.fromkeys(p for p, _ in self.radius))
        self.seed_box = self.zone_range.get("visual") or self.zone_range.get("protected")
        self.box_ranges = ([self.seed_box] if self.seed_box else []) + radius_params
        self.has_pairs = bool(self.box_ranges)
        self.grid = self.grid and self.has_pairs
        self.r2 = {p: self._alloc(f"r2_{p}") for p in radius_params}
        c = []
        if self.has_pairs:
            if self.seed_box:
                c.append(f"const fx seed_box = P->{self.seed_box};")
            c.append(f"fx box = {'seed_box' if self.seed_box else 'P->' + radius_params[0]};")
            c += [f"const uint64_t {self.r2[p]} = fx_sq64(P->{p});" for p in radius_params]
        for z in ("protected", "visual"):
            if z in self.zone_range:
                c.append(f"const uint64_t {z}2 = fx_sq64(P->{self.zone_range[z]});")
        self.step_consts = c
        self.box_updates = [f"if (P->{p} > box) box = P->{p};" for p in radius_params]

    # --- state and sums --------------------------------------------------
    def _state(self, rules) -> None:
        owners: dict = {}
        for r in rules:
            for s in r.ir.state:
                owners.setdefault(s.name, []).append(r)
        self.state = []
        fields = {"x", "y", "vx", "vy"}
        for r in rules:
            for s in r.ir.state:
                base = s.name if len(owners[s.name]) == 1 else f"{r.prefix}_{s.name}"
                fld, k = base, 2
                while fld in fields:
                    fld, k = f"{base}_{k}", k + 1
                fields.add(fld)
                local = self._alloc(f"st_{fld}")
                ctype = {Type.FIXED: "fx", Type.INT: "int32_t"}.get(s.type)
                if ctype is None:
                    raise EmitError(f"rule {r.name}: state '{s.name}' of type {s.type}")
                sf = StateField(fld, local, ctype, "")
                r.state[s.name] = sf
                self.state.append(sf)
        for r in rules:  # initial values: after every field is named
            for s in r.ir.state:
                r.state[s.name].init = expr(s.initial, _RuleNames(self, r, "init", "init"))[0]

    def _sums(self, rules) -> None:
        decls = []
        for g in self.groups.values():
            if g.count:
                decls.append(f"int32_t {g.count} = 0;")
            if g.near:
                decls.append(f"int32_t {g.near} = -1;")
                decls.append(f"uint64_t near_d2_{g.name} = UINT64_MAX;")
        for r in rules:
            if r.group is None or not r.ir.sums:
                continue
            r.sums = {s.name: self._alloc(f"{r.prefix}_{s.name}") for s in r.ir.sums}
            decls.append("fx_acc " + ", ".join(f"{c} = 0" for c in r.sums.values()) + ";")
        self.boid_decls = decls

    # --- blocks ----------------------------------------------------------
    def _locals(self, r: _Rule, block_name: str) -> dict:
        return {lc.name: lc.type for lc in r.ir.locals if lc.block == block_name}

    def _boid_block(self, r: _Rule, block_name: str) -> list:
        stmts = getattr(r.ir, block_name)
        lines = block(stmts, self._locals(r, block_name), _RuleNames(self, r, block_name, "boid"))
        return _finish(_wrap(lines), r.prefix)

    def _apply(self, r: _Rule) -> list:
        nb = r.ir.neighbours
        if nb is None or nb.of == "boids":
            return self._boid_block(r, "apply")
        return _finish(self._entity_rule(r), r.prefix)

    def _entity_rule(self, r: _Rule) -> list:
        """A rule over predators, obstacles or food at its turn: its own loop
        over the kind, then its apply."""
        nb = r.ir.neighbours
        arr, cnt, elem = KINDS[nb.of]
        pair = r.ir.reads_each.pair
        test = []
        if not nb.coincident:
            test.append("d2 != 0")
        if nb.within:
            test.append("d2 < r2")
        need_d2 = bool(test) or "d2" in pair
        each = block(r.ir.each, self._locals(r, "each"), _RuleNames(self, r, "each", "entity"))
        out = []
        if r.ir.sums:
            out.append("fx_acc " + ", ".join(f"{_ph('sum', s.name)} = 0" for s in r.ir.sums) + ";")
        if nb.pick == "nearest":
            out.append("int32_t k, k_best = -1;" if not r.count else f"int32_t k, k_best = -1, {r.count} = 0;")
            out.append("uint64_t d2_best = " + (f"fx_sq64(P->{r.refs[nb.within]});" if nb.within else "UINT64_MAX;"))
            out.append(f"for (k = 0; k < f->{cnt}; k++) {{")
            out.append(f"    const {elem} *o = &f->{arr}[k];")
            out.append("    const uint64_t d2 = fx_d2(fx_sub(x, o->x), fx_sub(y, o->y));")
            out.append(f"    if ({'d2 != 0 && ' if not nb.coincident else ''}d2 < d2_best) {{")
            out += ["        d2_best = d2;", "        k_best = k;", "    }", "}"]
            body = [f"const {elem} *o = &f->{arr}[k_best];"] + _offsets(pair, False)
            if "d2" in pair:
                body.append("const uint64_t d2 = d2_best;")
            if "dist" in pair:
                body.append("const fx dist = fx_hypot(dx, dy);")
            if r.count:
                body.append(f"{r.count} = 1;")
            out += ["if (k_best >= 0) {"] + _ind(_then(body, each)) + ["}"]
        else:
            out.append(f"int32_t k{', ' + r.count + ' = 0' if r.count else ''};")
            if nb.within:
                out.append(f"const uint64_t r2 = fx_sq64(P->{r.refs[nb.within]});")
            out.append(f"for (k = 0; k < f->{cnt}; k++) {{")
            loop = [f"const {elem} *o = &f->{arr}[k];"] + _offsets(pair, need_d2)
            if need_d2:
                loop.append("const uint64_t d2 = fx_d2(dx, dy);")
            inner = []
            if "dist" in pair:
                inner.append("const fx dist = fx_hypot(dx, dy);")
            if r.count:
                inner.append(f"{r.count}++;")
            inner = _then(inner, each)
            if test:
                loop += [f"if ({' && '.join(test)}) {{"] + _ind(inner) + ["}"]
            else:
                loop += inner
            out += _ind(loop) + ["}"]
        apply = block(r.ir.apply, self._locals(r, "apply"), _RuleNames(self, r, "apply", "boid"))
        return ["{"] + _ind(_then(out, apply)) + ["}"]

    # --- the pair loop ---------------------------------------------------
    def _each(self, r: _Rule) -> list:
        lines = block(r.ir.each, self._locals(r, "each"), _RuleNames(self, r, "each", "pair"))
        return _finish(_wrap(lines, r.name), r.prefix)

    def _branch(self, groups: list) -> list:
        """The body of one zone test: dist if read, then each group."""
        out = []
        if any("dist" in r.ir.reads_each.pair for g in groups if not g.near for r in g.rules):
            out.append("const fx dist = fx_hypot(dx, dy);")
        for g in groups:
            seed_apart = g.key[0][0] == "seed" and not g.key[1]
            if g.near:
                better = f"d2 < near_d2_{g.name}"
                if self.grid:
                    better = (f"{better} || (d2 == near_d2_{g.name} && {g.near} >= 0"
                              f" && grid_order[j] < grid_order[{g.near}])")
                if seed_apart:
                    better = f"d2 != 0 && ({better})"
                out += [f"if ({better}) {{", f"    near_d2_{g.name} = d2;", f"    {g.near} = j;", "}"]
                continue
            body = [f"{g.count}++;"] if g.count else []
            for r in g.rules:
                body += self._each(r)
            out += ["if (d2 != 0) {"] + _ind(body) + ["}"] if seed_apart else body
        return out

    def _pair_lines(self) -> list:
        if not self.has_pairs:
            return []
        by_test: dict = {}
        for g in self.groups.values():
            by_test.setdefault(g.key[0], []).append(g)
        out = []
        chain = []
        for z in ("protected", "visual"):
            gs = by_test.get(("seed", z))
            if gs:
                chain.append((f"d2 < {z}2", self._branch(gs)))
        seed = []
        for k, (test, body) in enumerate(chain):
            seed.append(f"if ({test}) {{" if k == 0 else f"}} else if ({test}) {{")
            seed += _ind(body)
        if chain:
            seed.append("}")
            if self.radius:
                out += ["if (fx_abs(dx) < seed_box && fx_abs(dy) < seed_box) {"] + _ind(seed) + ["}"]
            else:
                out += seed
        for p, coincident in self.radius:
            gs = by_test[("radius", p, coincident)]
            test = f"d2 < {self.r2[p]}" if coincident else f"d2 != 0 && d2 < {self.r2[p]}"
            out += [f"if ({test}) {{"] + _ind(self._branch(gs)) + ["}"]
        return out

    def _after_pairs(self) -> list:
        out = []
        for g in self.groups.values():
            if not g.near:
                continue
            pair = set()
            for r in g.rules:
                pair |= r.ir.reads_each.pair
            body = [f"const boid_t *o = &others[{g.near}];"] + _offsets(pair, False)
            if "d2" in pair:
                body.append(f"const uint64_t d2 = near_d2_{g.name};")
            if "dist" in pair:
                body.append("const fx dist = fx_hypot(dx, dy);")
            if g.count:
                body.append(f"{g.count} = 1;")
            for r in g.rules:
                body += self._each(r)
            out += [f"if ({g.near} >= 0) {{"] + _ind(body) + ["}"]
        return out

    # --- the predators ---------------------------------------------------
    def _predator_motion(self) -> list:
        from ..model import library

        lib = library(self.fb)
        pr = self.m.predator_rules
        out = []
        for name, ent in (("edges", pr.edges), ("speed_limit", pr.speed_limit)):
            r = _Rule(-1, name, lib[name], dict(ent.refs), prefix=name)
            lines = block(r.ir.apply, self._locals(r, "apply"), _RuleNames(self, r, "apply", "predator"))
            out += _finish(_wrap(lines), r.prefix)
        return out


def flock_c(m) -> FlockC:
    """The C of the spec's rules for the firmware templates."""
    return FlockC(m)
