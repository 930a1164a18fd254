"""The lockstep of one board connection: `boidsgen watch` (codegen/watch_cmd.py)
and the window's Board mode (run on its link's worker thread, never on the Tk
thread) both start, pin down and stop it here. The client's reader
feeds every `fr`/`ev` line to a MirrorRunner (pysim/mirror_runner.py), the
board is switched to `watch on`, its parameters go to the mirror, and a
`reset` (the board answers `ev reset` + `fr 0`) is the sync point (or,
adopting, the board's `dump` taken while it is paused). From
then on the mirror follows only what the board announces: a parameter the
window changes goes to the board as `set`, and the mirror takes it from the
board's `ev set`. The first divergence is pinned down once, by pausing the
board, taking its `dump` and comparing it with the mirror at the same frame.

Callers read `runner.status()` (and a window draws `mirror.sim.scene()`
under `runner.lock`); nothing here touches a port's thread or Tk.
"""
from __future__ import annotations

WATCH_EVERY = 1  # a digest after every frame: a divergence is pinned to its frame


class Follow:
    """Start the lockstep on a connected client: `watch on`, the board's
    parameters, `reset SEED` (None: the board's own seed) or, with adopt,
    the board's state from a `dump`. Raises what the client raises
    (BoardError, BoardLinkLost, ...), leaving nothing running."""

    def __init__(self, client, model, seed: int | None, timeout: float, every: int = WATCH_EVERY,
                 adopt: bool = False) -> None:
        from pysim.lockstep import Mirror
        from pysim.mirror_runner import MirrorRunner

        self.timeout = timeout
        self.mirror = Mirror(model)  # the spec's own update order, fixed point: the board's arithmetic
        self.runner = MirrorRunner(self.mirror)
        self.explained = False
        client.on_stream = self.runner.put
        try:
            client.watch(True, every)
            raw = {n: d["raw"] for n, d in client.params().items()}
            with self.runner.lock:
                self.mirror.set_params(raw)
            if adopt:
                self.seed = None
                was_paused = bool(client.stats().get("paused"))
                client.pause()
                rows = client.dump()
                self.runner.settle(timeout)
                with self.runner.lock:
                    self.mirror.adopt(rows)
                if not was_paused:
                    client.resume()
            else:
                self.seed = client.reset(seed)  # the sync point
        except BaseException:
            self.close(client)
            raise

    def diverged(self) -> bool:
        return self.mirror.diverged is not None or self.runner.error is not None

    def explain(self, client) -> None:
        """Once, after the mirror's digest differs: pause the board, take its
        state, let the mirror catch up to the same frame and name the first
        boid and field that differ (into the Divergence's text), then let the
        board run on (unless it was paused already). A lost link propagates;
        a board `err` leaves the digest's own text."""
        from pysim.serial_client import BoardError, BoardLinkLost, BoardTimeout

        if self.explained or self.mirror.diverged is None:
            return
        self.explained = True
        try:
            was_paused = bool(client.stats().get("paused"))
            client.pause()
            rows = client.dump()
            self.runner.settle(self.timeout)  # every line sent before the dump is fed
            with self.runner.lock:
                detail = self.mirror.explain(rows)
                if detail and self.mirror.diverged is not None:
                    self.mirror.diverged.detail = detail
            if not was_paused:
                client.resume()
        except (BoardTimeout, BoardLinkLost):
            raise
        except BoardError:
            pass  # the digest already says at which frame

    def close(self, client=None) -> None:
        """Stop following: the reader no longer feeds the mirror, the board's
        watch is switched off (if the link still answers)."""
        from pysim.serial_client import BoardError

        if client is not None:
            client.on_stream = None
            try:
                client.watch(False)
            except (BoardError, OSError, ValueError):
                pass
        self.runner.stop()
