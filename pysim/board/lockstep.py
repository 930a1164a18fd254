"""The simulator's side of the lockstep: a mirror of a running board.

The board (firmware_runtime/core/watch.h) sends, in wire order, `fr FRAME DIGEST`
after every EVERY-th frame and an `ev` line for every change, stamped with
the first frame it takes effect in. The mirror steps its own fixed-point
simulation to each event's frame - 1, applies the event there, steps to each
`fr` frame and compares digests (pysim/digest.py). Nothing here reads a
clock or the port: feed it lines, in order, from any thread.

Every field of every line is checked before it is used (a board may be
broken or hostile): a malformed line, a value outside what the board can
hold, or a frame further ahead than `max_jump` is a LockstepError naming the
line, and changes nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pysim.board.replies import I32, U32, capacity_of
from pysim.digest import digest, digest_text
from pysim.engine import Simulation
from pysim.fxdecimal import format_raw
from pysim.params import ParamError
from pysim.board.wire import WireError, shown, whole

_DIGEST = re.compile(r"[0-9a-f]{8}")
JUMP_SECONDS = 60  # a line may lead the newest frame by at most this much of the board's time


class LockstepError(ValueError):
    """A line the mirror cannot apply (malformed, or out of order)."""


@dataclass
class Divergence:
    frame: int  # the first frame whose digest differs (or where the stream broke)
    why: str  # what differs: digests, then, after a dump, the first boid and field
    detail: str = ""  # "boid 3 field vx (board 1.5, simulator 1.25)"
    detail_frame: int | None = None  # the frame the dump was taken at
    after: int | None = None  # the last frame found in step: it happened in after+1 .. frame

    @property
    def where(self) -> str:
        if self.after is None or self.after + 1 >= self.frame:
            return f"at frame {self.frame}"
        return f"between frames {self.after + 1} and {self.frame}"

    def __str__(self) -> str:
        if not self.detail:
            return f"diverged {self.where}: {self.why}"
        at = f" (the board's dump at frame {self.detail_frame})" if self.detail_frame not in (None, self.frame) else ""
        return f"diverged {self.where}: {self.detail}{at}"


def _stamp(words: list[str]) -> tuple[list[str], dict[str, str]]:
    """Split `k=v` words from the others."""
    plain, kv = [], {}
    for w in words:
        k, sep, v = w.partition("=")
        if sep:
            kv[k] = v
        else:
            plain.append(w)
    return plain, kv


class Mirror:
    """A fixed-point simulation that follows a board's `fr`/`ev` stream."""

    def __init__(self, model, order: str | None = None) -> None:
        self.model = model
        self.sim = Simulation(model, "fixed", order=order)
        self.synced = False  # until the first `ev reset` (or adopt)
        self.frames_in_step = 0  # frames whose digests have been confirmed, over every reset
        self.checked_to = 0  # the last frame confirmed in this epoch
        self.board_frame = 0  # the newest frame the board reported
        self.paused = False
        self.events = 0
        self.event_kinds: dict[str, int] = {}  # "set", "boids/adaptive", "reset", ... -> how many
        self.diverged: Divergence | None = None
        self.resets = 0  # `ev reset` lines followed (the sync point is the first)
        self.first_change: int | None = None  # the frame of this epoch's first set/boids/state event
        self.max_jump = model.FRAME_RATE * JUMP_SECONDS  # frames a line may lead the newest frame by

    # ---- set-up ----
    def set_params(self, raw: dict[str, int]) -> None:
        """The board's parameter values (`list`), before the first reset."""
        for name, v in raw.items():
            try:
                self.sim.params.set_raw(name, v)
            except ParamError as e:
                raise LockstepError(f"the board's list: {e}") from None

    def adopt(self, rows: list[str]) -> None:
        """Take the board's state from a `dump` (its rows, the `ok` line aside)."""
        frame, kinds, rng = _parse_rows(rows, self.model)
        sim = self.sim
        sim.reset(sim.seed, 0)
        for kind, _ in self.model.STATE_KINDS:
            sim.load_kind(kind, [v for _, v in sorted(kinds.get(kind, {}).items())])
        sim.rng.s = rng
        sim.frame = frame
        self.checked_to = frame
        self.board_frame = frame
        self.synced = True

    # ---- the stream ----
    def feed(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        try:
            if words[0] == "fr":
                self._frame(words, line)
            elif words[0] == "ev":
                self._event(words[1:], line)
        except (WireError, ParamError) as e:
            raise LockstepError(f"{e} (in {shown(line)})" if isinstance(e, ParamError) else str(e)) from None

    def _ahead(self, frame: int, line: str) -> int:
        """`frame`, unless it leads the newest frame by more than max_jump."""
        if self.synced and frame > self.board_frame + self.max_jump:
            raise LockstepError(f"frame {frame} is more than {self.max_jump} frames after frame {self.board_frame} "
                                f"({JUMP_SECONDS} s of the board's time) in {shown(line)}")
        return frame

    def _frame(self, words: list[str], line: str) -> None:
        if len(words) != 3 or not _DIGEST.fullmatch(words[2]):
            raise LockstepError(f"bad frame line: {shown(line)}")
        frame, board = self._ahead(whole(words[1], 0, U32, "frame", line), line), words[2]
        self.board_frame = frame
        if not self.synced or self.diverged:  # diverged: the mirror waits at that frame for the board's dump
            return
        self._to(frame)
        mine = digest_text(digest(self.sim))
        if mine != board:
            self.diverged = Divergence(frame, f"digest: board {board}, simulator {mine}", after=self.checked_to)
            return
        self.frames_in_step += frame - self.checked_to
        self.checked_to = frame

    def _event(self, words: list[str], line: str) -> None:
        plain, kv = _stamp(words)
        if not plain:
            raise LockstepError(f"bad event line: {shown(line)}")
        what, args = plain[0], plain[1:]
        if what not in _EVENTS:
            raise LockstepError(f"unknown event: {shown(line)}")
        if not _EVENTS[what](len(args)):
            raise LockstepError(f"bad event line: {shown(line)}")
        at = self._ahead(whole(kv["frame"], 0, U32, "frame", line), line) if "frame" in kv else None
        if at is None and what != "reset":
            raise LockstepError(f"no frame= in {shown(line)}")
        self.events += 1
        key = f"{what}/{kv['cause']}" if "cause" in kv else what
        self.event_kinds[key] = self.event_kinds.get(key, 0) + 1
        if what == "reset":
            seed, n = whole(args[0], 0, U32, "seed", line), whole(args[1], 0, self.model.CAPACITY, "boids", line)
            self.sim.reset(seed, n)
            self.resets, self.first_change = self.resets + 1, None
            self.synced, self.checked_to, self.board_frame = True, 0, 0  # a reset does not resume a paused board
            return
        if what == "set":  # parameters are followed before the sync too
            raw = whole(args[1], *I32, "value", line)
            self.sim.params.check_raw(args[0], raw)  # before the mirror moves: a refused line changes nothing
            if self.synced:
                self._to(at - 1)
                self._changed(at)
            self.sim.params.set_raw(args[0], raw)
            return
        rows = _state_rows(self.model, args, kv, line) if what == "state" else None
        n = whole(args[0], 0, self.model.CAPACITY, "boids", line) if what == "boids" else 0
        if not self.synced:
            return
        self._to(at - 1)
        if what == "state" or (what == "boids" and kv.get("cause") != "spawn"):  # the spawn is the board's own
            self._changed(at)
        if what == "boids":
            self.sim.set_count(n)
        elif what == "state":
            self.sim.load_kind(args[0], rows)
        else:
            self.paused = what == "pause"

    def _changed(self, frame: int) -> None:
        if self.first_change is None:
            self.first_change = frame

    def _to(self, frame: int) -> None:
        """Step to `frame` (never back: a stamp behind the mirror breaks the lockstep)."""
        sim = self.sim
        if frame < sim.frame:
            if not self.diverged:
                self.diverged = Divergence(frame + 1, f"an event for frame {frame + 1} came after the mirror "
                                                      f"had computed frame {sim.frame}")
            return
        while sim.frame < frame:
            sim.step()

    @property
    def frame(self) -> int:
        return self.sim.frame

    # ---- pinning a divergence down ----
    def explain(self, rows: list[str]) -> str:
        """The first kind, element and field where a board's dump differs
        from the mirror's state now ('' when none does)."""
        from pysim.trace import rows as sim_rows

        frame, board, rng = _parse_rows(rows, self.model)
        if self.diverged and self.sim.frame < frame:  # the board ran on past the divergence until it paused
            self._to(frame)
        mine_frame, mine, my_rng = _parse_rows(sim_rows(self.sim).splitlines(), self.model)
        if self.diverged:
            self.diverged.detail_frame = frame
        if frame != mine_frame:
            return f"the board dumped frame {frame}, the simulator is at frame {mine_frame}"
        for kind, fields in self.model.STATE_KINDS:
            b, m = board.get(kind, {}), mine.get(kind, {})
            if len(b) != len(m):
                return f"{kind} count (board {len(b)}, simulator {len(m)})"
            for i in sorted(b):
                for (name, typ), bv, mv in zip(fields, b[i], m[i]):
                    if bv != mv:
                        show = (lambda v: format_raw(v, self.model.FRAC_BITS)) if typ == "fx" else str
                        return f"{kind} {i} field {name} (board {show(bv)}, simulator {show(mv)})"
        if rng != my_rng:
            return f"rng state (board {rng}, simulator {my_rng})"
        return ""


# event -> whether it may have this many plain words after its name
_EVENTS = {"reset": (2).__eq__, "set": (2).__eq__, "boids": (1).__eq__, "state": (1).__le__,
           "pause": (0).__eq__, "resume": (0).__eq__}


def _values(text: str, n: int, line: str) -> tuple[int, ...]:
    """`a,b,c` -> n 32-bit integers (an element's fields)."""
    parts = text.split(",")
    if len(parts) != n:
        raise LockstepError(f"{len(parts)} values where {n} belong in {shown(line)}")
    return tuple(whole(v, I32[0], U32, "a field", line) for v in parts)


def _state_rows(model, args: list[str], kv: dict[str, str], line: str) -> list[tuple[int, ...]]:
    """`ev state KIND frame=F n=N a,b,c ...` -> N rows of KIND's fields."""
    fields = dict(model.STATE_KINDS).get(args[0])
    if fields is None or args[0] == "boid":
        raise LockstepError(f"no such kind of state in {shown(line)}")
    n = whole(kv.get("n", ""), 0, capacity_of(model, args[0]), "n", line)
    if n != len(args) - 1:
        raise LockstepError(f"n={n} but {len(args) - 1} elements in {shown(line)}")
    return [_values(a, len(fields), line) for a in args[1:]]


def _parse_rows(rows: list[str], model) -> tuple[int, dict[str, dict[int, tuple[int, ...]]], int]:
    """Trace rows of one frame (`frame,index,kind,fields...`, then the PRNG's)
    -> (frame, {kind: {index: values}}, rng state), every field checked."""
    kinds_fields = dict(model.STATE_KINDS)
    frame, kinds, rng = None, {}, 0
    for row in rows:
        parts = row.strip().split(",")
        if len(parts) < 4:
            raise LockstepError(f"bad dump row: {shown(row)}")
        try:
            f = whole(parts[0], 0, U32, "frame", row)
            kind = parts[2]
            if kind == "rng":
                rng = whole(parts[3], 0, U32, "the PRNG's state", row)
            else:
                if kind not in kinds_fields:
                    raise LockstepError(f"no such kind of state in dump row {shown(row)}")
                i = whole(parts[1], 0, capacity_of(model, kind) - 1, "the index", row)
                kinds.setdefault(kind, {})[i] = _values(",".join(parts[3:]), len(kinds_fields[kind]), row)
        except WireError as e:
            raise LockstepError(f"bad dump row: {e}") from None
        if frame is not None and f != frame:
            raise LockstepError(f"dump rows of frames {frame} and {f}: {shown(row)}")
        frame = f
    if frame is None:
        raise LockstepError("an empty dump")
    return frame, kinds, rng
