"""The `course:` section's meaning, each issue at its YAML node: control
numbers the course's interface can send, parameters that exist, are tunable
and take the value, flock sizes within the capacity, command lines the
firmware answers and a typed line could hold. The expansion itself is
codegen/model/course.py's (the same code computes the table)."""
from __future__ import annotations

from types import SimpleNamespace

from pydantic import ValidationError

from codegen.model.serial_commands import COMMANDS
from codegen.model.course import ID_MAX, expand
from codegen.spec.errors import SpecError, SpecIssue
from codegen.spec.yaml_read import read_text
from codegen.spec.schema import Course


NOUN = {"buttons": "button", "toggles": "toggle", "listboxes": "list box", "radios": "radio group"}


def _dict(v) -> dict:
    return v if isinstance(v, dict) else {}


def _param_views(params: dict) -> dict:
    """The plain YAML parameters as course.expand reads them."""
    return {name: SimpleNamespace(type=p.get("type", "fixed"), min=p.get("min"), max=p.get("max"),
                                  tunable=p.get("tunable", True))
            for name, p in params.items() if isinstance(name, str) and isinstance(p, dict)}


def course_issues(data: dict, loc8) -> list[SpecIssue]:
    sec = data.get("course")
    if not isinstance(sec, dict):
        return []  # absent, or not a mapping (the schema pass says so)
    out: list[SpecIssue] = []
    for section, top in ID_MAX.items():
        for cid in _dict(sec.get(section)):
            if isinstance(cid, int) and not isinstance(cid, bool) and not 0 <= cid <= top:
                out.append(loc8.issue(("course", section, cid), f"{NOUN[section]} number {cid} outside 0-{top} "
                                      f"(the course's interface sends {len(str(top))} digit"
                                      f"{'s' if top > 9 else ''})", key_itself=True))
    out.extend(_plus_signs(sec, loc8))
    try:
        course = Course.model_validate(sec)
    except ValidationError:
        return out  # the schema pass reports it
    flock, serial = _dict(data.get("flock")), _dict(data.get("serial"))
    sections = {c.needs for c in COMMANDS if c.needs and data.get(c.needs) is not None}
    _, problems = expand(course, _param_views(_dict(data.get("params"))), flock.get("capacity", 100),
                         serial.get("line_max", 64), sections)
    for where, reason in problems:
        out.append(loc8.issue(("course",) + where, reason, key_itself=not where))
    return out


def _plus_signs(sec: dict, loc8) -> list[SpecIssue]:
    """`boids: +10` reads as the number 10 in YAML, which would set the flock
    to 10 boids: refused where the source shows the sign (`add_boids: 10`)."""
    found: list[tuple] = []

    def walk(node, path: tuple) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "boids" and isinstance(v, int) and not isinstance(v, bool):
                    found.append(path + (k,))
                walk(v, path + (k,))

    walk(sec, ("course",))
    if not found:
        return []
    try:
        lines = read_text(loc8.path).split("\n")
    except SpecError:
        return []
    out = []
    for where in found:
        line, col, _ = loc8.find(where)
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if text[col - 1:col] == "+":
            out.append(loc8.issue(where, "YAML reads +N as the number N, and `boids: N` sets the flock to N "
                                  "boids: write `add_boids: N` to add N (and `remove_boids: N` to remove)"))
    return out
