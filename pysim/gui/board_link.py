"""The serial link to a board, run off the Tk thread.

A worker thread owns the BoardClient: it connects (and reconnects after a
loss, once a second), starts the lockstep on each connection (pysim/board/lockstep_session.py:
`watch on`, the board's parameters, a `reset` as the sync point; the
window draws the mirrored flock), runs the jobs the window queues, pins a
divergence down (pause, dump, explain, resume) and polls `stats` once a
second for the telemetry line (which doubles as a heartbeat, so a lost port
is noticed even when nobody touches a control). Everything it learns goes
into an event queue that the window drains with `after`; callbacks
therefore always run on the Tk thread and the window never waits for the
port or the mirror.

The panel follows the board: every `ev set` the board announces (whoever
changed it: this window, another client, the course's controls) reaches the
window as a 'param' event. A reconnect opens only the device first
connected to (pysim/gui/device_id.py) and adopts it only if it answers as
the same board; anything a board sends that the window cannot use is a
one-line reason on the status line, never a traceback.
"""
from __future__ import annotations

import queue
import threading
import time
import warnings
from typing import Callable

from serial.tools import list_ports

from pysim.fxdecimal import format_raw

from pysim.gui.board_values import PanelValueError, announced_set, flock_count, param_texts, plain
from pysim.gui.device_id import NotADevice, device_id, fd_device_id

STATS_EVERY = 1.0  # seconds between heartbeats
RETRY_EVERY = 1.0  # seconds between reconnection attempts


def port_names() -> list[str]:
    """Serial ports the system knows (USB adapters, ...); a pty path is typed."""
    return sorted(p.device for p in list_ports.comports())


