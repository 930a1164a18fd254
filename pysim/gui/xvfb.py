"""A private X display for tests and the screenshot tool: Xvfb on a free
display number (Xvfb picks it: -displayfd), and screen grabs of it."""
from __future__ import annotations

import os
import shutil
import subprocess


class Xvfb:
    def __init__(self, size: str = "1280x1024x24") -> None:
        exe = shutil.which("Xvfb")
        if exe is None:
            raise FileNotFoundError("Xvfb is not installed (tools/setup.sh installs it)")
        r, w = os.pipe()
        self.proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", size, "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as fh:
            num = fh.readline().strip()  # written once the server accepts clients
        if not num:
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{num}"

    def grab(self, bbox=None):
        """A PIL image of the screen (or of bbox = (x0, y0, x1, y1))."""
        from PIL import ImageGrab

        return ImageGrab.grab(bbox=bbox, xdisplay=self.display)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> "Xvfb":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def window_grab(x: "Xvfb", widget):
    """The screen area of a Tk widget (after it is drawn)."""
    widget.update()
    x0, y0 = widget.winfo_rootx(), widget.winfo_rooty()
    return x.grab((x0, y0, x0 + widget.winfo_width(), y0 + widget.winfo_height()))
