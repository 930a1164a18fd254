"""What the TFT shows, without a board: the shared drawing code (draw.c over
the ILI9340 driver, decoded by the host layer), its SPI byte counts, and our
PNG and GIF encoders, checked with independent decoders written here."""
from __future__ import annotations

import re
import struct
import subprocess
import zlib

import pytest

from .conftest import ROOT, RUNTIME, RUNTIME_INCLUDES, compile_c
from .deadline import RUN

W, H = 320, 240


def read_ppm(path):
    data = path.read_bytes()
    head = b"P6\n%d %d\n255\n" % (W, H)
    assert data.startswith(head)
    return data[len(head):]


def decode_png(path) -> tuple[int, int, bytes]:
    """(width, height, RGB bytes) of a truecolour 8-bit PNG, checking every
    chunk's CRC, the IEND and each row's filter byte."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert crc == zlib.crc32(kind + body), kind
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert kind == b"IEND" and ihdr is not None and ihdr[2:] == (8, 2, 0, 0, 0)
    w, h = ihdr[:2]
    raw = zlib.decompress(idat)  # also checks the Adler-32
    rows = [raw[y * (1 + 3 * w):(y + 1) * (1 + 3 * w)] for y in range(h)]
    assert all(r[0] == 0 for r in rows)
    return w, h, b"".join(r[1:] for r in rows)


def read_png(path):
    """RGB bytes of a W x H frame."""
    w, h, rgb = decode_png(path)
    assert (w, h) == (W, H)
    return rgb


def read_gif(path):
    """Frames (lists of palette indices), the palette and the delays."""
    d = path.read_bytes()
    assert d[:6] == b"GIF89a"
    w, h, flags = struct.unpack("<HHB", d[6:11])
    assert (w, h) == (W, H) and flags & 0x80
    ncol = 2 << (flags & 7)
    pal = d[13:13 + 3 * ncol]
    pos, frames, delays = 13 + 3 * ncol, [], []
    while d[pos] != 0x3B:
        if d[pos] == 0x21:  # extension: skip its sub-blocks, keep the delay
            label, pos = d[pos + 1], pos + 2
            while d[pos]:
                if label == 0xF9:
                    delays.append(struct.unpack("<H", d[pos + 2:pos + 4])[0])
                pos += d[pos] + 1
            pos += 1
            continue
        assert d[pos] == 0x2C
        assert struct.unpack("<HHHHB", d[pos + 1:pos + 10]) == (0, 0, W, H, 0)
        min_size, pos = d[pos + 10], pos + 11
        data = b""
        while d[pos]:
            data += d[pos + 1:pos + 1 + d[pos]]
            pos += d[pos] + 1
        pos += 1
        frames.append(lzw_decode(data, min_size))
    return frames, pal, delays


def lzw_decode(data, min_size):
    clear, eoi = 1 << min_size, (1 << min_size) + 1
    bits = int.from_bytes(data, "little")
    nbits, pos, width = len(data) * 8, 0, min_size + 1
    table, prev, out = None, None, []
    while pos + width <= nbits:
        code = (bits >> pos) & ((1 << width) - 1)
        pos += width
        if code == clear:
            table = [[i] for i in range(clear)] + [None, None]
            width, prev = min_size + 1, None
            continue
        if code == eoi:
            break
        if prev is None:
            entry = table[code]
        else:
            entry = table[code] if code < len(table) else prev + [prev[0]]
            if len(table) < 4096:
                table.append(prev + [entry[0]])
        out.extend(entry)
        prev = entry
        if len(table) == (1 << width) and width < 12:
            width += 1
    return out


def rgb565_to_332(r, g, b):
    # the 565 value the 8-bit channels came from, then its top 3/3/2 bits
    c = ((r * 31 + 127) // 255) << 11 | ((g * 63 + 127) // 255) << 5 | ((b * 31 + 127) // 255)
    return (c >> 13) << 5 | ((c >> 8) & 7) << 2 | ((c >> 3) & 3)


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("draw")
    exe = compile_c([ROOT / "tests" / "c" / "draw_driver.c", RUNTIME / "core" / "draw.c", RUNTIME / "core" / "font5x7.c",
                     RUNTIME / "core" / "tft_ili9340.c", RUNTIME / "host" / "platform_host.c", RUNTIME / "host" / "host_ili9340.c",
                     RUNTIME / "host" / "host_image.c"],
                    tmp / "draw_driver", includes=[ROOT / "tests" / "c" / "draw_cfg", *RUNTIME_INCLUDES])
    out = subprocess.run([str(exe), str(tmp / "s.png"), str(tmp / "s.ppm")], capture_output=True, text=True,
                         check=True, timeout=RUN).stdout
    cost = {k: int(v) for k, v in (line.split("=") for line in out.split())}
    rgb = read_ppm(tmp / "s.ppm")
    assert read_png(tmp / "s.png") == rgb
    px = lambda x, y: tuple(rgb[3 * (y * W + x):3 * (y * W + x) + 3])  # noqa: E731
    return cost, px


class Windows:
    """SPI bytes of windows as the driver sends them: CASET + 4 and PASET + 4
    only for the half that differs from the controller's current window,
    RAMWR, then 2 bytes per pixel."""

    def __init__(self, cols=None, rows=None):
        self.cols, self.rows = cols, rows

    def send(self, x0, y0, x1, y1):
        n = 1 + 2 * (x1 - x0 + 1) * (y1 - y0 + 1)
        n += 5 * ((x0, x1) != self.cols) + 5 * ((y0, y1) != self.rows)
        self.cols, self.rows = (x0, x1), (y0, y1)
        return n

    def pixels(self, pts):
        return sum(self.send(x, y, x, y) for x, y in pts if 0 <= x < W and 0 <= y < H)


def circle_points(cx, cy, r):
    """plat_draw_circle's pixels in its order."""
    x, y, d, out = r, 0, 1 - r, []
    while y <= x:
        out += [(cx + x, cy + y), (cx - x, cy - y)]
        if y:
            out += [(cx + x, cy - y), (cx - x, cy + y)]
        if x != y:
            out += [(cx + y, cy + x), (cx - y, cy - x)]
            if y:
                out += [(cx - y, cy + x), (cx + y, cy - x)]
        y += 1
        if d < 0:
            d += 2 * y + 1
        else:
            x -= 1
            d += 2 * (y - x) + 1
    return out


