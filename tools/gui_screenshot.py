#!/usr/bin/env python3
"""Screenshot of the real boids-gui window under a private Xvfb display.

    python3 tools/gui_screenshot.py [SPEC] [-o docs/gui.png] [--seconds 4] [--style triangles]

Starts Xvfb, opens the window on SPEC (default spec/boids.yaml), lets the
flock fly for a few seconds of its own frames, grabs the window from the X
server and writes it as PNG.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="?", default=str(ROOT / "spec" / "boids.yaml"))
    ap.add_argument("-o", "--output", default=str(ROOT / "docs" / "gui.png"))
    ap.add_argument("--seconds", type=float, default=4.0, help="simulated seconds before the grab")
    ap.add_argument("--style", default="triangles")
    a = ap.parse_args(argv)

    from pysim.gui.xvfb import Xvfb, window_grab

    with Xvfb() as x:
        os.environ["DISPLAY"] = x.display
        from pysim.gui.app import App

        spec = Path(a.spec).resolve()
        out = Path(a.output).resolve()
        os.chdir(ROOT)  # the window title names the spec as `boids-gui spec/boids.yaml` would
        app = App(str(spec.relative_to(ROOT)) if spec.is_relative_to(ROOT) else str(spec), style=a.style)
        frames = int(a.seconds * app.model.FRAME_RATE)
        while app.sim.frame < frames:  # the window's own loop, however fast this machine is
            app.root.update()
            time.sleep(0.002)
        app.toggle_pause()
        app.toggle_pause()  # leave the button reading "Pause"
        app._show_stats()
        shot = window_grab(x, app.root)
        app.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    shot.save(out)
    print(f"{out}: {shot.size[0]}x{shot.size[1]} after {frames} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
