"""The serial protocol end to end: the real host firmware (`boids_host --pty`)
running in real time, a real pseudo-terminal, real pyserial. Every command,
every error path (and nothing changed by it), garbage, NULs, overlong lines,
lines split over many writes, many lines in one write, reconnects,
telemetry, and a person typing in miniterm."""
from __future__ import annotations

import os
import random
import re
import select
import subprocess
import sys
import time

import pytest
import serial

from pysim.fxdecimal import parse

from .deadline import Deadline, read_line, read_rest, reap, terminate
from .conftest import DEFAULT_CAPACITY
from .stamps import unstamp

WAIT = 5.0  # seconds to wait for a reply before calling it missing (never a speed check)


# The board's clock in tests that check what the board does, not its pace (boids_host --speed):
# frames come this many times as often as the spec's 30 fps.
SPEED = 4


class Host:
    """boids_host --pty in real time (speed: its clock that many times as fast); `path` is its serial port."""

    def __init__(self, exe, *args: str, speed: int = 1) -> None:
        fast = ["--speed", str(speed)] if speed != 1 else []
        self.proc = subprocess.Popen([str(exe), "--pty", *fast, *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        try:
            first = read_line(self.proc.stdout, WAIT, "'pty: /dev/...' line from boids_host --pty")
            assert first.startswith("pty: /dev/"), (first, read_rest(self.proc.stderr)
                                                    if self.proc.poll() is not None else "")
        except BaseException:
            self.proc.kill()
            reap(self.proc, "boids_host --pty")
            raise
        self.path = first.split(":", 1)[1].strip()

    def stop(self) -> None:
        rc = terminate(self.proc, "boids_host --pty")
        err = read_rest(self.proc.stderr) if rc != 0 else ""
        self.proc.stdout.close()
        self.proc.stderr.close()
        assert rc == 0, err


@pytest.fixture
def exe(default_build):
    return default_build[1]


@pytest.fixture
def model(default_build):
    return default_build[2]


@pytest.fixture
def host(exe):
    h = Host(exe)
    yield h
    h.stop()


class Link:
    """A raw pyserial connection that collects reply lines (telemetry aside)."""

    def __init__(self, path: str) -> None:
        # write_timeout: a board that stops reading fails the write, never blocks it
        self.ser = serial.Serial(path, 115200, timeout=0.05, write_timeout=WAIT)
        self.path = path
        self.buf = b""
        self.telemetry: list[str] = []

    def close(self) -> None:
        self.ser.close()

    def write(self, data: bytes) -> None:
        try:
            self.ser.write(data)
        except serial.SerialTimeoutException:
            raise AssertionError(f"could not write {len(data)} bytes to {self.path} within {WAIT} s "
                                 "(the board stopped reading)") from None

    def line(self) -> str:
        deadline = time.monotonic() + WAIT
        while b"\n" not in self.buf:
            if time.monotonic() > deadline:
                raise AssertionError(f"no reply line; got so far {self.buf!r}")
            self.buf += self.ser.read(max(1, self.ser.in_waiting))
        raw, self.buf = self.buf.split(b"\n", 1)
        return raw.decode("ascii")

    def replies(self, n: int) -> list[str]:
        """Lines up to and including the n-th final (ok/err) line; telemetry set
        aside. Each reply must come within WAIT, telemetry or not (a lost reply
        fails: the per-second telemetry lines do not keep the wait alive)."""
        out: list[str] = []
        deadline = Deadline(WAIT, "ok/err reply line")
        while n:
            deadline.check(f"got so far {out}, telemetry {self.telemetry[-3:]}")
            ln = self.line()
            if ln.startswith("tm "):
                self.telemetry.append(ln)
                continue
            out.append(unstamp(ln))
            if ln.startswith("ok") or ln.startswith("err "):
                n -= 1
                deadline = Deadline(WAIT, "ok/err reply line")
        return out

    def until(self, prefix: str, seconds: float = WAIT) -> list[str]:
        """Every line up to and including the first one starting with `prefix`
        (what an earlier session left in flight, telemetry), within `seconds`."""
        seen: list[str] = []
        deadline = Deadline(seconds, f"line starting {prefix!r}")
        while not (seen and seen[-1].startswith(prefix)):
            deadline.check(f"{len(seen)} other lines, the last {seen[-3:]}")
            seen.append(self.line())
        return seen

    def ask(self, line: str) -> list[str]:
        self.write(line.encode() + b"\n")
        return self.replies(1)

    def one(self, line: str) -> str:
        out = self.ask(line)
        assert len(out) == 1, out
        return out[0]

    def params(self) -> list[str]:
        out = self.ask("list")
        assert out[-1].startswith("ok list "), out
        return out[:-1]


@pytest.fixture
def link(host):
    ln = Link(host.path)
    yield ln
    ln.close()


# ---- every command ----

def test_set_get_s_roundtrip(link):
    assert link.one("set visual_range 40") == "ok visual_range=40 raw=1310720"
    assert link.one("get visual_range") == "ok visual_range=40 raw=1310720"
    assert link.one("s 1 35.5") == "ok visual_range=35.5 raw=1163264"
    assert link.one("set centering_factor 0.0005") == "ok centering_factor=0.000488 raw=16"
    assert link.one("set\tmax_speed\t 4 ") == "ok max_speed=4 raw=131072"


def test_list_info_help(link, model):
    lines = link.params()
    assert len(lines) == len(model.PARAMS)
    for p, ln in zip(model.PARAMS, lines):
        assert ln.startswith(f"param {p.name}=") and f" raw={p.default_raw} " in ln
        assert f" id={p.id} tunable={int(p.tunable)} type={p.type} " in ln
    assert link.one("info") == (f"ok info spec={model.SPEC_NAME} hash={model.SPEC_HASH} format={model.FORMAT} "
                                f"fw={model.TOOL_VERSION} capacity={model.CAPACITY} update={model.UPDATE_ORDER} "
                                f"fps={model.FRAME_RATE}")
    # help is the generated command table, the same the model (and the README) has
    assert link.ask("help") == [f"cmd {usage} - {text}" for _, usage, text, _ in model.COMMANDS] + \
        [f"ok help {len(model.COMMANDS)}"]


def stats(link) -> dict[str, int]:
    words = link.one("stats").split()
    assert words[:2] == ["ok", "stats"]
    return {k: int(v) for k, v in (w.split("=") for w in words[2:])}


def test_stats_pause_resume_and_the_flock_runs(link, model):
    s1 = stats(link)
    assert set(s1) == {"time", "boids", "fps", "frame_ms", "period_ms", "frames", "paused"}
    assert s1["boids"] == model.FLOCK_SIZE and s1["period_ms"] == round(1000 / model.FRAME_RATE)
    deadline = time.monotonic() + WAIT
    while stats(link)["frames"] <= s1["frames"]:  # frames advance in real time
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert link.one("pause") == "ok pause"
    frozen = stats(link)
    assert frozen["paused"] == 1
    time.sleep(0.2)
    assert stats(link)["frames"] == frozen["frames"]
    assert link.one("resume") == "ok resume"
    assert stats(link)["paused"] == 0


def test_boids_and_reset(link, model):
    assert link.one("boids 40") == "ok boids=40"
    assert stats(link)["boids"] == 40
    assert link.one("reset 7") == "ok reset seed=7 boids=40"  # keeps the size asked for
    assert link.one("reset") == "ok reset seed=7 boids=40"    # keeps the seed too
    assert link.one("reset 4294967295") == "ok reset seed=4294967295 boids=40"
    assert link.one(f"boids {model.CAPACITY}") == f"ok boids={model.CAPACITY}"
    assert link.one("boids 0") == "ok boids=0"
    assert stats(link)["boids"] == 0


def test_telemetry_streams_between_replies(link):
    assert link.one("telemetry") == "ok telemetry off"
    assert link.one("telemetry on") == "ok telemetry on"
    deadline = time.monotonic() + WAIT
    n = 0
    while len(link.telemetry) < 2:  # two per-second lines, with commands all along
        assert time.monotonic() < deadline, link.telemetry
        assert link.one("get max_speed") == "ok max_speed=3 raw=98304"
        n += 1
        time.sleep(0.02)
    for tm in link.telemetry:
        words = tm.split()
        fields = dict(w.split("=") for w in words[1:])
        assert words[0] == "tm" and {"time", "boids", "fps", "frame_ms", "frames", "paused"} <= set(fields)
        assert all(v.isdigit() for v in fields.values())
    assert link.one("telemetry off") == "ok telemetry off"


def test_echo_for_a_terminal_without_local_echo(link):
    assert link.one("echo on") == "ok echo on"
    link.write(b"get vis\x7fs\x08\x08isual_range\r")
    # the typed text (with "\b \b" for each erase), CRLF, then the reply
    assert link.line() == "get vis\b \bs\b \b\b \bisual_range\r"
    assert link.line() == "ok visual_range=20 raw=655360"
    link.write(b"echo off\r\n")
    assert link.line() == "echo off\r"
    assert link.line() == "ok echo off"


# ---- every error path, and nothing changes ----

LONG_FRACTION = "0." + "1" * 41

ERRORS = [
    ("set visual_range 400", "err visual_range: 400 outside [0, 200]"),
    ("set visual_range -0.001", "err visual_range: -0.001 outside [0, 200]"),
    ("set visual_range abc", "err visual_range: 'abc' not a decimal number"),
    ("set visual_range 1e3", "err visual_range: '1e3' not a decimal number"),
    ("set visual_range .", "err visual_range: '.' no number"),
    ("set visual_range -", "err visual_range: '-' no number"),
    (f"set visual_range {LONG_FRACTION}", f"err visual_range: '{LONG_FRACTION}' too many digits"),
    ("set visual_range 99999999999", "err visual_range: '99999999999' out of fixed-point range"),
    ("set avoid_factor 0.001", "err avoid_factor: 0.001 outside [0.01, 1]"),
    ("set visual_range", "err usage: set NAME VALUE"),
    ("set", "err usage: set NAME VALUE"),
    ("set a b c d", "err too many words"),
    ("set nope 1", "err unknown parameter 'nope' (try: list)"),
    ("s 99 1", "err s: no parameter has that id"),
    ("s x 1", "err s: ID must be a whole number"),
    ("s 1", "err usage: s ID VALUE"),
    ("s 1 400", "err visual_range: 400 outside [0, 200]"),
    ("get", "err usage: get NAME"),
    ("get nope", "err unknown parameter 'nope' (try: list)"),
    ("get visual_range x", "err too many words"),
    ("list all", "err too many words"),
    ("info x", "err too many words"),
    ("stats x", "err too many words"),
    ("help me", "err too many words"),
    ("pause now", "err too many words"),
    ("resume now", "err too many words"),
    ("reset -1", "err reset: SEED must be a whole number in [0, 4294967295]"),
    ("reset 4294967296", "err reset: SEED must be a whole number in [0, 4294967295]"),
    ("reset 1 2", "err too many words"),
    (f"boids {DEFAULT_CAPACITY + 1}", f"err boids: {DEFAULT_CAPACITY + 1} outside [0, {DEFAULT_CAPACITY}]"),
    (f"boids {DEFAULT_CAPACITY + 1}", f"err boids: {DEFAULT_CAPACITY + 1} outside [0, {DEFAULT_CAPACITY}]"),
    ("boids -", "err boids: N must be a whole number"),
    ("boids many", "err boids: N must be a whole number"),
    ("boids", "err usage: boids N|+N|-N"),
    ("telemetry maybe", "err telemetry: say on or off"),
    ("telemetry on now", "err too many words"),
    ("echo loud", "err echo: say on or off"),
    ("frobnicate", "err unknown command 'frobnicate' (try: help)"),
    ("SET visual_range 40", "err unknown command 'SET' (try: help)"),
]


@pytest.mark.parametrize("cmd, reply", ERRORS, ids=[c for c, _ in ERRORS])
def test_errors_say_why_and_change_nothing(link, cmd, reply):
    before = link.params()
    s_before = stats(link)
    assert link.ask(cmd) == [reply]
    assert link.params() == before
    s_after = stats(link)
    assert (s_after["boids"], s_after["paused"]) == (s_before["boids"], s_before["paused"])


def test_line_level_errors_change_nothing(link, model):
    before = link.params()
    limit = model.LINE_MAX - 1
    link.write(b"set visual_range 4" + b"0" * 100 + b"\n")
    assert link.replies(1) == [f"err line too long (max {limit} characters)"]
    # erasing after the limit does not bring the line back: rejected whole
    link.write(b"set visual_range 4" + b"0" * 60 + b"\x08" * 60 + b"\n")
    assert link.replies(1) == [f"err line too long (max {limit} characters)"]
    link.write(b"set visual_range " + b"1" * (limit - 17) + b"\n")  # exactly the limit: accepted, out of range
    assert link.replies(1) == [f"err visual_range: '{'1' * (limit - 17)}' out of fixed-point range"]
    link.write(b"set visual_ra\x00nge 40\n")
    assert link.replies(1) == ["err line has a control or non-ASCII byte"]
    link.write(b"set visual_range 4\xc3\xa90\n")
    assert link.replies(1) == ["err line has a control or non-ASCII byte"]
    link.write(b"\x1b[Aset visual_range 40\r")  # an arrow key
    assert link.replies(1) == ["err line has a control or non-ASCII byte"]
    assert link.params() == before


# ---- bytes, line endings, framing ----

def test_line_endings_cr_lf_crlf_lfcr_and_blank_lines(link):
    link.write(b"get max_speed\rget max_speed\nget max_speed\r\nget max_speed\n\r\n\n   \t \r\r\ninfo\n")
    out = link.replies(5)
    assert out[:4] == ["ok max_speed=3 raw=98304"] * 4
    assert out[4].startswith("ok info ")  # blank lines got no reply


def test_backspace_delete_and_line_kill(link):
    link.write(b"get max_sp\x08\x08speed\n")
    link.write(b"get maxx\x7f_speed\r\n")
    link.write(b"set visual_range 150\x15get max_speed\n")  # Ctrl-U drops the half-typed set
    link.write(b"reset\x03get max_speed\n")                 # so does Ctrl-C
    assert link.replies(4) == ["ok max_speed=3 raw=98304"] * 4
    assert link.one("get visual_range") == "ok visual_range=20 raw=655360"


def test_a_line_split_over_many_writes(link):
    for b in b"set visual_range 42.25\r\n":
        link.write(bytes([b]))
        time.sleep(0.003)
    assert link.replies(1) == [f"ok visual_range=42.25 raw={parse('42.25', 15)}"]


def test_many_commands_in_one_write(link):
    values = [f"{i}.5" for i in range(60)]
    link.write("".join(f"set left_margin {v}\r\n" for v in values).encode() + b"list\n")
    out = link.replies(len(values) + 1)
    assert out[: len(values)] == [f"ok left_margin={v} raw={parse(v, 15)}" for v in values]
    assert out[-1] == "ok list 12"


def test_garbage_bytes_then_the_link_still_works(link):
    rng = random.Random(4760)
    before = link.params()
    for _ in range(20):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        link.write(junk)
    link.write(b"\n\x15")
    # whatever the junk held, every line that came back is a well-formed reply
    link.write(b"info\n")
    for ln in link.until("ok info "):
        assert ln.startswith(("ok", "err ", "param ", "tm ")), ln
        assert all(32 <= ord(c) < 127 for c in ln), ln
    assert link.params() == before


def test_nul_bytes_alone_and_within_lines(link):
    link.write(b"\x00\x00\x00\n")
    assert link.replies(1) == ["err line has a control or non-ASCII byte"]
    link.write(b"\x00" * 500 + b"\n")  # overlong and bad: the length is reported
    assert link.replies(1)[0].startswith("err line")
    assert link.one("get max_speed") == "ok max_speed=3 raw=98304"


# ---- sessions ----

def test_disconnect_and_reconnect_keep_working(host):
    a = Link(host.path)
    assert a.one("set visual_range 30") == "ok visual_range=30 raw=983040"
    a.write(b"set visual_ran")  # half a line, then gone
    a.close()
    for i in range(3):
        b = Link(host.path)
        # what BoardClient does on connect: kill any half line, ask info, and
        # skip what the last session left in flight until the info line
        b.write(b"\x15info\n")
        b.until("ok info ")
        assert b.one("get visual_range") == "ok visual_range=30 raw=983040"
        b.write(b"get max_speed\n")  # left unread: the next session must not see it
        b.close()
    c = Link(host.path)
    c.write(b"\x15info\n")
    c.until("ok info ")
    assert c.one("get visual_range") == "ok visual_range=30 raw=983040"
    c.close()


def test_a_client_that_stops_reading_does_not_stall_the_flock(exe):
    """Replies nobody reads are dropped once the pty is full (as a UART would
    send them to nobody): the flock keeps running and the next client is
    served, starting on a fresh line."""
    h = Host(exe)
    try:
        a = Link(h.path)
        a.one("telemetry on")
        a.write(b"list\n" * 3000)  # ~4 MB of replies, never read
        time.sleep(1.0)
        a.close()
        b = Link(h.path)
        b.write(b"\x15info\n")
        b.until("ok info ")  # skip what was still in flight
        s1 = stats(b)
        time.sleep(0.2)
        assert stats(b)["frames"] > s1["frames"]
        assert b.one("telemetry off") == "ok telemetry off"
        b.close()
    finally:
        h.stop()


def _read_for(fd: int, seconds: float) -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out


@pytest.mark.parametrize("eol", ["CRLF", "CR", "LF"])
def test_a_person_typing_in_miniterm(host, eol):
    """miniterm on a terminal of its own (a second pty): keys typed one at a
    time, a typo erased with Backspace, Enter; the reply shows on the screen."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "serial.tools.miniterm", "--eol", eol, "-q", host.path, "115200"],
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    try:
        _read_for(master, 0.5)  # miniterm starting up
        for ch in b"set visual_range 4\x7f41\r":
            os.write(master, bytes([ch]))
            time.sleep(0.005)
        screen = b""
        deadline = time.monotonic() + WAIT
        while b"ok visual_range=41" not in screen and time.monotonic() < deadline:
            screen += _read_for(master, 0.1)
        assert re.search(rb"ok visual_range=41 raw=1343488 frame=\d+\r\n", screen), screen
        assert b"\n\n" not in screen.replace(b"\r", b"")  # no doubled line ends
    finally:
        os.write(master, b"\x1d")  # Ctrl-] quits miniterm
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            reap(proc, "miniterm")
        os.close(master)