def line_points(x0, y0, x1, y1):
    """plat_draw_line's pixels in its order (Bresenham)."""
    dx, sx = abs(x1 - x0), 1 if x0 < x1 else -1
    dy, sy = -abs(y1 - y0), 1 if y0 < y1 else -1
    err, out = dx + dy, []
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return out
        e2 = 2 * err
        if e2 >= dy:
            err, x0 = err + dy, x0 + sx
        if e2 <= dx:
            err, y0 = err + dx, y0 + sy


def test_spi_bytes_are_what_the_ili9340_driver_sends(scene):
    cost, _ = scene
    # CASET + 4, PASET + 4, RAMWR = 11 bytes per window, then 2 per pixel;
    # a half of the window equal to the controller's is not sent again
    # SWRESET, SLPOUT, the datasheet's configuration (power, VCOM, MADCTL,
    # COLMOD, frame rate, display function, gamma: 54 bytes), DISPON
    assert cost["init"] == 57
    assert cost["tft_errors"] == 0 and cost["tft_showing"] == 1
    assert cost["fill_screen"] == 11 + 2 * W * H
    assert cost["pixel"] == 13 and cost["pixel_off"] == 0
    assert cost["rect_clipped"] == 11 + 2 * 20 * 10
    # the rows' windows stay: each pixel on the row of the one before costs 8
    win = Windows((300, 319), (230, 239))
    circle = circle_points(100, 100, 20)
    assert cost["circle"] == win.pixels(circle) < 13 * len(circle)
    win = Windows()  # (after the filled circle's spans, not modelled here)
    line = line_points(10, 200, 60, 180)
    assert len(line) == 51  # 50 columns: one pixel per column
    assert cost["line"] == win.pixels(line) == 8 * 51 + 5 * len({y for _, y in line})
    # one 6x8 cell window per character; the cells share their rows
    assert cost["text"] == 10 + 5 * 5 + 6 * (1 + 2 * 6 * 8)
    assert cost["text_clipped"] == 11 + 2 * 4 * 8  # 'A' cut at the right edge, 'B' not sent
    assert cost["text_end"] == 10 + 6 * 6


