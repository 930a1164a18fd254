"""What the window takes from a board, checked against the local model
before any of it reaches a control: a hostile or broken board gets a one-line
reason on the status line (PanelValueError), never a traceback and never a
value outside the spec's range in the panel (which Save to spec writes)."""
from __future__ import annotations

import re

from pysim.fxdecimal import format_raw
from pysim.board.wire import shown

_PLAIN = re.compile(r"[A-Za-z0-9_.+-]{1,40}")
# ASCII digits only: int() would take '1_0', ' 7' or Arabic digits
_RAW = re.compile(r"-?[0-9]{1,10}")
_STAMP = re.compile(r"frame=[0-9]{1,10}")


class PanelValueError(ValueError):
    """A value or announcement the window cannot use (the client has checked
    its form, pysim/board/replies.py; this checks it against the local spec):
    `reason` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def plain(value) -> str:
    """A board's word (`info`'s spec, fw, hash) as the status line may show
    it: as is when it is a short plain word, else quoted, escaped and cut."""
    text = str(value)
    return text if _PLAIN.fullmatch(text) else shown(text, 40)


def _param(model, name: str):
    for p in model.PARAMS:
        if p.name == name:
            return p
    return None


def param_text(model, name: str, raw) -> str | None:
    """The decimal text of a raw value the board holds for `name` (None: a
    parameter the local spec does not have); PanelValueError when the value
    is not an integer in the spec's range."""
    p = _param(model, name)
    if p is None:
        return None
    if isinstance(raw, str):
        if not _RAW.fullmatch(raw):
            raise PanelValueError(f"{name}: raw value {shown(raw, 40)} is not a 32-bit integer")
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool) or not p.min_raw <= raw <= p.max_raw:
        raise PanelValueError(f"{name}: raw value {str(raw)[:40]} outside the spec's [{p.min_raw}, {p.max_raw}]")
    return str(raw) if p.type == "int" else format_raw(raw, model.FRAC_BITS)


def param_texts(model, params: dict) -> dict[str, str]:
    """`list`'s parameters ({name: {'raw': R, ...}}) as {name: text}, checked."""
    out = {}
    for name, d in params.items():
        raw = d.get("raw") if isinstance(d, dict) else None
        text = param_text(model, name, raw)
        if text is not None:
            out[name] = text
    return out


def announced_set(model, line: str) -> tuple[str, str] | None:
    """`ev set NAME RAW frame=F` -> (NAME, text); None for other lines or a
    parameter this spec does not have; PanelValueError when malformed."""
    if not line.startswith("ev set "):  # every `fr` line passes here: keep it cheap
        return None
    words = line.split()
    if len(words) != 5 or not _STAMP.fullmatch(words[4]):
        raise PanelValueError(f"malformed announcement {shown(line)}")
    text = param_text(model, words[2], words[3])
    return None if text is None else (words[2], text)


def flock_count(model, stats: dict) -> int | None:
    """The flock size a `stats` reply gives, checked against the capacity."""
    n = stats.get("boids")
    if n is None:
        return None
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= model.CAPACITY:
        raise PanelValueError(f"stats: boids={str(n)[:40]} outside [0, {model.CAPACITY}]")
    return n
