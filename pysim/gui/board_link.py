"""The serial link to a board, run off the Tk thread.

A worker thread owns the BoardClient: it connects (and reconnects after a
loss, once a second), runs the jobs the window queues, and polls `stats`
once a second for the telemetry line (which doubles as a heartbeat, so a
lost port is noticed even when nobody touches a control). Everything it
learns goes into an event queue that the window drains with `after`;
callbacks therefore always run on the Tk thread and the window never waits
for the port.
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
    'connected' {info, params, stats, hash_ok}, 'disconnected' reason, 'stats' dict."""

    def __init__(self, widget, port: str, model, on_event: Callable[[str, object], None],
                 timeout: float = 1.0) -> None:
        self.widget, self.port, self.model, self.on_event = widget, port, model, on_event
        self.timeout = timeout
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
            self.connected = kind in ("connected", "stats")
            self.on_event(kind, data)
        if not self._stop.is_set():
            self._after = self.widget.after(30, self._poll)

    # ---- the worker ----
    def _run(self) -> None:
        from pysim.serial_client import BoardClient

        client = None
        next_stats = 0.0
        while not self._stop.is_set():
            if client is None:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")  # the hash is checked below, in the window
                        client = BoardClient(self.port, self.model, timeout=self.timeout)
                    params = client.params()
                    stats = client.stats()
                except Exception as e:  # no port yet, or it vanished again
                    if client is not None:
                        client.close()
                        client = None
                    self.events.put(("disconnected", f"{self.port}: {getattr(e, 'reason', e)}"))
                    self._stop.wait(RETRY_EVERY)
                    continue
                self.events.put(("connected", {"info": client.info, "params": params, "stats": stats,
                                               "hash_ok": client.info.get("hash") == self.model.SPEC_HASH}))
                next_stats = time.monotonic() + STATS_EVERY
            try:
                job = self.jobs.get(timeout=max(0.0, min(0.2, next_stats - time.monotonic())))
            except queue.Empty:
                job = None
            try:
                if job is not None:
                    self._do(client, job)
                if time.monotonic() >= next_stats:
                    next_stats = time.monotonic() + STATS_EVERY
                    self.events.put(("stats", client.stats()))
            except Exception as e:
                if not _lost(e):
                    raise
                client.close()
                client = None
                self.events.put(("disconnected", f"{self.port}: {getattr(e, 'reason', e)}"))
        if client is not None:
            client.close()

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
