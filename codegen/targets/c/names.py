"""Names and layout for the C emitter (codegen/targets/c/emit.py): how one
rule's IR names print where its code lands, and how the C names of what a
rule defines are chosen so they never collide.

A rule's locals (and its sums over predators, obstacles or food) print as
placeholders; `finish` then gives each the local's own name unless the C
block it lands in already uses that identifier (or it is one the generator
or a macro may use), in which case `<rule>_<name>`. Sums over boids and
state copies live beside every other rule's in the boid loop and are named
by FlockC's allocator: `<rule>_<sum>`, `st_<state>`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from codegen.targets.c.expr import ATOM, EQ, EmitError, Names
from codegen.lang.ir import Type

# kind -> (flock_t array, count field, element type)
KINDS = {"predators": ("predator", "predator_count", "mover_t"),
         "obstacles": ("obstacle", "obstacle_count", "obstacle_t"),
         "food": ("food", "food_count", "mover_t"),
         "boids": ("b", "count", "boid_t")}  # from a mover's own rule (predators_step, food_step)
# a mover's own rules print with `where` = its kind's: predator (predators_step), food (food_step)
MOVER_KIND = {"predator": "predators", "food": "food"}

# Identifiers the flock code itself declares or reads (boids_flock.c.j2 and
# the code below), so no emitted name takes one.
GENERATED = frozenset("""
f r P n i j k s b o p x y vx vy dx dy d2 dist box seed_box others previous cell cols rows cells
gx gy gr x0 x1 y0 y1 c seg nseg o_end o_stop box_bias box_lim ylim band_box protected2 visual2 tries lo hi tx ty want range range2 best best_d2
hx hy hd2 sx sy seen band_order band_cur band_of band_start band_order_n band_win band_sort band_window
band_window_hi band_window_start grid_band recip spawn_velocity memcpy memset
k_best d2_best r2 a q me ord ord_end slot band_sums w_end mdx mdy mdist pair_ring pair_ring_t fx fx_acc int32_t uint32_t int64_t uint64_t size_t boid_t mover_t obstacle_t
flock_t rng_t boids_params boids_params_t
part ring wk gy_from gy_to split_band split_band_of split_at upd_from cross walk_to
""".split()) | {f"{n}{k}" for n in ("a", "q") for k in range(8)} | {f"pair_plane{k}_t" for k in range(8)}
# 8 above: codegen/passes/pairs_once.py's MAX_PLANES
RESERVED_PREFIXES = ("fx_", "boids_", "rng_", "BOIDS_", "FX_")
# What a rule's C block may reference without spelling it: macro expansions
# (BOIDS_MAG -> fx_hypot / fx_amb((x), (y), ((fx)alpha), ...)) and the types.
IMPLICIT = frozenset({"fx", "fx_acc", "fx_acc32", "int32_t", "uint32_t", "int64_t", "uint64_t"})

_PH = re.compile(r"\x00([a-z]+)\.([a-z0-9_]+)\x00")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def ph(block_name: str, name: str) -> str:
    return f"\x00{block_name}.{name}\x00"


def reserved(name: str) -> bool:
    return name in IMPLICIT or name.startswith(RESERVED_PREFIXES)


def finish(lines: list, prefix: str) -> list:
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
        if cand in taken or reserved(cand):
            cand = f"{prefix}_{name}"
        k = 2
        while cand in taken or reserved(cand):
            cand = f"{prefix}_{name}_{k}"
            k += 1
        taken.add(cand)
        final[key] = cand
    return _PH.sub(lambda mo: final[(mo.group(1), mo.group(2))], text).split("\n")


_DECL = ("fx ", "int32_t ", "int ", "uint64_t ", "fx_acc ", "fx_acc32 ", "const ")


def is_decl(line: str) -> bool:
    return line.lstrip().startswith(_DECL)


def wrap(lines: list, comment: str | None = None) -> list:
    """A rule's code as its own C block when it declares something at its top."""
    head = [f"/* {comment} */"] if comment else []
    if lines and is_decl(lines[0]):
        return head + ["{"] + ind(lines) + ["}"]
    return head + lines


