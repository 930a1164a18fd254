"""What a name means inside a rule's blocks, and which names a rule may define.

Lookup order (the first that matches wins):
  each:   its locals; [sums: an error to read]; roles; dx dy d2 dist; x y
          (vx vy only for kinds other than boids); index; width height;
          spec parameters
  apply:  its locals; state; sums; count; roles; x y vx vy; index; width
          height; spec parameters
  before: as apply, without sums and count (it runs ahead of the neighbours)
  init:   (a state's initial value) roles; index; width height; parameters
Roles shadow the language's read-only names (the issue's `wind` takes roles
named x and y): the boid's own fields stay reachable as self.x self.y
self.vx self.vy. Roles may also shadow a function (speed_limit's roles are
`min` and `max`); the function is then not callable in that rule. Roles may
not be named vx, vy (what a rule changes) or self, other, dx, dy, d2, dist,
count (each's names).

Attributes: other.<field> (each only; per kind: boids, predators and food
have x y vx vy, obstacles x y r; a boid neighbour also the state its rule
declares: other.<state>), self.<field>, and <section>.<field> for a
section the rule declares in `uses:` (target: x y on; ledge: y left right;
scouts: group1 group2). Nothing else has attributes.

Names a rule defines (state, sums, locals) must be free: not a name of the
language, not a role or spec parameter, and acceptable to
codegen.spec.names.identifier_problem (no C or Python keyword, macro of the C
headers, name of fixed.h or the runtime, or name the generated code uses);
a state's C copy `st_<name>` must be free too (names.state_name_problem).
"""
from __future__ import annotations

import difflib

from codegen.spec.names import identifier_problem, state_name_problem
from codegen.lang.ir import Pos, Ref, Type
from codegen.lang.tvar import resolve

F, I, B, SQ = Type.FIXED, Type.INT, Type.BOOL, Type.SQUARE

SELF_FIELDS = {"x": F, "y": F, "vx": F, "vy": F}
PAIR = {"dx": F, "dy": F, "d2": SQ, "dist": F}
SCREEN = {"width": F, "height": F}
KINDS = {
    "boids": {"x": F, "y": F, "vx": F, "vy": F},
    "predators": {"x": F, "y": F, "vx": F, "vy": F},
    "food": {"x": F, "y": F, "vx": F, "vy": F},
    "obstacles": {"x": F, "y": F, "r": F},
}
SECTIONS = {
    "target": {"x": F, "y": F, "on": B},
    "ledge": {"y": F, "left": F, "right": F},
    "scouts": {"group1": I, "group2": I},
}
FUNCTIONS = {"abs": 1, "min": 2, "max": 2, "clamp": 3, "sign": 1, "sqrt": 1, "hypot": 2, "mag": 2,
             "sq": 1, "fixed": 1, "int": 1, "random": 0, "random_int": 2,
             "sin": 1, "cos": 1, "atan2": 2, "unit": 2, "rotate": 3}
# functions of two values, only as `a, b = f(...)` (parse.py lowers it to their components)
PAIRS = {"unit": ("unit_x", "unit_y"), "rotate": ("rotate_x", "rotate_y")}
COMPONENTS = {c: FUNCTIONS[f] for f, cs in PAIRS.items() for c in cs}
# functions that draw from the PRNG: only per boid (before, apply), never in each (the pair loop)
DRAWS = frozenset({"random", "random_int"})
ROLE_RESERVED = frozenset({"vx", "vy", "self", "other", "dx", "dy", "d2", "dist", "count"})
LANGUAGE = frozenset(SELF_FIELDS) | set(PAIR) | set(SCREEN) | {"self", "other", "count", "index"}


def hint(name: str, candidates) -> str:
    near = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f" (did you mean '{near[0]}'?)" if near else ""


