"""The Raspberry Pi Pico's GPIOs on its header, from the Pico datasheet
(pinout, section 2.1): GP0-GP22 and GP26-GP28 are on the header; the others
are wired on the board. The one Python definition: the spec's schema checks
every pin of board.rp2040 (and every pin of a run of consecutive pins, as
the VGA colour pins from rgb_base) against it."""
from __future__ import annotations

HEADER = tuple(range(0, 23)) + (26, 27, 28)
NOT_ON_HEADER = {23: "the regulator's mode pin", 24: "VBUS sense", 25: "the LED", 29: "VSYS sense"}
RGB_PINS = 4  # rgb_base's run: green low, green high, blue, red

HEADER_TEXT = "GP0-GP22 or GP26-GP28"


def why_not(pin: int) -> str:
    """Why GPn is not on the header, for an error."""
    return NOT_ON_HEADER.get(pin, "the RP2040 has GP0-GP29 only")


def missing(first: int, count: int = 1) -> list[int]:
    """The pins of first..first+count-1 that are not on the header."""
    return [p for p in range(first, first + count) if p not in HEADER]
