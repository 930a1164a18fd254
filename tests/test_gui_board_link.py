"""Board mode's link (pysim/gui/board_link.py) against what another client, a
reused pty number and a hostile board do: the real Tk window under Xvfb, the
real host firmware on a real pty (or a scripted board on one,
tests/scripted_board.py), pyserial.

- the panel follows a change another client makes on the same port;
- a reconnect never opens another device that took the port's path (a pty
  number reused, a symlink moved), and adopts the same device again;
- a board answering nonsense puts one line on the status line, never a
  traceback, and the window keeps running."""
from __future__ import annotations

import os
import signal
import threading
import time
import tty

import pytest

from tests.deadline import reap
from tests.test_gui import display, make_app, pump  # noqa: F401  (display: the Xvfb fixture)
from tests.test_gui_lockstep import SYNC, connect, in_step
from tests.test_serial_pty import Host

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: the GUI beside boards in real time

LOST = 10.0  # seconds for the link to notice a killed or stopped board (its timeout is 1 s)


@pytest.fixture
def thread_errors():
    """Exceptions that end any thread (a traceback on the console): collected, must stay empty."""
    seen: list[str] = []
    old = threading.excepthook
    threading.excepthook = lambda a: seen.append(f"{a.thread.name}: {a.exc_type.__name__}: {a.exc_value}")
    yield seen
    threading.excepthook = old


def test_panel_follows_a_change_made_by_another_client(display, default_build, tmp_path, thread_errors):  # noqa: F811
    """Another client on the port (a terminal, the course interface) sets
    visual_range to 40: the board announces it (`ev set`), and the panel,
    the mirror and what Save to spec would write all say 40."""
    host = Host(default_build[1])
    app = make_app()
    try:
        connect(app, host.path)
        ctl = app.controls.params["visual_range"]
        assert ctl.value_text == "20"
        other = os.open(host.path, os.O_WRONLY | os.O_NOCTTY)  # writes only: the window reads the replies
        try:
            os.write(other, b"set visual_range 40\n")
        finally:
            os.close(other)
        assert pump(app, until=lambda: ctl.value_text == "40", timeout=SYNC), \
            (ctl.value_text, app.status_var.get())
        assert ctl.entry_var.get() == "40"
        assert app.changed_defaults().get("visual_range") == "40"  # what Save to spec writes
        assert pump(app, until=lambda: app.follow.mirror.sim.params.value_text("visual_range") == "40",
                    timeout=SYNC)
        assert app.sim.params.value_text("visual_range") == "40"  # Simulator mode resumes with it
        assert "diverged" not in app.status_var.get()
        assert thread_errors == []
    finally:
        app.close()
        host.stop()


def unrelated_pty():
    """A pseudo-terminal nobody's board is on (a user's shell, say): (master, slave path)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


def read_some(master: int, into: bytearray) -> bytes:
    """What has reached the pty's other side so far (kept in `into`)."""
    try:
        into += os.read(master, 4096)
    except BlockingIOError:
        pass
    return bytes(into)


def refusals(app) -> int:
    return getattr(app.link, "refusals", 0)


def test_reconnect_refuses_another_device_at_the_same_path(display, default_build, tmp_path,  # noqa: F811
                                                            thread_errors):
    """The board's pty goes away and the port's path then names another pty
    (an unrelated one, then even another host firmware): the window does
    not open it (not a byte reaches it) and says so; picking the port again
    is the user's explicit choice and connects."""
    port = tmp_path / "board"
    host = Host(default_build[1])
    port.symlink_to(host.path)
    app = make_app()
    master = slave = None
    host2 = None
    try:
        connect(app, str(port))
        first = app.follow
        host.proc.kill()
        reap(host.proc, "the first boids_host --pty")
        assert pump(app, until=lambda: "disconnected" in app.status_var.get(), timeout=LOST), \
            app.status_var.get()
        master, slave, other = unrelated_pty()
        port.unlink()
        port.symlink_to(other)
        seen, got = refusals(app), bytearray()
        # three reconnects refused, or bytes written to the unrelated pty (the bug)
        assert pump(app, until=lambda: refusals(app) >= seen + 3 or read_some(master, got), timeout=LOST), \
            app.status_var.get()
        assert read_some(master, got) == b"", f"the window wrote {bytes(got)!r} to a pty that is not the board's"
        assert "not reconnected" in app.status_var.get() and "another pseudo-terminal" in app.status_var.get()
        assert app.follow is None and not app.link.connected

        # another board firmware at the path is another device all the same
        host2 = Host(default_build[1])
        port.unlink()
        port.symlink_to(host2.path)
        seen = refusals(app)
        assert pump(app, until=lambda: refusals(app) >= seen + 2 or app.follow is not None, timeout=LOST), \
            app.status_var.get()
        assert app.follow is None, "reconnected to another board's pty without being asked"
        # the user picks the port again: a new connection, to what it names now
        app._connect_if_board()
        assert pump(app, until=lambda: app.follow not in (None, first) and (in_step(app) or 0) > 0,
                    timeout=SYNC), app.status_var.get()
        assert thread_errors == []
    finally:
        app.close()
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)
        host.proc.stdout.close()
        host.proc.stderr.close()
        if host2 is not None:
            host2.stop()


