"""The built-in rules: one definition per file, codegen/rules/defs/<rule>.yaml.

A file holds one mapping `<rule>: {description, roles, ...}`, the same text a
spec's `rule_defs:` holds, so a user copies a library rule into a spec and
edits it. Library rules take every input as a role, so they are compiled
with no spec parameters in scope: a spec's parameter names can never break
them (a local of a library rule may share a name with a spec parameter).
"""
from __future__ import annotations

import functools
from pathlib import Path

from codegen.spec.errors import SpecError, SpecIssue
from codegen.spec.yaml_read import read_yaml
from codegen.lang.ir import RuleIR
from codegen.lang.ruledef import compile_rule

DEFS = Path(__file__).resolve().parent.parent / "rules" / "defs"


def library_files(folder: Path = DEFS) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


def load_rule_file(path: Path, frac_bits: int = 16) -> RuleIR:
    """The rule defined in `path` (named by the file), checked; SpecError if bad."""
    doc = read_yaml(path)
    name = path.stem
    if not hasattr(doc, "items") or list(doc) != [name]:
        raise SpecError([SpecIssue(str(path), 1, 1, "", f"a rule file holds one mapping, `{name}:` (its file name)")])
    return compile_rule(name, doc[name], str(path), {}, field=name, frac_bits=frac_bits)


def load_library(folder: Path = DEFS, frac_bits: int = 16) -> dict[str, RuleIR]:
    return {p.stem: load_rule_file(p, frac_bits) for p in library_files(folder)}


@functools.lru_cache(maxsize=4)
def library(frac_bits: int) -> dict[str, RuleIR]:
    """The built-in rules (codegen/rules/defs/), compiled once per format."""
    return load_library(frac_bits=frac_bits)
