"""A Mirror (pysim/board/lockstep.py) on its own thread, fed from a BoardClient's
reader, so neither the port nor a window ever waits for the simulation.

The reader thread calls `put(line)` with each `fr`/`ev` line; the worker
feeds them to the mirror in order. `status()` may be called from any thread:
frames in step, the board's frame and frame rate, how far the mirror lags.
A mirror that cannot keep up falls behind (and says so once it is more than
a second late) but still checks every frame it reaches: lines are queued,
never dropped.

Whatever stops the mirror (a line it refuses, an error inside the
simulation) ends it for good: `error` says why, status() reports it, and the
lines after it are read and dropped (so `settle` never waits on a dead
mirror). A caller ends the run on it; the status never says "in step" again.
"""
from __future__ import annotations

import collections
import queue
import re
import threading
import time
from dataclasses import dataclass

from pysim.board.lockstep import Mirror

_FRAME_WORD = re.compile(r"[0-9]{1,10}")


@dataclass(frozen=True)
class MirrorStatus:
    synced: bool
    frames_in_step: int
    board_frame: int
    mirror_frame: int
    board_fps: float
    lag_frames: int
    lag_s: float
    behind: bool  # more than a second behind the board
    paused: bool
    events: int  # `ev` lines applied
    diverged: str | None  # the Divergence's text, or the error that stopped the mirror
    error: str | None = None  # what stopped the mirror (a line it refused, a failure), if anything

    def line(self) -> str:
        if self.diverged:
            return self.diverged
        if not self.synced:
            return "waiting for the board's reset"
        parts = [f"in step: {self.frames_in_step} frames", f"board frame {self.board_frame}",
                 f"{self.board_fps:.1f} fps", f"{self.events} events"]
        parts.append("paused" if self.paused else f"lag {self.lag_frames} frames")
        if self.behind:
            parts.append(f"BEHIND by {self.lag_s:.1f} s: comparing the frames it reaches")
        return ", ".join(parts)


class MirrorRunner:
    def __init__(self, mirror: Mirror) -> None:
        self.mirror = mirror
        self.lock = threading.Lock()  # held while the mirror changes
        self._q: queue.Queue = queue.Queue()
        self._arrivals: collections.deque = collections.deque(maxlen=64)  # (time, frame) of `fr` lines
        self._newest = 0
        self._stop = threading.Event()
        self.error: str | None = None
        # lines waiting for the mirror before it gives up: ten minutes of frames at the board's rate
        self.queue_limit = mirror.model.FRAME_RATE * 600
        self.until = 0  # >0: lines after this many frames in step are read and dropped (watch --frames N)
        self._thread = threading.Thread(target=self._run, name="lockstep mirror", daemon=True)
        self._thread.start()

    # ---- the reader's side ----
    def put(self, line: str) -> None:
        if line.startswith("fr "):
            words = line.split()
            if len(words) > 1 and _FRAME_WORD.fullmatch(words[1]):  # else the mirror says what is wrong
                self._newest = int(words[1])
                self._arrivals.append((time.monotonic(), self._newest))
        elif line.startswith("ev reset"):
            self._newest = 0
            self._arrivals.clear()
        if self._q.qsize() >= self.queue_limit and self.error is None:  # a flood, or a mirror that cannot follow
            self.error = f"the mirror is more than {self.queue_limit} lines behind the board"
        self._q.put(line)

    def start_at(self, frame: int) -> None:
        """The board's frame when the mirror adopted its state (no `fr` line has said it yet)."""
        self._newest = frame

    # ---- the worker ----
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                line = self._q.get(timeout=0.1)
            except queue.Empty:
                continue
            try:
                if self.error or (self.until and self.mirror.frames_in_step >= self.until):
                    continue  # stopped, or done: the count stays N, whenever the caller looks
                with self.lock:
                    self.mirror.feed(line)
            except Exception as e:  # noqa: BLE001 - anything (an OverflowError in the engine) ends the mirror
                why = " ".join(str(e).split())  # one line, whatever the exception holds
                self.error = f"cannot follow the board: {why}" if why else f"the mirror failed: {e!r}"
            finally:
                self._q.task_done()

    def settle(self, timeout: float) -> bool:
        """Wait until every line put so far has been fed (True), or timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self._q.unfinished_tasks == 0:
                return True
            time.sleep(0.01)
        return False

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)

    def status(self) -> MirrorStatus:
        m = self.mirror
        arr = list(self._arrivals)
        fps = 0.0
        if len(arr) >= 2 and arr[-1][0] - arr[0][0] >= 0.5:  # a shorter span says nothing (fr 0, fr 1 together)
            fps = (arr[-1][1] - arr[0][1]) / (arr[-1][0] - arr[0][0])
        lag = max(0, self._newest - m.sim.frame) if m.synced else 0
        rate = m.model.FRAME_RATE
        error = self.error
        if error is None and not self._thread.is_alive() and not self._stop.is_set():
            error = "the mirror's thread stopped"
        diverged = str(m.diverged) if m.diverged else error
        return MirrorStatus(m.synced, m.frames_in_step, self._newest, m.sim.frame, fps, lag, lag / rate,
                            lag > rate, m.paused, m.events, diverged, error)
