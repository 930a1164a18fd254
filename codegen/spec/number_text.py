"""How long a number may be written, in a spec's YAML and in a rule's code.

Both are read by code that builds the whole number before any range check
(Python's int() and Fraction(), ruamel's int constructor): a literal with
thousands of digits, or an exponent of a billion, costs seconds to hours
or fails with a message that names no place. Every value a spec can use
fits in 32 bits (fixed point within +/-65,536 at most), so a number longer
than MAX_NUMBER_CHARS or, in a rule, with an exponent beyond MAX_EXPONENT
is refused from its text, before it is built.
"""
from __future__ import annotations

import re
from decimal import Decimal

MAX_NUMBER_CHARS = 40
MAX_EXPONENT = 99

_EXPONENT = re.compile(r"[eE]([+-]?)([0-9_]+)[jJ]?\Z")
_PREFIXED = re.compile(r"[+-]?0[xXoObB]")


def number_problem(text: str, exponent: bool = False) -> str | None:
    """Why the number written as `text` is refused before it is built, or None.
    `exponent`: also bound a decimal exponent (a rule's literals become exact
    fractions, where 1e999999999 is a billion-digit integer)."""
    if len(text) > MAX_NUMBER_CHARS:
        return (f"a number written with {len(text)} characters; at most {MAX_NUMBER_CHARS} "
                f"(every value a spec uses fits in 32 bits)")
    if exponent and not _PREFIXED.match(text):
        m = _EXPONENT.search(text)
        if m and int(m.group(2).replace("_", "") or "0") > MAX_EXPONENT:
            return (f"{text}: an exponent beyond +/-{MAX_EXPONENT} (every value a spec uses fits in 32 bits)")
    return None


def decimal_text(v) -> str:
    """The spec's own decimal text of a number (0.0005, not 0.00050000001)."""
    if isinstance(v, float):
        d = Decimal(repr(v))
        s = format(d, "f")
        return s.rstrip("0").rstrip(".") if "." in s else s
    return str(v)
