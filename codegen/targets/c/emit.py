"""The C emitter: a spec's rules, printed from their IR, placed in boids_step.

`FlockC(m)` is what codegen/targets/c/templates/firmware/boids_flock.c.j2 (and .h.j2)
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
  predator_motion  the predators' own rules (m.predator_motion: edges, then
                predators.speed if any, with the predators' parameters)

Names. Sums over boids live beside every other rule's in the boid loop:
`<rule>_<sum>`. A rule's locals (and its sums over other kinds) keep their
own names inside the rule's C block unless the block already uses that
identifier, then `<rule>_<name>`. A rule listed twice is `<rule>_<k>`.
Expressions and statements: codegen/targets/c/expr.py.

Passes. FlockC prints a model the passes have already lowered (the rules'
IR as the C target's pass list left it: codegen/passes/pipeline.py,
codegen/targets/pic32/pass_list.py); which of the printer's layouts it
uses is `on`, the names of the passes that ran (PRINT_SWITCHES).
"""
from __future__ import annotations

import re

from codegen.targets.c import pairs
from codegen.passes import mean_table
from codegen.passes import pairs_once
from codegen.passes import window_sums
from codegen.targets.c.expr import EmitError, block, expr
from codegen.targets.c.names import GENERATED, KINDS, Rule, RuleNames, StateField, finish, wrap
from codegen.targets.c.pairs import Group
from codegen.lang.ir import Type

# The passes (by name) whose results are layouts of the printed loop, read here
# and in emit_c_pairs.py / the templates: zones_hilo (fx_d2_zones), zone_apart (the
# once-only grid's pairs apart), window_sums, mean_table, ring_sched and gcc_o1_hints
# (FX_LOADED / FX_LIKELY: GCC -O1's scheduling); pairs_once arrives as `once`.
PRINT_SWITCHES = ("zones_hilo", "zone_apart", "window_sums", "mean_table", "ring_sched", "gcc_o1_hints")


