"""Replies of commands that change the simulation end with ` frame=F` (the
first frame the change takes effect in). Tests of what a reply says compare
the rest; tests/test_lockstep.py checks the stamps themselves."""
from __future__ import annotations

import re

STAMP = re.compile(r" frame=\d+$")


def unstamp(line: str) -> str:
    return STAMP.sub("", line)
