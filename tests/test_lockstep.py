"""The lockstep: the real host firmware in real time on a pseudo-terminal (and
the MIPS build under qemu-mipsel), `boidsgen watch` as a user runs it, and
commands sent mid-run by a second writer on the same port - the mirror must
stay in step through every one of them, adaptive spawn included, and name
the first frame, boid and field of a divergence made on purpose."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import zlib

import pytest
import serial

from codegen.drivers.host_build import make
from codegen.spec.project import build_dir, output_dir
from pysim.digest import digest, digest_text
from pysim.board.lockstep import Mirror

from .conftest import DEFAULT_SPEC, ROOT, RUNTIME_INCLUDES, compile_c, require_tool
from .deadline import Deadline, read_line, reap, terminate
from .test_serial_pty import SPEED, WAIT, Host, Link

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: watch beside boards in real time

WATCH_LIMIT = 90.0  # seconds a watch run may take before the test calls it hung (never a speed check)


@pytest.fixture(scope="module")
def built(default_build):
    return default_build


def watch(port: str, *args: str, spec: str = DEFAULT_SPEC, limit: float = WATCH_LIMIT):
    """`boidsgen watch PORT ...` as a user runs it; (exit status, output)."""
    res = subprocess.run([sys.executable, "-m", "codegen.commands.cli", "watch", port, "--spec", spec, *args],
                         capture_output=True, text=True, timeout=limit, cwd=ROOT)
    return res.returncode, res.stdout + res.stderr


class Writer:
    """A second program on the same port that only writes (a course GUI, a
    script): lines at given times, on its own thread."""

    def __init__(self, path: str, schedule: list[tuple[float, bytes]], speed: int = SPEED) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_NOCTTY)
        self.schedule = schedule  # times in the board's seconds: its clock runs `speed` times as fast
        self.speed = speed
        self.sent: list[bytes] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        t0 = time.monotonic()
        for at, data in self.schedule:
            time.sleep(max(0.0, t0 + at / self.speed - time.monotonic()))
            os.write(self.fd, data)
            self.sent.append(data)

    def close(self) -> None:
        self.thread.join(timeout=WATCH_LIMIT)
        os.close(self.fd)


def course_lines(model) -> list[bytes]:
    """The course interface's bytes for some of the controls the spec maps:
    a button press and release, a toggle both ways in both spellings."""
    from pysim.board.course import course_bytes

    controls = {(c[0], c[1]) for c in model.COURSE_CONTROLS}
    buttons = sorted(i for k, i in controls if k == "b")
    toggles = sorted(i for k, i in controls if k == "t")
    assert buttons and toggles, "the default spec maps course buttons and toggles"
    out = [course_bytes("b", buttons[-1], 1), course_bytes("b", buttons[-1], 0)]
    for t in toggles:
        out += [course_bytes("t", t, 1, spelling="True"), course_bytes("t", t, 0, spelling="False"),
                course_bytes("t", t, 1), course_bytes("t", t, 0)]
    return out


def test_in_step_600_frames_through_every_kind_of_change(built):
    """Parameter sets (both forms), boids N and +N/-N, reset with a seed,
    pause/resume, the course interface's buttons, toggles and `$` text, with
    adaptive spawn on: the mirror follows every one, 600 frames in step."""
    _, exe, model = built
    host = Host(exe, speed=SPEED)
    try:
        cl = [(4.0 + 0.7 * k, line) for k, line in enumerate(course_lines(model))]
        rc, out, w = watch_while_writing(host.path, [
            (1.0, b"boids 60\r"), (1.2, b"adaptive on\r"), (2.0, b"set visual_range 35\n"),
            (2.5, b"s 3 0.001000\r"), (3.0, b"boids +7\r\n"), (3.5, b"reset 99\r"),
            *cl,
            (12.0, b"$set matching_factor 0.07\r"), (12.5, b"pause\r"), (13.5, b"resume\r"),
            (14.0, b"boids -3\r"), (14.5, b"boids 60\r"), (15.0, b"adaptive on\r"),
        ], "--frames", "600")
    finally:
        host.stop()
    assert rc == 0, out
    assert out.strip().splitlines()[-1].startswith("watch: 600 frames in step;"), out  # exactly N, not N+1
    summary = out.strip().splitlines()[-1]
    print(summary)
    # every kind of change reached the mirror: not a quiet run that proves nothing
    for kind in ("set ", "boids/command", "boids/adaptive", "reset", "pause", "resume"):
        assert kind in summary, summary
    assert len(w.sent) == len(w.schedule)


@pytest.mark.parametrize("spec", ["obstacles", "vector_forces"])
def test_in_step_with_obstacle_and_target_commands(spec):
    """The world's run-time state: obstacle add/remove/clear, target moves."""
    from codegen.commands.parity import prepare

    path = str(ROOT / "spec" / f"{spec}.yaml")
    m, exe, model = prepare(path)
    host = Host(exe, speed=SPEED)
    lines = [b"obstacle add 100 100 20\r", b"obstacle add 200 50 10\r", b"obstacle remove 0\r",
             b"obstacle clear\r", b"obstacle add 150 120 30\r"] if m.spec.obstacles else []
    lines += [b"target 100 80\r", b"target off\r", b"target on\r"] if m.spec.target else []
    assert lines
    try:
        rc, out, _ = watch_while_writing(host.path, [(0.2 + 0.6 * k, line) for k, line in enumerate(lines)],
                                         "--frames", "240", spec=path)
    finally:
        host.stop()
    assert rc == 0, out
    assert "state" in out.strip().splitlines()[-1], out


