"""xorshift32, the PRNG shared with the firmware. Twin of firmware_runtime/core/rng.h."""
from __future__ import annotations

RNG_ZERO_SEED = 0x9E3779B9
_M = 0xFFFFFFFF


class Rng:
    __slots__ = ("s",)

    def __init__(self, seed: int) -> None:
        seed &= _M
        self.s = seed if seed else RNG_ZERO_SEED

    def next(self) -> int:
        x = self.s
        x ^= (x << 13) & _M
        x ^= x >> 17
        x ^= (x << 5) & _M
        self.s = x
        return x

    def range(self, lo: int, hi: int) -> int:
        """lo + next % (hi - lo); lo (after drawing) when hi <= lo, as in C."""
        v = self.next()
        if hi <= lo:
            return lo
        return lo + v % (hi - lo)
