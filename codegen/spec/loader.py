"""Load a spec file: YAML with positions -> Pydantic model -> semantic checks.

Every error is reported with the file, line and column of the YAML node at
fault (ruamel.yaml keeps them), and all errors are collected before failing,
so one run shows everything that is wrong.
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from codegen.spec.errors import SpecError, SpecIssue
from codegen.spec.schema import Spec
from codegen.spec.yaml_read import read_yaml


class Locator:
    """Maps a Pydantic error location (a tuple path) to a YAML line:col."""

    def __init__(self, path: str, root: Any) -> None:
        self.path = path
        self.root = root

    def find(self, loc: tuple, key_itself: bool = False) -> tuple[int, int, str]:
        node = self.root
        line, col = 1, 1
        fields: list[str] = []
        for i, part in enumerate(loc):
            last = i == len(loc) - 1
            if isinstance(node, CommentedMap):
                if part not in node:
                    # a discriminated-union tag (rules.0.separation...) is not a key
                    if node.get("rule") == part:
                        continue
                    break
                if key_itself and last:
                    ln, cl = node.lc.key(part)
                else:
                    ln, cl = node.lc.value(part)
                line, col = ln + 1, cl + 1
                fields.append(str(part))
                node = node[part]
            elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
                ln, cl = node.lc.item(part)
                line, col = ln + 1, cl + 1
                fields.append(str(part))
                node = node[part]
            else:
                break
        return line, col, ".".join(fields)

    def issue(self, loc: tuple, reason: str, key_itself: bool = False) -> SpecIssue:
        line, col, field = self.find(loc, key_itself)
        return SpecIssue(self.path, line, col, field, reason)


def _known_keys(loc: tuple) -> list[str]:
    """Field names valid at loc's parent, for 'did you mean' hints."""
    from codegen.spec import schema as m

    model: Any = m.Spec
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        if model is m.Spec and part == "params":
            model = "params"
            continue
        if model == "params":
            model = m.Param
            continue
        if model is m.Spec and part in ("rules", "rule_defs"):
            return []  # a rule's keys are its roles: checked against its definition (rule_set.py)
        fld = model.model_fields.get(part) if hasattr(model, "model_fields") else None
        if fld is None:
            return []
        model = fld.annotation
    return list(model.model_fields) if hasattr(model, "model_fields") else []


def _pydantic_issues(err: ValidationError, loc8: Locator) -> list[SpecIssue]:
    out = []
    for e in err.errors(include_url=False):
        loc = tuple(e["loc"])
        kind = e["type"]
        if kind == "extra_forbidden":
            key = loc[-1]
            reason = f"unknown key '{key}'"
            near = difflib.get_close_matches(str(key), _known_keys(loc), n=1)
            if near:
                reason += f" (did you mean '{near[0]}'?)"
            out.append(loc8.issue(loc, reason, key_itself=True))
            continue
        if kind == "missing" and len(loc) == 3 and loc[0] == "rules" and loc[2] == "rule":
            out.append(loc8.issue(loc[:2], "each rule needs a 'rule:' key naming it"))
            continue
        if kind == "missing":
            line, col, field = loc8.find(loc[:-1])
            fname = ".".join([field, str(loc[-1])]) if field else str(loc[-1])
            out.append(SpecIssue(loc8.path, line, col, fname, "required key is missing"))
            continue
        msg = e["msg"]
        if kind in ("int_type", "float_type", "int_from_float") and loc and loc[-1] in ("int", "float"):
            loc = loc[:-1]  # a branch of the int|float union: say it once
        if kind in ("int_type", "float_type") and len(loc) >= 1 and _is_number_field(loc):
            msg = "expected a number"
        if "input" in e and kind.endswith(("_type", "_parsing")):
            msg += f", got {_shown(e['input'])}"
        out.append(loc8.issue(loc, msg))
    return out


def _shown(value: Any, limit: int = 60) -> str:
    """A value echoed in an error: its repr, cut to `limit` characters (a
    5,000-digit string once filled a 5,000-character line)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _is_number_field(loc: tuple) -> bool:
    return len(loc) == 3 and loc[0] == "params" and loc[2] in ("default", "min", "max")


def read_spec(path: str | Path):
    """The spec stage's part of loading: the YAML with its positions, then the schema and the semantic
    checks that need nothing above this stage. Returns (data, plain, locator, spec or None, issues);
    codegen/model/spec_load.py's load_spec adds the rules' and the course's checks."""
    from codegen.spec.checks import semantic_issues

    p = Path(path)
    data = read_yaml(p)
    loc8 = Locator(str(path), data)
    if not isinstance(data, CommentedMap):
        raise SpecError([SpecIssue(str(path), 1, 1, "", "a spec is a YAML mapping (name:, params:, rules:, ...)")])
    plain = _plain(data)
    issues = semantic_issues(plain, loc8)
    try:
        spec = Spec.model_validate(plain)
        schema_issues = []
    except ValidationError as err:
        schema_issues = _pydantic_issues(err, loc8)
        spec = None
    return data, plain, loc8, spec, schema_issues + issues


def dedupe(issues: list[SpecIssue]) -> list[SpecIssue]:
    seen, out = set(), []
    for i in issues:
        key = (i.line, i.col, i.field)
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


def _plain(node: Any) -> Any:
    """ruamel's commented containers -> plain dicts/lists (exact scalar types kept)."""
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node
