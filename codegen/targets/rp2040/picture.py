"""The VGA screen's picture: the 4-bit framebuffer (firmware_runtime/core/fb4.h:
two pixels a byte, the even column in the low nibble; bit 3 red, bit 2
blue, bits 1..0 green) read out of the emulated SRAM, as a PNG.

The colours are what the lab's resistor DAC puts on the VGA lines (0.7 V
full scale): red and blue on or off, green in four steps."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

LEVEL2 = (0, 255)
LEVEL4 = (0, 85, 170, 255)
PALETTE = [(LEVEL2[c >> 3], LEVEL4[c & 3], LEVEL2[(c >> 2) & 1]) for c in range(16)]  # (r, g, b) of each colour


def pixels(fb: bytes, width: int, height: int) -> list[list[int]]:
    """Rows of colour numbers 0..15."""
    stride = width // 2
    if len(fb) != stride * height:
        raise ValueError(f"a {width}x{height} framebuffer is {stride * height} bytes, not {len(fb)}")
    return [[(fb[y * stride + x // 2] >> (4 * (x & 1))) & 15 for x in range(width)] for y in range(height)]


def write_png(path: Path, fb: bytes, width: int, height: int) -> Path:
    raw = bytearray()
    for row in pixels(fb, width, height):
        raw.append(0)  # filter: none
        for c in row:
            raw += bytes(PALETTE[c])

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b""))
    path.write_bytes(png)
    return path
