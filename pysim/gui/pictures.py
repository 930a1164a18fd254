"""Pictures of a Scene with Pillow, drawn as the canvas draws it: a PNG of
the current view, and an animated GIF recorded frame by frame."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pysim.gui import look
from pysim.gui.canvas_view import triangles


def render(scene, style: str = "triangles", scale: int = 2):
    """The scene as a PIL RGB image of the canvas's size."""
    from PIL import Image, ImageDraw

    s = scale
    im = Image.new("RGB", (scene.width * s, scene.height * s), look.BACKGROUND_RGB)
    d = ImageDraw.Draw(im)
    for x0, y0, x1, y1 in scene.perches * s:
        d.line([(x0, y0), (x1, y1)], fill=look.PERCH, width=max(2, s + 1))
    for x, y, r in scene.obstacles:
        d.ellipse([(x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s], fill=look.OBSTACLE,
                  outline=look.OBSTACLE_EDGE)
    for x, y in scene.food:
        r = look.FOOD_RADIUS
        d.ellipse([(x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s], fill=look.FOOD)
    b = scene.boids
    colours = look.group_colours(scene.groups, len(b)) or [look.BOID] * len(b)
    if style == "pixels":
        for (x, y, _vx, _vy), c in zip(b, colours):
            ix, iy = int(np.floor(x)), int(np.floor(y))
            if 0 <= ix < scene.width and 0 <= iy < scene.height:
                d.rectangle([ix * s, iy * s, ix * s + s - 1, iy * s + s - 1], fill=c)
    elif style == "dots":
        r = max(1.5, 1.0 * s)
        for (x, y, _vx, _vy), c in zip(b, colours):
            d.ellipse([x * s - r, y * s - r, x * s + r, y * s + r], fill=c)
    else:
        for t, c in zip(triangles(b, look.BOID_LENGTH, look.BOID_HALF_WIDTH) * s, colours):
            d.polygon([(t[0], t[1]), (t[2], t[3]), (t[4], t[5])], fill=c)
    for t in triangles(scene.predators, look.PREDATOR_LENGTH, look.PREDATOR_HALF_WIDTH) * s:
        d.polygon([(t[0], t[1]), (t[2], t[3]), (t[4], t[5])], fill=look.PREDATOR)
    if scene.target is not None:
        tx, ty = scene.target
        a = look.TARGET_ARM
        d.line([((tx - a) * s, ty * s), ((tx + a) * s, ty * s)], fill=look.TARGET, width=2)
        d.line([(tx * s, (ty - a) * s), (tx * s, (ty + a) * s)], fill=look.TARGET, width=2)
    return im


def save_png(path: str | Path, scene, style: str = "triangles", scale: int = 2) -> Path:
    path = Path(path)
    render(scene, style, scale).save(path, format="PNG")
    return path


class GifRecorder:
    """Collects frames for `seconds` of simulated time, then writes the GIF."""

    def __init__(self, path: str | Path, seconds: float, frame_rate: int, style: str, scale: int) -> None:
        self.path = Path(path)
        self.frames_wanted = max(1, int(round(seconds * frame_rate)))
        self.frame_ms = int(round(1000 / frame_rate))
        self.style, self.scale = style, scale
        self.frames: list = []

    @property
    def done(self) -> bool:
        return len(self.frames) >= self.frames_wanted

    def add(self, scene) -> bool:
        """Add one frame; True once the recording is complete and written."""
        if not self.done:
            # a shared palette keeps the GIF small and its colours steady
            self.frames.append(render(scene, self.style, self.scale).convert("P", palette=0, dither=0))
            if self.done:
                self.save()
                return True
        return False

    def save(self) -> Path:
        first, *rest = self.frames
        first.save(self.path, format="GIF", save_all=True, append_images=rest, duration=self.frame_ms,
                   loop=0, optimize=False)
        return self.path
