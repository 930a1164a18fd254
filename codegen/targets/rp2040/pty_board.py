"""The emulated RP2040 on a pseudo-terminal, as `boids_host --pty` puts the
host build on one: `boidsgen watch PTY` and the GUI's Board mode talk to it
as to a board on a USB-serial adapter.

rp2040js runs the board image (runner/run.mjs --uart-stdin --pio: VGA
running, time the emulated timer's, about a third of real time here); two
threads copy the pty's bytes into the runner's stdin (a non-blocking pipe:
the runner polls it between instructions) and its UART0 output back."""
from __future__ import annotations

import os
import re
import subprocess
import threading
import tty
from pathlib import Path

from codegen.targets.rp2040.tools import RUNNER, emulator

STOP_WAIT = 5.0  # seconds for the runner to end once terminated
STDERR_KEEP = 64 * 1024  # bytes of the runner's stderr kept (its last words, if it dies)


class PtyBoard:
    def __init__(self, elf: Path, pio: bool = True, on_output=None) -> None:
        """on_output(bytes): called with what UART0 sends, as it is passed on (tests follow the frames)."""
        self._on_output = on_output
        node, lib = emulator()
        self.master, slave = os.openpty()
        tty.setraw(slave)  # bytes as they are: the firmware does its own line handling
        self.path = os.ttyname(slave)
        self._slave = slave
        r, self._to_runner = os.pipe()
        os.set_blocking(r, False)  # the runner's stdin: EAGAIN when empty (run.mjs polls it)
        cmd = [node, str(RUNNER), "--rp2040js", str(lib), "--elf", str(elf), "--uart-stdin"]
        self.proc = subprocess.Popen(cmd + (["--pio"] if pio else []), stdin=r, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        os.close(r)
        self._stderr = bytearray()  # its last STDERR_KEEP bytes: what it said if it dies
        self._threads = [threading.Thread(target=self._to_board, daemon=True),
                         threading.Thread(target=self._from_board, daemon=True),
                         threading.Thread(target=self._keep_stderr, daemon=True)]
        for t in self._threads:
            t.start()

    def _to_board(self) -> None:
        try:
            while True:
                data = os.read(self.master, 4096)
                if not data:
                    break
                os.write(self._to_runner, data)
        except OSError:
            pass

    def _from_board(self) -> None:
        try:
            while True:
                data = self.proc.stdout.read1(4096)
                if not data:
                    break
                if self._on_output:
                    self._on_output(data)
                os.write(self.master, data)
        except (OSError, ValueError):
            pass

    def _keep_stderr(self) -> None:
        try:
            while True:
                data = self.proc.stderr.read1(4096)
                if not data:
                    break
                self._stderr.extend(data)
                del self._stderr[:-STDERR_KEEP]
        except (OSError, ValueError):
            pass

    def why_it_ended(self) -> str:
        """The runner's end in one line: its exit status and the error it printed last (node's
        `SomeError: ...` line, else its last line), control characters escaped."""
        self._threads[2].join(STOP_WAIT)  # its stderr read to the end
        lines = [ln.strip() for ln in self._stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
        errors = [ln for ln in lines if re.match(r"^[\w.]*(Error|Exception)\b", ln)]
        said = (errors or lines or ["(it printed nothing)"])[-1][:300]
        said = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in said)
        return f"exit status {self.proc.returncode}: {said}"

    def inject(self, line: str) -> None:
        """A line into UART0 beside the pty's own writer (the course's interface on the same wire)."""
        os.write(self._to_runner, line.encode("ascii") + b"\n")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(STOP_WAIT)
        for f in (self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass
        for fd in (self._to_runner, self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> "PtyBoard":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
