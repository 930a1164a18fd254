"""Semantic checks a schema cannot express; each issue names its YAML node."""
from __future__ import annotations

from fractions import Fraction


from .rules.catalog import CATALOG
from .spec_errors import SpecIssue
from .spec_model import Spec

# Parameter names become C struct members and Python attributes.
RESERVED = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "typedef", "union", "unsigned", "void", "volatile", "while", "and", "as", "assert",
    "async", "await", "class", "def", "del", "elif", "except", "finally", "from", "global",
    "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "try", "with",
    "yield", "none", "true", "false", "count",
}


def frac_bits(spec: Spec) -> int:
    return int(spec.fixed_point.format.split(".")[1])


def semantic_issues(spec: Spec, loc8) -> list[SpecIssue]:
    out: list[SpecIssue] = []
    fb = frac_bits(spec)
    limit = Fraction(1 << (31 - fb))  # |value| must stay below this

    ids: dict[int, str] = {}
    for name, p in spec.params.items():
        where = ("params", name)
        if name in RESERVED:
            out.append(loc8.issue(where, f"'{name}' is a reserved word in C or Python", key_itself=True))
        for key in ("default", "min", "max"):
            v = getattr(p, key)
            if p.type == "int" and not float(v).is_integer():
                out.append(loc8.issue(where + (key,), f"{v} is not a whole number (type is int)"))
            if p.type == "fixed":
                if abs(Fraction(str(v))) >= limit:
                    out.append(loc8.issue(where + (key,),
                                          f"{v} does not fit {spec.fixed_point.format} (|value| < {limit})"))
        if p.min > p.max:
            out.append(loc8.issue(where + ("min",), f"min {p.min} > max {p.max}"))
        elif not p.min <= p.default <= p.max:
            out.append(loc8.issue(where + ("default",), f"default {p.default} outside [{p.min}, {p.max}]"))
        if p.id is not None:
            if p.id in ids:
                out.append(loc8.issue(where + ("id",), f"id {p.id} already used by '{ids[p.id]}'"))
            ids[p.id] = name

    def need(ref: str, where: tuple, role: str) -> None:
        p = spec.params.get(ref)
        if p is None:
            near = [n for n in spec.params if n.startswith(ref[:3])]
            hint = f" (parameters: {', '.join(spec.params)})" if not near else f" (did you mean '{near[0]}'?)"
            out.append(loc8.issue(where, f"no parameter named '{ref}'{hint}"))
        elif p.type != "fixed":
            out.append(loc8.issue(where, f"'{ref}' is type {p.type}; {role} needs a fixed parameter"))

    seen: dict[str, int] = {}
    zone_range: dict[str, tuple[str, int]] = {}
    for i, rule in enumerate(spec.rules):
        d = CATALOG[rule.rule]
        if rule.rule in seen:
            out.append(loc8.issue(("rules", i, "rule"), f"rule '{rule.rule}' already listed at rules.{seen[rule.rule]}"))
        seen[rule.rule] = i
        for role in d.roles:
            need(getattr(rule, role), ("rules", i, role), f"{rule.rule}.{role}")
        if d.zone:
            rng = rule.range
            if d.zone in zone_range and zone_range[d.zone][0] != rng:
                prev, j = zone_range[d.zone]
                out.append(loc8.issue(("rules", i, "range"),
                                      f"the {d.zone} zone already uses '{prev}' (rules.{j}); rules in one zone share one range"))
            else:
                zone_range.setdefault(d.zone, (rng, i))

    for role in ("left", "right", "top", "bottom", "min_speed", "max_speed"):
        need(getattr(spec.spawn, role), ("spawn", role), f"spawn.{role}")

    if spec.flock.size > spec.flock.capacity:
        out.append(loc8.issue(("flock", "size"), f"size {spec.flock.size} > capacity {spec.flock.capacity}"))
    return out
