"""The C emitter: a spec's rules, printed from their IR, placed in boids_step.

`FlockC(m)` is what codegen/targets/c/templates/firmware/boids_flock.c.j2 (and .h.j2)
render; the template keeps the frame's shape (spawn, update orders, grid,
entities) and takes every rule's code from here:

  state         per-boid state: boid_t fields, their st_ copies, the C of
                their initial value at spawn
  step_consts   boids_step's pair-loop constants (box, squared ranges)
  boid_decls    per boid: zone counts, neighbour sums (fx_acc, zeroed)
  draw_decls    per boid: its rules' PRNG draws (random(), random_int()), all of
                them at its turn in index order: drawn there (rng_next), or with
                the grid (bands, not index order) read from `draws_ahead`, which
                draws every boid's before the bands run (boids_draws[])
  before        per rule with `before`, in spec order (return: the boid is
                stored as it stands and the loop continues)
  pair_lines    the fused pair loop's body after the box test: the seed's
                zone chain (protected / visual else-if), then one test per
                radius zone (within, coincident); every rule's `each` in its zone
  after_pairs   pick-nearest neighbours, visited once the loop is done
  apply         per rule, in spec order: its `apply` (over predators,
                obstacles or food: first its own loop, at its turn)
  predator      the predators' own rules (m.predator_motion: the hunt,
                edges with the predators' parameters, then their rules) and state
  food          the food's own rules (m.food_motion), before it drifts (movers.py)

Names. Sums over boids live beside every other rule's in the boid loop:
`<rule>_<sum>`. A rule's locals (and its sums over other kinds) keep their
own names inside the rule's C block unless the block already uses that
identifier, then `<rule>_<name>`. A rule listed twice is `<rule>_<k>`.
Expressions and statements: codegen/targets/c/expr.py.

Passes. FlockC prints a model the passes have already lowered (the rules'
IR as the C target's pass list left it: codegen/passes/pipeline.py,
codegen/targets/pic32/pass_list.py) and what they decided, recorded on
their Lowered (`plan`): the ring (ring.py), the zones' tests (pairs.py),
the window's group (window.py), the mean table (means.py), a target's
scheduling (mirror_sched, hints). It imports no pass but pipeline's
types, and no decision is made here.
"""
from __future__ import annotations

import re

from codegen.lang.zone_groups import boid_bytes, zone_form
from codegen.passes.pipeline import Lowered
from codegen.targets.c import means, pairs, ring, window
from codegen.targets.c.expr import EmitError, block, expr
from codegen.targets.c.names import GENERATED, KINDS, Rule, RuleNames, StateField, finish, wrap
from codegen.targets.c.movers import mover_c
from codegen.targets.c.pairs import Group
from codegen.lang.ir import Type