def test_reconnect_adopts_the_same_device_again(display, default_build, thread_errors):  # noqa: F811
    """The board stops answering (its process stopped: the heartbeat times
    out) and comes back on the same pty: the window reconnects to it and
    starts a new lockstep."""
    host = Host(default_build[1])
    app = make_app()
    try:
        connect(app, host.path)
        first = app.follow
        os.kill(host.proc.pid, signal.SIGSTOP)
        try:
            assert pump(app, until=lambda: "disconnected" in app.status_var.get(), timeout=LOST), \
                app.status_var.get()
        finally:
            os.kill(host.proc.pid, signal.SIGCONT)
        assert pump(app, until=lambda: app.follow not in (None, first) and (in_step(app) or 0) > 0,
                    timeout=SYNC), app.status_var.get()
        assert refusals(app) == 0 and thread_errors == []
    finally:
        app.close()
        host.stop()


def test_a_reused_pty_number_is_another_device():
    """devpts gives a freed pty's number (and inode) to the next one opened:
    the identity still tells them apart."""
    from pysim.gui.device_id import device_id

    master, slave, path = unrelated_pty()
    before = device_id(path)
    # a node's times come from the kernel's coarse clock: the next pty is
    # made at a later tick (as any reuse after the board's pty died is)
    coarse = getattr(time, "CLOCK_REALTIME_COARSE", 5)
    deadline = time.monotonic() + 1.0
    while time.clock_gettime_ns(coarse) <= before.ctime_ns:
        assert time.monotonic() < deadline, "the coarse clock did not tick in 1 s"
    os.close(master)
    os.close(slave)
    held = []
    try:
        for _ in range(64):  # the lowest free number comes back (others may take it first)
            m, s = os.openpty()
            held += [m, s]
            if os.ttyname(s) == path:
                break
        else:
            pytest.fail(f"{path} was not reused in 64 openpty calls")
        again = device_id(path)
        assert (again.rdev, again.is_pty) == (before.rdev, True)
        assert again != before
    finally:
        for fd in held:
            os.close(fd)


@pytest.fixture
def tk_errors():
    """Exceptions in Tk callbacks (Tk prints them as tracebacks): collected."""
    return []


def hostile_app(tk_errors):
    app = make_app()
    app.root.report_callback_exception = lambda typ, val, tb: tk_errors.append(f"{typ.__name__}: {val}")
    return app


def heard(board, word: str) -> int:
    """How many `word` commands the scripted board has been sent."""
    return sum(1 for line in board.heard if line.split()[:1] == [word])


def info(model, spec: str | None = None, spec_hash: str = "0000000000000000") -> str:
    """`info` as a board of another spec says it (not mirrored: no lockstep)."""
    return (f"ok info spec={spec or model.SPEC_NAME} hash={spec_hash} format={model.FORMAT} fw=fake "
            f"capacity={model.CAPACITY} update={model.UPDATE_ORDER} fps={model.FRAME_RATE}")


def later(data: bytes):
    """A reply sent on a thread of its own (the client stops reading it midway)."""
    return lambda line, board: board.send_later(data) and None


@pytest.mark.parametrize("case, replies, want", [
    ("an err to the heartbeat once connected", {"stats": lambda line, board, n=iter(range(10 ** 6)): (
        "err not today" if next(n) else board.firmware(["stats"]))}, "cannot be used (not today)"),
    ("a flock larger than the capacity",
     {"stats": "ok stats time=1 boids=5000000 fps=30 frame_ms=5 period_ms=33 frames=30 paused=0"},
     "boids=5000000 outside [0, "),
    ("a silent board", {"info": None}, "no reply to 'info' within"),
    ("a 16 MB line", {"list": later(b"x" * (16 << 20))}, "the board's reply cannot be used ("),
    ("a flood of lines", {"list": later(b"param x\n" * 200_000)}, "the board's reply cannot be used ("),
    ("a parameter listing without numbers", {"list": "param visual_range=x raw=zz min=0 max=1 default=0 id=1\nok"},
     "the board's reply cannot be used ("),
])
def test_a_hostile_board_gets_one_status_line(display, default_build, thread_errors, tk_errors,  # noqa: F811
                                               case, replies, want):
    """Nonsense from a board (a fake one on a real pty): the status line
    says what, in red, the window keeps drawing and keeps trying once a
    second; no traceback from any thread or Tk callback, no hang."""
    from pysim.gui.board_mode import DIVERGED as RED

    from tests.scripted_board import FakeBoard

    model = default_build[2]
    board = FakeBoard(model, {"info": info(model), **replies})
    app = hostile_app(tk_errors)
    try:
        app.port.set(board.path)
        app.mode.set("board")
        app._mode_changed()
        assert pump(app, until=lambda: want in app.status_var.get(), timeout=LOST), (case, app.status_var.get())
        assert str(app.status_label.cget("foreground")) == RED
        assert "\n" not in app.status_var.get()
        tried = app.link.attempts
        assert pump(app, until=lambda: app.link.attempts > tried, timeout=LOST), "no second attempt"
        assert thread_errors == [] and tk_errors == [], (thread_errors, tk_errors)
        assert app.controls.params["visual_range"].value_text == "20"
        assert app.sim.count <= app.model.CAPACITY
    finally:
        app.close()
        board.close()


