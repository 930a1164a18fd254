"""The ILI9340's start-up (firmware_runtime/core/tft_ili9340.c) against the
controller's datasheet, and the host's decoder (host_ili9340.c) that turns
the same byte stream into the panel's picture.

The facts below are the ILI9340/ILI9341 datasheet's (section 8: the command
codes, their parameters, the waits after SWRESET and SLPOUT); the values are
the ones Adafruit's ILI9340 driver sends for the lab's module."""
from __future__ import annotations

import subprocess

import pytest

from .conftest import ROOT, RUNTIME, RUNTIME_INCLUDES, compile_c
from .deadline import RUN

CFG = ROOT / "tests" / "c" / "draw_cfg"  # a 320x240 panel

# command: (name, parameters) in the order the datasheet's sequence sends them
CONFIG = [
    (0xC0, "power control 1", [0x23]),
    (0xC1, "power control 2", [0x10]),
    (0xC5, "VCOM control 1", [0x3E, 0x28]),
    (0xC7, "VCOM control 2", [0x86]),
    (0x36, "memory access control", [0x28]),
    (0x3A, "pixel format", [0x55]),
    (0xB1, "frame rate control", [0x00, 0x18]),
    (0xB6, "display function control", [0x08, 0x82, 0x27]),
    (0x26, "gamma set", [0x01]),
    (0xE0, "positive gamma correction", [0x0F, 0x31, 0x2B, 0x0C, 0x0E, 0x08, 0x4E, 0xF1, 0x37, 0x07, 0x10,
                                         0x03, 0x0E, 0x09, 0x00]),
    (0xE1, "negative gamma correction", [0x00, 0x0E, 0x14, 0x03, 0x11, 0x07, 0x31, 0xC1, 0x48, 0x08, 0x0F,
                                         0x0C, 0x31, 0x36, 0x0F]),
]
SWRESET, SLPOUT, DISPON = 0x01, 0x11, 0x29


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """tft_init's pin activity: (kind, value) per line of tests/c/tft_record.c."""
    tmp = tmp_path_factory.mktemp("tft")
    exe = compile_c([ROOT / "tests" / "c" / "tft_record.c", RUNTIME / "core" / "tft_ili9340.c"], tmp / "tft_record",
                    includes=[CFG, *RUNTIME_INCLUDES])
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=RUN).stdout
    return [(k, int(v, 16) if k in "CD" else int(v)) for k, v in (line.split() for line in out.splitlines())]


def commands(events):
    """[(command, [parameters], ms waited before it, CS low)] in order."""
    out, waited, cs = [], 0, 0
    for kind, v in events:
        if kind == "W":
            waited += v
        elif kind == "S":
            cs = v
        elif kind == "C":
            out.append([v, [], waited, cs])
            waited = 0
        elif kind == "D":
            assert out and cs, "a data byte before any command, or with CS high"
            out[-1][1].append(v)
    return out


def test_start_up_follows_the_datasheet_sequence(recorded):
    cmds = commands(recorded)
    assert [c[0] for c in cmds] == [SWRESET, SLPOUT] + [c for c, _, _ in CONFIG] + [DISPON]
    assert all(c[3] for c in cmds), "every command with CS low"
    assert cmds[0][1] == [] and cmds[1][1] == [] and cmds[-1][1] == []
    for (code, name, params), got in zip(CONFIG, cmds[2:]):
        assert got[1] == params, name
    # the hardware reset: RST low, then high, then >= 120 ms before the first command
    resets = [v for k, v in recorded if k == "R"]
    assert resets[-2:] == [0, 1]
    assert cmds[0][2] >= 120
    # SWRESET: >= 5 ms before any command and >= 120 ms before SLPOUT; SLPOUT: >= 5 ms
    assert cmds[1][2] >= 120 and cmds[2][2] >= 5
    assert sum(1 + len(p) for _, p, _, _ in cmds) == 57  # TFT_INIT_BYTES, what budget counts once


def test_start_up_values_mean_what_the_comments_say():
    p = {code: params for code, _, params in CONFIG}
    assert 2.85 + 0.05 * (p[0xC0][0] & 0x3F) == pytest.approx(4.60)  # GVDD, V
    assert p[0xC1][0] & 0x07 == 0  # BT = 0: VGH = 7 VCI, VGL = -4 VCI
    assert 2.70 + 0.025 * p[0xC5][0] == pytest.approx(4.25)  # VCOMH, V
    assert -2.50 + 0.025 * p[0xC5][1] == pytest.approx(-1.50)  # VCOML, V
    assert p[0xC7][0] >> 7 == 1 and (p[0xC7][0] & 0x7F) - 64 == -58  # nVM, offset VMF - 64
    assert p[0x36][0] & 0x20 and p[0x36][0] & 0x08  # MV: landscape; BGR
    assert p[0x3A][0] & 0x07 == 0b101 and (p[0x3A][0] >> 4) & 0x07 == 0b101  # 16 bits per pixel, both interfaces
    assert p[0xB1] == [0, 24]  # fosc / 1, 24 clocks a line
    assert (p[0xB6][0] >> 2) & 3 == 2 and p[0xB6][1] >> 7 == 1 and p[0xB6][1] & 0x0F == 2  # interval scan, REV, ISC
    assert (p[0xB6][2] + 1) * 8 == 320  # NL: driven lines
    assert p[0x26] == [0x01]  # gamma curve 1


