"""Every number on the command line, bounded (issue 50, item 7).

One argparse type factory, `number_in`, and the named ranges every command
uses (codegen/commands/parser.py for boidsgen, codegen/commands/gui.py for
boids-gui). A value outside its range, nan, inf, or text that is not a
number is refused by argparse itself: its usual one-line error naming the
option and the range, exit status 2, before anything is read or run. The
parser states each range in the option's help (docs/cli.md).

What depends on the spec (--boids against the spec's flock.capacity) is
checked once the spec is loaded, by `boids_within`, with the same kind of
one-line refusal (BadOption: exit status 2).
"""
from __future__ import annotations

import argparse
import math
import re

_DIGITS = re.compile(r"\s*[+-]?\d[\d_]*\s*")  # a whole number too long for int()
_SHOWN = 40  # characters of a refused text quoted back (a megabyte of digits is not echoed)


class BadOption(ValueError):
    """A command-line value the spec refuses (cli.main: one line, exit status 2)."""


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _num(v: float) -> str:
    """A bound as the user would type it: 86400, 0.5, 4294967295."""
    return f"{v:,}".replace(",", "") if float(v).is_integer() else f"{v:g}"


class number_in:
    """An argparse type: a whole number (whole=True) or a finite decimal in
    [lo, hi] (open_lo: lo itself excluded, as for a timeout's 0). `unit`
    names what it counts in the range text ('seconds', 'frames')."""

    def __init__(self, lo: float, hi: float, whole: bool = True, open_lo: bool = False, unit: str = "") -> None:
        self.lo, self.hi, self.whole, self.open_lo, self.unit = lo, hi, whole, open_lo, unit
        self.__name__ = "whole number" if whole else "number"  # argparse's "invalid <name> value" wording

    @property
    def range_text(self) -> str:
        lo = f"({_num(self.lo)}" if self.open_lo else f"[{_num(self.lo)}"
        kind = "a whole number" if self.whole else "a number"
        return f"{kind} in {lo}, {_num(self.hi)}]{' ' + self.unit if self.unit else ''}"

    def __call__(self, text: str):
        try:
            v = int(text, 10) if self.whole else float(text)
        except ValueError:  # int('1e3'), float('x'), int() of more than 4300 digits
            if self.whole and _DIGITS.fullmatch(text):
                raise argparse.ArgumentTypeError(f"{_shown(text)} is outside the range: {self.range_text}") from None
            raise argparse.ArgumentTypeError(f"'{_shown(text)}' is not {self.range_text}") from None
        if self.whole:
            inside = self.lo <= v <= self.hi
        else:
            inside = math.isfinite(v) and (self.lo < v if self.open_lo else self.lo <= v) and v <= self.hi
        if not inside:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is outside the range: {self.range_text}")
        return v


DAY = 86_400  # seconds: the longest wait or run a timeout or a duration asks for
FRAMES = number_in(1, 10_000_000, unit="frames")  # about 4 days of a 30 fps flock
FRAMES_OR_ALL = number_in(0, 10_000_000, unit="frames")
SEED = number_in(0, 0xFFFF_FFFF)  # the PRNG's seed is a uint32_t
BOIDS = number_in(0, 65_535, unit="boids (and at most the spec's flock.capacity)")  # the schema's largest capacity
BUDGET_BOIDS = number_in(1, 65_535, unit="boids")
SECONDS = number_in(0, DAY, whole=False, open_lo=True, unit="seconds")
PERCENT = number_in(0, 100, whole=False, open_lo=True, unit="percent")  # a quantization error is at most 100 %
CPI = number_in(0, 100, whole=False, open_lo=True, unit="cycles per instruction")
WARMUP = number_in(0, 100_000, unit="frames")
BUDGET_FRAMES = number_in(1, 100_000, unit="frames")
EVERY = number_in(1, 1000, unit="frames")
BAUD = number_in(1, 4_000_000, unit="baud")  # the fastest UART of the boards
WORKERS = number_in(0, 1024, unit="processes")
SCALE = number_in(1, 16)  # canvas pixels per display pixel


def with_ranges(parser: argparse.ArgumentParser) -> None:
    """Append each numeric option's range to its help (the parser and its subcommands)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                with_ranges(sub)
        elif isinstance(action.type, number_in):
            help_ = (action.help or "").rstrip()
            action.help = f"{help_}; {action.type.range_text}" if help_ else action.type.range_text


def boids_within(boids: int | None, capacity: int) -> None:
    """--boids against the spec's flock.capacity: BadOption when above it."""
    if boids is not None and boids > capacity:
        raise BadOption(f"--boids {boids}: the spec's flock.capacity is {capacity}")
