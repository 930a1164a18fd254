"""Slider position <-> parameter value, linear or logarithmic, and the decimal
text a value is sent as (what the board's `set` parses: no exponents)."""
from __future__ import annotations

import math
from decimal import Decimal

STEPS = 1000  # slider positions from 0 to STEPS


def _plain(d: Decimal) -> str:
    s = format(d.normalize(), "f")
    return "0" if s in ("-0", "") else s


class SliderMap:
    """Maps a slider position in [0, STEPS] to a value in [lo, hi].

    Logarithmic when the range spans two decades or more of positive values
    (centering 0.0002 to 1), so the small end gets as much travel as the big."""

    def __init__(self, lo: str, hi: str, is_int: bool = False) -> None:
        self.lo_text, self.hi_text = lo, hi
        self.lo, self.hi = float(lo), float(hi)
        self.is_int = is_int
        self.log = self.lo > 0 and self.hi / self.lo >= 100

    def to_pos(self, value: float) -> float:
        v = min(max(value, self.lo), self.hi)
        if self.hi == self.lo:
            return 0.0
        if self.log:
            return STEPS * math.log(v / self.lo) / math.log(self.hi / self.lo)
        return STEPS * (v - self.lo) / (self.hi - self.lo)

    def to_value(self, pos: float) -> float:
        f = min(max(float(pos), 0.0), STEPS) / STEPS
        if self.log:
            return self.lo * (self.hi / self.lo) ** f
        return self.lo + f * (self.hi - self.lo)

    def text(self, pos: float) -> str:
        """The decimal text for a slider position: the range's own ends exactly,
        3 significant digits on a log scale, else the linear step's decimals."""
        pos = float(pos)
        if pos <= 0:
            return self.lo_text
        if pos >= STEPS:
            return self.hi_text
        v = self.to_value(pos)
        if self.is_int:
            return str(int(round(v)))
        if self.log:
            digits = 3 - 1 - math.floor(math.log10(v))
        else:
            step = (self.hi - self.lo) / STEPS
            digits = max(0, -math.floor(math.log10(step))) if step > 0 else 0
        d = Decimal(repr(round(v, max(digits, 0))))
        return _plain(d)

    def nudge(self, value: float, steps: int) -> str:
        """The text of `value` moved by `steps` twentieths of the travel."""
        return self.text(self.to_pos(value) + steps * STEPS / 20)
