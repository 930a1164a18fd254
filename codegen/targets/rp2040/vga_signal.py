"""One VGA frame decoded from the emulated GPIO pins (runner/run.mjs
--gpio-log: every change of the pins as "CYCLE BITS"), as a monitor would
take it: the line and frame timing from the sync pins, then each visible
pixel sampled in the middle of its pixel clock, counted from the hsync edge.

The 640x480 at 60 Hz standard (25.175 MHz pixel clock; 25 MHz here, 125 MHz
/ 5, as the course's lab, 0.7 % slow): a line is 640 visible pixels, a
front porch of 16, a sync pulse of 96, a back porch of 48; a frame 480
visible lines, front porch 10, sync 2, back porch 33; both sync pulses low."""
from __future__ import annotations

from dataclasses import dataclass

H_VISIBLE, H_FRONT, H_SYNC, H_BACK = 640, 16, 96, 48
V_VISIBLE, V_FRONT, V_SYNC, V_BACK = 480, 10, 2, 33
CYCLES_PER_PIXEL = 5  # 125 MHz system clock / 25 MHz pixel clock
MAX_SHIFT = 8  # pixels: how far from the standard's place the decoder looks for the picture


@dataclass(frozen=True)
class Pins:
    """Bit positions in the log's BITS."""
    hsync: int
    vsync: int
    rgb: int  # the first of 4: green low, green high, blue, red = colour bits 0..3


@dataclass
class Frame:
    line_cycles: int
    hsync_low: int  # cycles
    hsync_idle_high: bool
    frame_lines: int
    vsync_low_lines: float
    vsync_idle_high: bool
    vsync_offset: int  # cycles from the vsync fall to the next hsync fall (the first sync line's)
    front_lines: int  # blank lines between the last visible line and the vsync pulse
    back_lines: int  # lines from the vsync rise to the first visible line (the one the pixels show up in)
    pixel_delay: int  # cycles from the standard's first pixel to ours
    pixels: list[list[int]]  # 480 rows of 640 colour numbers
    blank_ok: bool  # rgb black outside the visible area


def parse(text: str) -> list[tuple[int, int]]:
    return [(int(c), int(b)) for c, b in (ln.split() for ln in text.splitlines() if ln.strip())]


def _edges(changes, bit: int, falling: bool) -> list[int]:
    out, prev = [], None
    for t, bits in changes:
        v = (bits >> bit) & 1
        if prev is not None and v != prev and v == (0 if falling else 1):
            out.append(t)
        prev = v
    return out


def _level_at(changes, t: int) -> int:
    """BITS in force at cycle t (binary search over the changes)."""
    lo, hi = 0, len(changes) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if changes[mid][0] <= t:
            lo = mid
        else:
            hi = mid - 1
    return changes[lo][1]


