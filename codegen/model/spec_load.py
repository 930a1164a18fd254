"""Load a spec and check all of it: the spec stage's reading (codegen/spec/loader.py: the YAML with
its positions, the schema, the semantic checks), then what needs the rule language and the model:
its rules compiled and bound, the movers' rules, the course's lines. Every issue is collected before
one SpecError lists them all, each at its file:line:col."""
from __future__ import annotations

from pathlib import Path

from codegen.model.course_checks import course_issues
from codegen.model.mover_rules import mover_rule_issues
from codegen.model.rule_set import compile_spec_rules, rule_use_issues
from codegen.spec.checks import FORMATS, _dict
from codegen.spec.errors import SpecError
from codegen.spec.loader import Locator, dedupe, read_spec
from codegen.spec.schema import Spec


def load_spec(path: str | Path) -> tuple[Spec, Locator]:
    """Load and fully validate a spec. Raises SpecError listing every issue."""
    data, plain, loc8, spec, issues = read_spec(path)
    issues += course_issues(plain, loc8)
    bad_defs = {i.field.split(".")[1] for i in issues if i.field.startswith("rule_defs.")}
    fb = FORMATS.get(_dict(plain.get("fixed_point")).get("format"), 15)
    rules, rule_issues = compile_spec_rules(data, plain, str(path), loc8, fb, bad_defs)
    issues += rule_issues + rule_use_issues(plain, loc8, rules)
    issues += mover_rule_issues(plain, loc8, rules)
    if issues:
        raise SpecError(dedupe(issues))
    spec._rules = rules
    return spec, loc8
