"""Read a YAML file keeping positions, within yaml_guard's bounds: every
refusal and syntax error a located SpecError. Specs, experiment files and the
rule library (codegen/rules/defs/) are all read through read_yaml; their
bytes through read_source (pysim/bounded_read.py: a regular file of at most
yaml_guard.MAX_BYTES, opened without blocking), which every other reader of
a spec's text (the rule definitions' lines, the spec writer, `boidsgen
rules`) uses too: a FIFO, a device or a folder is refused at once, naming it."""
from __future__ import annotations

import copy
import hashlib
import math
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from codegen.spec import yaml_guard as g
from codegen.spec.errors import SpecError, SpecIssue
from pysim.bounded_read import UnreadableFile, read_bytes_bounded


class _Refused(Exception):
    """An event yaml_guard refuses, raised out of ruamel's composer."""

    def __init__(self, issue: SpecIssue) -> None:
        super().__init__(issue)
        self.issue = issue


def _yaml(where: str = "") -> YAML:
    """A round-trip loader whose parser hands each event to yaml_guard's
    EventGuard before the composer takes it: the text is parsed once, and a
    refused event stops the load there (nothing after it is composed, and
    nothing is constructed)."""
    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    guard = g.EventGuard(where, y.resolver)

    class GuardedParser(y.Parser):
        def get_event(self):
            ev = super().get_event()
            issue = guard.feed(ev)
            if issue:
                raise _Refused(issue)
            return ev

    y.Parser = GuardedParser
    return y


def read_source(path: str | Path) -> bytes:
    """A spec's (or experiment file's, or rule file's) bytes: a regular file
    of at most yaml_guard.MAX_BYTES; SpecError at its line 1 otherwise."""
    where = str(path)
    try:
        return read_bytes_bounded(path, g.MAX_BYTES)
    except UnreadableFile as e:
        reason = (f"the spec is {e.size} bytes; the limit is {g.MAX_BYTES}" if e.size is not None
                  else f"{e.kind}, not a regular file: a spec is read only from a regular file")
    except OSError as e:
        reason = f"cannot read spec: {e.strerror}"
    raise SpecError([SpecIssue(where, 1, 1, "", reason)])


def read_text(path: str | Path) -> str:
    """A spec's text as read_yaml reads it (read_source, UTF-8, a BOM dropped):
    for the readers that quote its lines."""
    text, issues = g.decode(str(path), read_source(path))
    if issues:
        raise SpecError(issues)
    return text


# Documents this process has read, by their bytes' digest: one run reads the same spec again and
# again (each command and pass loads it; the suite, thousands of times), and ruamel's pure-Python
# round-trip parser is most of a load. A copy is handed out (a fifth of a parse), so no caller's
# change reaches another; a file that fails is never kept.
_READ: OrderedDict[bytes, Any] = OrderedDict()
_KEEP = 64


def read_yaml(path: Path) -> Any:
    """Parse YAML keeping positions, within yaml_guard's bounds; every
    refusal and syntax error becomes a located SpecError."""
    where = str(path)
    data = read_source(path)
    key = hashlib.sha256(data).digest()
    if key in _READ:
        _READ.move_to_end(key)
        return copy.deepcopy(_READ[key])
    doc = _parse(where, data)
    _READ[key] = copy.deepcopy(doc)
    if len(_READ) > _KEEP:
        _READ.popitem(last=False)
    return doc


def _parse(where: str, data: bytes) -> Any:
    text, issues = g.decode(where, data)
    if issues:
        raise SpecError(issues)
    try:
        issue = g.flow_depth_issue(where, text)
        if issue:
            raise SpecError([issue])
        doc = _yaml(where).load(text)
    except _Refused as e:
        raise SpecError([e.issue]) from None
    except MarkedYAMLError as e:
        raise SpecError([_yaml_issue(where, e)]) from None
    except RecursionError:  # bounded above; a last guard, never a traceback
        raise SpecError([SpecIssue(where, 1, 1, "", f"nesting deeper than {g.MAX_DEPTH} levels")]) from None
    issues = list(_value_issues(where, doc))
    if issues:
        raise SpecError(issues)
    return doc


def _yaml_issue(where: str, e: MarkedYAMLError) -> SpecIssue:
    mark = e.problem_mark or e.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    reason = " ".join(str(x) for x in (e.context, e.problem) if x)
    if "duplicate key" in reason:
        k = re.search(r'duplicate key "([^"]*)"', reason)
        reason = f"duplicate name '{k.group(1)}'" if k else "duplicate name"
    return SpecIssue(where, line, col, "", reason.strip())


def _value_issues(where: str, node: Any, pos: tuple[int, int] = (1, 1), field: str = ""):
    """Numbers that are not finite and strings holding characters the spec
    may not carry (YAML escapes can put them in values of a clean file)."""
    if isinstance(node, CommentedMap):
        for k in node:
            kpos, vpos = node.lc.key(k), node.lc.value(k)
            sub = f"{field}.{k}" if field else str(k)
            yield from _value_issues(where, k, (kpos[0] + 1, kpos[1] + 1), field)
            yield from _value_issues(where, node[k], (vpos[0] + 1, vpos[1] + 1), sub)
    elif isinstance(node, CommentedSeq):
        for i, v in enumerate(node):
            ln, cl = node.lc.item(i)
            yield from _value_issues(where, v, (ln + 1, cl + 1), f"{field}.{i}" if field else str(i))
    elif isinstance(node, float) and not math.isfinite(node):
        yield SpecIssue(where, pos[0], pos[1], field, f"{node} is not a finite number")
    elif isinstance(node, str):
        for ch in node:
            if ch > "~" or ch < " ":
                why = g.char_problem(ch)
                if why:
                    yield SpecIssue(where, pos[0], pos[1], field, f"{why} in a string")
                    break