class FlockC:
    """The C of a spec's rules (see the module's docstring for the parts)."""

    @staticmethod
    def indent(lines: list, n: int) -> str:
        """The lines indented by n spaces, joined (for the templates)."""
        return "\n".join((" " * n + ln) if ln else "" for ln in lines)

    def __init__(self, m, low=None, once: bool = False, on=PRINT_SWITCHES) -> None:
        # `low`: m as the passes left it (offsets, roots, widths, and the C's own c_positions;
        # guards.py's guarded copy for that copy); `on`: the passes that ran (PRINT_SWITCHES)
        m = low if low is not None else m
        self.m = m
        self.on = frozenset(on)
        self.hints = "gcc_o1_hints" in self.on  # FX_LOADED / FX_LIKELY (the templates read it too)
        self.fb = m.frac_bits
        self.grid = bool(m.spec.performance.grid and m.spec.update_order == "synchronous")
        self.reads_index = False  # a rule reads the boid's index (names.RuleNames)
        self._taken = set(GENERATED)
        self.means_called: set = set()  # names.RuleNames.mean32
        self.recips: dict = {}  # a boid group's count -> its reciprocal's local (mean_recip)
        rules = [Rule(r.index, r.name, r.ir, dict(r.refs)) for r in m.rules]
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
        self.boid_bytes = pairs_once.boid_bytes(self)
        self._sums(rules)
        # each pair once (pairs_once.py): asked for, and the rules allow it
        self.once = once and pairs_once.refusal(self) is None
        # the once-only grid's protected range as a word: |dx| or |dy| at least it rules the zone out
        self.apart = None
        self.visual_hi = None  # visual^2's high word, where the window's pairs apart test by it (below)
        if self.once and self.grid and "zone_apart" in self.on and pairs.apart_from(self):
            self.apart = self.zone_hilo.r if self.zone_hilo else self._alloc("zone_near")
            if not self.zone_hilo:
                self.step_consts.append(f"const fx {self.apart} = P->{self.zone_range['protected']};")
        # x y vx vy in the pair loop are still the frame's start (no before writes them):
        # the mirror reads the boid from them, not from memory
        self.start_locals = not any(r.ir.before for r in rules)
        self.ring = pairs_once.ring_size(m.spec.flock.capacity, pairs_once.entry_bytes(self)) if self.once else 0
        # a ring short of the capacity: the copy may refuse a frame, and the full loop runs it
        self.refuses = self.once and self.ring < m.spec.flock.capacity
        if self.once:
            self.boid_decls = pairs_once.boid_decls(self, "me" if self.grid else "others + i")
        self.ring_typedef = pairs_once.typedef(self) if self.once else []
        self.return_lines = (["b->vx = vx;", "b->vy = vy;"]
                             + [f"b->{s.field} = {s.local};" for s in self.state]
                             + ["continue; /* return: no later code runs, the boid does not move */"])
        self.before = [(r.name, self._boid_block(r, "before")) for r in rules if r.ir.before]
        self.apply = [(r.name, self._apply(r)) for r in rules]
        self.pair_lines = pairs.pair_lines(self)
        # the own band by its window's sums (window_sums.py): the once-only grid loop's
        self.window = window_sums.group(self) if "window_sums" in self.on else None
        if self.window:
            self.pair_lines_window = pairs.pair_lines(self, self.window)
            self.window_walk = window_sums.walk(self, self.window)
            self.window_corrections = window_sums.corrections(self, self.window)
            self.window_struct = window_sums.struct(self.window)
            self.window_reset = window_sums.reset(self.window)
        # and apart: the once-only grid's pairs known outside the protected zone (pairs.apart_from);
        # the window's among them test visual^2 by d2's high word (fx_d2_hi: a compare, not an msub)
        if self.window and self.apart and self.zone_hilo:
            self.visual_hi = self._alloc("zone_v2hi")
            self.step_consts.append(f"const uint32_t {self.visual_hi} = fx_sq_hi(P->{self.zone_range['visual']});")
        self.pair_lines_apart = pairs.pair_lines(self, apart=True) if self.apart else []
        self.pair_lines_window_apart = pairs.pair_lines(self, self.window, apart=True) if self.window and self.apart else []
        # the squared distance, where something after the box test still reads it
        self.pair_reads_d2 = any(re.search(r"\bd2\b", ln) for ln in self.pair_lines)
        self.after_pairs = pairs.after_pairs(self)
        self.predator_motion = self._predator_motion() if m.spec.predators else []
        # the 32-bit means' reciprocals, if the code printed above divides by a count (mean_table.py)
        self.mean_table = mean_table.lines(m.spec.flock.capacity, self.means_called) if "mean_table" in self.on else []

    # --- names -----------------------------------------------------------
    def mean_recip(self, count: str) -> str:
        """The reciprocal a 32-bit mean by `count` multiplies by (mean_table.py).
        A boid group's count is final once the pair loop ends, so its
        reciprocal is looked up once a boid, into a local (recip_decls,
        printed after the loop; GCC at -O1 would load it at every mean);
        any other count (a nearest pick's, an entity loop's) where it is read."""
        final = {g.count for g in self.groups.values() if g.count and g.key[2] != "nearest"}
        if count not in final:
            return f"boids_recip_of({count})"
        if count not in self.recips:
            self.recips[count] = self._alloc(f"{count}_recip")
        return self.recips[count]

    @property
    def recip_decls(self) -> list:
        return [f"const uint32_t {v} = boids_recip_of({c});" for c, v in self.recips.items()]

    def alloc_name(self, name: str) -> str:
        """A C name no other emitted name takes."""
        return self._alloc(name)

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
                groups[key] = Group(key, base + ("_nearest" if nb.pick == "nearest" else ""))
            g = groups[key]
            g.rules.append(r)
            r.group = key
        self.groups = groups
        for g in groups.values():
            if any(r.ir.reads_apply.count for r in g.rules):
                g.count = self._alloc(f"n_{g.name}")
            if g.key[2] == "nearest":
                g.near = self._alloc(f"near_{g.name}")
                g.near_d2 = self._alloc(f"near_d2_{g.name}")
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
        # the names fx_d2_zones works with, where it tests the zones (emit_c_pairs.ZoneHiLo)
        self.zone_hilo = None
        if "zones_hilo" in self.on and pairs.zones_in_hilo(self.m, self.zone_range):
            z = self.zone_hilo = pairs.ZoneHiLo(*(self._alloc(n) for n in
                                                  ("zone_a", "zone_b", "in_protected", "in_visual", "zone_r")))
            pr, vr = self.zone_range["protected"], self.zone_range["visual"]
            c.append(f"const fx {z.r} = P->{pr}, {z.a} = fx_sub(P->{vr}, {z.r}), {z.b} = fx_add(P->{vr}, {z.r}); "
                     f"/* fx_d2_zones: visual^2 = protected^2 + a*b */")
        else:
            for z in ("protected", "visual"):
                if z in self.zone_range:
                    c.append(f"const uint64_t {z}2 = fx_sq64(P->{self.zone_range[z]});")
        self.step_consts = c
        self.box_updates = [f"if (P->{p} > box) box = P->{p};" for p in radius_params]

    # --- state and sums --------------------------------------------------
    def _state(self, rules) -> None:
        """One boid_t field per state name: rules that declare the same name
        share it, with the first declaration's type and initial value (as the
        simulator's kernel does, and as trace rows name state)."""
        self.state = []
        first: dict = {}
        for r in rules:
            for s in r.ir.state:
                if s.name not in first:
                    ctype = {Type.FIXED: "fx", Type.INT: "int32_t"}.get(s.type)
                    if ctype is None:
                        raise EmitError(f"rule {r.name}: state '{s.name}' of type {s.type}")
                    sf = StateField(s.name, self._alloc(f"st_{s.name}"), ctype, "")
                    first[s.name] = (sf, r, s)
                    self.state.append(sf)
                r.state[s.name] = first[s.name][0]
        for sf, r, s in first.values():  # initial values: after every field is named
            sf.init = expr(s.initial, RuleNames(self, r, "init", "init"))[0]

    def _sums(self, rules) -> None:
        decls = []
        for g in self.groups.values():
            if g.count:
                decls.append(f"int32_t {g.count} = 0;")
            if g.near:
                decls.append(f"int32_t {g.near} = -1;")
                decls.append(f"uint64_t {g.near_d2} = UINT64_MAX;")
        for r in rules:
            if r.group is None or not r.ir.sums:
                continue
            r.sums = {s.name: self._alloc(f"{r.prefix}_{s.name}") for s in r.ir.sums}
            for ctype, bits in (("fx_acc", 64), ("fx_acc32", 32)):  # 32: codegen/passes/widths.py
                names = [r.sums[s.name] for s in r.ir.sums if s.bits == bits]
                if names:
                    decls.append(f"{ctype} " + ", ".join(f"{c} = 0" for c in names) + ";")
        self.boid_decls = decls

    # --- blocks ----------------------------------------------------------
    def locals_of(self, r: Rule, block_name: str) -> dict:
        return {lc.name: lc.type for lc in r.ir.locals if lc.block == block_name}

    def _boid_block(self, r: Rule, block_name: str) -> list:
        stmts = getattr(r.ir, block_name)
        lines = block(stmts, self.locals_of(r, block_name), RuleNames(self, r, block_name, "boid"))
        return finish(wrap(lines), r.prefix)

    def _apply(self, r: Rule) -> list:
        nb = r.ir.neighbours
        if nb is None or nb.of == "boids":
            return self._boid_block(r, "apply")
        return finish(pairs.entity_rule(self, r), r.prefix)

    # --- the predators ---------------------------------------------------
    def _predator_motion(self) -> list:
        out = []
        for mr in self.m.predator_motion:
            r = Rule(-1, mr.name, mr.ir, dict(mr.refs), prefix=mr.name)
            lines = block(r.ir.apply, self.locals_of(r, "apply"), RuleNames(self, r, "apply", "predator"))
            out += finish(wrap(lines), r.prefix)
        return out

