"""The rules a spec can use, and its `rules:` list checked against them.

The library (codegen/rules/defs/, compiled once per format) plus the spec's
own `rule_defs` (compiled against the spec's parameters, located in the spec
file). A spec rule with a library rule's name is an error unless it says
`override: true`. Each `rules:` entry then binds every role of its rule to a
parameter of the role's type (a bool role takes an int parameter, read as
`!= 0`), and gets the spec sections its rule reads.
"""
from __future__ import annotations

import difflib

from codegen.lang.ir import RuleIR, Type
from codegen.spec.errors import SpecError, SpecIssue
from codegen.spec.yaml_read import read_text
from codegen.lang.library import library
from codegen.lang.ruledef import compile_rule
from codegen.model.shared_state import state_issues

# what a rule's neighbours or `uses:` need in the spec
KIND_SECTIONS = {"predators": "predators", "obstacles": "obstacles", "food": "food"}
ROLE_PARAM = {Type.FIXED: "fixed", Type.INT: "int", Type.BOOL: "int"}


def near(name, names) -> str:
    hit = difflib.get_close_matches(str(name), list(names), n=1)
    return f" (did you mean '{hit[0]}'?)" if hit else ""


def compile_spec_rules(data, plain: dict, path: str, loc8, frac_bits: int,
                       skip: set[str]) -> tuple[dict[str, RuleIR], list[SpecIssue]]:
    """(every rule the spec can use by name, issues) for the spec's rule_defs
    (`data`: the ruamel document, for positions; `skip`: definitions the
    schema already refused)."""
    lib = library(frac_bits)
    rules = dict(lib)
    issues: list[SpecIssue] = []
    defs = data.get("rule_defs") if hasattr(data, "get") else None
    if not hasattr(defs, "items"):
        return rules, issues
    params = {n: p.get("type", "fixed") for n, p in (plain.get("params") or {}).items()
              if isinstance(p, dict) and p.get("type", "fixed") in ("fixed", "int")}
    text = read_text(path)  # bounded, as read_yaml read it (a FIFO put there since cannot hang it)
    for name, node in defs.items():
        if name in skip or not isinstance(name, str):
            continue
        override = hasattr(node, "get") and node.get("override") is True
        if name in lib and not override:
            issues.append(loc8.issue(("rule_defs", name), f"'{name}' is a library rule: give yours another name, "
                                     "or say `override: true` to replace it", key_itself=True))
            continue
        if override and name not in lib:
            issues.append(loc8.issue(("rule_defs", name, "override"),
                                     f"there is no library rule '{name}' to override{near(name, lib)}"))
            continue
        try:
            rules[name] = compile_rule(name, node, path, params, text=text, frac_bits=frac_bits)
        except SpecError as e:
            issues += e.issues
    return rules, issues


def rule_use_issues(plain: dict, loc8, rules: dict[str, RuleIR]) -> list[SpecIssue]:
    """Each `rules:` entry names a known rule, binds exactly its roles to
    parameters of their types, and has the spec sections the rule reads."""
    out: list[SpecIssue] = []
    params = plain.get("params") if isinstance(plain.get("params"), dict) else {}
    uses = plain.get("rules") if isinstance(plain.get("rules"), list) else []
    broken = broken_defs(plain, rules)
    seen: dict[str, int] = {}
    zone_range: dict[str, tuple[str, int]] = {}
    for i, use in enumerate(uses):
        if not isinstance(use, dict) or not isinstance(use.get("rule"), str):
            continue
        name = use["rule"]
        ir = rules.get(name)
        if ir is None and name in broken:  # its definition's own errors say what is wrong
            continue
        if ir is None:
            out.append(loc8.issue(("rules", i, "rule"), f"unknown rule '{name}'{near(name, rules)}; "
                                  f"`boidsgen rules` lists the library, `rule_defs:` defines your own"))
            continue
        if name in seen:
            out.append(loc8.issue(("rules", i, "rule"), f"rule '{name}' already listed at rules.{seen[name]}"))
        seen[name] = i
        out += bind_issues(loc8, ("rules", i), use, name, ir, params)
        nb = ir.neighbours
        needs = [KIND_SECTIONS[nb.of]] if nb and nb.of in KIND_SECTIONS else []
        for section in needs + list(ir.uses):
            if not isinstance(plain.get(section), dict):
                out.append(loc8.issue(("rules", i, "rule"), f"rule '{name}' needs a '{section}:' section in the spec"))
        if nb and nb.zone and isinstance(use.get(nb.within), str):
            rng = use[nb.within]
            if nb.zone in zone_range and zone_range[nb.zone][0] != rng:
                prev, j = zone_range[nb.zone]
                out.append(loc8.issue(("rules", i, nb.within), f"the {nb.zone} zone already uses '{prev}' "
                                      f"(rules.{j}); rules in one zone share one range"))
            else:
                zone_range.setdefault(nb.zone, (rng, i))
    return out + state_issues(plain, loc8, rules)


def broken_defs(plain: dict, rules: dict) -> set:
    """The spec's rule_defs that did not compile: their own located errors
    are reported, so a use of one is not also an unknown rule (a cascade)."""
    defs = plain.get("rule_defs")
    return {n for n in defs if isinstance(n, str) and n not in rules} if isinstance(defs, dict) else set()


def bind_issues(loc8, at: tuple, use: dict, name: str, ir: RuleIR, params: dict) -> list[SpecIssue]:
    """The rule use at `at` binds exactly `ir`'s roles, each to a parameter
    of the role's type."""
    out: list[SpecIssue] = []
    roles = ir.role_types
    for key in use:
        if key != "rule" and key not in roles:
            out.append(loc8.issue((*at, key), f"unknown key '{key}': rule '{name}' has no such role"
                                  f"{near(key, roles)}; its roles: {', '.join(roles) or 'none'}",
                                  key_itself=True))
    for role, ty in roles.items():
        ref = use.get(role)
        if role not in use:
            out.append(loc8.issue(at, f"rule '{name}' needs role '{role}' ({ty}): name the "
                                  f"parameter that plays it, e.g. {role}: <parameter>"))
        elif isinstance(ref, str):
            want = ROLE_PARAM[ty]
            p = params.get(ref)
            if p is None:
                hint = near(ref, params) or (f" (parameters: {', '.join(params)})" if params else "")
                out.append(loc8.issue((*at, role), f"no parameter named '{ref}'{hint}"))
            elif isinstance(p, dict) and p.get("type", "fixed") != want:
                out.append(loc8.issue((*at, role), f"'{ref}' is type {p.get('type', 'fixed')}; "
                                      f"{name}.{role} needs a{'n' if want == 'int' else ''} {want} parameter"))
    return out
