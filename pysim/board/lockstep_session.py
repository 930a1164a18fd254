"""The lockstep of one board connection: `boidsgen watch` (codegen/commands/watch.py)
and the window's Board mode (run on its link's worker thread, never on the Tk
thread) both start, pin down and stop it here. The client's reader
feeds every `fr`/`ev` line to a MirrorRunner (pysim/board/mirror_runner.py), the
board is switched to `watch on`, its parameters go to the mirror, and a
`reset` (the board answers `ev reset` + `fr 0`) is the sync point (or,
adopting, the board's `dump` taken while it is paused). From
then on the mirror follows only what the board announces: a parameter the
window changes goes to the board as `set`, and the mirror takes it from the
board's `ev set`. The first divergence is pinned down once, by pausing the
board, taking its `dump` and comparing it with the mirror at the same frame.

Whatever fails on the way, `close` leaves the board as it found it: running
if we paused it, `watch` off (best effort, each command bounded by the
client's timeout; nothing is tried once the link is lost).

Callers read `runner.status()` (and a window draws `mirror.sim.scene()`
under `runner.lock`); nothing here touches a port's thread or Tk.
"""
from __future__ import annotations

WATCH_EVERY = 1  # a digest after every frame: a divergence is pinned to its frame


class Follow:
    """Start the lockstep on a connected client: `watch on`, the board's
    parameters, `reset SEED` (None: the board's own seed) or, with adopt,
    the board's state from a `dump`. Raises what the client raises
    (BoardError, BoardLinkLost, BoardReplyError, ...), leaving nothing running."""

    def __init__(self, client, model, seed: int | None, timeout: float, every: int = WATCH_EVERY,
                 adopt: bool = False) -> None:
        from pysim.board.lockstep import Mirror
        from pysim.board.mirror_runner import MirrorRunner

        self.timeout = timeout
        self.every = every
        self.mirror = Mirror(model)  # the spec's own update order, fixed point: the board's arithmetic
        self.mirror.max_jump = max(self.mirror.max_jump, 4 * every)  # a line or two lost at EVERY apart
        self.runner = MirrorRunner(self.mirror)
        self.explained = False
        self.paused_by_us = False  # we paused the board and have not resumed it yet
        client.on_stream = self.runner.put
        try:
            was_paused = bool(client.stats()["paused"])
            self.mirror.paused = was_paused  # a reset does not resume it: the mirror must know
            client.watch(True, every)
            raw = {n: d["raw"] for n, d in client.params().items()}
            with self.runner.lock:
                self._lockstep_call(self.mirror.set_params, raw, "list")
            if adopt:
                self.seed = None
                rows = self._paused_dump(client, was_paused)
                with self.runner.lock:
                    self._lockstep_call(self.mirror.adopt, rows, "dump")
                self.runner.start_at(self.mirror.frame)
            else:
                self.seed = client.reset(seed)  # the sync point
        except BaseException:
            self.close(client)
            raise

    def _paused_dump(self, client, was_paused: bool) -> list[str]:
        """The board's `dump`, taken paused, every line before it fed to the
        mirror; the board runs on afterwards unless it was paused already."""
        if not was_paused:
            self.paused_by_us = True
            client.pause()
        rows = client.dump()
        self.runner.settle(self.timeout)  # every line sent before the dump is fed
        if self.paused_by_us:
            client.resume()
            self.paused_by_us = False
        return rows

    @staticmethod
    def _lockstep_call(fn, arg, reply: str):
        """fn(arg); a LockstepError (the board's `reply` malformed) as the client's BoardReplyError."""
        from pysim.board.lockstep import LockstepError
        from pysim.board.serial_client import BoardReplyError

        try:
            return fn(arg)
        except LockstepError as e:
            raise BoardReplyError(f"malformed reply to '{reply}': {e}") from None

    def diverged(self) -> bool:
        return self.mirror.diverged is not None or self.runner.error is not None

    def explain(self, client) -> None:
        """Once, after the mirror's digest differs: pause the board, take its
        state, let the mirror catch up to the same frame and name the first
        boid and field that differ (into the Divergence's text), then let the
        board run on (unless it was paused already). A lost link or a
        malformed dump propagates (the board is resumed by `close`); a board
        `err` leaves the digest's own text."""
        from pysim.board.serial_client import BoardError, BoardLinkLost, BoardTimeout

        if self.explained or self.mirror.diverged is None:
            return
        self.explained = True
        try:
            rows = self._paused_dump(client, bool(client.stats()["paused"]))
            with self.runner.lock:
                detail = self._lockstep_call(self.mirror.explain, rows, "dump")
                if detail and self.mirror.diverged is not None:
                    self.mirror.diverged.detail = detail
        except (BoardTimeout, BoardLinkLost):
            raise
        except BoardError:
            pass  # the digest already says at which frame

    def close(self, client=None) -> None:
        """Stop following: the reader no longer feeds the mirror; the board
        is resumed if we paused it and its watch switched off (if the link
        still answers: each command bounded, failures ignored)."""
        from pysim.board.serial_client import BoardError

        if client is not None:
            client.on_stream = None
            for line in (["resume"] if self.paused_by_us else []) + ["watch off"]:
                try:
                    if client.link_error is None:
                        client.command(line)
                    else:  # no reader to hear the reply: say it once, in case the port still takes it
                        client.tell(line)
                except (BoardError, OSError, ValueError):
                    pass
            self.paused_by_us = False
        self.runner.stop()
