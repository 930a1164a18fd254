"""The board's clocks as the firmware sets them (firmware_runtime/pic32/board_pins.h:
40 MHz system clock from the 8 MHz FRC through the PLL, peripheral bus
undivided), and the UART baud rates they can make."""
from __future__ import annotations

from codegen.boards.registry import PIC32

SYSCLK_HZ = PIC32.clock_hz
PBCLK_HZ = SYSCLK_HZ

# The rates terminals, pyserial and the course's interface offer.
STANDARD_BAUDS = (1200, 2400, 4800, 9600, 14400, 19200, 28800, 38400, 57600, 76800, 115200, 230400,
                  250000, 460800, 500000, 921600, 1000000)
MAX_BAUD_ERROR = 0.03


def uart_baud(baud: int, pbclk: int = PBCLK_HZ) -> tuple[int, float]:
    """(U2BRG, the rate it really gives) for the high-speed mode the firmware
    uses (BRGH = 1: rate = PBCLK / (4 (BRG + 1)); platform_pic32.c rounds the
    same way)."""
    brg = (pbclk + 2 * baud) // (4 * baud) - 1
    return brg, pbclk / (4 * (brg + 1))


def baud_problem(baud: int) -> str | None:
    """Why the PIC32 cannot talk at baud, or None."""
    usable = [b for b in STANDARD_BAUDS if _error(b) <= MAX_BAUD_ERROR]
    if baud not in STANDARD_BAUDS:
        return f"baud {baud} is not a standard UART rate; use one of {', '.join(map(str, usable))}"
    if _error(baud) > MAX_BAUD_ERROR:
        brg, real = uart_baud(baud)
        return (f"baud {baud}: the PIC32's UART makes {real:.0f} at {PBCLK_HZ // 1_000_000} MHz "
                f"(more than {MAX_BAUD_ERROR:.0%} off); use one of {', '.join(map(str, usable))}")
    return None


def _error(baud: int) -> float:
    brg, real = uart_baud(baud)
    if not 0 <= brg <= 0xFFFF:
        return float("inf")
    return abs(real - baud) / baud
