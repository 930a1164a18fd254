"""Positions: from a place inside a rule's code block to the spec file's line:col.

ruamel.yaml (round-trip) gives the 0-based line and column of a mapping's
values: for a `|` block scalar that is the `|` itself. The block's content
starts on the next line, at the block's indentation (the first non-blank
line's, or the key's column plus an explicit indentation indicator, `|2`),
and a literal block keeps every line, blank ones included, so line k of the
code is file line `|`-line + k and column c is indentation + c.

A single-line plain value (`apply: vx += x`) maps exactly; a quoted one maps
its first line exactly when it has no escapes before the place (approximately
otherwise), and later lines (from escaped newlines) to the value's start. A
folded `>` block is refused: folding joins lines, so the code would not be
the code the user sees.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from codegen.lang.ir import Pos

_HEADER = re.compile(r"\|(?:([1-9])([+-]?)|([+-])([1-9]?))?")


@dataclass(frozen=True)
class Block:
    text: str  # the code, as YAML gives it
    start: Pos  # the value's own position (the `|` of a block)
    where: Callable[[int, int], Pos]  # (code line 1-based, code column 0-based, in characters) -> file


def key_pos(mapping: Any, key: str) -> Pos:
    """The position of `key` itself in a ruamel mapping (1-based)."""
    try:
        ln, cl = mapping.lc.key(key)
        return Pos(ln + 1, cl + 1)
    except (AttributeError, KeyError, TypeError):
        return mapping_pos(mapping)


def value_pos(mapping: Any, key: str) -> Pos:
    """The position of `key`'s value (for a block scalar: its `|`)."""
    try:
        ln, cl = mapping.lc.value(key)
        return Pos(ln + 1, cl + 1)
    except (AttributeError, KeyError, TypeError):
        return key_pos(mapping, key)


def mapping_pos(mapping: Any) -> Pos:
    try:
        return Pos(mapping.lc.line + 1, mapping.lc.col + 1)
    except (AttributeError, TypeError):
        return Pos(1, 1)


def block(mapping: Any, key: str, lines: list[str]) -> Block | str:
    """The code under `key` with its position map, or why it cannot be code."""
    text = mapping[key]
    start = value_pos(mapping, key)
    ln0, col0 = start.line - 1, start.col - 1
    raw = lines[ln0] if 0 <= ln0 < len(lines) else ""
    lead = raw[col0] if 0 <= col0 < len(raw) else ""
    if lead == ">":
        return "write code as a literal block (`|`): a folded block (`>`) joins its lines"
    if lead == "|":
        indent = _block_indent(raw[col0:], key_pos(mapping, key).col - 1, lines, ln0)

        def where(line: int, col: int) -> Pos:
            return Pos(start.line + line, indent + col + 1)

        return Block(text, start, where)
    shift = 1 if lead in ("'", '"') else 0

    def where_inline(line: int, col: int) -> Pos:
        if line != 1:
            return start
        return Pos(start.line, start.col + shift + col)

    return Block(text, start, where_inline)


def _block_indent(header: str, key_col: int, lines: list[str], ln0: int) -> int:
    """The content indentation of the literal block whose header is `header`."""
    m = _HEADER.match(header)
    explicit = m and (m.group(1) or m.group(4))
    if explicit:
        return key_col + int(explicit)
    for line in lines[ln0 + 1:]:
        if line.strip():
            return len(line) - len(line.lstrip(" "))
    return key_col + 2