@pytest.fixture(scope="module")
def stream_driver(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stream")
    return compile_c([ROOT / "tests" / "c" / "tft_stream_driver.c", RUNTIME / "core" / "tft_ili9340.c",
                      RUNTIME / "host" / "host_ili9340.c"], tmp / "tft_stream_driver", includes=[CFG, *RUNTIME_INCLUDES])


def run_stream(exe, name):
    out = subprocess.run([str(exe), name], capture_output=True, text=True, check=True, timeout=RUN).stdout
    return dict(line.split("=", 1) for line in out.splitlines())


def test_the_start_up_decodes_clean_and_the_panel_shows_the_picture(stream_driver):
    r = run_stream(stream_driver, "good")
    assert r == {"errors": "0", "showing": "1", "first": ""}


@pytest.mark.parametrize("name, why", [
    ("no_wait", "within 5 ms of a reset"),
    ("early_slpout", "SLPOUT within 120 ms of a reset"),
    ("cs_high", "CS is high"),
    ("no_colmod", "pixels before COLMOD selects 16 bits"),
    ("args", "parameter count"),
    ("unknown", "not an ILI9340 command"),
    ("off_panel", "window off the panel"),
    ("mid_pixel", "inside a 16-bit pixel"),
    ("no_window", "RAMWR before CASET and PASET set the window"),
])
def test_the_decoder_refuses_what_the_controller_would(stream_driver, name, why):
    r = run_stream(stream_driver, name)
    assert int(r["errors"]) >= 1 and why in r["first"], r


CASET, PASET, RAMWR = 0x2A, 0x2B, 0x2C


def _scripted(tmp_path, script: str):
    """tests/c/tft_record.c's script after the start-up: its pin events, and
    its commands as (command, parameter bytes)."""
    exe = compile_c([ROOT / "tests" / "c" / "tft_record.c", RUNTIME / "core" / "tft_ili9340.c"], tmp_path / "rec",
                    includes=[CFG, *RUNTIME_INCLUDES])
    out = subprocess.run([str(exe), script], capture_output=True, text=True, check=True, timeout=RUN).stdout
    lines = out.splitlines()
    ev = [(k, int(v, 16) if k in "CD" else int(v)) for k, v in (ln.split() for ln in lines[lines.index("X 0") + 1:])]
    return ev, [(c, bytes(d)) for c, d, _, _ in commands(ev)]


def _words(*v) -> bytes:
    """16-bit parameters, MSB first."""
    return b"".join(x.to_bytes(2, "big") for x in v)


def test_scattered_pixels_on_the_wire(tmp_path):
    """tft_put: a run of adjacent pixels shares one window and one RAMWR, up
    to TFT_SPAN_MAX (4) of them; a window starts at its span's first pixel
    and ends at the last column (319), sent before the span's length is
    known; PASET only where the row changes, CASET only where the column
    does."""
    ev, got = _scripted(tmp_path, "put")
    w = _words
    assert got == [(PASET, w(5, 5)), (CASET, w(10, 319)), (RAMWR, w(0xA1A2, 0xB1B2, 0xC1C2, 0xD1D2)),
                   (CASET, w(14, 319)), (RAMWR, w(0xE1E2)), (CASET, w(20, 319)), (RAMWR, w(0xF1F2)),
                   (PASET, w(6, 6)), (RAMWR, w(0x1112)), (CASET, w(3, 319)), (RAMWR, w(0x2122))]
    assert ev[0] == ("S", 1) and ev[-1] == ("S", 0)


def test_a_run_hands_its_window_on(tmp_path):
    """tft_end leaves the window a run last set for the driver's rectangles
    (a rectangle on it sends no CASET or PASET), and tft_begin takes the
    rectangles' window back (a window that does not end at the last
    column, or spans rows, is sent again)."""
    _, got = _scripted(tmp_path, "handoff")
    w = _words
    assert got == [(PASET, w(6, 6)), (CASET, w(3, 319)), (RAMWR, w(0x0101)),
                   (RAMWR, w(*[0x0202] * 317)),
                   (CASET, w(5, 6)), (PASET, w(0, 1)), (RAMWR, w(*[0x0303] * 4)),
                   (PASET, w(0, 0)), (CASET, w(5, 319)), (RAMWR, w(0x0404)), (PASET, w(1, 1)), (RAMWR, w(0x0505))]
