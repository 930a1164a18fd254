"""Spec errors that name their place: `file:line:col: field.path: reason`.

An error is one line whatever it quotes: keys, values and paths from the
spec reach the reason as written, so a YAML-escaped newline in a key could
otherwise print a second, forged `file:line:col:` line, and a direction
control could reorder what the reader sees. `one_line` spells every such
character as an escape (pysim/one_line.py: the same function for every
message that names a path); SpecIssue applies it to all its parts.
"""
from __future__ import annotations

from dataclasses import dataclass

from pysim.one_line import one_line  # noqa: F401 - the one escape, shared with pysim


@dataclass(frozen=True)
class SpecIssue:
    path: str  # file path as given
    line: int  # 1-based
    col: int  # 1-based
    field: str  # dotted path into the spec, e.g. params.visual_range.min
    reason: str

    def __str__(self) -> str:
        where = f"{one_line(str(self.path))}:{self.line}:{self.col}"
        reason = one_line(str(self.reason))
        return f"{where}: {one_line(str(self.field))}: {reason}" if self.field else f"{where}: {reason}"


class SpecError(Exception):
    """A spec that cannot be used; carries every issue found, in file order."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        self.issues = sorted(issues, key=lambda i: (i.line, i.col, i.field))
        super().__init__("\n".join(str(i) for i in self.issues))
