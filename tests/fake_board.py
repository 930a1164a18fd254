"""A fake board on a real pty for the window's tests: it answers the
client's commands from a table the test may override with anything (wrong
fields, `err`, huge numbers) and can push stream lines on its own. The pty
is the kernel's, the client pyserial: only the board is made up."""
from __future__ import annotations

import os
import select
import threading
import time
import tty
from typing import Callable

Reply = Callable[[str], str] | str
SEND_PATIENCE = 2.0  # seconds a reply may wait for the client to read it


class FakeBoard:
    def __init__(self, model, replies: dict[str, Reply] | None = None, spec_hash: str | None = None) -> None:
        self.model = model
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no cooking: a board's UART
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.heard: list[str] = []  # every command line received, in order
        self.replies: dict[str, Reply] = {
            "info": f"ok info spec={model.SPEC_NAME} hash={spec_hash or model.SPEC_HASH} format=q fw=fake "
                    f"capacity={model.CAPACITY} update=x fps=30",
            "list": self._list,
            "stats": "ok stats time=1 boids=100 fps=30 frame_ms=5 period_ms=33 frames=30 paused=0",
            "watch": lambda line: "ok watch off every=1 frame=30" if "off" in line else "ok watch on every=1 frame=30",
            "reset": "ok reset seed=1 boids=100 frame=0",
            "pause": "ok pause frame=30",
            "resume": "ok resume frame=30",
        }
        self.replies.update(replies or {})
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="fake board", daemon=True)
        self._thread.start()

    def _list(self, _line: str) -> str:
        rows = [f"param {p.name}={p.default} raw={p.default_raw} min={p.min} max={p.max} default={p.default} "
                f"id={p.id} tunable={int(p.tunable)} type={p.type} unit=-" for p in self.model.PARAMS]
        return "\n".join(rows + [f"ok list {len(rows)}"])

    def send(self, text: str) -> None:
        """Lines the board sends on its own (stream, telemetry, garbage). As
        a UART does, what the other side does not read within SEND_PATIENCE
        seconds is dropped (a client that stopped reading never blocks the board)."""
        data = memoryview(text.encode())
        deadline = time.monotonic() + SEND_PATIENCE
        while data and not self._stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            _, ready, _ = select.select([], [self.master], [], min(left, 0.05))
            if ready:
                try:
                    data = data[os.write(self.master, data):]
                except BlockingIOError:
                    continue

    def heard_count(self, word: str) -> int:
        return sum(1 for line in self.heard if line.split()[:1] == [word])

    def _serve(self) -> None:
        buf = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                buf += os.read(self.master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                line = raw.decode("ascii", "replace").replace("\x15", "").strip()
                if not line:
                    continue
                self.heard.append(line)
                reply = self.replies.get(line.split()[0], "err unknown command")
                text = reply(line) if callable(reply) else reply
                if text:
                    self.send(text + "\n")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        os.close(self.master)
        os.close(self.slave)
