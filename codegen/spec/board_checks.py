"""The spec's `board:` wiring against the PIC32MX250F128B (codegen/boards/pic32/pins.py):
every pin on the 28-pin package, every remapped function on a pin PPS can
route it to, no pin used twice. Each error names the pins that would work."""
from __future__ import annotations

from codegen.boards.pic32 import pins
from codegen.spec.errors import SpecIssue

# Spec field -> the PPS function it carries (None: a plain port pin).
FIELDS = {("tft", "dc"): None, ("tft", "cs"): None, ("tft", "rst"): None,
          ("tft", "sdo"): ("output", "SDO1"), ("uart", "rx"): ("input", "U2RX"),
          ("uart", "tx"): ("output", "U2TX")}


def _defaults() -> dict[tuple, str]:
    from codegen.spec.schema import BoardTft, BoardUart

    model = {"tft": BoardTft, "uart": BoardUart}
    return {(sec, f): model[sec].model_fields[f].default for sec, f in FIELDS}


def function_pins(where: tuple) -> dict[str, int]:
    """Pin -> PPS code for a field's function; every pin of the part for a port pin."""
    fn = FIELDS[where]
    if fn is None:
        return {p: 0 for p in pins.PACKAGE_PIN}
    return pins.input_pins(fn[1]) if fn[0] == "input" else pins.output_pins(fn[1])


def board_issues(board: dict, loc8) -> list[SpecIssue]:
    sec = {k: (board.get(k) if isinstance(board.get(k), dict) else {}) for k in ("tft", "uart")}
    wanted = {where: sec[where[0]].get(where[1], d) for where, d in _defaults().items()}
    fixed = {p: ("tft", "sck") for p in pins.FIXED.values()}  # SCK1
    out, used = [], dict(fixed)
    for where, pin in wanted.items():
        if not isinstance(pin, str):
            continue  # the schema pass reports it
        loc = ("board",) + where
        taken = set(fixed) | {p for w, p in wanted.items() if w != where and isinstance(p, str)}
        free = ", ".join(p for p in pins.on_part(function_pins(where)) if p not in taken)
        fn = FIELDS[where]
        if pin not in pins.PACKAGE_PIN:
            why = pins.NOT_ON_PART.get(pin, "the 28-pin package has RA0-RA4 and RB0-RB15 except RB6 and RB12")
            out.append(loc8.issue(loc, f"{pin} is not a pin of the {pins.PART} in its 28-pin package ({why}); "
                                  f"free pins that would work: {free}"))
            continue
        if fn is not None and pin not in function_pins(where):
            table = "11-1" if fn[0] == "input" else "11-2"
            out.append(loc8.issue(loc, f"{fn[1]} cannot be mapped to {pin} (peripheral pin select, DS60001168 "
                                  f"table {table}); free pins that can carry it: {free}"))
        if pin in used:
            what = pin if where[1] in sec[where[0]] else f"{pin} (the default of board.{'.'.join(where)})"
            out.append(loc8.issue(loc, f"{what} is already used by board.{'.'.join(used[pin])}; "
                                  f"free pins that would work: {free}"))
        used[pin] = where
    return out


def pps_codes(tft_sdo: str, uart_rx: str, uart_tx: str) -> dict:
    """The PPS registers and codes boids_config.h passes to board_pins.h."""
    return {"sdo_reg": pins.output_register(tft_sdo), "sdo_code": pins.output_pins("SDO1")[tft_sdo],
            "rx_code": pins.input_pins("U2RX")[uart_rx], "tx_reg": pins.output_register(uart_tx),
            "tx_code": pins.output_pins("U2TX")[uart_tx]}
