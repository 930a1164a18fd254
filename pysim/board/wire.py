"""What the serial link's reader trusts of a board's bytes: lines of
bounded length, split in linear time, and reply fields read strictly.

A board (or whatever answers on the port) may send anything; every field a
caller uses goes through `whole` or `field`, which raise WireError naming
the line (escaped and cut short by `shown`) instead of a ValueError or
KeyError from deep inside a parser.
"""
from __future__ import annotations

import re

LINE_LIMIT = 65536  # bytes: far above any line the firmware sends (an `ev state` of every obstacle is < 2 KB)
SHOWN_CHARS = 80  # characters of a bad line an error message quotes

_WHOLE = re.compile(r"-?[0-9]{1,20}")


class WireError(ValueError):
    """A line, or a field of one, that the protocol does not allow."""


def shown(text: str | bytes, limit: int = SHOWN_CHARS) -> str:
    """A line as an error message may quote it: on one line, control and
    non-ASCII characters escaped, cut to `limit` characters (with the length)."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    cut = text[:limit]
    out = "'" + cut.encode("unicode_escape").decode("ascii").replace("'", "\\'") + "'"
    return out if len(text) <= limit else f"{out}... ({len(text)} characters)"


def whole(text: str, lo: int, hi: int, what: str, line: str) -> int:
    """A decimal integer in [lo, hi], ASCII digits only (int() would take
    '1_000', ' 7' or Arabic digits): WireError naming `what` and `line` otherwise."""
    if not _WHOLE.fullmatch(text):
        raise WireError(f"{what} is not a whole number in {shown(line)}")
    v = int(text)
    if not lo <= v <= hi:
        raise WireError(f"{what} {v} outside [{lo}, {hi}] in {shown(line)}")
    return v


def fields(words: list[str]) -> dict[str, str]:
    """The `k=v` words of a line (the others are left out)."""
    out = {}
    for w in words:
        k, sep, v = w.partition("=")
        if sep:
            out[k] = v
    return out


def field(kv: dict[str, str], key: str, line: str) -> str:
    """kv[key], or WireError naming the line that lacks it."""
    if key not in kv:
        raise WireError(f"no {key}= in {shown(line)}")
    return kv[key]


class LineSplitter:
    """Bytes in, complete lines out, each byte looked at once (a 16 MB line
    costs its reading, not a re-split per chunk). A line longer than
    `limit` is dropped up to its end and reported once, by its start."""

    def __init__(self, limit: int = LINE_LIMIT) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._skipping = False  # inside an overlong line: drop bytes up to its newline

    def feed(self, chunk: bytes) -> tuple[list[bytes], str | None]:
        """(the lines completed by `chunk`, the error of an overlong line or None)."""
        lines: list[bytes] = []
        error = None
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            if nl < 0:
                break
            if self._skipping:
                self._skipping = False
            elif len(self._buf) + nl - start > self.limit:
                error = error or self._too_long(self._buf[:SHOWN_CHARS] + chunk[start:min(nl, start + SHOWN_CHARS)])
            else:
                self._buf += chunk[start:nl]
                lines.append(bytes(self._buf))
            self._buf.clear()
            start = nl + 1
        if not self._skipping:
            self._buf += chunk[start:]
            if len(self._buf) > self.limit:
                error = error or self._too_long(self._buf)
                self._buf.clear()
                self._skipping = True
        return lines, error

    def _too_long(self, start: bytes) -> str:
        return f"a line longer than {self.limit} bytes, starting {shown(bytes(start[:SHOWN_CHARS // 2]))}"
