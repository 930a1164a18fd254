"""The serial command handler of the host firmware, over stdin/stdout:
replies, errors with reasons, and nothing changed by a rejected command."""
from __future__ import annotations

import subprocess

import pytest

from .stamps import unstamp
from .conftest import DEFAULT_CAPACITY

from pysim.fxdecimal import format_raw, parse


def talk(exe, lines: list[str], raw: bytes | None = None) -> list[str]:
    data = raw if raw is not None else "".join(l + "\n" for l in lines).encode()
    res = subprocess.run([str(exe)], input=data, capture_output=True, timeout=30)
    assert res.returncode == 0, res.stderr
    return [unstamp(l) for l in res.stdout.decode().splitlines()]


@pytest.fixture(scope="module")
def exe(default_build):
    return default_build[1]


def params_listing(out: list[str]) -> list[str]:
    return [l for l in out if l.startswith("param ")]


def test_set_get_roundtrip(exe):
    out = talk(exe, ["set visual_range 40", "get visual_range", "set centering_factor 0.0005"])
    assert out[0] == "ok visual_range=40 raw=1310720"
    assert out[1] == "ok visual_range=40 raw=1310720"
    assert out[2] == f"ok centering_factor={format_raw(16, 15)} raw=16"


@pytest.mark.parametrize("cmd, reply", [
    ("set visual_range 400", "err visual_range: 400 outside [0, 200]"),
    ("set visual_range abc", "err visual_range: 'abc' not a decimal number"),
    ("set visual_range", "err usage: set NAME VALUE"),
    ("set nope 1", "err unknown parameter 'nope' (try: list)"),
    ("frobnicate", "err unknown command 'frobnicate' (try: help)"),
    ("set avoid_factor 0.001", "err avoid_factor: 0.001 outside [0.01, 1]"),
    ("s 99 1", "err s: no parameter has that id"),
    ("set a b c d", "err too many words"),
])
def test_errors_say_why_and_change_nothing(exe, cmd, reply):
    out = talk(exe, ["list", cmd, "list"])
    before = params_listing(out[: len(out) // 2])
    assert reply in out
    after = params_listing(out[len(out) // 2 + 1:])
    assert before == after and len(before) == 12


def test_course_slider_form(exe):
    out = talk(exe, ["s 1 35", "get visual_range"])
    assert out == ["ok visual_range=35 raw=1146880", "ok visual_range=35 raw=1146880"]


def test_list_and_info(exe, default_build):
    m = default_build[0]
    out = talk(exe, ["list", "info"])
    assert out[0].startswith("param visual_range=20 raw=655360 min=0 max=200 default=20 id=1 tunable=1")
    assert out[12] == "ok list 12"
    assert out[13] == (f"ok info spec=boids hash={m.hash} format=s16.15 fw=0.1.0 capacity={DEFAULT_CAPACITY} "
                       "update=sequential fps=30")


def test_line_endings_backspace_and_overlong(exe):
    raw = b"get visual_range\r\nget vis\x08\x08\x08visual_range\rset visual_range " + b"1" * 80 + b"\n" + b"get vis\x00ual_range\n"
    out = talk(exe, [], raw)
    assert out[0] == out[1] == "ok visual_range=20 raw=655360"
    assert out[2] == "err line too long (max 63 characters)"
    assert out[3] == "err line has a control or non-ASCII byte"
    assert len(out) == 4


def test_set_matches_python_conversion(exe):
    values = ["0.123456789", "199.99999", "0.00003", "7.5", "+3", ".25"]
    out = talk(exe, [f"set visual_range {v}" for v in values])
    for v, line in zip(values, out):
        assert line.endswith(f"raw={parse(v, 15)}")