def test_circle_pixels(scene):
    cost, px = scene
    white = (255, 255, 255)
    on = {(x, y) for x in range(70, 131) for y in range(70, 131) if px(x, y) == white}
    assert len(on) == len(circle_points(100, 100, 20))  # every outline pixel sent once
    for x, y in on:
        assert abs(((x - 100) ** 2 + (y - 100) ** 2) ** 0.5 - 20) < 0.75
    for x, y in on:  # symmetric in both axes and the diagonal
        assert (200 - x, y) in on and (x, 200 - y) in on and (y, x) in on
    assert (120, 100) in on and (100, 80) in on and (101, 100) not in on


def test_filled_circle_and_clipped_rect(scene):
    _, px = scene
    yellow = (255, 255, 0)
    disc = {(x, y) for x in range(185, 216) for y in range(45, 76) if px(x, y) == yellow}
    assert disc == {(x, y) for x in range(185, 216) for y in range(45, 76)
                    if (x - 200) ** 2 + (y - 60) ** 2 <= 110}
    assert px(300, 230) == px(319, 239) == (0, 255, 0) and px(299, 230) == (0, 0, 0)


def font_rows():
    src = (RUNTIME / "core" / "font5x7.c").read_text()
    rows = re.findall(r"\{(0x[0-9A-F]{2}(?:, 0x[0-9A-F]{2}){6})\}", src)
    assert len(rows) == 95
    return [[int(v, 16) for v in r.split(", ")] for r in rows]


def test_text_uses_the_font_table(scene):
    _, px = scene
    font = font_rows()
    for i, ch in enumerate("Hi 42!"):
        g = font[ord(ch) - 32]
        for y in range(8):
            for x in range(6):
                on = y < 7 and x < 5 and (g[y] >> (4 - x)) & 1
                assert px(10 + 6 * i + x, 10 + y) == ((255, 255, 255) if on else (0, 0, 255)), (ch, x, y)


def test_font_glyphs_are_distinct_and_inside_the_cell():
    font = font_rows()
    assert all(0 <= v < 32 for g in font for v in g)
    printable = [tuple(g) for g in font[1:]]  # all but the space
    assert len(set(printable)) == len(printable) and all(any(g) for g in printable)


def test_host_writes_png_gif_and_ppm_of_the_same_frame(default_build, tmp_path):
    _, exe, _ = default_build
    png, ppm, gif = tmp_path / "f.png", tmp_path / "f.ppm", tmp_path / "f.gif"
    subprocess.run([str(exe), "--frames", "12", "--png", str(png), "--screenshot", str(ppm), "--gif", str(gif),
                    "--gif-frames", "12"], check=True, capture_output=True, timeout=RUN)
    rgb = read_ppm(ppm)
    assert read_png(png) == rgb
    frames, pal, delays = read_gif(gif)
    assert len(frames) == 12 and delays == [3] * 12  # 30 fps -> 3/100 s
    last = frames[-1]
    assert len(last) == W * H
    assert last == [rgb565_to_332(*rgb[3 * i:3 * i + 3]) for i in range(W * H)]
    assert frames[0] != frames[-1]  # the flock moved
    assert pal[3 * 255:3 * 256] == b"\xff\xff\xff" and pal[:3] == b"\0\0\0"


def test_gif_alone_runs_headless(default_build, tmp_path):
    _, exe, _ = default_build
    gif = tmp_path / "a.gif"
    subprocess.run([str(exe), "--gif", str(gif), "--gif-frames", "3"], check=True, capture_output=True,
                   stdin=subprocess.DEVNULL, timeout=60)
    frames, _, _ = read_gif(gif)
    assert len(frames) == 3
