"""UF2, the file the RP2040's boot ROM takes over USB mass storage (hold
BOOTSEL, plug in, copy the file): 512-byte blocks, each carrying 256 bytes
of the flash image and where they go. picotool writes it too, but it is not
available offline, and the format is small.

A block: magic 0x0A324655 "UF2\\n", magic 0x9E5D5157, flags (0x2000: the
family id is present), target address, payload size (256), block number,
block count, family id (0xe48bff56: RP2040), 476 bytes of payload (the
256 used, the rest zero), final magic 0x0AB16F30."""
from __future__ import annotations

import struct

MAGIC_START0, MAGIC_START1, MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
FLAG_FAMILY_ID = 0x00002000
RP2040_FAMILY = 0xE48BFF56
FLASH_BASE = 0x10000000
PAYLOAD = 256
DATA_AREA = 476


def uf2_from_bin(image: bytes, base: int = FLASH_BASE, family: int = RP2040_FAMILY) -> bytes:
    """The UF2 of a flash image that starts at base (the SDK's .bin: from 0x10000000)."""
    count = (len(image) + PAYLOAD - 1) // PAYLOAD
    out = bytearray()
    for n in range(count):
        chunk = image[n * PAYLOAD:(n + 1) * PAYLOAD].ljust(PAYLOAD, b"\0")
        out += struct.pack("<8I", MAGIC_START0, MAGIC_START1, FLAG_FAMILY_ID, base + n * PAYLOAD, PAYLOAD, n,
                           count, family)
        out += chunk.ljust(DATA_AREA, b"\0")
        out += struct.pack("<I", MAGIC_END)
    return bytes(out)


def parse_uf2(data: bytes) -> dict[int, bytes]:
    """address -> payload of every block (tests read a UF2 back with it); ValueError on a bad block."""
    if len(data) % 512:
        raise ValueError(f"a UF2 is whole 512-byte blocks; this is {len(data)} bytes")
    out = {}
    for off in range(0, len(data), 512):
        m0, m1, flags, addr, size, n, count, family = struct.unpack_from("<8I", data, off)
        (end,) = struct.unpack_from("<I", data, off + 508)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END) or size > DATA_AREA:
            raise ValueError(f"block {off // 512}: bad magic or size")
        out[addr] = data[off + 32:off + 32 + size]
    return out
