"""Spec errors that name their place: `file:line:col: field.path: reason`."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpecIssue:
    path: str  # file path as given
    line: int  # 1-based
    col: int  # 1-based
    field: str  # dotted path into the spec, e.g. params.visual_range.min
    reason: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}"
        return f"{where}: {self.field}: {self.reason}" if self.field else f"{where}: {self.reason}"


class SpecError(Exception):
    """A spec that cannot be used; carries every issue found, in file order."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        self.issues = sorted(issues, key=lambda i: (i.line, i.col, i.field))
        super().__init__("\n".join(str(i) for i in self.issues))
