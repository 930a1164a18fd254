"""The simulation engine: spawn, parameters, the world and the frame loop
around a generated model's kernel (python/boids_kernel.py: the rules
compiled by numba in the C's shape). Twin of the generated boids_flock.c /
boids_app.c.

State is kept in the arithmetic's own units (raw int64 in fixed, float64
pixels in float). Spawning always draws raw fixed-point values from the
shared xorshift32 stream, so both arithmetics start from the same flock.
The update order is the kernel's: sequential updates the boids in place in
index order (exact by construction), synchronous reads a copy of the frame's
start, as the C does.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from pysim import fixed as fx
from pysim import mover_state
from pysim.arith import make_arith
from pysim.checked_arith import checked_arith_for, overflow_found
from pysim.fxops import new_status
from pysim.kernel_cache import compile_turn
from pysim.model_support import load_kernel
from pysim.params import ParamSet
from pysim.rng import Rng

_FIELDS = ("x", "y", "vx", "vy")
_WORLD = ("px", "py", "pvx", "pvy", "fx", "fy", "fvx", "fvy", "obx", "oby", "obr")


class Simulation:
    def __init__(self, model, arith: str = "fixed", seed: int | None = None,
                 boids: int | None = None, order: str | None = None) -> None:
        self.model = model
        self.A = make_arith(arith, model)
        self.order = order or model.UPDATE_ORDER
        if self.order not in ("sequential", "synchronous"):
            raise ValueError(f"unknown update order '{self.order}'")
        self.params = ParamSet(model)
        self.seed = model.SEED if seed is None else seed
        self.frame = 0
        self.kernel = load_kernel(model)
        self.state_names = tuple(name for name, _ in self.kernel.STATE)
        self._state_kind = dict(self.kernel.STATE)
        self.K = SimpleNamespace(width=self.A.const_int(model.WIDTH), height=self.A.const_int(model.HEIGHT))
        self.reset(self.seed, boids)

    # ---- reset and spawning (twins of boids_app_reset, boids_spawn, boids_world_reset) ----
    def reset(self, seed: int | None = None, boids: int | None = None) -> None:
        """Reseed; spawn the flock (unless the spec spawns gradually), then the
        world; then grow to `boids`: the order the firmware's reset and a
        headless run use."""
        if seed is not None:
            self.seed = seed
        n = self.model.FLOCK_SIZE if boids is None else boids
        if not 0 <= n <= self.model.CAPACITY:
            raise ValueError(f"{n} boids: the spec's capacity is {self.model.CAPACITY}")
        self.rng = Rng(self.seed)
        self.frame = 0
        self.b = {k: np.zeros(0, dtype=self.A.dtype) for k in _FIELDS}
        for k in self.state_names:
            self.b[k] = np.zeros(0, dtype=self._state_dtype(k))
        self.W = None
        if self.model.SPAWN_PER_SECOND == 0:
            self._grow(n)
        self._world_reset()
        self.set_count(n)

    def _raw(self, name: str) -> int:
        return self.params.raw[name]

    def _spawn_velocity(self, lo: int, hi: int) -> tuple[int, int]:
        vx, vy = lo, 0
        for _ in range(16):
            tx = self.rng.range(int(fx.fx_neg(hi)), int(fx.fx_add(hi, 1)))
            ty = self.rng.range(int(fx.fx_neg(hi)), int(fx.fx_add(hi, 1)))
            s = int(fx.fx_hypot(tx, ty))
            if lo <= s <= hi:
                return tx, ty
        return vx, vy

    def _spawn_in(self, left: str, right: str, top: str, bottom: str, lo: str, hi: str, n: int) -> list:
        fb = self.model.FRAC_BITS
        w = int(fx.fx_from_int(self.model.WIDTH, fb))
        h = int(fx.fx_from_int(self.model.HEIGHT, fb))
        rows = []
        for _ in range(n):
            x = self.rng.range(self._raw(left), int(fx.fx_sub(w, self._raw(right))))
            y = self.rng.range(self._raw(top), int(fx.fx_sub(h, self._raw(bottom))))
            vx, vy = self._spawn_velocity(self._raw(lo), self._raw(hi))
            rows.append((x, y, vx, vy))
        return rows

    def _grow(self, n_new: int) -> None:
        s = self.model.SPAWN
        rows = self._spawn_in(s["left"], s["right"], s["top"], s["bottom"], s["min_speed"], s["max_speed"], n_new)
        new = np.asarray(rows, dtype=np.int64).reshape(-1, 4)
        for k, col in zip(_FIELDS, new.T):
            self.b[k] = np.concatenate([self.b[k], self.A.from_raw(col)])
        self._init_state(self.count - n_new, self.count)

    def _state_dtype(self, name: str):
        return np.int64 if self._state_kind[name] == "int" else self.A.dtype

    def _init_state(self, lo: int, hi: int) -> None:
        """Boids lo..hi-1 get their rules' state at its initial values (the
        kernel's init_state: numbers, or expressions over parameters, index
        and sections, as the spawn evaluates them)."""
        if not self.state_names:
            return
        for k in self.state_names:
            a = self.b[k]
            if len(a) < hi:
                self.b[k] = np.concatenate([a, np.zeros(hi - len(a), dtype=self._state_dtype(k))])
        K = self.kernel
        init = K.init_state_float if self.A.name == "float" else K.init_state_fixed
        PF, PI = self._param_arrays()
        W, A = self.W, self.A
        tx, ty, on = (W.target_x, W.target_y, W.target_on) if W is not None else (A.zero, A.zero, False)
        init(lo, hi, *[self._state_array(k) for k in self.state_names], PF, PI, A.dtype(tx), A.dtype(ty),
             int(bool(on)))

    def set_count(self, n: int) -> int:
        """Twin of boids_app_set_count: grow by spawning now (continuing the
        PRNG stream) or shrink, newest boids first; clamped to the capacity."""
        n = max(0, min(int(n), self.model.CAPACITY))
        if n < self.count:
            self.b = {k: v[:n].copy() for k, v in self.b.items()}
        elif n > self.count:
            self._grow(n - self.count)
        return n

    # ---- the world: predators, food, obstacles, target ----
    def _world_reset(self) -> None:
        m, A = self.model, self.A
        empty = np.zeros(0, dtype=A.dtype)
        self.W = SimpleNamespace(px=empty, py=empty, pvx=empty, pvy=empty, fx=empty, fy=empty, fvx=empty,
                                 fvy=empty, obx=empty, oby=empty, obr=empty, target_x=A.zero, target_y=A.zero,
                                 target_on=False, **mover_state.empty(self))
        self._follow_counts()
        if getattr(m, "OBSTACLES", None):
            ini = np.asarray(m.OBSTACLES["initial_raw"], dtype=np.int64).reshape(-1, 3)
            self.W.obx, self.W.oby, self.W.obr = (A.from_raw(c) for c in ini.T)
        if getattr(m, "TARGET", None):
            t = m.TARGET
            self.W.target_x, self.W.target_y = A.from_raw(t["x_raw"]), A.from_raw(t["y_raw"])
            self.W.target_on = bool(t["active"])

    def _follow_counts(self) -> None:
        """Twin of predators_follow_count / food_follow_count (start of a frame)."""
        m = self.model
        pr = getattr(m, "PREDATORS", None)
        if pr:
            want = max(0, min(self._raw(pr["count"]), pr["capacity"]))
            self._resize_movers(("px", "py", "pvx", "pvy"), want, lambda k: self._spawn_in(
                pr["left"], pr["right"], pr["top"], pr["bottom"], pr["min_speed"], pr["max_speed"], k))
            mover_state.follow(self, "predators")
        fd = getattr(m, "FOOD", None)
        if fd:
            want = max(0, min(self._raw(fd["count"]), fd["capacity"]))
            self._resize_movers(("fx", "fy", "fvx", "fvy"), want, lambda k: [self._food_row(fd) for _ in range(k)])
            mover_state.follow(self, "food")

    def _food_row(self, fd) -> tuple[int, int, int, int]:
        """A food source anywhere on screen with a velocity in [-speed, speed]^2."""
        fb = self.model.FRAC_BITS
        w, h = int(fx.fx_from_int(self.model.WIDTH, fb)), int(fx.fx_from_int(self.model.HEIGHT, fb))
        sp = self._raw(fd["speed"])
        lo, hi = int(fx.fx_neg(sp)), int(fx.fx_add(sp, 1))
        x = self.rng.range(0, w)
        y = self.rng.range(0, h)
        return x, y, self.rng.range(lo, hi), self.rng.range(lo, hi)

    def _resize_movers(self, names: tuple[str, ...], want: int, spawn) -> None:
        """Truncate the world arrays `names` to `want`, or grow them with the
        raw rows spawn(k) draws (in the PRNG order the firmware draws them)."""
        W, A = self.W, self.A
        cols = [getattr(W, n) for n in names]
        have = len(cols[0])
        if want < have:
            new = [c[:want] for c in cols]
        elif want > have:
            rows = np.asarray(spawn(want - have), dtype=np.int64).reshape(-1, len(names))
            new = [np.concatenate([c, A.from_raw(r)]) for c, r in zip(cols, rows.T)]
        else:
            return
        for n, c in zip(names, new):
            setattr(W, n, c)

    # run-time world edits (the serial commands' twins)
    def add_obstacle(self, x, y, r) -> int:
        cap = self.model.OBSTACLES["capacity"] if getattr(self.model, "OBSTACLES", None) else 0
        if len(self.W.obx) >= cap:
            raise ValueError(f"obstacles: all {cap} places in use")
        W, A = self.W, self.A
        W.obx, W.oby, W.obr = (np.concatenate([a, np.asarray([v], dtype=A.dtype)])
                               for a, v in zip((W.obx, W.oby, W.obr), (x, y, r)))
        return len(W.obx) - 1

    def remove_obstacle(self, k: int) -> None:
        W = self.W
        if not 0 <= k < len(W.obx):
            raise ValueError(f"obstacles: no obstacle {k}")
        W.obx, W.oby, W.obr = (np.delete(a, k) for a in (W.obx, W.oby, W.obr))

    def clear_obstacles(self) -> None:
        self.W.obx, self.W.oby, self.W.obr = (a[:0] for a in (self.W.obx, self.W.oby, self.W.obr))

    def set_target(self, x, y, on: bool = True) -> None:
        self.W.target_x, self.W.target_y, self.W.target_on = x, y, on

    # ---- direct state access ----
    def add_boid(self, x, y, vx=None, vy=None) -> bool:
        """Append one boid at (x, y) (the arithmetic's units); without a
        velocity it flies along +x at the spawn's top speed. Its rule state
        starts at its initial values. False when the flock is at the capacity."""
        if self.count >= self.model.CAPACITY:
            return False
        if vx is None or vy is None:
            vx, vy = self.A.from_raw(self._raw(self.model.SPAWN["max_speed"])), self.A.zero
        for k, v in zip(_FIELDS, (x, y, vx, vy)):
            self.b[k] = np.concatenate([self.b[k], np.asarray([v], dtype=self.b[k].dtype)])
        self._init_state(self.count - 1, self.count)
        return True

    def load_state(self, x, y, vx, vy, **state) -> None:
        """Replace the flock with these values (the arithmetic's own units:
        raw integers in fixed, pixels in float); state not given starts at
        its initial values."""
        arrs = [np.array(v, dtype=self.A.dtype) for v in (x, y, vx, vy)]
        if len({len(a) for a in arrs}) != 1 or len(arrs[0]) > self.model.CAPACITY:
            raise ValueError("x, y, vx, vy must have one length, at most the capacity")
        self.b = dict(zip(_FIELDS, arrs))
        n = len(arrs[0])
        for k in self.state_names:
            self.b[k] = np.zeros(n, dtype=self._state_dtype(k))
        self._init_state(0, n)
        for k in self.state_names:
            if k in state:
                v = np.array(state[k], dtype=self._state_dtype(k))
                if len(v) != n:
                    raise ValueError(f"state {k}: {len(v)} values for {n} boids")
                self.b[k] = v

    def load_kind(self, kind: str, rows) -> None:
        """Replace one kind of state (the model's STATE_KINDS) with these raw
        rows, one tuple of fields per element: a board's `dump` or `ev state`."""
        fields = dict(self.model.STATE_KINDS)[kind]
        cols = [np.asarray([r[j] for r in rows], dtype=np.int64) for j in range(len(fields))]
        if kind == "boid":
            named = {name: c for (name, _), c in zip(fields, cols)}
            xy = [named.pop(k) for k in _FIELDS]
            self.load_state(*xy, **named)
        elif kind == "target":
            (x, y, on), = rows
            self.set_target(self.A.from_raw(np.int64(x)), self.A.from_raw(np.int64(y)), bool(on))
        else:
            prefix = {"predator": "p", "food": "f", "obstacle": "ob"}[kind]
            for (name, _), c in zip(fields, cols):
                setattr(self.W, prefix + name, self.A.from_raw(c))

    def state_columns(self, kind: str, fields) -> list:
        """The arrays of one kind of state (the model's STATE_KINDS), one per
        field, in the arithmetic's units: what a trace row shows."""
        W = self.W
        if kind == "boid":
            return [self.b[f] for f in fields]
        if kind == "target":
            return [np.asarray([v]) for v in (W.target_x, W.target_y, int(bool(W.target_on)))]
        prefix = {"predator": "p", "food": "f", "obstacle": "ob"}[kind]
        return [getattr(W, prefix + f) for f in fields]

    x = property(lambda self: self.b["x"])
    y = property(lambda self: self.b["y"])
    vx = property(lambda self: self.b["vx"])
    vy = property(lambda self: self.b["vy"])

    @property
    def count(self) -> int:
        return len(self.b["x"])

    def to_pixels(self, a) -> np.ndarray:
        a = np.asarray(a)
        return a / (1 << self.model.FRAC_BITS) if self.A.name == "fixed" else a.astype(np.float64)

    def scene(self):
        from pysim.scene import Scene

        px = self.to_pixels

        def stack(*cols, width):
            return np.stack([px(c) for c in cols], axis=1) if len(cols[0]) else np.zeros((0, width))

        W = self.W
        groups = None
        sc = getattr(self.model, "SCOUTS", None)
        if sc:
            g1, g2 = self._raw(sc["group1"]), self._raw(sc["group2"])
            idx = np.arange(self.count)
            groups = np.where(idx < g1, 1, np.where(idx - g1 < g2, 2, 0))
        perches = np.zeros((0, 4))
        ld = getattr(self.model, "LEDGE", None)
        if ld:
            y = px(self._raw(ld["y"]))
            perches = np.array([[px(self._raw(ld["left"])), y, px(self._raw(ld["right"])), y]])
        return Scene(
            self.model.WIDTH, self.model.HEIGHT, stack(self.x, self.y, self.vx, self.vy, width=4),
            predators=stack(W.px, W.py, W.pvx, W.pvy, width=4),
            obstacles=stack(W.obx, W.oby, W.obr, width=3),
            food=stack(W.fx, W.fy, width=2),
            perches=perches,
            target=(float(px(W.target_x)), float(px(W.target_y))) if W.target_on else None,
            groups=groups,
        )

    # ---- one frame (twin of boids_step) ----
    # How the synchronous fixed-point update visits pairs: "auto" (the grid
    # from GRID_FROM boids on), "brute" (every pair, as the C without
    # performance.grid) or "grid" (whenever the order is synchronous and the
    # arithmetic fixed). The grid gives the brute force's result bit for bit:
    # the same pairs, and every neighbour sum is exact in 64 bits. Float
    # sums would round by visiting order, so float always visits every pair
    # in index order; the checked run too (its first finding is the C's).
    pair_method = "auto"
    GRID_FROM = 256
    grid_used = False  # whether the last frame used the grid

    def _arrays(self, holder, names, dtype) -> list:
        """holder's arrays `names` as the kernel needs them (contiguous, its
        dtype), stored back so the kernel updates them in place."""
        out = []
        for n in names:
            a = holder[n] if isinstance(holder, dict) else getattr(holder, n)
            c = np.ascontiguousarray(a, dtype=dtype)
            if c is not a:
                if isinstance(holder, dict):
                    holder[n] = c
                else:
                    setattr(holder, n, c)
            out.append(c)
        return out

    def _param_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """PF (fixed parameters in the arithmetic's units) and PI (int
        parameters), both indexed by the parameter's index."""
        A, ps = self.A, self.params
        pf = [A.param(ps.raw[p.name], ps.text[p.name], p.type) if p.type == "fixed" else 0 for p in self.model.PARAMS]
        pi = [ps.raw[p.name] if p.type != "fixed" else 0 for p in self.model.PARAMS]
        return np.asarray(pf, dtype=A.dtype), np.asarray(pi, dtype=np.int64)

    def _world_args(self) -> list:
        W, A = self.W, self.A
        arrays = self._arrays(W, _WORLD, A.dtype)
        return arrays + [A.dtype(W.target_x), A.dtype(W.target_y), int(bool(W.target_on))]

    def step(self) -> None:
        """One frame: the counts of predators and food follow their parameters
        (spawning continues the PRNG stream), then the kernel: every boid,
        the predators, the food (pysim/fxops.py arithmetic, the C's loops)."""
        self._follow_counts()
        A, K = self.A, self.kernel
        checked = getattr(A, "checked", False)
        fn = K.step_checked if checked else (K.step_float if A.name == "float" else K.step_fixed)
        sync = self.order == "synchronous"
        grid = sync and A.name == "fixed" and not checked and self.pair_method != "brute" and (
            self.pair_method == "grid" or self.count >= self.GRID_FROM)
        b = self._arrays(self.b, _FIELDS, A.dtype) + [self._state_array(k) for k in self.state_names]
        b += mover_state.arrays(self)
        PF, PI = self._param_arrays()
        st = new_status()
        st[5] = -1
        draws = getattr(K, "DRAWS", 0)  # the rules' PRNG draws, every boid's at its turn (docs/rules.md)
        rs = np.array([self.rng.s], dtype=np.int64) if draws else None
        with compile_turn(K, fn):
            self.grid_used = bool(fn(sync, grid, *b, *self._world_args(), PF, PI, st, *([rs] if draws else [])))
        if draws:
            self.rng.s = int(rs[0])
        if checked and st[0]:
            raise overflow_found(K, st, self.frame, self.model.FRAC_BITS)
        self.frame += 1

    def _state_array(self, name: str) -> np.ndarray:
        return self._arrays(self.b, (name,), self._state_dtype(name))[0]

    def run(self, frames: int, on_frame=None) -> None:
        if on_frame:
            on_frame(self)
        for _ in range(frames):
            self.step()
            if on_frame:
                on_frame(self)


def checked_simulation(model, **kw):
    """A fixed-point Simulation whose frames run the checked kernel."""
    sim = Simulation(model, "fixed", **kw)
    sim.A = checked_arith_for(model)
    return sim