class FlockC:
    """The C of a spec's rules (see the module's docstring for the parts)."""

    @staticmethod
    def indent(lines: list, n: int) -> str:
        """The lines indented by n spaces, joined (for the templates)."""
        return "\n".join((" " * n + ln) if ln else "" for ln in lines)

    def __init__(self, m, low=None, once: bool = False, plan: Lowered | None = None, flagged: bool = False) -> None:
        # `low`: m as the passes left it (offsets, roots, widths, and the C's own c_positions;
        # guards.py's guarded copy for that copy); `plan`: what the passes decided (None: nothing,
        # the plain loop); `once`: this is the copy that visits each pair once, if the plan has a ring;
        # `flagged`: its twin for frames with flagged boids (pairs_once.py; made here: flagged_copy)
        args = (m, low, once, plan)
        m = low if low is not None else m
        plan = plan if plan is not None else Lowered(source=m, m=m)
        self.m = m
        self.plan = plan
        self.mirror_sched = plan.mirror_sched  # the mirror's lines scheduled by the target (mirror.py)
        self.hints = plan.hints  # the target's scheduling hints (PIC32: gcc_o1.O1Hints), or None
        self.mean_entries = plan.mean_entries  # the means' table (means.py), None: they divide
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
        self.boid_bytes = boid_bytes(m.rules)
        self._sums(rules)
        self._draws(rules)
        # each pair once (pairs_once.py): asked for, and the rules allow it (the pass's ring)
        self.once = once and plan.ring is not None
        # the once-only grid's protected range as a word: |dx| or |dy| at least it rules the zone out
        self.apart = None
        self.visual_hi = None  # visual^2's high word, where the window's pairs apart test by it (below)
        if self.once and self.grid and plan.zone_apart:
            self.apart = self.zone_hilo.r if self.zone_hilo else self._alloc("zone_near")
            if not self.zone_hilo:
                self.step_consts.append(f"const fx {self.apart} = P->{self.zone_range['protected']};")
        # x y vx vy in the pair loop are still the frame's start (no before writes them):
        # the mirror reads the boid from them, not from memory
        self.start_locals = not any(r.ir.before for r in rules)
        self.ring = plan.ring.size if self.once else 0
        self.ring_planes = ring.named_planes(self, plan.ring) if self.once else []
        # a ring short of the capacity: the copy may refuse a frame, and the full loop runs it
        self.refuses = self.once and self.ring < m.spec.flock.capacity
        # with the grid, a boid whose sums would outlive the ring is flagged, not the frame refused:
        # the twin copy runs such frames, its windows' runs over flagged boids add to the visitor's
        # sums only, and the flagged boids visit those visitors back (pairs_once.py)
        self.flagged = flagged
        self.flagged_copy = FlockC(*args, flagged=True) if self.refuses and self.grid and not flagged else None
        if self.once:
            self.boid_decls = ring.boid_decls(self, "me" if self.grid else "others + i")
        self.ring_typedef = ring.typedef(self, plan.ring) if self.once else []
        self.return_lines = (["b->vx = vx;", "b->vy = vy;"]
                             + [f"b->{s.field} = {s.local};" for s in self.state]
                             + ["continue; /* return: no later code runs, the boid does not move */"])
        self.before = [(r.name, self._boid_block(r, "before")) for r in rules if r.ir.before]
        self.apply = [(r.name, self._apply(r)) for r in rules]
        self.pair_lines = pairs.pair_lines(self)
        # the own band by its window's sums (window_sums.py chose the group): the once-only grid loop's
        self.window = self.groups[plan.window.key] if self.once and self.grid and plan.window else None
        if self.window:
            self.pair_lines_window = pairs.pair_lines(self, self.window)
            self.window_walk = window.walk(self, plan.window)
            self.window_corrections = window.corrections(self, plan.window)
            self.window_struct = window.struct(plan.window)
            self.window_reset = window.reset(plan.window)
        # and apart: the once-only grid's pairs known outside the protected zone (pairs.apart_from);
        # the window's among them test visual^2 by d2's high word (fx_d2_hi: a compare, not an msub)
        if self.window and self.apart and self.zone_hilo:
            self.visual_hi = self._alloc("zone_v2hi")
            self.step_consts.append(f"const uint32_t {self.visual_hi} = fx_sq_hi(P->{self.zone_range['visual']});")
        self.pair_lines_apart = pairs.pair_lines(self, apart=True) if self.apart else []
        if flagged:  # a visit of (or by) a flagged boid: this boid's side only
            self.back_lines = pairs.pair_lines(self, mirrored=False)
            self.back_lines_apart = pairs.pair_lines(self, apart=True, mirrored=False) if self.apart else []
            if self.window:
                self.back_lines_window = pairs.pair_lines(self, self.window, mirrored=False)
                self.back_corrections = window.corrections(self, plan.window, mirrored=False)
        self.pair_lines_window_apart = pairs.pair_lines(self, self.window, apart=True) if self.window and self.apart else []
        # the squared distance, where something after the box test still reads it
        self.pair_reads_d2 = any(re.search(r"\bd2\b", ln) for ln in self.pair_lines)
        self.after_pairs = pairs.after_pairs(self)
        self.predator = mover_c(self, m.predator_motion, "predator")
        self.food = mover_c(self, m.food_motion, "food")
        # the 32-bit means' reciprocals, if the code printed above divides by a count (mean_table.py)
        self.mean_table = means.lines(self.mean_entries, self.means_called) if self.mean_entries else []

    # --- names -----------------------------------------------------------
    def mean_recip(self, count: str) -> str:
        """The reciprocal a 32-bit mean by `count` multiplies by (means.py).
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

    def likely(self, test: str) -> str:
        """A test most pairs pass, as the target's hints lay it out (the bare test without)."""
        return self.hints.likely(test) if self.hints else test

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
        for r in rules:  # rules over other kinds: their own loop (pairs.entity_rule)
            nb = r.ir.neighbours
            if nb is not None and nb.of != "boids":
                if nb.of not in KINDS:
                    raise EmitError(f"rule {r.name}: neighbours of {nb.of}")
                r.count = f"n_{nb.of}" if r.ir.reads_apply.count else None
        form = zone_form(self.m.rules)  # the groups over boids (codegen/lang/zone_groups.py), named here
        self.zone_range = dict(form.zone_range)  # 'protected' / 'visual' -> range parameter
        self.radius = list(form.radius)  # (param, coincident) tests, first use first
        groups: dict = {}
        for zg in form.groups:
            g = groups[zg.key] = Group(zg.key, zg.base)
            for p in zg.rules:
                g.rules.append(rules[p])
                rules[p].group = zg.key
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
        # the names fx_d2_zones works with, where the zones_hilo pass chose it (pairs.ZoneHiLo)
        self.zone_hilo = None
        if self.plan.zones_hilo:
            z = self.zone_hilo = pairs.ZoneHiLo(*(self._alloc(n) for n in
                                                  ("zone_a", "zone_b", "in_protected", "in_visual", "zone_r")),
                                                pre=self._alloc("zone_pre"))
            pr, vr = self.zone_range["protected"], self.zone_range["visual"]
            c.append(f"const fx {z.r} = P->{pr}, {z.a} = fx_sub(P->{vr}, {z.r}), {z.b} = fx_add(P->{vr}, {z.r}); "
                     f"/* fx_d2_zones: visual^2 = protected^2 + a*b */")
            c.append(f"const fx_d2_pre_t {z.pre} = fx_d2_pre({z.r}, {z.v}); /* the Cortex-M0+'s prefilter (fixed_zones.h) */")
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

    def _draws(self, rules) -> None:
        """Every rule's draws, in spec order: boid i's k-th of K is the
        stream's (i * K + k)-th of the frame's boid phase (docs/rules.md)."""
        self.draw_total = sum(r.ir.draws for r in rules)
        self.draw_decls, self.draws_ahead = [], []
        j = 0
        for r in rules:
            r.draws = [self._alloc(f"rnd_{r.prefix}_{k}") for k in range(r.ir.draws)]
            for name in r.draws:
                src = f"boids_draws[i * {self.draw_total} + {j}]" if self.grid else "rng_next(r)"
                self.draw_decls.append(f"const uint32_t {name} = {src};")
                j += 1
        if self.grid and self.draw_total:
            self.reads_index = True
            self.draws_ahead = ["{ /* the boids' draws in index order: the bands visit them in another */",
                                "    int32_t d;",
                                f"    for (d = 0; d < f->count * {self.draw_total}; d++) boids_draws[d] = rng_next(r);",
                                "}"]

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
