"""A state name two rules declare: one boid_t field and one kernel array, so
it is an error at the second declaration (in `rules:` order) unless both
declare it `{init: value, shared: true}` with the same type and the same
initial value (roles compared by the parameters they are bound to). A shared
state is how one rule reads another's (docs/rules.md: "Shared state")."""
from __future__ import annotations

import dataclasses

from codegen.lang.ir import Const, Op, Ref


def _canon(e, refs: dict):
    """An initial value without positions, its roles named by their parameters."""
    if isinstance(e, Ref):
        return ("param", refs.get(e.name, e.name)) if e.kind == "role" else (e.kind, e.name)
    if isinstance(e, Const):
        return ("const", e.value, e.type)
    if isinstance(e, Op):
        return (e.op, e.type, tuple(_canon(a, refs) for a in e.args))
    return tuple((f.name, getattr(e, f.name)) for f in dataclasses.fields(e) if f.name != "pos")


def _text(e, refs: dict) -> str:
    c = _canon(e, refs)
    if c[0] == "const":
        return format(float(c[1]), "g") if c[2].value == "fixed" else str(c[1])
    if c[0] == "param":
        return c[1]
    return "an expression"


def state_issues(plain: dict, loc8, rules: dict, at: tuple = ("rules",), uses=None) -> list:
    """The `rules:` list's state declarations checked against each other (or
    a mover's list `uses` at `at`: `("predators", "rules")`, ...: its own fields)."""
    if uses is None:
        uses = plain.get("rules") if isinstance(plain.get("rules"), list) else []
    where = ".".join(at)
    defs = plain.get("rule_defs") if isinstance(plain.get("rule_defs"), dict) else {}
    first: dict = {}  # state name -> (rule, index, StateVar, refs)
    out = []
    for i, use in enumerate(uses):
        ir = rules.get(use.get("rule")) if isinstance(use, dict) and isinstance(use.get("rule"), str) else None
        if ir is None:
            continue
        refs = {k: v for k, v in use.items() if k != "rule"}
        for sv in ir.state:
            if sv.name not in first:
                first[sv.name] = (ir.name, i, sv, refs)
                continue
            r0, i0, s0, refs0 = first[sv.name]
            if r0 == ir.name:
                continue  # the same rule listed twice: rule_set says so
            same = s0.type == sv.type and _canon(s0.initial, refs0) == _canon(sv.initial, refs)
            if s0.shared and sv.shared and same:
                continue
            why = ("" if same else f" ({r0}: {s0.type.value}, initially {_text(s0.initial, refs0)}; {ir.name}: "
                   f"{sv.type.value}, initially {_text(sv.initial, refs)})")
            msg = (f"state '{sv.name}' is also declared by rule '{r0}' ({where}.{i0}){why}: two rules' states of one "
                   f"name are one field; rename it, or declare it in both `{sv.name}: {{init: ..., shared: true}}` "
                   f"with the same type and initial value")
            if ir.name in defs:  # the spec's own rule: at its declaration
                out.append(loc8.issue(("rule_defs", ir.name, "state", sv.name), msg, key_itself=True))
            else:
                out.append(loc8.issue((*at, i, "rule"), f"rule '{ir.name}': {msg}"))
    return out
