"""A scripted board on a real pseudo-terminal, for the serial link's hostile
cases (the client, `boidsgen watch` and the GUI's board link).

The client (or `boidsgen watch`) opens `path`, the pty's slave end, with
pyserial as it would a board; a thread on the master end reads its command
lines and answers as the firmware does (info, stats, list, watch, reset,
pause, resume, dump) unless `replies` says otherwise for a command: a text to
send instead (e.g. `ok watch on` without its frame=), SILENT for no answer,
or a callable(line, board) -> text. `send` writes any bytes at any time (a
stream line, a 16 MB line), `flood` for ever; `gone` closes the master (a
board unplugged or killed). `state` and `heard` tell a test what the board
was left with and what it was sent.
"""
from __future__ import annotations

import os
import select
import threading
import tty

from .deadline import PROC_EXIT

SILENT = None  # a `replies` value: no answer at all


class FakeBoard:
    def __init__(self, model, replies: dict | None = None, paused: bool = False) -> None:
        self.model = model
        self.replies = dict(replies or {})
        self.state = {"watch": False, "paused": paused, "frame": 0, "boids": model.FLOCK_SIZE, "seed": model.SEED}
        self.heard: list[str] = []
        self.heard_event = threading.Event()  # set on every line heard
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)  # a write the client does not read never blocks the board's thread
        self.path = os.ttyname(self._slave)
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="scripted board", daemon=True)
        self._thread.start()

    # ---- what a test does ----
    def send(self, data: bytes | str) -> None:
        """Write `data` to the client (waiting while the pty is full, until the board closes)."""
        data = data.encode() if isinstance(data, str) else data
        with self._write_lock:
            view = memoryview(data)
            while view and not self._stop.is_set():
                _, ready, _ = select.select([], [self.master], [], 0.05)
                if not ready:
                    continue
                try:
                    view = view[os.write(self.master, view[:65536]):]
                except BlockingIOError:
                    continue
                except OSError:
                    return

    def send_later(self, data: bytes) -> threading.Thread:
        """`send` on a thread of its own (bytes the client may stop reading: it ends when the board closes)."""
        t = threading.Thread(target=self.send, args=(data,), name="scripted board send", daemon=True)
        t.start()
        return t

    def frame(self, frame: int, digest: str = "00000000") -> None:
        """The board reaches `frame` and sends its digest (a wrong one, by default: a divergence)."""
        self.state["frame"] = frame
        self.send(f"fr {frame} {digest}\n")

    def flood(self, line: bytes, until: threading.Event) -> threading.Thread:
        """Send `line` over and over on a thread of its own until `until` is set (or the board closes)."""
        def run():
            while not until.is_set() and not self._stop.is_set():
                self.send(line * 64)
        t = threading.Thread(target=run, name="scripted board flood", daemon=True)
        t.start()
        return t

    def closed_within(self, seconds: float) -> bool:
        """Wait up to `seconds` (a reply's pace); True once the board is closing (stop replying)."""
        return self._stop.wait(seconds)

    def gone(self) -> None:
        """The board disappears: the master end closes (the slave's reads fail, as a killed boids_host's pty)."""
        self._stop.set()
        self._thread.join(timeout=PROC_EXIT)
        try:
            os.close(self.master)
        except OSError:
            pass

    def close(self) -> None:
        stuck = False
        if not self._stop.is_set():
            self._stop.set()
            self._thread.join(timeout=PROC_EXIT)
            stuck = self._thread.is_alive()
            os.close(self.master)
        os.close(self._slave)
        assert not stuck, f"the scripted board's thread did not stop within {PROC_EXIT} s"

    # ---- the board ----
    def _serve(self) -> None:
        buf = b""
        while not self._stop.is_set():
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                buf += os.read(self.master, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            *lines, buf = buf.replace(b"\r", b"\n").split(b"\n")
            for raw in lines:
                line = raw.replace(b"\x15", b"").decode("ascii", "replace").strip()
                if not line:
                    continue
                reply = self._answer(line)
                if reply:
                    self.send(reply if reply.endswith("\n") else reply + "\n")
                self.heard.append(line)  # after the reply: a test that saw it may send what follows it
                self.heard_event.set()

    def _answer(self, line: str) -> str | None:
        words = line.split()
        for key in (line, " ".join(words[:2]), words[0]):
            if key in self.replies:
                got = self.replies[key]
                return got(line, self) if callable(got) else got
        return self.firmware(words)

    def firmware(self, words: list[str]) -> str | None:
        """What the real firmware answers (enough of it for the client and `watch`)."""
        m, s = self.model, self.state
        cmd = words[0]
        if cmd == "info":
            return (f"ok info spec={m.SPEC_NAME} hash={m.SPEC_HASH} format={m.FORMAT} fw={m.TOOL_VERSION} "
                    f"capacity={m.CAPACITY} update={m.UPDATE_ORDER} fps={m.FRAME_RATE}")
        if cmd == "stats":
            return (f"ok stats time=0 boids={s['boids']} fps={m.FRAME_RATE} frame_ms=0 period_ms=33 "
                    f"frames={s['frame']} paused={int(s['paused'])}")
        if cmd == "list":
            rows = [f"param {p.name}={p.default} raw={p.default_raw} min={p.min} max={p.max} default={p.default} "
                    f"id={p.id} tunable={int(p.tunable)} type={p.type} unit={p.unit or '-'}" for p in m.PARAMS]
            return "\n".join(rows + [f"ok list {len(rows)}"])
        if cmd == "watch":
            if len(words) > 1:
                s["watch"] = words[1] != "off"
            return f"ok watch {'on' if s['watch'] else 'off'} every=1 frame={s['frame']}"
        if cmd == "reset":
            s["seed"], s["frame"] = int(words[1]) if len(words) > 1 else s["seed"], 0
            ev = f"ev reset {s['seed']} {s['boids']} frame=0\n" if s["watch"] else ""
            return f"{ev}ok reset seed={s['seed']} boids={s['boids']} frame=0"
        if cmd in ("pause", "resume"):
            s["paused"] = cmd == "pause"
            ev = f"ev {cmd} frame={s['frame'] + 1}\n" if s["watch"] else ""
            return f"{ev}ok {cmd}"
        if cmd == "dump":
            return f"{s['frame']},0,rng,1\nok dump frame={s['frame']} rows=1"
        return f"err unknown command '{cmd}' (try: help)"
