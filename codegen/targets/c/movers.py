"""The C of a mover's own rules (predators_step, food_step in
templates/firmware/flock_entities.j2): the rules in order, each with its own
loop over its neighbours first (pairs.entity_rule), and the kind's state.

A mover's state is one flock_t array per name (`predator_st_<name>`,
`food_st_<name>`, the kind's capacity long): the mover's copy `st_<name>` is
read before its first rule and written back after its last, and the spawn
sets its initial value. Rules of one kind that declare one name share it
(codegen/model/mover_rules.py refuses two that differ)."""
from __future__ import annotations

from dataclasses import dataclass, field

from codegen.lang.ir import Type
from codegen.targets.c import pairs
from codegen.targets.c.expr import EmitError, block, expr
from codegen.targets.c.names import Rule, RuleNames, StateField, finish, wrap


@dataclass
class MoverC:
    lines: list = field(default_factory=list)  # the rules, in order
    state: list = field(default_factory=list)  # StateField: field = the flock_t array, local = the copy

    @property
    def loads(self) -> list:
        return [f"{s.ctype} {s.local} = f->{s.field}[k];" for s in self.state]

    @property
    def stores(self) -> list:
        return [f"f->{s.field}[k] = {s.local};" for s in self.state]


def mover_c(plan, motion, where: str) -> MoverC:
    """`where`: predator or food (names.MOVER_KIND)."""
    out = MoverC()
    fields: dict = {}
    for mr in motion:
        r = Rule(-1, mr.name, mr.ir, dict(mr.refs), prefix=mr.name)
        for s in mr.ir.state:
            if s.name not in fields:
                ctype = {Type.FIXED: "fx", Type.INT: "int32_t"}.get(s.type)
                if ctype is None:
                    raise EmitError(f"rule {mr.name}: state '{s.name}' of type {s.type}")
                sf = StateField(f"{where}_st_{s.name}", f"st_{s.name}", ctype, "")
                sf.init = expr(s.initial, RuleNames(plan, r, "init", "init"))[0]
                fields[s.name] = sf
                out.state.append(sf)
            r.state[s.name] = fields[s.name]
        if mr.ir.neighbours:
            r.count = "n_seen" if mr.ir.reads_apply.count else None
            out.lines += finish(pairs.entity_rule(plan, r, where), r.prefix)
            continue
        lines = block(r.ir.apply, plan.locals_of(r, "apply"), RuleNames(plan, r, "apply", where))
        out.lines += finish(wrap(lines), r.prefix)
    return out