def test_announcements_the_panel_cannot_use_are_reported(display, default_build, thread_errors,  # noqa: F811
                                                         tk_errors):
    """A mirrored (fake) board announces a value outside the spec's range
    and one that is not a number: the panel keeps its value and the status
    line names the announcement; a good one after them is followed."""
    from tests.scripted_board import FakeBoard

    model = default_build[2]
    board = FakeBoard(model)
    app = hostile_app(tk_errors)
    try:
        app.port.set(board.path)
        app.mode.set("board")
        app._mode_changed()
        assert pump(app, until=lambda: heard(board, "list") >= 2 and app.follow is not None, timeout=LOST), \
            (app.status_var.get(), board.heard, thread_errors, tk_errors)
        ctl = app.controls.params["visual_range"]
        board.send("ev set visual_range 99999999 frame=1\n")
        assert pump(app, until=lambda: "visual_range: raw value 99999999 outside" in app.status_var.get(),
                    timeout=LOST), app.status_var.get()
        board.send("ev set visual_range 1e9 frame=2\n")
        assert pump(app, until=lambda: "'1e9' is not a 32-bit integer" in app.status_var.get(),
                    timeout=LOST), app.status_var.get()
        board.send("ev set visual_range 99999999999999999999 frame=2\n")  # the issue's: killed the mirror once
        assert pump(app, until=lambda: "'99999999999999999999' is not a 32-bit integer" in app.status_var.get(),
                    timeout=LOST), app.status_var.get()
        assert ctl.value_text == "20" and "visual_range" not in app.changed_defaults()
        board.send(f"ev set visual_range {40 << model.FRAC_BITS} frame=3\n")
        assert pump(app, until=lambda: ctl.value_text == "40", timeout=LOST), app.status_var.get()
        assert thread_errors == [] and tk_errors == [], (thread_errors, tk_errors)
    finally:
        app.close()
        board.close()


def test_a_board_naming_itself_at_length_gets_a_short_line(display, default_build, thread_errors,  # noqa: F811
                                                           tk_errors):
    """`info` with a 60,000-character spec name full of escapes: the status
    line quotes it escaped and cut, on one line."""
    from tests.scripted_board import FakeBoard

    model = default_build[2]
    board = FakeBoard(model, {"info": info(model, spec="\\x1b[2J" + "n" * 60000)})
    app = hostile_app(tk_errors)
    try:
        app.port.set(board.path)
        app.mode.set("board")
        app._mode_changed()
        assert pump(app, until=lambda: "DOES NOT MATCH" in app.status_var.get(), timeout=LOST), \
            app.status_var.get()
        line = app.status_var.get()
        assert len(line) < 400 and "\n" not in line and "characters)" in line, line
        assert thread_errors == [] and tk_errors == [], (thread_errors, tk_errors)
    finally:
        app.close()
        board.close()


@pytest.mark.parametrize("line", ["ev set visual_range --5 frame=1", "ev set visual_range \u0663 frame=1",
                                  "ev set visual_range 1_0 frame=1", "ev set visual_range 5 frame=x",
                                  "ev set visual_range 5", "ev set visual_range 5 frame=1 extra",
                                  "ev set visual_range -1 frame=1", "ev set visual_range 6553601 frame=1"])
def test_announcements_are_read_strictly(default_build, line):
    """What the panel takes from an `ev set` line: only ASCII digits within
    the spec's range, in the firmware's exact form; anything else is one
    PanelValueError (never a ValueError from int() on the reader's thread)."""
    from pysim.gui.board_values import PanelValueError, announced_set

    model = default_build[2]
    assert announced_set(model, f"ev set visual_range {20 << model.FRAC_BITS} frame=7") == ("visual_range", "20")
    assert announced_set(model, "ev set no_such_param 5 frame=7") is None  # another spec's: not ours to show
    with pytest.raises(PanelValueError):
        announced_set(model, line)
