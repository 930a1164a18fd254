#!/usr/bin/env python3
"""Screenshot of the real boids-gui window under a private Xvfb display.

    python3 tools/gui_screenshot.py [SPEC] [-o docs/gui.png] [--seconds 4] [--style triangles]
    python3 tools/gui_screenshot.py --board [SPEC] [-o docs/gui_board.png]

Starts Xvfb, opens the window on SPEC (default spec/boids.yaml), lets the
flock fly for a few seconds of its own frames, grabs the window from the X
server and writes it as PNG. With --board the window is in Board mode on
the host firmware (`boids_host --pty`, built first) and the flock is the
lockstep mirror's, the grab taken once that many seconds of frames are in
step.
"""
from __future__ import annotations

import argparse
import os
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="?", default=str(ROOT / "spec" / "boids.yaml"))
    ap.add_argument("-o", "--output", help="default docs/gui.png (docs/gui_board.png with --board)")
    ap.add_argument("--seconds", type=float, default=4.0, help="simulated seconds before the grab")
    ap.add_argument("--style", default="triangles")
    ap.add_argument("--board", action="store_true", help="Board mode on the host firmware, in lockstep")
    a = ap.parse_args(argv)
    if a.output is None:
        a.output = str(ROOT / "docs" / ("gui_board.png" if a.board else "gui.png"))

    from pysim.gui.xvfb import Xvfb, window_grab

    with Xvfb() as x:
        os.environ["DISPLAY"] = x.display
        from codegen.commands.gui import open_app

        spec = Path(a.spec).resolve()
        out = Path(a.output).resolve()
        os.chdir(ROOT)  # the window title names the spec as `boids-gui spec/boids.yaml` would
        app = open_app(str(spec.relative_to(ROOT)) if spec.is_relative_to(ROOT) else str(spec), style=a.style)
        frames = int(a.seconds * app.model.FRAME_RATE)
        host = _board(app, spec, frames) if a.board else None
        try:
            while not host and app.sim.frame < frames:  # the window's own loop, however fast this machine is
                app.root.update()
                time.sleep(0.002)
            app.toggle_pause()
            app.toggle_pause()  # leave the button reading "Pause"
            app._show_stats()
            shot = window_grab(x, app.root)
        finally:
            app.close()
            if host:
                host.terminate()
                host.wait(timeout=5.0)
    out.parent.mkdir(parents=True, exist_ok=True)
    shot.save(out)
    print(f"{out}: {shot.size[0]}x{shot.size[1]} after {frames} frames")
    return 0


def _board(app, spec: Path, frames: int) -> subprocess.Popen:
    """The host firmware on a pty, the window in Board mode on it, until
    `frames` frames are in step and the status line says so."""
    from codegen.commands.parity import prepare

    _, exe, _ = prepare(str(spec))
    host = subprocess.Popen([str(exe), "--pty"], stdout=subprocess.PIPE, text=True)
    try:
        if not select.select([host.stdout], [], [], 10.0)[0]:
            raise RuntimeError("boids_host --pty printed no `pty:` line within 10 s")
        line = host.stdout.readline()  # `pty: /dev/pts/N`, printed at once, whole
        if not line.startswith("pty: "):
            raise RuntimeError(f"boids_host --pty said {line!r}")
        app.connect(line.split()[1])
        end = time.monotonic() + frames / app.model.FRAME_RATE + 20.0
        while not (app.follow and app.follow.mirror.frames_in_step >= frames
                   and app.status_var.get().startswith("in step")):
            if time.monotonic() > end:
                raise RuntimeError(f"not in step in time: {app.status_var.get()}")
            app.root.update()
            time.sleep(0.002)
        return host
    except BaseException:
        host.kill()
        host.wait(timeout=5.0)
        raise


if __name__ == "__main__":
    sys.exit(main())
