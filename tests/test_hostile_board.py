"""A broken or hostile board (tests/scripted_board.py, on a real pty) against the
serial client and `boidsgen watch` (issue 32): silence, floods, 16 MB lines,
malformed replies, huge numbers, a board that disappears. Each case ends
within its timeout with one line saying why (exit 2 for the board's fault, 1
for a divergence), never a traceback or a hang, and leaves the fake board
running with `watch` off."""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
import warnings

import pytest

from pysim.board.serial_client import BoardClient, BoardLinkLost, BoardReplyError, BoardTimeout

from .conftest import DEFAULT_CAPACITY, DEFAULT_SPEC, ROOT
from .deadline import Deadline
from .scripted_board import SILENT, FakeBoard

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: hostile boards in real time

TIMEOUT = 0.5  # the client's and watch's --timeout in these tests
ENDS_WITHIN = 30.0  # seconds a watch run may take here (start-up ~3 s, then a few timeouts) before it counts as hung


@pytest.fixture(scope="module")
def model(default_build):
    return default_build[2]


def watch(board: FakeBoard, *args: str, while_running=None):
    """`boidsgen watch` on the fake board; (exit status, stdout, stderr).
    `while_running(proc)` runs once it started (e.g. to misbehave mid-run)."""
    proc = subprocess.Popen([sys.executable, "-m", "codegen.commands.cli", "watch", board.path, "--spec", DEFAULT_SPEC,
                             "--timeout", str(TIMEOUT), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    try:
        if while_running is not None:
            while_running(proc)
        out, err = proc.communicate(timeout=ENDS_WITHIN)
    except BaseException:
        proc.kill()
        proc.communicate(timeout=5)
        raise
    return proc.returncode, out, err


def synced(board: FakeBoard, seconds: float = ENDS_WITHIN) -> None:
    """Wait until watch has reset the board (its sync point)."""
    deadline = Deadline(seconds, "`reset` from watch")
    while not any(h.startswith("reset") for h in board.heard):
        deadline.check(board.heard)
        board.heard_event.wait(0.05)
        board.heard_event.clear()


def one_reason(err: str) -> str:
    """stderr holds one line, `boidsgen watch: PORT: why` (no traceback); the why."""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err and "internal error" not in err, err
    assert lines[0].startswith("boidsgen watch: "), err
    return lines[0]


def left_running_with_watch_off(board: FakeBoard) -> None:
    assert not board.state["paused"] and not board.state["watch"], (board.state, board.heard[-6:])


# ---- finding 1: an error while explaining a divergence ----

def test_a_divergence_whose_dump_never_comes_is_reported_and_the_board_resumed(model):
    """The digest of frame 1 differs; the board pauses but never answers
    `dump` (as 400 boids at 38,400 baud outlast the timeout): watch reports
    the divergence (exit 1) and why it could not name the field, and the
    board is left running with watch off (was: internal error: NameError,
    the board paused)."""
    board = FakeBoard(model, {"dump": SILENT})
    try:
        rc, out, err = watch(board, while_running=lambda p: (synced(board), board.frame(1)))
    finally:
        board.close()
    assert rc == 1, (out, err)
    assert "watch: diverged at frame 1: digest: board 00000000" in out, out
    assert "watch: could not take the board's state: no reply to 'dump'" in out, out
    assert "Traceback" not in out + err and "NameError" not in out + err, err
    assert "pause" in board.heard and "resume" in board.heard
    left_running_with_watch_off(board)


def test_a_mirror_slower_than_the_quiet_limit_is_not_a_silent_board(model, tmp_path, monkeypatch):
    """The mirror's first frame takes longer than watch waits for a quiet board (its kernel compiled under
    load; here another process holds the kernel's compile turn, pysim/kernel_cache.py, for 5 s): the digest
    the board sent meanwhile is compared once the mirror reaches it, and the divergence is reported (was:
    `no frame from the board for 3 s`, exit 2, while the board's frame sat unread). It checks pacing: 5 s."""
    from pathlib import Path

    from pysim.kernel_cache import cached_copy
    from pysim.model_support import kernel_text

    monkeypatch.setenv("BOIDSGEN_KERNEL_CACHE", str(tmp_path / "kernels"))  # watch's process compiles afresh
    copy, _ = cached_copy(kernel_text(Path(model.__file__), model.KERNEL_FILE, model.KERNEL_HASH))
    fd = os.open(copy.parent / ".compile.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    release = threading.Timer(5.0, os.close, [fd])
    board = FakeBoard(model, {"dump": SILENT})
    try:
        release.start()
        rc, out, err = watch(board, while_running=lambda p: (synced(board), board.frame(1)))
    finally:
        release.join()
        board.close()
    assert rc == 1 and "watch: diverged at frame 1: digest: board 00000000" in out, (out, err)


# ---- finding 2: a board that stops streaming ----

@pytest.mark.parametrize("how", ["silent", "answers_stats_running", "gone"])
def test_a_board_that_stops_streaming_ends_watch(model, how):
    """After the sync: the board answers nothing more / answers `stats` but
    sends no digest (its watch switched off) / disappears. Was: `no frame
    from the board for 5 s`, every 5 s, for ever."""
    replies = {"stats": lambda line, b: b.firmware(["stats"]) if b.state["frame"] == 0 else None}
    board = FakeBoard(model, replies if how == "silent" else {})

    def misbehave(proc):
        synced(board)
        if how == "silent":
            board.state["frame"] = 1  # from now on `stats` gets no answer
        elif how == "answers_stats_running":
            board.state["frame"] = 500  # it runs on, far past its last digest (frame 0)
        else:
            board.gone()

    start = time.monotonic()
    try:
        rc, out, err = watch(board, "--frames", "100", while_running=misbehave)
    finally:
        board.close()
    took = time.monotonic() - start
    why = one_reason(err)
    assert rc == 2, (out, err)
    assert {"silent": "no reply to 'stats'", "answers_stats_running": "its watch is off",
            "gone": "port failed"}[how] in why, why
    assert took < ENDS_WITHIN
    if how == "answers_stats_running":
        left_running_with_watch_off(board)


def test_a_board_that_restarts_unannounced_ends_watch(model):
    """Adopted at frame 50, the board then says it is at frame 3 with no
    `ev reset` (it restarted, and its watch is off)."""
    board = FakeBoard(model)
    board.state["frame"] = 50
    deadline = Deadline(ENDS_WITHIN, "`resume` after the adopting dump")

    def restart(proc):
        while "resume" not in board.heard:
            deadline.check(board.heard)
            board.heard_event.wait(0.05)
            board.heard_event.clear()
        board.state["frame"] = 3

    try:
        rc, out, err = watch(board, "--adopt", while_running=restart)
    finally:
        board.close()
    assert rc == 2 and "the board is at frame 3, before its last digest (50)" in one_reason(err), (out, err)


def test_a_paused_board_is_refused_and_left_as_it_was(model):
    board = FakeBoard(model, paused=True)
    try:
        rc, out, err = watch(board)
    finally:
        board.close()
    assert rc == 2 and "the board is paused: resume it" in one_reason(err), (out, err)
    assert board.state["paused"] and not board.state["watch"] and not any(h.startswith("reset") for h in board.heard)


def test_an_announced_pause_is_waited_for_a_bounded_time(model):
    board = FakeBoard(model)
    try:
        rc, out, err = watch(board, while_running=lambda p: (synced(board), board.send("ev pause frame=1\n"),
                                                             board.state.update(paused=True)))
    finally:
        board.close()
    assert rc == 2 and "the board has been paused for" in one_reason(err), (out, err)


# ---- finding 3: hostile and broken replies ----

CORPUS = ROOT / "tests" / "hostile" / "board"


def _unescape(text: str) -> str:
    return text.encode("ascii").decode("unicode_escape")


def board_case(path):
    """A case file (tests/hostile/board/README.md) -> (expectations, replies, lines sent after the sync)."""
    expect, replies, body = [], {}, []
    for line in path.read_text(encoding="ascii").splitlines():
        if line.startswith("# expect: "):
            expect.append(line[len("# expect: "):])
        elif line.startswith("# reply "):
            key, _, text = line[len("# reply "):].partition(": ")
            replies[key] = _unescape(text)
        elif not line.startswith("#"):
            body.append(_unescape(line) + "\n")
    assert expect, f"{path.name}: no '# expect:' line"
    return expect, replies, "".join(body)


CASES = sorted(CORPUS.glob("*.txt"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_hostile_board_ends_watch_naming_what_it_sent(model, path):
    """Each case of the corpus (stream lines: was an OverflowError that killed
    the mirror's thread while the status said "in step" for ever, `fr
    999999999` stepping the mirror to frame 10^9; replies: was internal
    error: KeyError, `invalid literal for int()`)."""
    expect, replies, lines = board_case(path)
    board = FakeBoard(model, replies)
    try:
        rc, out, err = watch(board, while_running=(lambda p: (synced(board), board.send(lines))) if lines else None)
    finally:
        board.close()
    why = one_reason(err)
    assert rc == 2 and all(e in why for e in expect), (path.name, out, err)
    left_running_with_watch_off(board)


def test_a_16_mb_line_and_a_flood_end_watch_quickly(model):
    """A 16 MB line with no end in sight (was: the reader stalled 36 s,
    re-splitting its buffer) ends the run naming its start."""
    board = FakeBoard(model)
    start = time.monotonic()
    try:
        rc, out, err = watch(board, while_running=lambda p: (synced(board), board.send_later(b"fr 1 " + b"7" * (16 << 20))))
    finally:
        board.close()
    assert rc == 2 and "a line longer than 65536 bytes, starting 'fr 1 777" in one_reason(err), (out, err)
    assert time.monotonic() - start < ENDS_WITHIN


def test_a_flood_of_junk_lines_ends_watch(model):
    stop = threading.Event()
    board = FakeBoard(model)
    try:
        rc, out, err = watch(board, while_running=lambda p: (synced(board), board.flood(b"junk\n", stop)))
    finally:
        stop.set()
        board.close()
    why = one_reason(err)
    # the junk buries the reply to `stats` (too many lines), or the board answers but sends no frame
    assert rc == 2 and ("lines in reply to 'stats'" in why or "no frame from the board" in why), (out, err)


# ---- the client on its own ----

def client(board: FakeBoard, model) -> BoardClient:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return BoardClient(board.path, model, timeout=TIMEOUT)


def test_the_readers_failure_reaches_every_later_call_as_link_lost(model):
    """Was: the reader's SerialException sat in the queue, the next command
    drained it and reported BoardTimeout; now BoardLinkLost, every time."""
    board = FakeBoard(model)
    try:
        c = client(board, model)
        board.gone()
        deadline = Deadline(5.0, "the reader noticing the closed pty")
        while c.link_error is None:
            deadline.check()
            time.sleep(0.02)
        for _ in range(2):
            start = time.monotonic()
            with pytest.raises(BoardLinkLost) as e:
                c.get("visual_range")
            assert not isinstance(e.value, BoardTimeout) and "port failed" in e.value.reason
            assert time.monotonic() - start < TIMEOUT  # at once, not after a timeout
        c.close()
    finally:
        board.close()


CLIENT_MALFORMED = [
    ("get visual_range", "ok visual_range=20", lambda c: c.get("visual_range"), "no raw= in 'ok visual_range=20'"),
    ("set visual_range", "ok visual_range=20 raw=99999999999999999999", lambda c: c.set("visual_range", 20),
     "raw 99999999999999999999 outside"),
    ("boids", f"ok boids={DEFAULT_CAPACITY + 1}", lambda c: c.set_count(5),
     f"boids {DEFAULT_CAPACITY + 1} outside [0, {DEFAULT_CAPACITY}]"),
    ("reset", "ok reset seed=-1", lambda c: c.reset(3), "seed -1 outside"),
    ("watch", "ok watch on every=1", lambda c: c.watch(True), "no frame= in 'ok watch on every=1'"),
    ("stats", "ok stats frames=\u0661 paused=0", lambda c: c.stats(), "frames is not a whole number"),
    ("list", "param visual_range=20 raw=1\nok list 12", lambda c: c.params(), "'ok list 12' after 1 param lines"),
]


@pytest.mark.parametrize("cmd, reply, call, reason", CLIENT_MALFORMED, ids=[c[0] for c in CLIENT_MALFORMED])
def test_every_field_of_a_reply_is_checked(model, cmd, reply, call, reason):
    board = FakeBoard(model, {cmd: reply})
    try:
        c = client(board, model)
        with pytest.raises(BoardReplyError) as e:
            call(c)
        assert reason in e.value.reason and "\n" not in e.value.reason, e.value.reason
        c.close()
    finally:
        board.close()


def test_an_overlong_reply_line_fails_fast_and_for_good(model):
    board = FakeBoard(model, {"get visual_range": lambda line, b: "ok " + "9" * (16 << 20)})
    try:
        c = client(board, model)
        start = time.monotonic()
        with pytest.raises(BoardReplyError) as e:
            c.get("visual_range")
        assert "a line longer than 65536 bytes, starting 'ok 999" in e.value.reason
        assert time.monotonic() - start < 5.0
        with pytest.raises(BoardLinkLost):
            c.stats()
        c.close()
    finally:
        board.close()


def test_whatever_stops_the_mirror_ends_it_with_its_reason(model):
    """Any exception inside the mirror (here an OverflowError, as a value too
    large for the engine raised before values were checked) stops it with
    its reason in the status; the status never says "in step" again, and
    settle() does not wait on a dead mirror (was: its thread died, the status
    stayed "in step" for ever)."""
    from pysim.board.lockstep import Mirror
    from pysim.board.mirror_runner import MirrorRunner

    mirror = Mirror(model)

    def overflow(line):
        raise OverflowError("Python int too large to convert to C long")

    mirror.feed = overflow
    runner = MirrorRunner(mirror)
    try:
        runner.put("fr 1 00000000")
        runner.put("fr 2 00000000")
        assert runner.settle(5.0), "lines after the failure were not drained"
        st = runner.status()
        assert st.error == "cannot follow the board: Python int too large to convert to C long", st
        assert st.line() == st.error and st.diverged == st.error
    finally:
        runner.stop()


def _trickle(rows: int, every: float, end: str | None):
    """A reply callable: `rows` dump rows, one every `every` seconds (the
    board's pace on a slow link), then `end` (None: it never ends)."""
    def reply(line, board):
        for k in range(rows):
            board.send(f"0,{k},boid,1,2,3,4\n")
            if board.closed_within(every):  # the board's own pace; it stops when closed
                return None
        return end
    return reply


def test_a_long_reply_may_outlast_the_timeout_while_its_lines_keep_coming(model):
    """A dump of 4 rows at 0.2 s each (0.8 s, more than the 0.5 s timeout):
    read whole, as a 400-boid dump at 38,400 baud must be (was: BoardTimeout
    after the timeout, whatever still came)."""
    board = FakeBoard(model, {"dump": _trickle(4, 0.2, "0,0,rng,1\nok dump frame=0 rows=5")})
    try:
        c = client(board, model)
        assert len(c.dump()) == 5
        c.close()
    finally:
        board.close()


def test_a_reply_that_never_ends_is_cut_at_its_bound(model):
    """Lines that keep coming without the `ok`: cut at timeout + reply_time."""
    board = FakeBoard(model, {"dump": _trickle(100, 0.2, None)})
    try:
        c = client(board, model)
        start = time.monotonic()
        with pytest.raises(BoardTimeout) as e:
            c.dump()
        took = time.monotonic() - start
        assert e.value.reason.startswith("the reply to 'dump' stopped after "), e.value.reason
        assert took < TIMEOUT + c.reply_time + 1.0, took
        c.close()
    finally:
        board.close()

