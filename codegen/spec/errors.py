"""Spec errors that name their place: `file:line:col: field.path: reason`.

An error is one line whatever it quotes: keys, values and paths from the
spec reach the reason as written, so a YAML-escaped newline in a key could
otherwise print a second, forged `file:line:col:` line, and a direction
control could reorder what the reader sees. `one_line` spells every such
character as an escape; SpecIssue applies it to all its parts.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Control, format (bidi, zero-width), line/paragraph separators, surrogates,
# private use and unassigned code points: none prints as itself on one line.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def _escape(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    cp = ord(ch)
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def one_line(text: str) -> str:
    """text with every character that would break or hide part of the line escaped."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escape(ch) if (ch < " " or unicodedata.category(ch) in _HIDDEN) else ch for ch in text)


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
