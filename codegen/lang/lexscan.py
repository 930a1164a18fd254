"""What a rule's code may hold, checked on its text before Python parses it.

Python's parser normalises identifiers (NFKC: `ｖｘ` and `𝐯𝐱` become `vx`)
and builds every literal, so both are checked on the tokens as written:
no character outside ASCII except in a comment (names are
[a-z][a-z0-9_]*), and no number longer or with a larger exponent than
codegen/spec/number_text.py allows. Each problem is at its character.
"""
from __future__ import annotations

import io
import tokenize
import unicodedata

from codegen.spec.number_text import number_problem

_SKIP = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)


def _non_ascii(tok: tokenize.TokenInfo) -> tuple[int, int, str]:
    i = next(k for k, ch in enumerate(tok.string) if not ch.isascii())
    ch = tok.string[i]
    what = f"'{ch}' (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})"
    if tok.type == tokenize.NAME:
        seen = unicodedata.normalize("NFKC", tok.string)
        also = f"; Python would read '{tok.string}' as '{seen}'" if seen.isascii() else ""
        reason = f"{what} in a name: names are ASCII letters, digits and _{also}"
    else:
        reason = f"{what} is not part of the rule language (only ASCII outside comments)"
    return tok.start[0], tok.start[1] + i, reason


def lexical_problems(text: str) -> list[tuple[int, int, str]]:
    """(code line 1-based, column 0-based in characters, reason) for each
    refused token, in order. A text Python cannot tokenize is left to the
    parser's syntax error (from the point it stopped)."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in _SKIP:
                continue
            if not tok.string.isascii():
                out.append(_non_ascii(tok))
            elif tok.type == tokenize.NUMBER:
                why = number_problem(tok.string, exponent=True)
                if why:
                    out.append((tok.start[0], tok.start[1], why))
    except (tokenize.TokenError, SyntaxError):
        pass
    return out