class Refused(Exception):
    """The path now names another device, or another board answers: not adopted."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _lost(e: Exception) -> bool:
    """An error that means the link is gone, not that the board said `err`."""
    from pysim.board.serial_client import BoardError, BoardLinkLost, BoardTimeout

    return not isinstance(e, BoardError) or isinstance(e, (BoardTimeout, BoardLinkLost))


class BoardLink:
    """on_event(kind, data) is called on the Tk thread for:
    'connected' {info, params, stats, hash_ok} (params: {name: text}),
    'synced' seed (the lockstep started: `follow` is set), 'unfollowed'
    reason (no lockstep on this connection), 'param' (name, text) (the board
    announced a value; 'params' {name: text}: all of them), 'disconnected'
    reason, 'refused' reason (the path names another device or board now:
    not adopted, still waiting), 'malformed' reason (a reply or announcement
    the window cannot use), 'stats' dict."""

    def __init__(self, widget, port: str, model, on_event: Callable[[str, object], None],
                 timeout: float = 1.0, seed: int | None = None) -> None:
        self.widget, self.port, self.model, self.on_event = widget, port, model, on_event
        self.timeout = timeout
        self.seed = seed  # for the sync point's reset; None: the board's own
        self.follow = None  # the current connection's Follow (pysim/board/lockstep_session.py), once synced
        self.speaking = False  # True while _poll hands the board's events and answers to the window
        self.jobs: queue.Queue = queue.Queue()
        self.events: queue.Queue = queue.Queue()
        self._latest: dict[str, tuple] = {}  # newest (method, args, done, convert) per key
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.connected = False
        self.device = None  # the DeviceId first connected to: reconnects open only it
        self.board_id = None  # (spec, hash) the board first answered with
        self.refusals = 0  # reconnects not made: the path named another device or board
        self.attempts = 0  # connections tried (the first and every retry)
        self._thread = threading.Thread(target=self._run, name=f"board-link {port}", daemon=True)
        self._thread.start()
        self._after = widget.after(30, self._poll)

    # ---- the Tk side ----
    def set_param(self, name: str, text: str, done: Callable[[bool, str], None]) -> None:
        """Queue `set NAME TEXT`; done(ok, the board's value text or its reason)."""
        self.latest(f"set {name}", "set", (name, text), done, convert=lambda held: self._text(name, held))

    def latest(self, key: str, method: str, args: tuple, done=None, convert=None) -> None:
        """Queue a call of which only the newest per key matters: while a
        slider (or the target) is dragged, stale values are never sent."""
        with self._lock:
            fresh = key not in self._latest
            self._latest[key] = (method, args, done, convert)
        if fresh:
            self.jobs.put(("latest", key))

    def call(self, method: str, *args, done: Callable[[bool, object], None] | None = None) -> None:
        """Queue a BoardClient method call; done(ok, result_or_reason)."""
        self.jobs.put(("call", method, args, done, None))

    def resync(self, seed: int | None) -> None:
        """Queue a fresh lockstep: a new mirror and `reset SEED` as its sync
        point (also after a divergence)."""
        self.seed = seed
        self.jobs.put(("resync",))

    def close(self) -> None:
        self._stop.set()
        self.jobs.put(None)
        try:
            self.widget.after_cancel(self._after)
        except Exception:
            pass
        self._thread.join(timeout=3.0)

    def _poll(self) -> None:
        self.speaking = True  # the board's words reach the window between the user's actions
        try:
            while True:
                try:
                    ev = self.events.get_nowait()
                except queue.Empty:
                    break
                kind, data = ev
                if kind == "answer":
                    done, ok, result = data
                    if done:
                        done(ok, result)
                    continue
                if kind in ("connected", "stats", "disconnected", "refused"):
                    self.connected = kind in ("connected", "stats")
                self.on_event(kind, data)
        finally:  # a handler's error is Tk's to report; the link keeps being drained
            self.speaking = False
            if not self._stop.is_set():
                self._after = self.widget.after(30, self._poll)

    # ---- the worker ----
    def _run(self) -> None:
        client = None
        next_stats = 0.0
        while not self._stop.is_set():
            try:
                if client is None:
                    client = self._open()
                    next_stats = time.monotonic() + STATS_EVERY
                try:
                    job = self.jobs.get(timeout=max(0.0, min(0.1, next_stats - time.monotonic())))
                except queue.Empty:
                    job = None
                if job == ("resync",):
                    self._sync(client)
                elif job is not None:
                    self._do(client, job)
                if self.follow is not None and self.follow.diverged():
                    self.follow.explain(client)  # once; the window shows the mirror's text
                if time.monotonic() >= next_stats:
                    next_stats = time.monotonic() + STATS_EVERY
                    stats = client.stats()
                    flock_count(self.model, stats)
                    self.events.put(("stats", stats))
            except Exception as e:  # noqa: BLE001 - whatever a board does, the window reports it and waits
                kind, reason = self._why(e)
                self._unfollow(client if kind == "malformed" else None)  # lost: nothing to switch off
                if client is not None:
                    client.close()
                    client = None
                if kind == "refused":
                    self.refusals += 1
                self.events.put((kind, reason))
                self._stop.wait(RETRY_EVERY)
        self._unfollow(client)
        if client is not None:
            client.close()

    def _why(self, e: Exception) -> tuple[str, str]:
        """The event that tells the window why the link dropped, in one line:
        'refused', 'disconnected' (the port failed or the board is silent) or
        'malformed' (the board answered something the window cannot use)."""
        from pysim.board.serial_client import BoardError, BoardReplyError

        if isinstance(e, Refused):
            return "refused", e.reason
        if isinstance(e, NotADevice):
            return "disconnected", str(e)
        reason = getattr(e, "reason", None) or f"{type(e).__name__}: {e}"
        reason = " ".join(str(reason).split())[:200]
        # a reply that breaks the protocol is a kind of lost link to the client: to the user, it is malformed
        if isinstance(e, OSError) or (isinstance(e, BoardError) and _lost(e) and not isinstance(e, BoardReplyError)):
            return "disconnected", f"{self.port}: {reason}"
        return "malformed", f"{self.port}: the board's reply cannot be used ({reason}); reconnecting"

    def _open(self):
        """Connect (only to the device first connected to, and only to the
        board that answered then), report what the board is, and start the
        lockstep when the board runs this spec."""
        from pysim.board.serial_client import BoardClient

        self.attempts += 1
        want = self.device
        now = None if "://" in self.port else device_id(self.port)  # a pyserial URL: only the board's word
        if want is not None and now is not None and now != want:
            if want.is_pty or now.is_pty:  # a pty never comes back: this is someone else's
                raise Refused(f"{self.port} is now another {now.describe()}, not the board's: not opened "
                              f"(pick the port again to connect to it)")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the hash is checked here, the window says so
            client = BoardClient(self.port, self.model, timeout=self.timeout)
        try:
            opened = None if now is None else fd_device_id(self.port, client.fileno())
            if opened != now:
                raise Refused(f"{self.port} changed while it was opened: not adopted")
            who = tuple(plain(client.info.get(k)) for k in ("spec", "hash"))
            if self.board_id is not None and who != self.board_id:
                raise Refused(f"{self.port} now answers as spec {who[0]} hash {who[1]}, not the board first "
                              f"connected to (spec {self.board_id[0]} hash {self.board_id[1]}): not adopted")
            params = param_texts(self.model, client.params())
            stats = client.stats()
            flock_count(self.model, stats)
            self.device, self.board_id = opened, who
            hash_ok = client.info.get("hash") == self.model.SPEC_HASH
            self.events.put(("connected", {"info": client.info, "params": params, "stats": stats,
                                           "hash_ok": hash_ok}))
            if hash_ok:  # another spec's board cannot be mirrored by this model
                self._sync(client)
            else:
                self.events.put(("unfollowed", "the board runs another spec"))
        except BaseException:
            client.close()
            raise
        return client

    def _sync(self, client) -> None:
        from pysim.board.serial_client import BoardError

        from pysim.board.lockstep_session import Follow

        self._unfollow(client)
        try:
            self.follow = Follow(client, self.model, self.seed, self.timeout)
        except BoardError as e:
            if _lost(e):
                raise
            self.events.put(("unfollowed", f"the board refused the lockstep: {e.reason}"))
            return
        self._hear(client, self.follow.runner.put)
        # the values now (any change before the tap above is in them; every one after is announced)
        self.events.put(("params", param_texts(self.model, client.params())))
        self.events.put(("synced", self.follow.seed))

    def _hear(self, client, feed) -> None:
        """Tap the stream the mirror is fed: each `ev set` also goes to the
        panel (on the reader thread: the panel hears it in wire order)."""
        def stream(line: str) -> None:
            feed(line)
            try:
                got = announced_set(self.model, line)
            except PanelValueError as e:
                self.events.put(("malformed", f"{self.port}: {e.reason}"))
                return
            if got is not None:
                self.events.put(("param", got))

        client.on_stream = stream

    def _unfollow(self, client) -> None:
        follow, self.follow = self.follow, None
        if follow is not None:
            follow.close(client)

    def _do(self, client, job) -> None:
        """Run one job; a board `err` is answered, a lost link propagates."""
        from pysim.board.serial_client import BoardError

        if job[0] == "latest":
            with self._lock:
                method, args, done, convert = self._latest.pop(job[1])
        else:
            _, method, args, done, convert = job
        try:
            result = getattr(client, method)(*args)
        except BoardError as e:
            self.events.put(("answer", (done, False, e.reason)))
            if _lost(e):
                raise
            return
        self.events.put(("answer", (done, True, convert(result) if convert else result)))

    def _text(self, name: str, held) -> str:
        """The board's decimal text for the value it confirmed (raw / 2^F)."""
        p = next(p for p in self.model.PARAMS if p.name == name)
        if p.type == "int":
            return str(int(held))
        fb = self.model.FRAC_BITS
        return format_raw(int(round(held * (1 << fb))), fb)
