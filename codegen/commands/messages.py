"""How every command reports: one line to stderr, prefixed `boidsgen:`;
a bad spec's located errors one a line.

A message is one line whatever it quotes: `err` shows every path and piece
of user text in it escaped (pysim/one_line.py, the function the spec errors
use), so a folder named "x\\nspec/boids.yaml:1:1: ..." cannot print a forged
line. Only `failed` prints more: an external tool's own output (a compiler's
errors, make's) after a first line whose paths were escaped where it was
raised.
"""
from __future__ import annotations

import sys

from pysim.one_line import one_line


def err(msg: str) -> None:
    print(f"boidsgen: {one_line(msg)}", file=sys.stderr)


def failed(text: str) -> None:
    """A build or measurement that failed, with the tool's output (BuildError, BudgetError)."""
    print(f"boidsgen: {text}", file=sys.stderr)


def spec_errors(issues, summary: bool = True) -> None:
    """A bad spec's located errors, one a line, then (with summary) the count."""
    for issue in issues:
        print(issue, file=sys.stderr)
    if summary:
        err(f"{len(issues)} error(s) in the spec; nothing written")
