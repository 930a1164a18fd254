"""The serial link to a board, run off the Tk thread.

A worker thread owns the BoardClient: it connects (and reconnects after a
loss, once a second), starts the lockstep on each connection (pysim/lockstep_session.py:
`watch on`, the board's parameters, a `reset` as the sync point; the
window draws the mirrored flock), runs the jobs the window queues, pins a
divergence down (pause, dump, explain, resume) and polls `stats` once a
second for the telemetry line (which doubles as a heartbeat, so a lost port
is noticed even when nobody touches a control). Everything it learns goes
into an event queue that the window drains with `after`; callbacks
therefore always run on the Tk thread and the window never waits for the
port or the mirror.
"""
from __future__ import annotations

import queue
import threading
import time
import warnings
from typing import Callable

from serial.tools import list_ports

from pysim.fxdecimal import format_raw

STATS_EVERY = 1.0  # seconds between heartbeats
RETRY_EVERY = 1.0  # seconds between reconnection attempts


def port_names() -> list[str]:
    """Serial ports the system knows (USB adapters, ...); a pty path is typed."""
    return sorted(p.device for p in list_ports.comports())


def _lost(e: Exception) -> bool:
    """An error that means the link is gone, not that the board said `err`."""
    from pysim.serial_client import BoardError, BoardLinkLost, BoardTimeout

    return not isinstance(e, BoardError) or isinstance(e, (BoardTimeout, BoardLinkLost))


class BoardLink:
    """on_event(kind, data) is called on the Tk thread for:
    'connected' {info, params, stats, hash_ok}, 'synced' seed (the lockstep
    started: `follow` is set), 'unfollowed' reason (no lockstep on this
    connection), 'disconnected' reason, 'stats' dict."""

    def __init__(self, widget, port: str, model, on_event: Callable[[str, object], None],
                 timeout: float = 1.0, seed: int | None = None) -> None:
        self.widget, self.port, self.model, self.on_event = widget, port, model, on_event
        self.timeout = timeout
        self.seed = seed  # for the sync point's reset; None: the board's own
        self.follow = None  # the current connection's Follow (pysim/lockstep_session.py), once synced
        self.jobs: queue.Queue = queue.Queue()
        self.events: queue.Queue = queue.Queue()
        self._latest: dict[str, tuple] = {}  # newest (method, args, done, convert) per key
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.connected = False
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
            if kind in ("connected", "stats", "disconnected"):
                self.connected = kind != "disconnected"
            self.on_event(kind, data)
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
                    self.events.put(("stats", client.stats()))
            except Exception as e:
                if client is not None and not _lost(e):
                    raise  # a bug, not the port: let it show
                self._unfollow(None)  # the link is gone: nothing to switch off
                if client is not None:
                    client.close()
                    client = None
                self.events.put(("disconnected", f"{self.port}: {getattr(e, 'reason', e)}"))
                self._stop.wait(RETRY_EVERY)
        self._unfollow(client)
        if client is not None:
            client.close()

    def _open(self):
        """Connect, report what the board is, and start the lockstep when
        the board runs this spec."""
        from pysim.serial_client import BoardClient

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the hash is checked here, the window says so
            client = BoardClient(self.port, self.model, timeout=self.timeout)
        try:
            params = client.params()
            stats = client.stats()
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
        from pysim.serial_client import BoardError

        from pysim.lockstep_session import Follow

        self._unfollow(client)
        try:
            self.follow = Follow(client, self.model, self.seed, self.timeout)
        except BoardError as e:
            if _lost(e):
                raise
            self.events.put(("unfollowed", f"the board refused the lockstep: {e.reason}"))
            return
        self.events.put(("synced", self.follow.seed))

    def _unfollow(self, client) -> None:
        follow, self.follow = self.follow, None
        if follow is not None:
            follow.close(client)

    def _do(self, client, job) -> None:
        """Run one job; a board `err` is answered, a lost link propagates."""
        from pysim.serial_client import BoardError

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
