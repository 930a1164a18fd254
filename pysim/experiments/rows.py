"""rows.jsonl: an experiment's rows, one JSON object per trial, a line each.

Only `boidsgen experiment` writes it (`RowFile.append`, one whole batch per
write), but `--resume` reads it back, and a file read back is untrusted
input: anyone could have edited it. So every line is checked before any of
it is used: at most MAX_LINE bytes, JSON without NaN or Infinity, nested no
deeper than a row, exactly the keys `run_batch` writes with the types it
writes them (whole numbers in range, finite numbers of sane size, short
names), and then, through the `check` the command gives (it knows the
plan), that it is a row of this experiment. A bad line is a RowError naming
`file:line` and what is wrong, and nothing is changed; only a partial last
line (a write cut short) is removed, so its trials run again.
"""
from __future__ import annotations

import json
import math
import os

from pysim.bounded_read import UnreadableFile, open_regular
from pysim.one_line import one_line

MAX_LINE = 16384  # bytes; a row is a few hundred
KEYS = frozenset({"point", "trial", "seed", "at", "metrics"})
MAX_INDEX = 10_000_000  # points x trials is at most this (codegen/experiments/file.py MAX_TRIALS)
MAX_NAMES = 64  # entries of `at` or `metrics`
MAX_NAME = 64  # characters of one name
MAX_MAGNITUDE = 1e15  # a metric or a varied value beyond this is no flock's
SHAPE = "not a row written by `boidsgen experiment`"


class RowError(ValueError):
    """rows.jsonl holds a line that is not one of our rows; str() is one line naming file:line."""


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a row holds")


def _number_problem(v, what: str) -> str | None:
    if type(v) not in (int, float):  # not bool: JSON's true is no number of ours
        return f"{what} is {type(v).__name__}, not a number"
    if not math.isfinite(v) or abs(v) > MAX_MAGNITUDE:
        return f"{what} is {v!r}, beyond any a trial gives"
    return None


def _names_problem(d, what: str, least: int) -> str | None:
    if not isinstance(d, dict) or not least <= len(d) <= MAX_NAMES:
        return f"'{what}' is not a mapping of {least} to {MAX_NAMES} names"
    for k, v in d.items():
        if len(k) > MAX_NAME:
            return f"a name in '{what}' is longer than {MAX_NAME} characters"
        why = _number_problem(v, f"{what}.{k}")
        if why:
            return why
    return None


def shape_problem(line: bytes) -> tuple[dict | None, str | None]:
    """(the row, None), or (None, what is wrong with the line as a row)."""
    try:
        r = json.loads(line, parse_constant=_no_constant)
    except RecursionError:
        return None, "nested deeper than a row"
    except ValueError as e:  # bad JSON, NaN/Infinity, an integer of thousands of digits
        return None, f"not JSON: {str(e)[:80]}"
    if not isinstance(r, dict):
        return None, f"a JSON {type(r).__name__}, not a row"
    if set(r) != KEYS:
        odd = sorted(set(r) ^ KEYS)
        return None, f"not the keys a row has ({', '.join(k[:MAX_NAME] for k in odd[:3])})"
    for k, hi in (("point", MAX_INDEX), ("trial", MAX_INDEX), ("seed", 1 << 32)):
        if type(r[k]) is not int or not 0 <= r[k] < hi:
            return None, f"'{k}' is not a whole number from 0 to {hi - 1}"
    why = _names_problem(r["at"], "at", 0) or _names_problem(r["metrics"], "metrics", 1)  # `at`: {} if nothing varies
    return (None, why) if why else (r, None)


class RowFile:
    """rows.jsonl. `check(row) -> str | None`, if given, says why a row of
    the right shape is not one of this experiment's (codegen/commands/experiment.py)."""

    def __init__(self, path, check=None) -> None:
        self.path, self.check = path, check

    def _refuse(self, n: int, what: str, why: str) -> RowError:
        return RowError(f"{one_line(self.path)}:{n}: {what}: {one_line(why)} (remove the file, or the line, to "
                        "run its trials again)")

    def done(self) -> dict:
        """{(point, trial): row} of the complete rows, each checked; a
        partial last line (a write cut short) is then removed from the
        file, so its trials run again. RowError for a bad line or a file
        that is not a regular one (nothing is changed)."""
        try:
            fh = open_regular(self.path)
        except FileNotFoundError:
            return {}
        except UnreadableFile as e:
            raise RowError(str(e)) from None
        rows, keep, n = {}, 0, 0
        with fh:
            size = os.fstat(fh.fileno()).st_size
            while True:
                line = fh.readline(MAX_LINE + 1)
                if not line.endswith(b"\n"):
                    if len(line) > MAX_LINE:
                        raise self._refuse(n + 1, SHAPE, f"a line longer than {MAX_LINE} bytes")
                    break  # the end, or a partial last line
                n += 1
                r, why = shape_problem(line)
                if why:
                    raise self._refuse(n, SHAPE, why)
                why = self.check(r) if self.check else None
                if why:
                    raise self._refuse(n, "not a row of this experiment", why)
                rows[(r["point"], r["trial"])] = r
                keep += len(line)
        if keep < size:
            with open(self.path, "r+b") as out:
                out.truncate(keep)
        return rows

    def append(self, rows: list[dict]) -> None:
        text = "".join(json.dumps(r, separators=(",", ":"), allow_nan=False) + "\n" for r in rows)
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
