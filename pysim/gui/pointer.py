"""The window's mouse and keys (a mixin of App, on the Tk thread).

A click adds a boid there (on a board: `boids N+1`, spawned as the board
spawns); a press on the target drags it; the right button places or removes
an obstacle; space pauses, Enter adds ENTER_ADDS boids, Backspace removes
one, `1`..`9`, `0` raise the parameter with that id, Shift lowers it. In
Board mode what is hit is what the canvas shows: the mirror's flock.
"""
from __future__ import annotations

import math
import random

from pysim.gui.controls import SHIFTED

ENTER_ADDS = 10  # boids added by the Enter key
OBSTACLE_RADIUS = 12  # pixels, for an obstacle placed with the right button
GRAB_DISTANCE = 10  # pixels: a press this close to the target drags it


class PointerAndKeys:
    def _units(self, px: float):
        """Pixels in the simulator's own units (raw fixed point or float)."""
        if self.sim.A.name == "fixed":
            return int(round(px * (1 << self.model.FRAC_BITS)))
        return float(px)

    def _press(self, e) -> None:
        self.view.canvas.focus_set()
        x, y = self.view.to_display(e.x, e.y)
        tgt = self.scene_now().target
        if tgt is not None and math.hypot(x - tgt[0], y - tgt[1]) < GRAB_DISTANCE:
            self._drag_target = True
            return
        self.add_boid_at(x, y)

    def _drag(self, e) -> None:
        if self._drag_target:
            x, y = self.view.to_display(e.x, e.y)
            self.request_target(x, y)

    def request_target(self, x: float | None = None, y: float | None = None, on: bool = True, done=None) -> None:
        """Move the target (pixels) or switch it on/off; on a board `target X Y`
        or `target on|off`, the simulator following once the board agrees."""
        if x is None:
            x, y = self._target_px
        x = min(max(x, 0.0), self.model.WIDTH - 1)
        y = min(max(y, 0.0), self.model.HEIGHT - 1)

        def answer(ok: bool, got) -> None:
            if ok:
                self._target_px = (x, y)
                self.sim.set_target(self._units(x), self._units(y), on)
            else:
                self.status(f"target: {got}", error=True)
            if done:
                done(ok, int(on) if ok else got)

        if self.link is not None:
            cmd = f"target {x:.2f} {y:.2f}" if on and self.scene_now().target is not None else \
                f"target {'on' if on else 'off'}"
            self.link.latest("target", "command", (cmd,), answer)
        else:
            answer(True, None)

    def _right_click(self, e) -> None:
        """Remove the obstacle under the pointer, or place one there."""
        if not getattr(self.model, "OBSTACLES", None):
            self.status("this spec has no obstacles to place")
            return
        x, y = self.view.to_display(e.x, e.y)
        ob = self.scene_now().obstacles
        hit = [k for k, (ox, oy, r) in enumerate(ob) if math.hypot(x - ox, y - oy) <= r]
        if hit:
            k = hit[-1]
            cmd, apply = f"obstacle remove {k}", lambda: self.sim.remove_obstacle(k)
        else:
            r = OBSTACLE_RADIUS
            cmd = f"obstacle add {x:.2f} {y:.2f} {r}"
            apply = lambda: self.sim.add_obstacle(self._units(x), self._units(y), self._units(r))  # noqa: E731

        def answer(ok: bool, got) -> None:
            if not ok:
                self.status(f"obstacle: {got}", error=True)
                return
            if self.link is not None:
                return  # the mirror takes it from the board's `ev state`; `k` was the mirror's
            try:
                apply()
            except ValueError as err:  # the simulator's own capacity check
                self.status(str(err), error=True)

        if self.link is not None:
            self.link.call("command", cmd, done=answer)
        else:
            answer(True, None)

    def add_boid_at(self, x: float, y: float) -> None:
        """A new boid at (x, y) pixels, flying in a random direction at the
        spawn's top speed. On a board (no command for a position) it spawns as
        `boids N+1` does."""
        n = self.count
        if n >= self.model.CAPACITY:
            self.status(f"the flock is at the spec's capacity, {self.model.CAPACITY}", error=True)
            return
        if self.link is not None:
            self.request_count(n + 1)
            return
        if hasattr(self.sim, "add_boid"):
            self.sim.add_boid(self._units(x), self._units(y))
        else:
            speed = float(self.sim.params.value_text(self.model.SPAWN["max_speed"]))
            a = random.uniform(0, 2 * math.pi)
            new = [self._units(v) for v in (x, y, speed * math.cos(a), speed * math.sin(a))]
            cols = [list(c) + [v] for c, v in zip((self.sim.x, self.sim.y, self.sim.vx, self.sim.vy), new)]
            state = {k: list(self.sim.b[k]) + [0] for k in self.sim.state_names}
            self.sim.load_state(*cols, **state)
        self.controls.options["boids"].confirm(self.sim.count)

    def _bind_keys(self) -> None:
        self.root.bind_all("<Key>", self._key)

    def _key(self, e) -> None:
        if e.widget.winfo_class() in ("TEntry", "Entry", "TSpinbox", "Spinbox", "TCombobox"):
            return  # typing a value
        k = e.keysym
        if k == "space":
            self.toggle_pause()
        elif k in ("Return", "KP_Enter"):
            self.request_count(self.count + ENTER_ADDS)
        elif k == "BackSpace":
            self.request_count(self.count - 1)
        elif k.isdigit() or k in SHIFTED or e.char in SHIFTED:
            digit = SHIFTED.get(k) or SHIFTED.get(e.char) or k
            lower = k in SHIFTED or e.char in SHIFTED or bool(e.state & 1)
            ctl = self.controls.by_key(digit)
            if ctl is not None:
                ctl.nudge(-1 if lower else 1)

