"""BREAK on the host build (firmware_runtime/host/platform_host.h): the board's
BREAK pulls MCLR low and the PIC32 restarts; a Linux pty carries no BREAK
(tcsendbreak on the client's side reaches nothing), so the host build takes
the bytes a Linux serial port reports a BREAK as (0xFF 0x00 0x00, PARMRK)
and restarts as the board does: same process, same pty path, everything
from its start-up again. Real host firmware, real pty, pyserial."""
from __future__ import annotations

import re

import pytest

from .deadline import Deadline, read_line
from .test_serial_pty import WAIT, Host, Link

BREAK = b"\xff\x00\x00"


@pytest.fixture
def host(default_build):
    h = Host(default_build[1], "--seed", "7", "--set", "max_speed=4")
    yield h
    h.stop()


def changed_state(link: Link) -> None:
    """Everything a restart must undo: a parameter, the flock, watch, telemetry."""
    assert link.one("set visual_range 40") == "ok visual_range=40 raw=1310720"
    assert link.one("boids 37") == "ok boids=37"
    assert link.one("telemetry on") == "ok telemetry on"
    assert link.one("reset 99").startswith("ok reset seed=99 ")


def stats(link: Link) -> dict[str, int]:
    line = link.one("stats")
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}


def test_a_pty_carries_no_break(host):
    """pyserial's send_break on the pty (tcsendbreak): nothing reaches the
    host, which keeps every change: hence the host build's own BREAK."""
    link = Link(host.path)
    try:
        changed_state(link)
        link.ser.send_break(0.25)
        assert link.one("get visual_range") == "ok visual_range=40 raw=1310720"
        assert stats(link)["boids"] == 37
    finally:
        link.close()


def test_break_restarts_the_host_as_mclr_restarts_the_board(host, default_build):
    model = default_build[2]
    link = Link(host.path)
    try:
        changed_state(link)
        # the board's clock past 2 s (it counts from the start-up; `reset` does not restart it):
        # the telemetry switched on above says so once a second
        deadline = Deadline(WAIT, "telemetry saying time=2 or more")
        while not re.match(r"tm time=([2-9]|\d\d)", link.line()):
            deadline.check()
        link.write(BREAK)
        assert read_line(host.proc.stdout, WAIT, "'break: restarting' from boids_host") == "break: restarting\n"
        # the same port, opened before, answers: the restarted firmware, from its start-up
        assert link.one("get visual_range") == "ok visual_range=20 raw=655360"  # the spec's default again
        assert link.one("get max_speed") == "ok max_speed=4 raw=131072"  # the start-up's --set again
        assert link.one("watch") == "ok watch off every=1"
        st = stats(link)
        assert st["time"] <= 1 and st["boids"] != 37
        assert st["boids"] <= model.CAPACITY
        assert link.one("reset").startswith("ok reset seed=7 ")  # the start-up's seed, not 99
        assert not [t for t in link.telemetry if t.startswith("tm time=0 ")]  # telemetry off after it
        # and again: a second BREAK restarts the restarted firmware
        link.write(b"set visual_range 30\n" + BREAK)
        assert link.replies(1) == ["ok visual_range=30 raw=983040"]
        assert read_line(host.proc.stdout, WAIT, "a second 'break: restarting'") == "break: restarting\n"
        assert link.one("get visual_range") == "ok visual_range=20 raw=655360"
        assert host.proc.poll() is None
    finally:
        link.close()


@pytest.mark.parametrize("near", [b"\x00\x00\xff", b"\xff\x00x\x00", b"\xff\x00", b"\x00\xff\x00"])
def test_other_nul_and_0xff_bytes_are_only_bad_lines(host, near):
    link = Link(host.path)
    try:
        assert link.one("set visual_range 40") == "ok visual_range=40 raw=1310720"
        link.write(near + b"\n")
        assert link.replies(1) == ["err line has a control or non-ASCII byte"]
        assert link.one("get visual_range") == "ok visual_range=40 raw=1310720"
    finally:
        link.close()
