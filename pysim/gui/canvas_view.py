"""Draw a Scene on a Tk canvas, scaled from the spec's display size.

Kept fast by reusing canvas items: each kind of entity has a pool of items
whose coordinates are updated in one Tcl script per frame (one Python -> Tcl
crossing instead of one per boid). In pixel style the boids are one
PhotoImage filled from a numpy array."""
from __future__ import annotations

import tkinter as tk

import numpy as np

from pysim.gui import look

STYLES = ("pixels", "dots", "triangles")


class Pool:
    """Canvas items of one kind, created on demand and hidden when unused."""

    def __init__(self, canvas: tk.Canvas, create) -> None:
        self.canvas, self.create = canvas, create
        self.items: list[int] = []
        self.shown = 0
        self.fills: list[str | None] = []

    def show(self, n: int) -> list[int]:
        while len(self.items) < n:
            self.items.append(self.create())
            self.fills.append(None)
            self.canvas.itemconfigure(self.items[-1], state="hidden")
        if n != self.shown:
            lo, hi = sorted((n, self.shown))
            state = "normal" if n > self.shown else "hidden"
            for it in self.items[lo:hi]:
                self.canvas.itemconfigure(it, state=state)
            self.shown = n
        return self.items[:n]

    def move(self, coords: np.ndarray) -> None:
        """coords: (n, k) canvas coordinates, one row per item."""
        items = self.show(len(coords))
        if not items:
            return
        w = self.canvas._w
        rows = np.char.mod("%.1f", np.round(coords, 1))
        script = "\n".join(f"{w} coords {it} {' '.join(r)}" for it, r in zip(items, rows))
        self.canvas.tk.eval(script)

    def colour(self, colours: list[str], option: str = "fill") -> None:
        for i, (it, c) in enumerate(zip(self.items, colours)):
            if self.fills[i] != c:
                self.canvas.itemconfigure(it, **{option: c})
                self.fills[i] = c


def triangles(b: np.ndarray, length: float, half_width: float) -> np.ndarray:
    """(n, 6) triangle corners pointing along each velocity: tip, left, right."""
    x, y, vx, vy = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    sp = np.hypot(vx, vy)
    ux = np.where(sp > 0, vx / np.where(sp > 0, sp, 1), 1.0)
    uy = np.where(sp > 0, vy / np.where(sp > 0, sp, 1), 0.0)
    bx, by = x - ux * length * 0.5, y - uy * length * 0.5
    return np.stack([x + ux * length * 0.5, y + uy * length * 0.5,
                     bx - uy * half_width, by + ux * half_width,
                     bx + uy * half_width, by - ux * half_width], axis=1)


class FlockView:
    def __init__(self, parent: tk.Widget, width: int, height: int, scale: int) -> None:
        self.width, self.height, self.scale = width, height, scale
        W, H = width * scale, height * scale
        self.canvas = tk.Canvas(parent, width=W, height=H, background=look.BACKGROUND,
                                highlightthickness=0, borderwidth=0)
        self.photo = tk.PhotoImage(width=W, height=H)
        self._small = tk.PhotoImage(width=width, height=height)  # one pixel per display pixel
        self.image_item = self.canvas.create_image(0, 0, image=self.photo, anchor="nw", state="hidden")
        self._frame = np.zeros((height, width, 3), dtype=np.uint8)
        self._ppm_head = f"P6 {width} {height} 255\n".encode()
        c = self.canvas
        self.pools = {
            "perches": Pool(c, lambda: c.create_line(0, 0, 0, 0, fill=look.PERCH, width=max(2, scale + 1))),
            "obstacles": Pool(c, lambda: c.create_oval(0, 0, 0, 0, fill=look.OBSTACLE, outline=look.OBSTACLE_EDGE)),
            "food": Pool(c, lambda: c.create_oval(0, 0, 0, 0, fill=look.FOOD, outline="")),
            "dots": Pool(c, lambda: c.create_oval(0, 0, 0, 0, fill=look.BOID, outline="")),
            "triangles": Pool(c, lambda: c.create_polygon(0, 0, 0, 0, 0, 0, fill=look.BOID, outline="")),
            "predators": Pool(c, lambda: c.create_polygon(0, 0, 0, 0, 0, 0, fill=look.PREDATOR, outline="")),
            "target": Pool(c, lambda: c.create_line(0, 0, 0, 0, fill=look.TARGET, width=2)),
        }
        self.style = "triangles"

    def set_style(self, style: str) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown style '{style}'")
        self.style = style

    def to_display(self, cx: float, cy: float) -> tuple[float, float]:
        return cx / self.scale, cy / self.scale

    def draw(self, scene) -> None:
        s = self.scale
        b = scene.boids
        colours = look.group_colours(scene.groups, len(b))
        # boids in the chosen style; the other styles' items hidden
        if self.style == "pixels":
            self._draw_pixels(b, colours)
            self.canvas.itemconfigure(self.image_item, state="normal")
        else:
            self.canvas.itemconfigure(self.image_item, state="hidden")
        if self.style == "dots":
            r = max(1.5, 1.0 * s)
            xy = b[:, :2] * s
            self.pools["dots"].move(np.concatenate([xy - r, xy + r], axis=1))
            if colours is not None:
                self.pools["dots"].colour(colours)
        else:
            self.pools["dots"].show(0)
        if self.style == "triangles":
            self.pools["triangles"].move(triangles(b, look.BOID_LENGTH, look.BOID_HALF_WIDTH) * s)
            if colours is not None:
                self.pools["triangles"].colour(colours)
        else:
            self.pools["triangles"].show(0)
        # the rest of the scene, whatever it holds, drawn the same in every style
        self.pools["predators"].move(triangles(scene.predators, look.PREDATOR_LENGTH,
                                               look.PREDATOR_HALF_WIDTH) * s)
        ob = scene.obstacles
        self.pools["obstacles"].move(np.stack([ob[:, 0] - ob[:, 2], ob[:, 1] - ob[:, 2],
                                               ob[:, 0] + ob[:, 2], ob[:, 1] + ob[:, 2]], axis=1) * s
                                     if len(ob) else np.zeros((0, 4)))
        fd = scene.food
        r = look.FOOD_RADIUS
        self.pools["food"].move(np.concatenate([fd - r, fd + r], axis=1) * s if len(fd) else np.zeros((0, 4)))
        self.pools["perches"].move(scene.perches * s)
        if scene.target is not None:
            tx, ty = scene.target
            a = look.TARGET_ARM
            self.pools["target"].move(np.array([[tx - a, ty, tx + a, ty], [tx, ty - a, tx, ty + a]]) * s)
        else:
            self.pools["target"].show(0)

    def _draw_pixels(self, b: np.ndarray, colours) -> None:
        f = self._frame
        f[:] = look.BACKGROUND_RGB
        if len(b):
            ix, iy = np.floor(b[:, 0]).astype(int), np.floor(b[:, 1]).astype(int)
            ok = (ix >= 0) & (ix < self.width) & (iy >= 0) & (iy < self.height)
            if colours is None:
                f[iy[ok], ix[ok]] = look.BOID_RGB
            else:
                f[iy[ok], ix[ok]] = np.array([look.rgb(c) for c in colours])[ok]
        # Tk zooms in C: half the time of repeating the array in numpy
        self._small.configure(data=self._ppm_head + f.tobytes())
        self.photo.tk.call(self.photo, "copy", self._small, "-zoom", self.scale, self.scale)
