"""The state digest of the lockstep, the twin of firmware_runtime/core/state_io.c:
CRC-32 (zlib's) of the frame, then per kind of state (the model's
STATE_KINDS) its count and each element's fields, then the PRNG's state,
every value as 32-bit little-endian."""
from __future__ import annotations

import struct
import zlib

import numpy as np


def state_bytes(sim, frame: int | None = None) -> bytes:
    """The bytes the digest covers (fixed-point simulations only: the raw
    integers are what the board holds)."""
    if sim.A.name != "fixed":
        raise ValueError("the digest is defined on the fixed-point state")
    parts = [struct.pack("<I", (sim.frame if frame is None else frame) & 0xFFFFFFFF)]
    for kind, fields in sim.model.STATE_KINDS:
        cols = sim.state_columns(kind, [name for name, _ in fields])
        n = len(cols[0])
        parts.append(struct.pack("<i", n))
        if n:
            parts.append(np.stack([np.asarray(c, dtype=np.int64) for c in cols], axis=1).astype("<i4").tobytes())
    parts.append(struct.pack("<I", sim.rng.s & 0xFFFFFFFF))
    return b"".join(parts)


def digest(sim, frame: int | None = None) -> int:
    return zlib.crc32(state_bytes(sim, frame))


def digest_text(value: int) -> str:
    return f"{value:08x}"
