"""compile_rule: a rule definition (a ruamel mapping) -> a checked RuleIR.

Every problem of the rule is collected and raised together as one SpecError,
each issue at the spec file's line:col (inside the code block where the
problem is) and under the field path `rule_defs.<name>.<key>`.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from codegen.spec.names import rule_name_problem
from codegen.spec.errors import SpecError, SpecIssue
from codegen.spec.yaml_read import read_text
from codegen.lang.check import check
from codegen.lang.header import read_header
from codegen.lang.ir import RuleIR, Role, Type
from codegen.lang.locate import mapping_pos
from codegen.lang.parse import NAME_RE

PARAM_TYPES = {"fixed": Type.FIXED, "int": Type.INT}


def _params(params) -> dict:
    """{name: Type} from a mapping or (name, type) pairs; types as text or Type."""
    items = params.items() if isinstance(params, Mapping) else params
    out = {}
    for name, ty in items:
        out[str(name)] = ty if isinstance(ty, Type) else PARAM_TYPES[str(ty)]
    return out


def compile_rule(name: str, node, path: str, params: Mapping | Iterable = (), *, text: str | None = None,
                 field: str | None = None, frac_bits: int = 16) -> RuleIR:
    """Check the rule definition `node` (from the file `path`, whose text is
    read unless given) against the spec's other parameters (`params`: name ->
    fixed|int) and return its IR; raise SpecError with every problem.
    `frac_bits`: the spec's format (16, the narrower range, when unknown)
    bounds fixed literals."""
    field = f"rule_defs.{name}" if field is None else field
    if text is None:
        text = read_text(path)
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    where = mapping_pos(node)
    problems = []
    if not NAME_RE.match(name) or rule_name_problem(name):
        problems.append((where, "", rule_name_problem(name) or f"'{name}' is not a rule name ([a-z][a-z0-9_]*)"))
    h = read_header(node, lines)
    problems += h.errors
    pieces, errors = check(h, _params(params), 2 ** (31 - frac_bits))
    problems += errors
    if problems:
        raise SpecError([SpecIssue(path, p.line, p.col, f"{field}.{sub}" if sub else field, reason)
                         for p, sub, reason in _unique(problems)])
    roles = tuple(Role(n, t, h.role_pos[n]) for n, t in h.roles.items())
    return RuleIR(name=name, description=h.description, seed=h.seed, path=str(path), pos=where, roles=roles,
                  neighbours=h.neighbours, uses=h.uses, **pieces)


def _unique(problems):
    seen = set()
    for p in problems:
        if p not in seen:
            seen.add(p)
            yield p
