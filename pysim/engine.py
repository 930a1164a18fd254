"""The simulation engine: spawn, update order and frame loop around a
generated model's `update`. Twin of the generated boids_flock.c/boids_app.c.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from . import fixed as fx
from .arith import make_arith
from .params import ParamSet
from .rng import Rng


class Simulation:
    def __init__(self, model, arith: str = "fixed", seed: int | None = None,
                 boids: int | None = None, order: str | None = None) -> None:
        self.model = model
        self.A = make_arith(arith, model.FRAC_BITS)
        self.order = order or model.UPDATE_ORDER
        if self.order not in ("sequential", "synchronous"):
            raise ValueError(f"unknown update order '{self.order}'")
        self.params = ParamSet(model)
        self.seed = model.SEED if seed is None else seed
        self.frame = 0
        self.K = SimpleNamespace(width=self.A.const_int(model.WIDTH), height=self.A.const_int(model.HEIGHT))
        self.reset(self.seed, boids)

    # ---- state ----
    def reset(self, seed: int | None = None, boids: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
        n = self.model.FLOCK_SIZE if boids is None else boids
        if not 0 <= n <= self.model.CAPACITY:
            raise ValueError(f"{n} boids: the spec's capacity is {self.model.CAPACITY}")
        self.rng = Rng(self.seed)
        self.frame = 0
        self.x, self.y, self.vx, self.vy = (self.A.from_raw(a) for a in self._spawn_raw(n))

    def _spawn_raw(self, n: int) -> list:
        """Twin of boids_spawn: the same draws in the same order, in raw fixed
        point whatever the arithmetic, so both arithmetics start alike."""
        fb = self.model.FRAC_BITS
        raw = self.params.raw
        s = self.model.SPAWN
        w = int(fx.fx_from_int(self.model.WIDTH, fb))
        h = int(fx.fx_from_int(self.model.HEIGHT, fb))
        lo_s, hi_s = raw[s["min_speed"]], raw[s["max_speed"]]
        new = [[], [], [], []]
        for _ in range(n):
            bx = self.rng.range(raw[s["left"]], int(fx.fx_sub(w, raw[s["right"]])))
            by = self.rng.range(raw[s["top"]], int(fx.fx_sub(h, raw[s["bottom"]])))
            bvx, bvy = lo_s, 0
            for _try in range(16):
                vx = self.rng.range(int(fx.fx_neg(hi_s)), int(fx.fx_add(hi_s, 1)))
                vy = self.rng.range(int(fx.fx_neg(hi_s)), int(fx.fx_add(hi_s, 1)))
                sp = int(fx.fx_sqrt(fx.fx_add(fx.fx_mul(vx, vx, fb), fx.fx_mul(vy, vy, fb)), fb))
                if lo_s <= sp <= hi_s:
                    bvx, bvy = vx, vy
                    break
            for k, v in enumerate((bx, by, bvx, bvy)):
                new[k].append(v)
        return [np.asarray(v, dtype=np.int64) for v in new]

    def set_count(self, n: int) -> int:
        """Twin of boids_app_set_count: grow by spawning now (continuing the
        PRNG stream) or shrink, newest boids first; clamped to the capacity."""
        n = max(0, min(int(n), self.model.CAPACITY))
        if n < self.count:
            self.x, self.y, self.vx, self.vy = (a[:n].copy() for a in (self.x, self.y, self.vx, self.vy))
        elif n > self.count:
            new = [self.A.from_raw(a) for a in self._spawn_raw(n - self.count)]
            self.x, self.y, self.vx, self.vy = (np.concatenate([a, b]) for a, b in
                                                zip((self.x, self.y, self.vx, self.vy), new))
        return n

    def load_state(self, x, y, vx, vy) -> None:
        """Replace the flock with these values (the arithmetic's own units:
        raw integers in fixed, pixels in float)."""
        arrs = [np.array(v, dtype=self.A.dtype) for v in (x, y, vx, vy)]
        if len({len(a) for a in arrs}) != 1 or len(arrs[0]) > self.model.CAPACITY:
            raise ValueError("x, y, vx, vy must have one length, at most the capacity")
        self.x, self.y, self.vx, self.vy = arrs

    def to_pixels(self, a) -> np.ndarray:
        a = np.asarray(a)
        return a / (1 << self.model.FRAC_BITS) if self.A.name == "fixed" else a.astype(np.float64)

    def scene(self):
        from .scene import Scene

        boids = np.stack([self.to_pixels(v) for v in (self.x, self.y, self.vx, self.vy)], axis=1) \
            if self.count else np.zeros((0, 4))
        return Scene(self.model.WIDTH, self.model.HEIGHT, boids)

    @property
    def count(self) -> int:
        return len(self.x)

    # ---- one frame ----
    def step(self) -> None:
        m, A = self.model, self.A
        P = self.params.for_arith(A)
        n = self.count
        if n:
            not_self = ~np.eye(n, dtype=bool)
            if self.order == "synchronous":
                self.x, self.y, self.vx, self.vy = m.update(
                    A, P, self.K, self.x, self.y, self.vx, self.vy,
                    self.x, self.y, self.vx, self.vy, not_self)
            else:
                x, y, vx, vy = self.x, self.y, self.vx, self.vy
                for i in range(n):
                    s = slice(i, i + 1)
                    nx, ny, nvx, nvy = m.update(A, P, self.K, x[s], y[s], vx[s], vy[s], x, y, vx, vy, not_self[s])
                    x[i], y[i], vx[i], vy[i] = nx[0], ny[0], nvx[0], nvy[0]
        self.frame += 1

    def run(self, frames: int, on_frame=None) -> None:
        if on_frame:
            on_frame(self)
        for _ in range(frames):
            self.step()
            if on_frame:
                on_frame(self)