class Scope:
    """The names visible to one rule; `block` is set by the checker as it goes."""

    def __init__(self, roles: dict, params: dict, state: dict, neighbours, uses: frozenset) -> None:
        self.roles = roles  # name -> Type
        self.params = {k: v for k, v in params.items() if k not in roles}
        self.state = state  # name -> type (or a TVar while inferring)
        self.neighbours = neighbours  # ir.Neighbours or None
        self.uses = uses
        self.sums: dict = {}  # name -> element type (FIXED / INT, or a TVar)
        self.locals: dict = {"before": {}, "each": {}, "apply": {}, "init": {}}
        self.block = "apply"
        self.reads: dict = {}  # block -> {category: set}
        self.assigned: set | None = None  # locals surely assigned here (final pass only)
        self.writes: set = set()  # vx vy and state names apply assigns
        self.draws = 0  # PRNG draws so far (random, random_int), numbered in source order

    # --- reading ---
    def read(self, name: str, pos: Pos) -> Ref | str:
        b = self.block
        if name in self.locals[b]:
            if self.assigned is not None and name not in self.assigned:
                return f"'{name}' may be read before it is assigned (assign it on every path first)"
            return self._ref("local", name, self.locals[b][name], pos)
        if b in ("before", "apply") and name in self.state:
            return self._ref("state", name, self.state[name], pos)
        if name in self.sums:
            if b == "each":
                return f"'{name}' is a neighbour sum: it cannot be read inside each (only in apply)"
            if b == "before":
                return f"'{name}' is a neighbour sum: before runs ahead of the neighbours (read it in apply)"
            if b == "apply":
                elem = resolve(self.sums[name])
                return self._ref("sum", name, Type.SUM_INT if elem == I else Type.SUM_FIXED, pos)
        if name == "count" and b == "apply" and self.neighbours is not None:
            return self._ref("count", "count", I, pos)
        if name in self.roles:
            return self._ref("role", name, self.roles[name], pos)
        if name in PAIR:
            if b != "each":
                return f"'{name}' exists only inside each (the offset to one neighbour)"
            return self._ref("pair", name, PAIR[name], pos)
        if name in SELF_FIELDS:
            return self.self_field(name, pos)
        if name == "index":
            return self._ref("index", name, I, pos)
        if name in SCREEN:
            return self._ref("screen", name, SCREEN[name], pos)
        if name in self.params:
            return self._ref("param", name, self.params[name], pos)
        return self._unknown(name)

    def self_field(self, name: str, pos: Pos) -> Ref | str:
        b = self.block
        if name not in SELF_FIELDS:
            return f"the boid has no field '{name}' (fields: x, y, vx, vy){hint(name, SELF_FIELDS)}"
        if b == "init":
            return f"'{name}': a state's initial value is computed at spawn from numbers, roles, parameters and index"
        if name in ("vx", "vy") and b == "each" and self.neighbours and self.neighbours.of == "boids":
            return (f"'{name}' cannot be read inside each over boids: the pair loop runs before every rule "
                    "changes the velocity (read it in apply)")
        return self._ref("self", name, SELF_FIELDS[name], pos)

    def attr(self, base: str, fld: str, pos: Pos) -> Ref | str:
        if base == "self":
            return self.self_field(fld, pos)
        if base == "other":
            if self.block != "each":
                return f"other.{fld} exists only inside each (the neighbour being visited)"
            kind = self.neighbours.of
            fields = KINDS[kind]
            if kind == "boids" and fld in self.state and fld not in fields:  # the neighbour's declared state
                return self._ref("other", fld, self.state[fld], pos)
            if fld not in fields:
                names = [*fields, *(self.state if kind == "boids" else ())]
                return (f"{kind} have no field '{fld}' (fields: {', '.join(names)}"
                        f"{'' if kind != 'boids' else '; and the state this rule declares'}){hint(fld, names)}")
            return self._ref("other", fld, fields[fld], pos)
        if base in SECTIONS:
            if base not in self.uses:
                return f"'{base}' is not declared: add `uses: [{base}]` to the rule definition"
            fields = SECTIONS[base]
            if fld not in fields:
                return f"{base} has no field '{fld}' (fields: {', '.join(fields)}){hint(fld, fields)}"
            return self._ref("world", f"{base}.{fld}", fields[fld], pos)
        return (f"'{base}.{fld}': only other.<field>, self.<field> and declared sections have fields"
                f"{hint(base, ['other', 'self', *self.uses])}")

    def note_read(self, ref: Ref) -> None:
        self.reads.setdefault(self.block, {}).setdefault(ref.kind, set()).add(ref.name)

    def _ref(self, kind: str, name: str, ty, pos: Pos) -> Ref:
        self.reads.setdefault(self.block, {}).setdefault(kind, set()).add(name)
        return Ref(kind, name, ty, pos)

    def _unknown(self, name: str) -> str:
        if name in FUNCTIONS:
            return f"'{name}' is a function: call it, {name}(...)"
        if name in SECTIONS:
            return f"'{name}' is a section: read its fields, such as {name}.{next(iter(SECTIONS[name]))}"
        if name == "count":
            if self.neighbours is None:
                return "'count' needs neighbours: declare `neighbours:` to count them"
            return "'count' is the number of neighbours: read it in apply"
        if name in self.state:
            return f"'{name}' is state: it can be read and written in before and apply only"
        if name in ("other", "self"):
            return f"'{name}' has fields: {name}.x, {name}.y, ..."
        if name in self.locals["each"] and self.block != "each":
            return f"'{name}' is a local of each (one neighbour's value): sum it with += to use it in apply"
        return f"unknown name '{name}'{hint(name, self.visible())}"

    def visible(self) -> list:
        b = self.block
        names = list(self.locals[b]) + list(self.roles) + list(self.params) + list(SCREEN) + ["index"]
        names += list(SELF_FIELDS)
        if b == "before":
            names += list(self.state)
        if b == "apply":
            names += list(self.state) + list(self.sums) + (["count"] if self.neighbours else [])
        if b == "each":
            names += list(PAIR)
        return names

    # --- defining ---
    def define_problem(self, name: str, what: str) -> str | None:
        """Why `name` cannot be a new state variable, sum or local (`what`)."""
        if name in self.roles:
            return f"'{name}' is a role of this rule: roles are read-only"
        if name in self.params:
            return f"'{name}' is a spec parameter: parameters are read-only"
        if name in ("x", "y"):
            return f"'{name}' is the boid's position: read-only (the move follows the rules)"
        if name in LANGUAGE or name in FUNCTIONS or name in SECTIONS:
            return f"'{name}' is a name of the rule language: choose another name for the {what}"
        why = state_name_problem(name) if what == "state variable" else identifier_problem(name)
        if why:
            return f"{why}; choose another name for the {what}"
        return None