def test_in_step_with_the_mipsel_build_under_qemu(built):
    """The same firmware for the PIC32's instruction set, 32-bit little-endian
    MIPS, under qemu-mipsel on a pty: 150 frames in step."""
    require_tool("mipsel-linux-gnu-gcc")
    qemu = require_tool("qemu-mipsel")
    m = built[0]
    bdir = build_dir(DEFAULT_SPEC, m.name)
    make(output_dir(DEFAULT_SPEC, m.name) / "firmware", "host-mipsel", bdir)
    proc = subprocess.Popen([qemu, str(bdir / "boids_host_mipsel"), "--pty", "--speed", str(SPEED)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = read_line(proc.stdout, 20.0, "'pty: ...' from the mipsel build")
        assert first.startswith("pty: /dev/"), first
        rc, out, _ = watch_while_writing(first.split(":", 1)[1].strip(),
                                         [(0.5, b"set visual_range 30\r"), (1.5, b"boids 80\r")], "--frames", "150")
    finally:
        terminate(proc, "qemu-mipsel boids_host_mipsel")
        proc.stdout.close()
        proc.stderr.close()
    assert rc == 0, out
    assert out.strip().splitlines()[-1].startswith("watch: 150 frames in step;"), out


def test_a_divergence_is_pinned_to_its_frame_boid_and_field(built):
    """After frame 120 the host secretly moves boid 0 by one raw unit in x
    (`--perturb`): watch stops at frame 121 and names boid 0's x, with the
    board's and the simulator's values, and exits 1."""
    _, exe, _ = built
    host = Host(exe, "--perturb", "120", speed=SPEED)
    try:
        rc, out = watch(host.path, "--frames", "1000")
        assert_running_with_watch_off(host.path)  # explained (paused, dumped), then resumed; watch off
    finally:
        host.stop()
    assert rc == 1, out
    assert "diverged at frame 121: boid 0 field x (board " in out, out
    assert ", simulator " in out


def test_watch_refuses_a_board_running_another_spec(built):
    _, exe, model = built
    host = Host(exe, speed=SPEED)
    try:
        rc, out = watch(host.path, "--frames", "10", spec=str(ROOT / "spec" / "obstacles.yaml"))
    finally:
        host.stop()
    assert rc == 2, out
    assert f"hash {model.SPEC_HASH}" in out and "regenerate and reflash" in out, out


def test_the_digest_is_zlibs_crc32_over_the_state(built, tmp_path):
    """The board's `fr` digest of a paused frame equals pysim/digest.py's over
    the state the board dumps (the mirror adopts it), and the C CRC-32 equals
    zlib's on edge inputs."""
    m, exe, model = built
    host = Host(exe, speed=SPEED)
    link = Link(host.path)
    try:
        link.ask("watch on")
        link.ask("pause")
        link.write(b"dump\n")
        rows = link.until("ok dump")
        fr = [ln for ln in rows if ln.startswith("fr ")]
        dump = [ln for ln in rows if ln[:1].isdigit()]
        frame = int(rows[-1].split("frame=")[1].split()[0])
        link.write(b"watch on\n")  # `watch on` sends where the board is now: the paused frame's digest
        got = link.until("fr ")
        board = got[-1].split()
        assert int(board[1]) == frame
        mirror = Mirror(model)
        mirror.adopt(dump)
        assert digest_text(digest(mirror.sim)) == board[2], (fr, board)
    finally:
        link.close()
        host.stop()
    # the C CRC on edge inputs, against zlib
    gen = output_dir(DEFAULT_SPEC, m.name) / "firmware"
    drv = tmp_path / "crc_driver.c"
    drv.write_text('#include <stdio.h>\n#include <string.h>\n#include "state_io.h"\n'
                   "int main(int argc, char **argv) {\n"
                   "    for (int i = 1; i < argc; i++) {\n"
                   "        unsigned char b[256]; size_t n = strlen(argv[i]) / 2;\n"
                   "        for (size_t k = 0; k < n; k++) { unsigned v; sscanf(argv[i] + 2 * k, \"%2x\", &v); "
                   "b[k] = (unsigned char)v; }\n"
                   "        printf(\"%08lx\\n\", (unsigned long)crc32_update(0, b, n));\n    }\n    return 0;\n}\n")
    exe_crc = compile_c([drv, ROOT / "firmware_runtime" / "core" / "state_io.c", ROOT / "firmware_runtime" / "core" / "fxdecimal.c",
                         gen / "boids_flock.c", gen / "boids_params.c"], tmp_path / "crc",
                        includes=[gen, *RUNTIME_INCLUDES], extra=["-lm"])
    cases = [b"", b"\x00", b"\xff", b"\xff" * 4, b"123456789", bytes(range(256))[:200], b"\x80\x00\x00\x01"]
    res = subprocess.run([str(exe_crc), *[c.hex() or "" for c in cases]], capture_output=True, text=True,
                         timeout=WAIT)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == [f"{zlib.crc32(c):08x}" for c in cases]
    assert f"{zlib.crc32(b'123456789'):08x}" == "cbf43926"  # the CRC-32 check value


def test_stamps_name_the_first_frame_a_change_takes_effect_in(built):
    """While paused at frame K, a change is stamped K + 1 in its reply and in
    its `ev` line, and a reset is stamped 0."""
    _, exe, _ = built
    host = Host(exe, speed=SPEED)
    link = Link(host.path)
    try:
        link.ask("pause")
        k = int(link.ask("stats")[-1].split("frames=")[1].split()[0])
        link.ask("watch on")
        link.write(b"set visual_range 33\n")
        lines = link.until("ok visual_range")
        ev = [ln for ln in lines if ln.startswith("ev set ")]
        assert ev == [f"ev set visual_range {33 << 15} frame={k + 1}"], lines
        assert lines[-1].endswith(f" frame={k + 1}")
        link.write(b"reset 5\n")
        lines = link.until("ok reset")
        assert "ev reset 5 100 frame=0" in lines and lines[-1] == "ok reset seed=5 boids=100 frame=0", lines
        assert any(ln.startswith("fr 0 ") for ln in lines), lines
        link.write(b"dump 7\n")
        assert link.until("err ")[-1].startswith("err dump: the board holds only its current frame")
    finally:
        link.close()
        host.stop()


def test_adopting_the_boards_state_instead_of_a_reset(built):
    """`--adopt`: no reset; the mirror takes the paused board's dump (boids,
    PRNG, frame) and follows on from there, through a change."""
    _, exe, _ = built
    host = Host(exe, "--seed", "4242", speed=SPEED)
    try:
        rc, out, _ = watch_while_writing(host.path, [(0.5, b"set visual_range 28\r"), (1.0, b"boids 90\r")],
                                         "--adopt", "--frames", "120")
    finally:
        host.stop()
    assert rc == 0, out
    assert "adopted the board's state at frame " in out and "reset" not in out.split("events applied:")[1], out


# ---- issue 32: watch ends, and leaves the board as it found it ----

def board_state(path: str) -> tuple[dict[str, int], str]:
    """(the board's stats, its reply to a bare `watch`) from a fresh connection."""
    link = Link(path)
    try:
        link.write(b"\x15info\n")
        link.until("ok info ")
        stats = dict(w.split("=") for w in link.ask("stats")[-1].split()[2:])
        return {k: int(v) for k, v in stats.items()}, link.ask("watch")[-1]
    finally:
        link.close()


def assert_running_with_watch_off(path: str) -> None:
    stats, watching = board_state(path)
    assert stats["paused"] == 0 and watching.startswith("ok watch off"), (stats, watching)


# `boidsgen watch` with Ctrl-C as a terminal gives it. A child inherits its
# parent's SIGINT: ignored or blocked there (by something earlier in the
# suite's process), Python leaves it so, and the Ctrl-C test's SIGINT was
# lost (watch still following, its stacks showed: two full-suite runs).
AS_FROM_A_TERMINAL = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                      "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
                      "sys.argv[0] = 'boidsgen'; runpy.run_module('codegen.commands.cli', run_name='__main__', alter_sys=True)")


def watch_proc(port: str, *args: str, spec: str = DEFAULT_SPEC) -> subprocess.Popen:
    """`boidsgen watch` started, once its status says it is in step (stdout line by line, unbuffered)."""
    proc = subprocess.Popen([sys.executable, "-u", "-c", AS_FROM_A_TERMINAL, "watch", port, "--spec", spec, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"})  # SIGABRT: every thread's stack
    deadline = Deadline(WATCH_LIMIT, "'in step' status line from watch")
    seen: list[str] = []
    while not (seen and re.match(r"in step: [1-9]", seen[-1])):
        deadline.check(seen[-3:])
        seen.append(read_line(proc.stdout, WATCH_LIMIT, "a status line from watch"))
        assert seen[-1], f"watch ended early: {seen} {proc.stderr.read()}"
    proc.seen = "".join(seen)  # what it printed up to then (the sync line: reset or adopted)
    return proc


def ended(proc: subprocess.Popen, seconds: float) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of a watch expected to end within `seconds`."""
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)  # faulthandler (watch_proc) prints where each thread waits
        try:
            _, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate(timeout=5)
        raise AssertionError(f"watch still running {seconds} s after it should have ended; its threads:\n"
                             f"{err[-3000:]}") from None
    return proc.returncode, out, err


def watch_while_writing(port: str, schedule: list[tuple[float, bytes]], *args: str,
                        spec: str = DEFAULT_SPEC, speed: int = SPEED) -> tuple[int, str, "Writer"]:
    """`boidsgen watch PORT ARGS` with a second program writing `schedule`,
    its times counted from the moment watch is in step: a change sent before
    watch had switched the board's watch on would reach no mirror (on a loaded
    machine watch's start-up takes seconds). (exit status, output, writer)."""
    proc = watch_proc(port, *args, spec=spec)
    w = Writer(port, schedule, speed)
    try:
        rc, out, err = ended(proc, WATCH_LIMIT)
    finally:
        w.close()
    return rc, proc.seen + out + err, w


def one_line_reason(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("boidsgen watch: ") and "Traceback" not in err, err
    return lines[0]


def test_the_host_board_killed_mid_watch_ends_it_within_the_timeout(built):
    """Was: `no frame from the board for 5 s`, every 5 s, for ever."""
    _, exe, _ = built
    host = Host(exe, speed=SPEED)
    proc = watch_proc(host.path, "--timeout", "1")
    host.proc.kill()
    reap(host.proc, "boids_host --pty")
    host.proc.stdout.close()
    host.proc.stderr.close()
    rc, out, err = ended(proc, 5.0)
    assert rc == 2 and "port failed" in one_line_reason(err), (out, err)


def test_watch_switched_off_by_another_program_ends_it(built):
    """Another program on the port sends `watch off` (as after a reset of the
    board): the stream stops, `stats` shows the board running on, exit 2."""
    _, exe, _ = built
    host = Host(exe, speed=SPEED)
    try:
        proc = watch_proc(host.path, "--timeout", "1")
        w = Writer(host.path, [(0.0, b"watch off\r")])
        try:
            rc, out, err = ended(proc, 10.0)
        finally:
            w.close()
        assert rc == 2 and "its watch is off" in one_line_reason(err), (out, err)
        assert_running_with_watch_off(host.path)
    finally:
        host.stop()


def test_an_interrupt_leaves_the_board_running_with_watch_off(built):
    _, exe, _ = built
    host = Host(exe, speed=SPEED)
    try:
        proc = watch_proc(host.path)
        proc.send_signal(signal.SIGINT)
        rc, out, _ = ended(proc, 10.0)
        assert rc == 130 and "watch: interrupted" in out, out
        assert_running_with_watch_off(host.path)
    finally:
        host.stop()


def test_every_k_names_the_frames_between_then_the_first_by_replay(built):
    """--every 10 and a divergence made at frame 128: the digests of 120 and
    130 bracket it ("between frames 121 and 130"; was "frame 130"); the board
    is reset again and replayed with a digest every frame up to 130, which
    names frame 128 and the boid and field; then the board runs, watch off."""
    _, exe, _ = built
    host = Host(exe, "--perturb", "127", speed=SPEED)
    try:
        rc, out = watch(host.path, "--every", "10", "--frames", "1000")
        assert rc == 1, out
        assert "watch: diverged between frames 121 and 130: boid 0 field x (board " in out, out
        assert "watch: replay: diverged at frame 128: boid 0 field x (board " in out, out
        assert_running_with_watch_off(host.path)
    finally:
        host.stop()


def test_a_board_reset_mid_watch_ends_it(built):
    """A BREAK restarts the host firmware as MCLR restarts the board (same
    pty; watch off, frames from 0): watch sees the board behind its last
    digest, or running without digests, and ends (exit 2), never waiting."""
    _, exe, _ = built
    host = Host(exe, speed=SPEED)
    try:
        proc = watch_proc(host.path, "--timeout", "1")
        w = Writer(host.path, [(0.0, b"\xff\x00\x00")])  # a BREAK as a Linux serial port reports it (PARMRK)
        try:
            rc, out, err = ended(proc, 10.0)
        finally:
            w.close()
        why = one_line_reason(err)
        assert rc == 2 and ("it restarted" in why or "its watch is off" in why), (out, err)
        assert_running_with_watch_off(host.path)
    finally:
        host.stop()