def decode(changes: list[tuple[int, int]], pins: Pins, reference: list[list[int]] | None = None) -> Frame:
    """The first whole frame: from the first vsync fall seen to the next."""
    h_fall, h_rise = _edges(changes, pins.hsync, True), _edges(changes, pins.hsync, False)
    v_fall, v_rise = _edges(changes, pins.vsync, True), _edges(changes, pins.vsync, False)
    if len(v_fall) < 2:
        raise ValueError(f"fewer than two vsync pulses in the log ({len(v_fall)})")
    v0, v1 = v_fall[0], v_fall[1]
    lines = [t for t in h_fall if v0 - 4 * H_VISIBLE * CYCLES_PER_PIXEL <= t <= v1]
    periods = {b - a for a, b in zip(lines, lines[1:])}
    if len(periods) != 1:
        raise ValueError(f"the line period varies: {sorted(periods)} cycles")
    line = periods.pop()
    lows = {next(r for r in h_rise if r > f) - f for f in lines[:-1]}
    if len(lows) != 1:
        raise ValueError(f"the hsync pulse varies: {sorted(lows)} cycles")
    v0_rise = next(r for r in v_rise if r > v0)
    first = min(t for t in lines if t >= v0)  # the first line the vsync pulse covers, as a monitor counts
    visible0 = first + (V_SYNC + V_BACK) * line  # then sync, back porch, the visible lines
    blank_start = visible0 + V_VISIBLE * line
    front = sum(1 for t in h_fall if blank_start <= t < v1)
    rgb = lambda bits: (bits >> pins.rgb) & 15  # noqa: E731
    h0 = (H_SYNC + H_BACK) * CYCLES_PER_PIXEL  # the standard's first pixel, from the hsync fall
    # Where our pixels start against the standard's first pixel: the colour changes' phase within the pixel
    # clock, and the whole pixels by the picture itself (as a monitor's horizontal position is adjusted):
    # the shift of at most MAX_SHIFT pixels either way at which the most lit pixels land on lit pixels
    # of `reference` (the framebuffer), or, without one, the earliest lit pixel.
    lit = [(j, t - (visible0 + j * line) - h0) for t, bits in changes if visible0 <= t < blank_start
           and rgb(bits) != 0 for j in [(t - visible0) // line]]
    phase = lit[0][1] % CYCLES_PER_PIXEL if lit else 0

    def sample(d):
        return [[rgb(_level_at(changes, visible0 + j * line + h0 + d + k * CYCLES_PER_PIXEL + 2))
                 for k in range(H_VISIBLE)] for j in range(V_VISIBLE)]

    if reference is not None and lit:
        def score(d):
            return sum(1 for j, dt in lit if 0 <= (k := (dt - d) // CYCLES_PER_PIXEL) < H_VISIBLE
                       and reference[j][k] != 0)
        delay = max(range(phase - MAX_SHIFT * CYCLES_PER_PIXEL, phase + (MAX_SHIFT + 1) * CYCLES_PER_PIXEL,
                          CYCLES_PER_PIXEL), key=score)
    else:
        delay = min((dt for _, dt in lit if dt >= -CYCLES_PER_PIXEL), default=0)
    pixels = sample(delay)
    # black from the front porch to the first visible pixel, and in every line's blanking
    blank_ok = all(rgb(b) == 0 for t, b in changes if blank_start <= t < v1 or v0 <= t < visible0 + h0)
    in_pixels = lambda t: h0 + delay <= (t - visible0) % line < h0 + delay + H_VISIBLE * CYCLES_PER_PIXEL  # noqa: E731
    blank_ok = blank_ok and all(rgb(b) == 0 for t, b in changes if visible0 <= t < blank_start and not in_pixels(t))
    idle = _level_at(changes, v0 - 1)
    return Frame(line_cycles=line, hsync_low=lows.pop(), hsync_idle_high=bool((idle >> pins.hsync) & 1),
                 frame_lines=round((v1 - v0) / line), vsync_low_lines=(v0_rise - v0) / line,
                 vsync_idle_high=bool((idle >> pins.vsync) & 1), vsync_offset=first - v0, front_lines=front,
                 back_lines=sum(1 for t in h_fall if v0_rise <= t < visible0), pixel_delay=delay, pixels=pixels,
                 blank_ok=blank_ok)

SIGNAL_CYCLES = 4_600_000  # start-up (about 0.2 M cycles) and two whole frames of 2.1 M


def capture(elf, board, folder):
    """Run the board image with its PIO for two frames; returns (the first whole frame decoded, the
    framebuffer rows before it, after it). board: the spec's board.rp2040."""
    from pathlib import Path

    from codegen.targets.rp2040.emulator import run_image, symbol
    from codegen.targets.rp2040.picture import pixels

    folder = Path(folder)
    addr, size = symbol(elf, "fb4_pixels")
    first = min(board.hsync, board.vsync, board.rgb_base)
    count = max(board.hsync, board.vsync, board.rgb_base + 3) - first + 1
    log, before, after = folder / "vga_pins.log", folder / "fb_before.fb4", folder / "fb_after.fb4"
    run_image(elf, max_cycles=SIGNAL_CYCLES, pio=True, dumps=((addr, size, before, 2_000_000), (addr, size, after)),
              gpio_log=(log, first, count, 0))
    fb0 = pixels(before.read_bytes(), H_VISIBLE, V_VISIBLE)
    fb1 = pixels(after.read_bytes(), H_VISIBLE, V_VISIBLE)
    pins = Pins(board.hsync - first, board.vsync - first, board.rgb_base - first)
    return decode(parse(log.read_text()), pins, reference=fb1), fb0, fb1