def then(first: list, code: list) -> list:
    """`first`, then `code`; code in its own block if it declares something
    and `first` holds a statement (declarations stay at a block's top)."""
    if code and is_decl(code[0]) and any(not is_decl(ln) for ln in first):
        return first + wrap(code)
    return first + code


def offsets(pair: set, need_d2: bool) -> list:
    """The declaration of the offsets (self - other) that are read."""
    want = [v for v in ("dx", "dy") if need_d2 or "dist" in pair or v in pair]
    if not want:
        return []
    axis = {"dx": "x", "dy": "y"}
    return ["const fx " + ", ".join(f"{v} = fx_sub({axis[v]}, o->{axis[v]})" for v in want) + ";"]


def ind(lines: list, n: int = 1) -> list:
    return [("    " * n + ln) if ln else ln for ln in lines]


@dataclass
class StateField:
    field: str  # boid_t member
    local: str  # its copy in the boid loop (st_<field>)
    ctype: str
    init: str  # C of the initial value at spawn (index: f->count)


@dataclass
class Rule:
    index: int
    name: str
    ir: object  # RuleIR
    refs: dict
    prefix: str = ""
    state: dict = field(default_factory=dict)  # state name -> StateField
    sums: dict = field(default_factory=dict)  # sum name -> C name (sums over boids)
    count: str | None = None  # C of `count` (zone count, or the rule's own)
    group: tuple | None = None  # its pair-loop group, over boids
    draws: list = field(default_factory=list)  # C names of its PRNG draws, in order (emit.py: draws)


class RuleNames(Names):
    """Names of one rule at one place: `where` is boid (before, apply), pair
    (each over boids), mirror (each over boids from the other boid's side:
    codegen/targets/c/mirror.py), entity (each over another kind), init (a
    state's initial value at spawn) or predator (predators_step)."""

    def __init__(self, plan, rule: Rule, block_name: str, where: str) -> None:
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
            return (f"o->{r.name}" if self.where == "mirror" else r.name), ATOM
        if k == "index":
            if self.where == "mirror":
                raise EmitError(f"rule {rule.name}: index from the other boid's side")
            if self.where == "init":
                return "f->count", ATOM
            if self.where not in MOVER_KIND:  # the movers' loops have an i of their own
                self.plan.reads_index = True  # the grid's boid loop then derives i from the boid's slot
            return "i", ATOM
        if k == "draw":  # drawn at the boid's turn (emit.py: FlockC._draws)
            return rule.draws[int(r.name)], ATOM
        if k == "screen":
            return {"width": "BOIDS_WIDTH_FX", "height": "BOIDS_HEIGHT_FX"}[r.name], ATOM
        if k == "pair":
            return ("m" + r.name if self.where == "mirror" and r.name != "d2" else r.name), ATOM
        if k == "other":
            if self.where == "mirror":  # the boid being updated, as the frame started
                return (r.name if self.plan.start_locals else f"me->{r.name}"), ATOM
            return f"o->{r.name}", ATOM
        if k == "world":
            section, fld = r.name.split(".")
            if section == "target":
                return ("f->target_on != 0", EQ) if fld == "on" else (f"f->target_{fld}", ATOM)
            return f"P->{getattr(getattr(self.plan.m.spec, section), fld)}", ATOM
        raise EmitError(f"rule {rule.name}: a {k} reference here")

    def local(self, name):
        return ph(self.block_name, name)

    def sum(self, name):
        if name in self.rule.sums:
            if self.where == "mirror":
                from codegen.targets.c.ring import ref

                return ref(self.plan, "q", self.rule.sums[name])
            return self.rule.sums[name]
        return ph("sum", name)

    def ret(self):
        return self.plan.return_lines

    def mean32(self, op):
        if self.plan.mean_entries is None:  # the mean divides (fx_acc32_mean: the M4K's div)
            return super().mean32(op)
        from codegen.targets.c.means import call

        fn = call(op)  # the table's (mean_table recorded its length)
        self.plan.means_called.add(fn)
        return fn

    def mean_recip(self, count: str) -> str:
        return self.plan.mean_recip(count)
