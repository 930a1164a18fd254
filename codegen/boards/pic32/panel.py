"""The panel the board drives, apart from the world the flock lives in.

`display: {width, height}` is the world: the coordinates the rules, the
simulator and parity see. The board draws it on the lab's ILI9340, whose
glass is 240 columns x 320 rows; MADCTL's row/column exchange bit (MV,
`board.tft.madctl`, set in the default 0x28) turns it to 320x240 landscape.

A world that fits is drawn 1:1 from the top-left corner, as always. A larger
one is drawn scaled to fit, by one ratio the generator computes here so the
board needs no division and no float: panel = (world px * mul) >> shift, the
ratio rounded down so the world's last pixel still lands on the panel
(640x480 on 320x240: mul 1, shift 1, half scale). Only positions scale: text
and boid shapes keep their pixel size, so they stay legible. The flock's
dynamics do not change (drawing reads the state, never writes it).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

ILI9340_GLASS = (240, 320)  # columns x rows of the glass (ILI9340 datasheet: 240RGB x 320)
MADCTL_MV = 0x20  # MADCTL bit 5: row/column exchange (ILI9340 datasheet, MADCTL 36h)
SHIFT_MAX = 12  # ratio resolution 1/4096; with |world px| <= 65536 the product stays below 2^28


@dataclass(frozen=True)
class PanelView:
    width: int  # the panel as addressed (CASET columns x PASET rows)
    height: int
    mul: int  # panel px = (world px * mul) >> shift
    shift: int

    @property
    def scaled(self) -> bool:
        return (self.mul, self.shift) != (1, 0)

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.mul, 1 << self.shift)

    def to_panel(self, world_px: int) -> int:
        """What the firmware computes (panel_view.h): an arithmetic shift, floor."""
        return (world_px * self.mul) >> self.shift

    def describe(self, world_w: int, world_h: int) -> str:
        r = self.ratio
        how = "1:1" if not self.scaled else f"scaled by {r.numerator}/{r.denominator}"
        return f"world {world_w}x{world_h} on the ILI9340's {self.width}x{self.height} panel, {how}"


def panel_size(madctl: int) -> tuple[int, int]:
    """(width, height) the driver addresses: landscape when MV is set."""
    cols, rows = ILI9340_GLASS
    return (rows, cols) if madctl & MADCTL_MV else (cols, rows)


def panel_view(world_w: int, world_h: int, madctl: int) -> PanelView:
    return fit_view(world_w, world_h, *panel_size(madctl))


def fit_view(world_w: int, world_h: int, pw: int, ph: int) -> PanelView:
    """The world on a pw x ph screen: 1:1 when it fits, else the largest
    ratio mul / 2^shift that fits (any screen: the ILI9340, the RP2040's VGA)."""
    if world_w <= pw and world_h <= ph:
        return PanelView(pw, ph, 1, 0)
    shift = SHIFT_MAX
    # floor: (world - 1) * mul >> shift < world * (panel / world) = panel
    mul = min((pw << shift) // world_w, (ph << shift) // world_h)
    while mul % 2 == 0 and shift > 0:
        mul //= 2
        shift -= 1
    return PanelView(pw, ph, mul, shift)


def spec_panel(spec) -> PanelView:
    return panel_view(spec.display.width, spec.display.height, spec.board.tft.madctl)
