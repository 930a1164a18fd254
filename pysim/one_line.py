"""The one way user text reaches a message: on one line, shown as it is.

A message is one line whatever it quotes: a path, a key, a value or a
board's reply can hold a newline that would print a second, forged
`file:line:col:` line, or a direction control that reorders what the reader
sees. `one_line` spells every such character as an escape; every message
that names a path or quotes user text passes it through here (the spec's
errors, codegen/spec/errors.py; the output and build errors; the bounded
reader's refusals; the experiment's rows). pysim holds it because pysim
never imports codegen, and both need it.
"""
from __future__ import annotations

import unicodedata

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Control, format (bidi, zero-width), line/paragraph separators, surrogates,
# private use and unassigned code points: none prints as itself on one line.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def _escape(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    cp = ord(ch)
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def one_line(text) -> str:
    """str(text) with every character that would break or hide part of the line escaped."""
    text = str(text)
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escape(ch) if (ch < " " or unicodedata.category(ch) in _HIDDEN) else ch for ch in text)
