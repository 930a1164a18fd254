"""Frame rate and timings of the window's frame loop."""
from __future__ import annotations

from collections import deque

SHOW_EVERY = 0.5  # seconds between updates of the stats line


class FrameStats:
    def __init__(self, window: int = 60) -> None:
        self.times: deque = deque(maxlen=window)  # frame end times
        self.steps: deque = deque(maxlen=window)
        self.draws: deque = deque(maxlen=window)
        self.keep_all = False  # --bench: keep every frame for the report
        self.all: list[tuple[float, float | None, float]] = []
        self._shown = 0.0

    def frame(self, step_s: float | None, draw_s: float, t: float) -> None:
        self.times.append(t)
        if step_s is not None:
            self.steps.append(step_s)
        self.draws.append(draw_s)
        if self.keep_all:
            self.all.append((t, step_s, draw_s))

    def due(self, t: float) -> bool:
        if t - self._shown >= SHOW_EVERY:
            self._shown = t
            return True
        return False

    @property
    def fps(self) -> float:
        if len(self.times) < 2:
            return 0.0
        return (len(self.times) - 1) / (self.times[-1] - self.times[0])

    @property
    def step_ms(self) -> float:
        return 1000 * sum(self.steps) / len(self.steps) if self.steps else 0.0

    @property
    def draw_ms(self) -> float:
        return 1000 * sum(self.draws) / len(self.draws) if self.draws else 0.0

    def report(self, app) -> str:
        """One line for --bench: whole-run frame rate and mean timings."""
        rows = self.all[5:] or self.all  # skip the first frames (window mapping)
        if len(rows) < 2:
            return "bench: too few frames"
        secs = rows[-1][0] - rows[0][0]
        steps = [s for _, s, _ in rows if s is not None]
        step = 1000 * sum(steps) / max(1, len(steps))
        draw = 1000 * sum(d for _, _, d in rows) / len(rows)
        return (f"bench: {app.sim.count} boids, order {app.sim.order}, style {app.view.style}: "
                f"{(len(rows) - 1) / secs:.1f} fps over {secs:.1f} s (spec frame rate {app.model.FRAME_RATE}); "
                f"step {step:.1f} ms, draw {draw:.1f} ms per frame "
                f"(at most {1000 / (step + draw):.0f} fps unthrottled)")
