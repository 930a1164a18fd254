"""boids-gui [SPEC]: the generator's side of the window (pysim/gui/app.py):
the spec loaded and checked as `boidsgen generate` would, its generated model
(or a fresh render when generated/ is stale), and the spec writer behind the
window's "save to spec". The window itself never imports codegen."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from codegen.commands.extras import refusal
from codegen.commands.numbers import BOIDS, SCALE, SECONDS, SEED, with_ranges
from pysim.one_line import one_line
from codegen.output.pipeline import checked_model
from codegen.output.render import load_generated_model, render
from codegen.spec.errors import SpecError
from codegen.commands.spec_writer import save_defaults
from pysim.model_support import ModelMismatch, load_model

# the window's modules (tkinter, pysim/gui) are imported once main() has checked they are there

DEFAULT_SPEC = "spec/boids.yaml"


def load_spec_model(spec_path: str):
    """(GenModel, model module, note): the generated model of the spec, or,
    when generated/ is missing or stale, a fresh render in a temp dir (the
    note says so)."""
    m = checked_model(spec_path)  # refused exactly as `boidsgen generate` refuses it
    try:
        return m, load_generated_model(spec_path, m), None, None
    except ModelMismatch as e:
        tmp = tempfile.TemporaryDirectory(prefix="boids-gui-")
        files = render(m)
        for rel in ("python/boids_model.py", "python/boids_kernel.py"):  # the model and its numba kernel
            (Path(tmp.name) / Path(rel).name).write_text(files[rel], encoding="utf-8")
        path = Path(tmp.name) / "boids_model.py"
        note = f"{str(e).split(':')[0]} is missing or stale: running a fresh render (run `boidsgen generate`)"
        return m, load_model(path, expect_hash=m.hash), note, tmp


def open_app(spec_path: str, root=None, **kw):
    """The window (pysim/gui/app.py's App) on spec_path (SpecError if the spec is refused)."""
    from pysim.gui.app import App

    return App(spec_path, load_spec_model(spec_path), save_defaults, root, **kw)


def parser() -> argparse.ArgumentParser:
    from pysim.gui.canvas_view import STYLES  # imports tkinter: only once main has checked it is there

    ap = argparse.ArgumentParser(prog="boids-gui", description="Tune a flock live: simulator or board.")
    ap.add_argument("spec", nargs="?", default=DEFAULT_SPEC)
    ap.add_argument("--port", help="connect to this board (or host firmware pty) at start")
    ap.add_argument("--style", choices=STYLES, default="triangles")
    ap.add_argument("--scale", type=SCALE, help="canvas pixels per display pixel")
    ap.add_argument("--arith", choices=("fixed", "float"), default="fixed")
    ap.add_argument("--seed", type=SEED, help="PRNG seed (default: the spec's)")
    ap.add_argument("--boids", type=BOIDS, help="flock size at start (default: the spec's)")
    ap.add_argument("--order", choices=("sequential", "synchronous"))
    ap.add_argument("--bench", type=SECONDS, metavar="SECONDS",
                    help="run this long, print the frame rate and timings, and exit")
    with_ranges(ap)
    return ap


def main(argv: list[str] | None = None) -> int:
    missing = refusal("boids-gui")  # Tk or the gui extra: said before anything opens or prints
    if missing:
        print(f"boids-gui: {missing}", file=sys.stderr)
        return 2
    import tkinter as tk

    a = parser().parse_args(argv)
    try:
        app = open_app(a.spec, scale=a.scale, style=a.style, arith=a.arith, seed=a.seed, boids=a.boids,
                  order=a.order, port=None)
    except SpecError as e:
        print(e, file=sys.stderr)
        return 2
    except (ValueError, tk.TclError) as e:
        print(f"boids-gui: {one_line(e)}", file=sys.stderr)
        return 2
    if a.port:
        app.connect(a.port)
    if a.bench:
        app.stats.keep_all = True
        app.root.after(int(a.bench * 1000), lambda: (print(app.stats.report(app)), app.close()))
    app.root.mainloop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
