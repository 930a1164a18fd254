"""Decimal text <-> fixed point. Twin of firmware_runtime/core/fxdecimal.c.

The generator converts the spec's constants with ``parse`` and the board
converts serial input with the C twin; both give round(value * 2^F) with
halves away from zero, so a value means the same raw number everywhere.
"""
from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

MAX_FRAC_DIGITS = 40
PRINT_DIGITS = 6
_GRAMMAR = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")


class FxDecimalError(ValueError):
    """A decimal that cannot become a fixed-point value; str() is the reason."""


def to_raw_exact(value: Fraction, frac_bits: int) -> int:
    """round(value * 2^F), halves away from zero, without a range check."""
    scaled = value * (1 << frac_bits)
    mag = abs(scaled)
    q, r = divmod(mag.numerator, mag.denominator)
    if 2 * r >= mag.denominator:
        q += 1
    return -q if scaled < 0 else q


def check_range(raw: int) -> int:
    if not -(1 << 31) <= raw <= (1 << 31) - 1:
        raise FxDecimalError("out of fixed-point range")
    return raw


def parse(text: str, frac_bits: int) -> int:
    """Parse decimal text exactly as the board does; raises FxDecimalError."""
    if text in ("", "+", "-"):
        raise FxDecimalError("no number")
    if not _GRAMMAR.match(text):
        if re.fullmatch(r"[+-]?\.", text):
            raise FxDecimalError("no number")
        raise FxDecimalError("not a decimal number")
    if "." in text and len(text.split(".", 1)[1]) > MAX_FRAC_DIGITS:
        raise FxDecimalError("too many digits")
    return check_range(to_raw_exact(Fraction(Decimal(text)), frac_bits))


def parse_int(text: str) -> int:
    if text in ("", "+", "-"):
        raise FxDecimalError("no number")
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise FxDecimalError("not a decimal number")
    v = int(text)
    if not -(1 << 31) <= v <= (1 << 31) - 1:
        raise FxDecimalError("out of fixed-point range")
    return v


def from_number(value, frac_bits: int) -> int:
    """Raw value of a spec number (int, float or Decimal), via its decimal text."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    return check_range(to_raw_exact(Fraction(Decimal(value)), frac_bits))


def format_raw(raw: int, frac_bits: int) -> str:
    """Decimal text of a raw value: up to PRINT_DIGITS decimals, half up on the
    magnitude, trailing zeros dropped. Same text as the board prints."""
    mag = -raw if raw < 0 else raw
    ip = mag >> frac_bits
    fr = mag & ((1 << frac_bits) - 1)
    scale = 10**PRINT_DIGITS
    dec = (fr * scale * 2 + (1 << frac_bits)) >> (frac_bits + 1)
    if dec >= scale:
        ip += 1
        dec -= scale
    sign = "-" if raw < 0 and (ip or dec) else ""
    if dec == 0:
        return f"{sign}{ip}"
    return f"{sign}{ip}." + f"{dec:0{PRINT_DIGITS}d}".rstrip("0")


def to_float(raw: int, frac_bits: int) -> float:
    return raw / (1 << frac_bits)
