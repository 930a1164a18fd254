"""A private X display for tests and the screenshot tool: Xvfb on a free
display number (Xvfb picks it: -displayfd), and screen grabs of it."""
from __future__ import annotations

import os
import select
import shutil
import subprocess
import time

START_TIMEOUT = 30.0  # seconds for Xvfb to report its display (it takes well under 1 s)
STOP_TIMEOUT = 5.0  # seconds for Xvfb to exit once terminated, and again once killed


def _read_line(fd: int, seconds: float) -> tuple[str, bool]:
    """(the first line written to the pipe, whether it came in time); at end
    of file, what came (possibly nothing)."""
    deadline = time.monotonic() + seconds
    buf = b""
    while not buf.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            return buf.decode(errors="replace"), False
        if select.select([fd], [], [], left)[0]:
            byte = os.read(fd, 1)
            if not byte:
                break
            buf += byte
    return buf.decode(errors="replace"), True


class Xvfb:
    def __init__(self, size: str = "1280x1024x24", timeout: float = START_TIMEOUT) -> None:
        exe = shutil.which("Xvfb")
        if exe is None:
            raise FileNotFoundError("Xvfb is not installed (tools/setup.sh installs it)")
        r, w = os.pipe()
        self.proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", size, "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        try:
            line, in_time = _read_line(r, timeout)  # written once the server accepts clients
        finally:
            os.close(r)
        num = line.strip()
        if not in_time or not num:
            self._kill()
            if not in_time:
                raise RuntimeError(f"Xvfb did not report its display number within {timeout} s")
            raise RuntimeError(f"Xvfb did not start (exit status {self.proc.returncode})")
        self.display = f":{num}"

    def grab(self, bbox=None):
        """A PIL image of the screen (or of bbox = (x0, y0, x1, y1))."""
        from PIL import ImageGrab

        return ImageGrab.grab(bbox=bbox, xdisplay=self.display)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._kill()

    def _kill(self) -> None:
        self.proc.kill()
        try:
            self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"Xvfb (pid {self.proc.pid}) still running {STOP_TIMEOUT} s after SIGKILL") from None

    def __enter__(self) -> "Xvfb":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def window_grab(x: "Xvfb", widget):
    """The screen area of a Tk widget (after it is drawn)."""
    widget.update()
    x0, y0 = widget.winfo_rootx(), widget.winfo_rooty()
    return x.grab((x0, y0, x0 + widget.winfo_width(), y0 + widget.winfo_height()))
