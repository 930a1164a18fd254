"""How every command reports: one line to stderr, prefixed `boidsgen:`;
a bad spec's located errors one a line."""
from __future__ import annotations

import sys


def err(msg: str) -> None:
    print(f"boidsgen: {msg}", file=sys.stderr)


def spec_errors(issues, summary: bool = True) -> None:
    """A bad spec's located errors, one a line, then (with summary) the count."""
    for issue in issues:
        print(issue, file=sys.stderr)
    if summary:
        err(f"{len(issues)} error(s) in the spec; nothing written")
