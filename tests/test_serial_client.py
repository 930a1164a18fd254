"""pysim.board.serial_client.BoardClient against the real host firmware on a pty:
typed setters for every tunable parameter, errors with the board's reasons,
telemetry routed apart from replies; and, on pty pairs of our own, a board
that never answers (timeouts) and one that runs another spec (warning)."""
from __future__ import annotations

import fcntl
import os
import threading
import time
import tty
import warnings
from decimal import Decimal

import pytest

from pysim.fxdecimal import parse
from pysim.board.serial_client import BoardClient, BoardError, BoardTimeout, SpecMismatchWarning, value_text

from .conftest import DEFAULT_CAPACITY
from .deadline import Deadline
from .test_serial_pty import WAIT, Host, exe, host, model  # noqa: F401  (fixtures)


@pytest.fixture
def board(host, model):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the real firmware matches the model: no warning
        c = BoardClient(host.path, model, timeout=5.0)
    yield c
    c.close()


def test_info_on_connect(board, model):
    assert board.info == {"spec": model.SPEC_NAME, "hash": model.SPEC_HASH, "format": model.FORMAT,
                          "fw": model.TOOL_VERSION, "capacity": model.CAPACITY, "update": model.UPDATE_ORDER,
                          "fps": model.FRAME_RATE}


def test_a_typed_setter_for_every_tunable_parameter(board, model):
    scale = 1 << model.FRAC_BITS
    for p in model.PARAMS:
        setter = getattr(board, f"set_{p.name}")
        assert p.description in setter.__doc__
        want = p.max_raw if p.type == "int" else p.max_raw / scale
        assert setter(want if p.type == "int" else p.max) == want
        assert board.get(p.name) == want
        assert board.set(p.name, p.default) == (p.default_raw if p.type == "int" else p.default_raw / scale)


def test_set_takes_numbers_and_text_and_returns_what_the_board_holds(board):
    assert board.set_visual_range(40.0) == 40.0
    assert board.set_visual_range(41) == 41.0
    assert board.set("visual_range", "42.5") == 42.5
    assert board.set("visual_range", Decimal("43.25")) == 43.25
    # 1e-3 goes out as 0.001 (the board has no exponents) and comes back rounded to 2^-15
    assert board.set_centering_factor(1e-3) == parse("0.001", 15) / 2**15
    assert value_text(1e-05) == "0.00001" and value_text(7) == "7"
    with pytest.raises(TypeError):
        board.set("visual_range", True)


def test_params_stats_count_reset_pause(board, model):
    ps = board.params()
    assert list(ps) == [p.name for p in model.PARAMS]
    for p in model.PARAMS:
        d = ps[p.name]
        assert (d["raw"], d["id"], d["tunable"], d["type"], d["unit"]) == (
            p.default_raw, p.id, p.tunable, p.type, p.unit)
        assert d["value"] == d["raw"] / 2**model.FRAC_BITS
        assert d["min"] <= d["default"] <= d["max"]
    st = board.stats()
    assert st["boids"] == model.FLOCK_SIZE and st["paused"] == 0
    assert board.set_count(30) == 30 and board.stats()["boids"] == 30
    assert board.reset(9) == 9 and board.stats()["boids"] == 30
    assert board.reset() == 9
    board.pause()
    assert board.stats()["paused"] == 1
    board.resume()
    assert board.stats()["paused"] == 0
    lines = board.command("list")
    assert len(lines) == len(model.PARAMS) + 1 and lines[-1] == f"ok list {len(model.PARAMS)}"


def test_errors_carry_the_boards_reason_and_change_nothing(board):
    before = board.params()
    cases = [
        (lambda: board.set_visual_range(400), "visual_range: 400 outside [0, 200]"),
        (lambda: board.set("visual_range", "abc"), "visual_range: 'abc' not a decimal number"),
        (lambda: board.set("nope", 1), "unknown parameter 'nope' (try: list)"),
        (lambda: board.get("nope"), "unknown parameter 'nope' (try: list)"),
        (lambda: board.set_count(1000), f"boids: 1000 outside [0, {DEFAULT_CAPACITY}]"),
        (lambda: board.reset(-1), "reset: SEED must be a whole number in [0, 4294967295]"),
        (lambda: board.command("frobnicate"), "unknown command 'frobnicate' (try: help)"),
        (lambda: board.command("x" * 100), "line too long (max 63 characters)"),
    ]
    for call, reason in cases:
        with pytest.raises(BoardError) as e:
            call()
        assert e.value.reason == reason and str(e.value) == reason
        assert not isinstance(e.value, BoardTimeout)
    assert board.params() == before
    for bad in ["", "   ", "get visual_range\nreset", "a\rb"]:
        with pytest.raises(ValueError):
            board.command(bad)


