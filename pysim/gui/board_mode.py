"""The window's Board mode (a mixin of App, on the Tk thread only).

Connected, the canvas draws the board's flock as the lockstep mirror
(pysim.board.lockstep_session.Follow, run by the link's worker thread) computes it, at the
window's redraw rate; the local simulator does not step. The status line
says how many frames are in step (green), that the mirror is behind
(orange), or, in red, where it diverged: "diverged at frame F: boid B field
vx (board ..., simulator ...)". A message holds the line: an error (in
red: a rejected value, a lost link) until the user's next action (a key or
a click anywhere in the window) or a newer message, any other message for
MESSAGE_HOLD seconds; then the lockstep's text returns.
"""
from __future__ import annotations

import time

from pysim.gui.board_values import plain

LOCK_WAIT = 0.02  # seconds the redraw waits for the mirror's lock before showing the last picture again
MESSAGE_HOLD = 2.0  # seconds a message keeps the status line
SEED_MAX = 2 ** 32 - 1
IN_STEP, BEHIND, DIVERGED = "#007000", "#b06000", "#b00000"  # status colours


class BoardMode:
    # ---- what the canvas shows ----
    @property
    def follow(self):
        """The lockstep whose mirror the canvas draws, or None."""
        return self.link.follow if self.link is not None else None

    @property
    def board_mode(self) -> bool:
        return self.mode.get() == "board"

    def shown_sim(self):
        """The simulation the canvas draws: the mirror in Board mode (once
        synced), else the window's own."""
        f = self.follow
        return f.mirror.sim if f is not None else self.sim

    @property
    def count(self) -> int:
        return self.shown_sim().count

    def scene_now(self):
        """The scene to draw this tick. In Board mode the mirror's, taken
        under its lock (never waiting more than LOCK_WAIT: the last picture
        stays up instead), or the last one shown while there is no mirror."""
        if not self.board_mode:
            return self.sim.scene()
        f = self.follow
        if f is not None and f.runner.lock.acquire(timeout=LOCK_WAIT):
            try:
                return f.mirror.sim.scene()
            finally:
                f.runner.lock.release()
        return self.shown if self.shown is not None else self.sim.scene()

    # ---- the status line ----
    def status(self, text: str, error: bool = False, colour: str | None = None, hold: bool = True) -> None:
        self.status_var.set(text)
        self.status_label.configure(foreground=colour or (DIVERGED if error else ""))
        self._held_until = time.monotonic() + MESSAGE_HOLD if hold else 0.0
        # An error set while an action's own handlers run (before _acted sees
        # that action) outlives it; one the board sends between actions ends
        # at the next.
        self._error_until_action = (self._actions + (0 if self.link is not None and self.link.speaking else 1)) if error and hold else -1

    def _acted(self, _event=None) -> None:
        """bind_all on key and button presses; runs after the widget's own handlers."""
        self._actions += 1

    def _message_held(self) -> bool:
        return time.monotonic() < self._held_until or self._actions <= self._error_until_action

    def _show_lockstep(self) -> None:
        f = self.follow
        if f is None or self._message_held():
            return
        st = f.runner.status()
        colour = DIVERGED if st.diverged else BEHIND if st.behind else IN_STEP if st.synced else ""
        self.status(st.line(), colour=colour, hold=False)

    def board_stats_text(self) -> str:
        b = self.board_stats
        return "   board: " + (f"{b.get('boids')} boids  {b.get('fps')} fps  t={b.get('time')} s  "
                               f"frame {b.get('frame_ms')} ms" if b else "disconnected")

    # ---- the seed field ----
    def seed_value(self) -> int | None:
        """The seed field's value; None when empty (the board's or the
        simulator's own seed) or not a seed (the status line says so)."""
        text = self.seed_var.get().strip()
        if not text:
            return None
        if text.isdigit() and int(text) <= SEED_MAX:
            return int(text)
        self.status(f"seed: '{text}' is not an integer in [0, {SEED_MAX}]: using the current seed", error=True)
        return None

    # ---- connecting ----
    def _list_ports(self) -> None:
        from pysim.gui.board_link import port_names

        self.port_box.configure(values=port_names())

    def _mode_changed(self) -> None:
        if self.board_mode:
            self._connect_if_board()
        else:
            self.disconnect()
            self.status("simulator")

    def _connect_if_board(self) -> None:
        if not self.board_mode:
            self.mode.set("board")
        port = self.port.get().strip()
        if not port:
            self.status("type or pick a serial port (the host firmware prints `pty: /dev/pts/N`)", error=True)
            return
        self.connect(port)

    def connect(self, port: str) -> None:
        from pysim.gui.board_link import BoardLink

        self.disconnect()
        self.mode.set("board")
        self.port.set(port)
        self.status(f"connecting to {port} ...")
        self.link = BoardLink(self.root, port, self.model, self._board_event, seed=self.seed_value())

    def disconnect(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
            self.board_stats = None

    def _board_event(self, kind: str, data) -> None:
        if kind == "connected":
            info = data["info"]
            self._board_params(data["params"])
            self._board_stats(data["stats"])
            spec, fw, h = (plain(info.get(k)) for k in ("spec", "fw", "hash"))  # a board's words, bounded
            msg = f"connected to {self.link.port}: {spec} fw {fw} hash {h}"
            if data["hash_ok"]:
                self.status(msg + " (matches the spec)")
            else:
                self.status(msg + f" DOES NOT MATCH this spec's hash {self.model.SPEC_HASH}: regenerate and "
                            "reflash (not mirrored)", error=True)
        elif kind == "synced":  # the status line follows the lockstep once a message's hold ends
            pass
        elif kind == "unfollowed":
            if self.board_stats is not None and "another spec" not in data:
                self.status(f"not mirrored: {data}", error=True)
        elif kind == "param":  # announced by the board, whoever changed it
            self._board_params(dict([data]))
        elif kind == "params":
            self._board_params(data)
        elif kind == "stats":
            self._board_stats(data)
        elif kind == "disconnected":
            self.board_stats = None
            self.status(f"disconnected ({data}); reconnecting ...", error=True)
        elif kind == "refused":
            self.board_stats = None
            self.status(f"not reconnected: {data}", error=True)
        elif kind == "malformed":
            self.status(data, error=True)

    def _board_params(self, texts: dict[str, str]) -> None:
        """Values the board holds (checked by board_values.py): the panel
        shows them, Save to spec saves them, Simulator mode resumes with them."""
        for name, text in texts.items():
            ctl = self.controls.params.get(name)
            if ctl is None:
                continue
            if ctl.value_text != text:
                ctl.confirm(text)
            self.tuned[name] = text
            self.sim.params.set(name, text, allow_fixed=True)

    def _board_stats(self, stats: dict) -> None:
        """The board's telemetry; the flock-size control follows the board
        (adaptive spawn grows it) whenever the board's count changes."""
        old = (self.board_stats or {}).get("boids")
        self.board_stats = stats
        n = stats.get("boids")
        if n is not None and n != old:
            self.sim.set_count(int(n))
            self.controls.options["boids"].confirm(int(n))
