"""The simulator's side of the lockstep: a mirror of a running board.

The board (firmware_runtime/watch.h) sends, in wire order, `fr FRAME DIGEST`
after every EVERY-th frame and an `ev` line for every change, stamped with
the first frame it takes effect in. The mirror steps its own fixed-point
simulation to each event's frame - 1, applies the event there, steps to each
`fr` frame and compares digests (pysim/digest.py). Nothing here reads a
clock or the port: feed it lines, in order, from any thread.
"""
from __future__ import annotations

from dataclasses import dataclass

from .digest import digest, digest_text
from .engine import Simulation
from .fxdecimal import format_raw


class LockstepError(ValueError):
    """A line the mirror cannot apply (malformed, or out of order)."""


@dataclass
class Divergence:
    frame: int  # the first frame whose digest differs (or where the stream broke)
    why: str  # what differs: digests, then, after a dump, the first boid and field
    detail: str = ""  # "boid 3 field vx (board 1.5, simulator 1.25)"
    detail_frame: int | None = None  # the frame the dump was taken at

    def __str__(self) -> str:
        if not self.detail:
            return f"diverged at frame {self.frame}: {self.why}"
        at = f" (the board's dump at frame {self.detail_frame})" if self.detail_frame not in (None, self.frame) else ""
        return f"diverged at frame {self.frame}: {self.detail}{at}"


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

    # ---- set-up ----
    def set_params(self, raw: dict[str, int]) -> None:
        """The board's parameter values (`list`), before the first reset."""
        for name, v in raw.items():
            self.sim.params.set_raw(name, v)

    def adopt(self, rows: list[str]) -> None:
        """Take the board's state from a `dump` (its rows, the `ok` line aside)."""
        frame, kinds, rng = _parse_rows(rows)
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
        if words[0] == "fr":
            self._frame(words)
        elif words[0] == "ev":
            self._event(words[1:], line)

    def _frame(self, words: list[str]) -> None:
        if len(words) != 3:
            raise LockstepError(f"bad frame line: {' '.join(words)}")
        frame, board = int(words[1]), words[2]
        self.board_frame = frame
        if not self.synced:
            return
        self._to(frame)
        if self.diverged:
            return
        mine = digest_text(digest(self.sim))
        if mine != board:
            self.diverged = Divergence(frame, f"digest: board {board}, simulator {mine}")
            return
        self.frames_in_step += frame - self.checked_to
        self.checked_to = frame

    def _event(self, words: list[str], line: str) -> None:
        plain, kv = _stamp(words)
        if not plain:
            raise LockstepError(f"bad event line: {line}")
        what, args = plain[0], plain[1:]
        self.events += 1
        key = f"{what}/{kv['cause']}" if "cause" in kv else what
        self.event_kinds[key] = self.event_kinds.get(key, 0) + 1
        if what == "reset":
            self.sim.reset(int(args[0]), int(args[1]))
            self.synced, self.checked_to, self.paused, self.board_frame = True, 0, False, 0
            return
        if what == "set":  # parameters are followed before the sync too
            if self.synced:
                self._to(int(kv["frame"]) - 1)
            self.sim.params.set_raw(args[0], int(args[1]))
            return
        if not self.synced:
            return
        self._to(int(kv["frame"]) - 1)
        if what == "boids":
            self.sim.set_count(int(args[0]))
        elif what == "state":
            self.sim.load_kind(args[0], [tuple(int(v) for v in a.split(",")) for a in args[1:]])
        elif what in ("pause", "resume"):
            self.paused = what == "pause"
        else:
            raise LockstepError(f"unknown event: {line}")

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
        from .trace import rows as sim_rows

        frame, board, rng = _parse_rows(rows)
        mine_frame, mine, my_rng = _parse_rows(sim_rows(self.sim).splitlines())
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


def _parse_rows(rows: list[str]) -> tuple[int, dict[str, dict[int, tuple[int, ...]]], int]:
    """Trace rows of one frame -> (frame, {kind: {index: values}}, rng state)."""
    frame, kinds, rng = -1, {}, 0
    for row in rows:
        parts = row.strip().split(",")
        if len(parts) < 4:
            continue
        try:
            f, i, kind, values = int(parts[0]), int(parts[1]), parts[2], tuple(int(v) for v in parts[3:])
        except ValueError:
            raise LockstepError(f"bad dump row: {row}") from None
        frame = f
        if kind == "rng":
            rng = values[0]
        else:
            kinds.setdefault(kind, {})[i] = values
    return frame, kinds, rng