def test_telemetry_reaches_the_callback_and_replies_stay_apart(board):
    got: list[dict] = []
    two = threading.Event()

    def on_tm(tm):
        got.append(tm)
        if len(got) >= 2:
            two.set()

    board.on_telemetry = on_tm
    board.telemetry(True)
    deadline = Deadline(WAIT, "two telemetry lines (one a second) at the callback")
    while not two.is_set():  # commands keep flowing while telemetry arrives
        deadline.check(f"got {got}")
        assert board.get("max_speed") == 3.0
        two.wait(0.02)
    board.telemetry(False)
    assert board.latest_telemetry is not None
    assert {"time", "boids", "fps", "frame_ms", "frames", "paused"} <= set(got[0])
    assert all(isinstance(v, int) for v in got[0].values())


def test_reconnect_after_a_client_left_half_a_line(host, model):
    with BoardClient(host.path, model, timeout=5.0) as a:
        a.set_visual_range(33)
        a._ser.write(b"set visual_range 1")  # a session that dies mid-line
    with BoardClient(host.path, model, timeout=5.0) as b:
        assert b.get("visual_range") == 33.0


class SilentBoard:
    """A pty pair of our own: the client opens the slave; the master end
    answers only what `answer` says (nothing, by default)."""

    def __init__(self, answer=None) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the master never sees a hang-up
        self.answer = answer
        self.stop = threading.Event()
        self.deaf = threading.Event()  # set: stop reading, as a board that hangs
        self.idle = threading.Event()  # set by the server once it no longer reads
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        import select
        buf = b""
        while not self.stop.is_set():
            if self.deaf.is_set():
                self.idle.set()
                self.stop.wait(0.05)
                continue
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                buf += os.read(self.master, 1024)
            except OSError:
                return
            *lines, buf = buf.split(b"\n")
            for ln in lines:
                reply = self.answer(ln.replace(b"\x15", b"").decode()) if self.answer else None
                if reply:
                    os.write(self.master, reply.encode())

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=WAIT)  # the server polls `stop` every 0.05 s
        stuck = self.thread.is_alive()
        os.close(self.master)
        os.close(self._slave)
        assert not stuck, f"the SilentBoard thread did not stop within {WAIT} s"


def test_timeout_when_nothing_answers(model):
    b = SilentBoard()
    try:
        with pytest.raises(BoardTimeout) as e:
            BoardClient(b.path, model, timeout=0.3)
        assert "no reply to 'info' within 0.3 s" in e.value.reason
        assert isinstance(e.value, BoardError)
    finally:
        b.close()


def info_line(model, hash_: str) -> str:
    return (f"ok info spec={model.SPEC_NAME} hash={hash_} format={model.FORMAT} fw=0.1.0 "
            f"capacity={model.CAPACITY} update={model.UPDATE_ORDER} fps={model.FRAME_RATE}\n")


def test_timeout_on_a_command_after_connecting(model):
    b = SilentBoard(lambda ln: info_line(model, model.SPEC_HASH) if ln == "info" else None)
    try:
        with BoardClient(b.path, model, timeout=0.3) as c:
            with pytest.raises(BoardTimeout) as e:
                c.get("visual_range")
            assert e.value.reason == "no reply to 'get visual_range' within 0.3 s"
    finally:
        b.close()


def fill(fd: int) -> None:
    """Fill a pty towards its master until it takes no more. The kernel moves
    written bytes on to the master's buffer a little later (a work queue), so
    the pty counts as full only once it took nothing for several rounds."""
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    deadline = Deadline(WAIT, "full pty")
    quiet = 0
    while quiet < 5:
        deadline.check()
        took = 0
        try:
            while True:
                took += os.write(fd, b"x" * 1024)
        except BlockingIOError:
            pass
        quiet = 0 if took else quiet + 1
        time.sleep(0.02)


def test_timeout_when_the_board_stops_reading(model):
    """A board that no longer reads (its input full): the command fails with
    BoardTimeout after the client's timeout instead of blocking in write()."""
    b = SilentBoard(lambda ln: info_line(model, model.SPEC_HASH) if ln == "info" else None)
    try:
        with BoardClient(b.path, model, timeout=0.3) as c:
            b.deaf.set()
            assert b.idle.wait(WAIT), "the SilentBoard server did not stop reading"
            fill(b._slave)
            start = time.monotonic()
            with pytest.raises(BoardTimeout) as e:
                c.get("visual_range")
            assert e.value.reason == "could not send 'get visual_range' within 0.3 s (the board is not reading)"
            assert time.monotonic() - start < WAIT
    finally:
        b.close()


def test_warns_when_the_board_runs_another_spec(model):
    b = SilentBoard(lambda ln: info_line(model, "0123456789abcdef") if ln == "info" else None)
    try:
        with pytest.warns(SpecMismatchWarning, match=f"hash 0123456789abcdef.*hash {model.SPEC_HASH}"):
            c = BoardClient(b.path, model, timeout=2.0)
        assert c.info["hash"] == "0123456789abcdef"
        c.close()
    finally:
        b.close()
