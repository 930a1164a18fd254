"""The board's replies read field by field (firmware_runtime/core/cmd_core.c,
serial_cmd.c): every field a caller uses is checked here, so a malformed or
hostile reply is a WireError naming it, never a KeyError or a 10^20 that
reaches the simulation."""
from __future__ import annotations

import re

from pysim.board.wire import WireError, field, fields, shown, whole

U32 = 2 ** 32 - 1
I32 = (-(2 ** 31), 2 ** 31 - 1)
_DECIMAL = re.compile(r"-?[0-9]{1,12}(\.[0-9]{1,12})?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def kv(reply: str) -> dict[str, str]:
    return fields(reply.split()[1:])


def raw_value(reply: str, name: str) -> int:
    """`ok NAME=TEXT raw=RAW ...` (set, get) -> RAW."""
    f = kv(reply)
    field(f, name, reply)
    return whole(field(f, "raw", reply), *I32, "raw", reply)


def stats(reply: str) -> dict[str, int]:
    """`ok stats time=.. boids=.. ... frames=.. paused=0|1` -> ints; frames and paused required."""
    out = {k: whole(v, 0, U32, k, reply) for k, v in fields(reply.split()[2:]).items()}
    for key in ("frames", "paused"):
        field(out, key, reply)
    if out["paused"] not in (0, 1):
        raise WireError(f"paused={out['paused']} (not 0 or 1) in {shown(reply)}")
    return out


def count(reply: str, capacity: int) -> int:
    """`ok boids=N` -> N in [0, capacity]."""
    return whole(field(kv(reply), "boids", reply), 0, capacity, "boids", reply)


def seed(reply: str) -> int:
    """`ok reset seed=S boids=N frame=0` -> S."""
    return whole(field(kv(reply), "seed", reply), 0, U32, "seed", reply)


def frame(reply: str) -> int:
    """`ok watch on|off every=K frame=F` -> F."""
    return whole(field(kv(reply), "frame", reply), 0, U32, "frame", reply)


def _decimal(text: str, what: str, line: str) -> str:
    if not _DECIMAL.fullmatch(text):
        raise WireError(f"{what} is not a decimal number in {shown(line)}")
    return text


def param(line: str, scale: int) -> tuple[str, dict]:
    """One `param NAME=TEXT raw=R min=A max=B default=D id=I tunable=0|1
    type=fixed|int unit=U` line of `list` -> (name, its fields)."""
    words = line.split()
    if len(words) < 2 or words[0] != "param" or "=" not in words[1]:
        raise WireError(f"not a param line: {shown(line)}")
    name = words[1].partition("=")[0]
    if not _NAME.fullmatch(name):
        raise WireError(f"bad parameter name in {shown(line)}")
    f = fields(words[2:])
    typ = f.get("type", "fixed")
    if typ not in ("fixed", "int"):
        raise WireError(f"type={typ} (not fixed or int) in {shown(line)}")
    num = int if typ == "int" else float
    raw = whole(field(f, "raw", line), *I32, "raw", line)
    bounds = {k: num(_decimal(field(f, k, line), k, line)) for k in ("min", "max", "default")}
    return name, {
        "value": raw if typ == "int" else raw / scale,
        "raw": raw,
        **bounds,
        "id": whole(field(f, "id", line), 0, 65535, "id", line),
        "tunable": f.get("tunable") == "1",
        "type": typ,
        "unit": "" if f.get("unit", "-") == "-" else f["unit"],
    }


def params(lines: list[str], scale: int) -> dict[str, dict]:
    """The reply to `list` (its param lines, then `ok list N`) -> {name: fields}."""
    *rows, last = lines
    words = last.split()
    if len(words) != 3 or words[1] != "list":
        raise WireError(f"not the end of a list: {shown(last)}")
    told = whole(words[2], 0, 65535, "the count", last)
    if told != len(rows):
        raise WireError(f"{shown(last)} after {len(rows)} param lines")
    return dict(param(row, scale) for row in rows)


def _world_capacity(model) -> int:
    """Elements of state besides the boids a `dump` may list (predators, food, obstacles, target)."""
    return sum(capacity_of(model, kind) for kind, _ in model.STATE_KINDS if kind != "boid")


def reply_lines(model) -> int:
    """The most lines any reply has: `dump` of a full world, `list`, `help`."""
    return max(model.CAPACITY + _world_capacity(model) + 2, len(model.PARAMS) + 1,
               len(getattr(model, "COMMANDS", ())) + 1) + 16


def row_bytes(model) -> int:
    """The longest `dump` row: frame, index, kind, then each field (11 characters a number)."""
    widest = max((len(kind) + 12 * len(flds) for kind, flds in model.STATE_KINDS), default=0)
    return widest + 24


def capacity_of(model, kind: str) -> int:
    """How many elements of one kind of state (the model's STATE_KINDS) the board can hold."""
    if kind == "boid":
        return model.CAPACITY
    if kind == "target":
        return 1
    sec = getattr(model, {"predator": "PREDATORS", "food": "FOOD", "obstacle": "OBSTACLES"}.get(kind, ""), None)
    return int(sec["capacity"]) if sec else 0
