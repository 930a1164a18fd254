"""The PIC32MX250F128B's pins and peripheral pin select, held against the
datasheet (DS60001168, written down here with its table numbers) on the
Python side (codegen/boards/pic32/pins.py) and the C side (board_pins.h, the
compile-check register header); a spec naming a pin the part lacks is refused
at its line and column."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from codegen.boards.pic32 import pins
from codegen.spec.board_checks import FIELDS, pps_codes

from .conftest import ROOT, RUNTIME
from .deadline import RUN

# DS60001168 Table 3, pin names for the 28-pin SPDIP/SOIC/SSOP USB devices
# (PIC32MX2XX): package pin -> port pin, for the pins that have one.
DATASHEET_28_PIN_USB = {
    2: "RA0", 3: "RA1", 4: "RB0", 5: "RB1", 6: "RB2", 7: "RB3", 9: "RA2", 10: "RA3", 11: "RB4",
    12: "RA4", 14: "RB5", 15: "VBUS", 16: "RB7", 17: "RB8", 18: "RB9", 21: "RB10", 22: "RB11",
    23: "VUSB3V3", 24: "RB13", 25: "RB14", 26: "RB15",
}

# DS60001168 Table 11-1, input pin selection: the functions of each row and
# the pin each select value picks (28-pin pins only; RPA8/RPA9/RPCn are
# 36/44-pin, RPB6 is not on the USB parts).
DATASHEET_TABLE_11_1 = [
    (("INT4", "T2CK", "IC4", "SS1", "REFCLKI"), {0: "RA0", 1: "RB3", 2: "RB4", 3: "RB15", 4: "RB7"}),
    (("INT3", "T3CK", "IC3", "U1CTS", "U2RX", "SDI1"), {0: "RA1", 1: "RB5", 2: "RB1", 3: "RB11", 4: "RB8"}),
    (("INT2", "T4CK", "IC1", "IC5", "U1RX", "U2CTS", "SDI2", "OCFB"), {0: "RA2", 2: "RA4", 3: "RB13", 4: "RB2"}),
    (("INT1", "T5CK", "IC2", "SS2", "OCFA"), {0: "RA3", 1: "RB14", 2: "RB0", 3: "RB10", 4: "RB9"}),
]

# DS60001168 Table 11-2, output pin selection: the pins of each row and the
# RPxnR value of each function they can carry (28-pin pins only).
DATASHEET_TABLE_11_2 = [
    (("RA0", "RB3", "RB4", "RB15", "RB7"), {"U1TX": 1, "U2RTS": 2, "SS1": 3, "OC1": 5, "C2OUT": 7}),
    (("RA1", "RB5", "RB1", "RB11", "RB8"), {"SDO1": 3, "SDO2": 4, "OC2": 5, "C3OUT": 7}),
    (("RA2", "RA4", "RB13", "RB2"), {"SDO1": 3, "SDO2": 4, "OC4": 5, "OC5": 6, "REFCLKO": 7}),
    (("RA3", "RB14", "RB0", "RB10", "RB9"), {"U1RTS": 1, "U2TX": 2, "SS2": 4, "OC3": 5, "C1OUT": 7}),
]

# DS60001168 section 11 register map: PPS input registers from 0xBF80FA04
# (U2RXR is the 22nd word, 0xBF80FA58), outputs RPA0R at 0xBF80FB00 and
# RPB0R at 0xBF80FB2C, one word per pin number.
U2RXR_ADDR = 0xBF80FA58
RP_BASE = {"A": 0xBF80FB00, "B": 0xBF80FB2C}


def test_the_package_pins_are_the_datasheets():
    ports = {n: name for n, name in DATASHEET_28_PIN_USB.items() if name.startswith("R")}
    assert {p: n for n, p in ports.items()} == pins.PACKAGE_PIN
    assert "RB6" not in pins.PACKAGE_PIN and "RB12" not in pins.PACKAGE_PIN
    assert DATASHEET_28_PIN_USB[15] == "VBUS" and "pin 15 is VBUS" in pins.NOT_ON_PART["RB6"]
    assert DATASHEET_28_PIN_USB[23] == "VUSB3V3" and "pin 23 is VUSB3V3" in pins.NOT_ON_PART["RB12"]
    assert pins.FIXED["SCK1"] == "RB14" and DATASHEET_28_PIN_USB[25] == "RB14"


def test_pps_inputs_are_table_11_1():
    assert sorted(f for fns, _ in DATASHEET_TABLE_11_1 for f in fns) == sorted(pins.PPS_INPUT)
    for functions, codes in DATASHEET_TABLE_11_1:
        for f in functions:
            assert pins.input_pins(f) == {p: c for c, p in codes.items()}, f


def test_pps_outputs_are_table_11_2():
    expect: dict[str, dict[str, int]] = {}
    for row_pins, codes in DATASHEET_TABLE_11_2:
        for f, code in codes.items():
            expect.setdefault(f, {}).update({p: code for p in row_pins})
    assert sorted(expect) == sorted(pins.PPS_OUTPUT)
    for f, want in expect.items():
        assert pins.output_pins(f) == want, f
    assert sorted(pins.rp_pins(), key=pins.pin_key) == sorted(
        (p for row, _ in DATASHEET_TABLE_11_2 for p in row), key=pins.pin_key)


def _defines(path) -> dict[str, str]:
    text = path.read_text()
    return dict(re.findall(r"^#define (\w+) (.+?)\s*(?:/\*.*)?$", text, re.M))


def test_the_compile_check_header_has_only_the_parts_pps_registers():
    d = _defines(RUNTIME / "pic32" / "pic32mx250_compilecheck.h")
    regs = {k: v for k, v in d.items() if re.fullmatch(r"RP[A-C]\d+R", k)}
    assert sorted(regs) == sorted(pins.output_register(p) for p in pins.rp_pins())
    assert "RPB6R" not in d and "RPB12R" not in d
    for name, v in regs.items():
        addr = int(re.search(r"0x([0-9A-F]+)u", v).group(1), 16)
        assert addr == RP_BASE[name[2]] + 4 * int(name[3:-1]), name
    assert int(re.search(r"0x([0-9A-F]+)u", d["U2RXR"]).group(1), 16) == U2RXR_ADDR


def test_board_pins_defaults_are_the_specs_defaults():
    """board_pins.h's fallbacks, the spec model's defaults and the PPS codes agree."""
    from codegen.spec.schema import Board

    b = Board()
    d = _defines(RUNTIME / "pic32" / "board_pins.h")
    want = pps_codes(b.tft.sdo, b.uart.rx, b.uart.tx)
    assert d["BOARD_TFT_SDO_PPS_REG"] == want["sdo_reg"] and d["BOARD_TFT_SDO_PPS_CODE"] == f"{want['sdo_code']}u"
    assert d["BOARD_UART_RX_PPS_CODE"] == f"{want['rx_code']}u"
    assert d["BOARD_UART_TX_PPS_REG"] == want["tx_reg"] and d["BOARD_UART_TX_PPS_CODE"] == f"{want['tx_code']}u"
    for stem, pin in (("TFT_DC", b.tft.dc), ("TFT_CS", b.tft.cs), ("TFT_RST", b.tft.rst), ("TFT_SDO", b.tft.sdo),
                      ("UART_RX", b.uart.rx), ("UART_TX", b.uart.tx), ("TFT_SCK", pins.FIXED["SCK1"])):
        assert (d[f"BOARD_{stem}_PORT"], d[f"BOARD_{stem}_BIT"]) == (pin[1], pin[2:]), stem
    assert set(FIELDS) == {("tft", f) for f in ("dc", "cs", "rst", "sdo")} | {("uart", f) for f in ("rx", "tx")}


GOOD = (ROOT / "spec" / "boids.yaml").read_text()


@pytest.mark.parametrize("board, pin, why, free", [
    ("  tft: {dc: RB12}", "RB12", "package pin 23 is VUSB3V3", "RA0, RA2, RA3, RA4, RB0, RB3, RB4, RB5, RB7"),
    ("  tft: {cs: RB6}", "RB6", "package pin 15 is VBUS", "RA0, RA2, RA3, RA4, RB1, RB3"),
    ("  tft: {sdo: RB6}", "RB6", "package pin 15 is VBUS", "RA2, RA4, RB5, RB8, RB11, RB13"),
])
def test_a_pin_the_part_lacks_is_refused_at_its_line_and_column(tmp_path, board, pin, why, free):
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "x.yaml"
    spec.write_text(GOOD + "board:\n" + board + "\n")
    line = len(GOOD.splitlines()) + 2
    col = board.index(pin) + 1
    res = subprocess.run([sys.executable, "-m", "codegen.commands.cli", "generate", str(spec)], capture_output=True,
                         text=True, timeout=RUN, cwd=ROOT)
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    field = "board.tft." + board.split("{")[1].split(":")[0]
    first = res.stderr.splitlines()[0]
    assert first.startswith(f"{spec}:{line}:{col}: {field}: {pin} is not a pin of the PIC32MX250F128B"), first
    assert why in first and f"free pins that would work: {free}" in first
    assert not (tmp_path / "generated").exists()


def test_an_unroutable_function_names_the_pins_that_would_work(tmp_path):
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "x.yaml"
    spec.write_text(GOOD + "board:\n  uart: {tx: RB11, rx: RB8}\n  tft: {sdo: RB5}\n")
    res = subprocess.run([sys.executable, "-m", "codegen.commands.cli", "check", str(spec)], capture_output=True,
                         text=True, timeout=RUN, cwd=ROOT)
    assert res.returncode == 2
    line = len(GOOD.splitlines()) + 2
    assert (f"{spec}:{line}:14: board.uart.tx: U2TX cannot be mapped to RB11 (peripheral pin select, "
            f"DS60001168 table 11-2); free pins that can carry it: RA3, RB9, RB10") in res.stderr
