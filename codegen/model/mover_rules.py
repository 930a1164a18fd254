"""The predators' and the food's own rules checked against the spec:
`predators: {speed: USE}` (the one-rule spelling), `predators: {rules:
[USE, ...]}` and `food: {rules: [USE, ...]}`. Each names a known rule that
reads only what a mover has (docs/rules.md section 5) and binds its roles
as a `rules:` entry does (rule_set.bind_issues).
"""
from __future__ import annotations

from codegen.lang.ir import Op, Ref, RuleIR
from codegen.model.rule_set import KIND_SECTIONS, bind_issues, broken_defs, near
from codegen.model.shared_state import state_issues
from codegen.spec.errors import SpecIssue

# what a mover's own rule may not read: it runs on one predator or food source, outside the boids' loop
NOT_FOR_MOVERS = (("neighbours in a zone (the boids' protected/visual chain)",
                   lambda ir: ir.neighbours and ir.neighbours.zone),
                  ("index or spec sections in a state's initial value",
                   lambda ir: any(_reads(sv.initial, ("index", "world")) for sv in ir.state)),
                  ("spec sections", lambda ir: ir.uses), ("a before block", lambda ir: ir.before),
                  ("index", lambda ir: ir.reads_apply.index or ir.reads_each.index),
                  ("the target", lambda ir: ir.reads_apply.world or ir.reads_each.world),
                  ("random draws", lambda ir: ir.draws))
WHO = {"predators": "a predator", "food": "a food source"}


def mover_rule_issues(plain: dict, loc8, rules: dict[str, RuleIR]) -> list[SpecIssue]:
    """Every use of a rule by the predators or the food."""
    out: list[SpecIssue] = []
    for kind in ("predators", "food"):
        sec = plain.get(kind)
        if not isinstance(sec, dict):
            continue
        uses = [((kind, "speed"), sec["speed"])] if kind == "predators" and isinstance(sec.get("speed"), dict) else []
        if uses and sec.get("rules"):
            out.append(loc8.issue((kind, "speed"), "`speed:` is the one-rule spelling of `rules:`: "
                                  "give one of them (put the rule first in `rules:`)", key_itself=True))
        listed = sec.get("rules") if isinstance(sec.get("rules"), list) else []
        uses += [((kind, "rules", i), use) for i, use in enumerate(listed)]
        if listed:  # the kind's own fields: two rules' states of one name are one, as for boids
            out += state_issues(plain, loc8, rules, (kind, "rules"), listed)
        seen: dict[str, tuple] = {}
        for at, use in uses:
            if not isinstance(use, dict) or not isinstance(use.get("rule"), str):
                continue
            name = use["rule"]
            if name in seen:
                out.append(loc8.issue((*at, "rule"), f"rule '{name}' already listed at {'.'.join(map(str, seen[name]))}"))
                continue
            seen[name] = at
            out += _use_issues(plain, loc8, rules, kind, at, use)
    return out


def _use_issues(plain: dict, loc8, rules: dict, kind: str, at: tuple, use: dict) -> list[SpecIssue]:
    name = use["rule"]
    ir = rules.get(name)
    if ir is None and name in broken_defs(plain, rules):  # its definition's own errors say what is wrong
        return []
    if ir is None:
        return [loc8.issue((*at, "rule"), f"unknown rule '{name}'{near(name, rules)}")]
    bad = [what for what, has in NOT_FOR_MOVERS if has(ir)]
    if bad:
        return [loc8.issue((*at, "rule"), f"rule '{name}' reads {', '.join(bad)}; {WHO[kind]}'s own rule may read "
                           "only its x, y, vx, vy, its state, its roles, parameters, the screen and its neighbours: "
                           "boids, predators, food or obstacles (their count, sums, pick: nearest)")]
    nb = ir.neighbours
    if nb and nb.of in KIND_SECTIONS and not isinstance(plain.get(KIND_SECTIONS[nb.of]), dict):
        return [loc8.issue((*at, "rule"), f"rule '{name}' needs a '{KIND_SECTIONS[nb.of]}:' section in the spec")]
    params = plain.get("params") if isinstance(plain.get("params"), dict) else {}
    return bind_issues(loc8, at, use, name, ir, params)


def _reads(e, kinds: tuple) -> bool:
    if isinstance(e, Ref):
        return e.kind in kinds
    return isinstance(e, Op) and any(_reads(a, kinds) for a in e.args)
