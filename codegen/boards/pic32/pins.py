"""The PIC32MX250F128B's pins in its 28-pin SPDIP/SOIC/SSOP package and its
peripheral pin select (PPS), from the PIC32MX1XX/2XX 28/36/44-pin family
datasheet, Microchip DS60001168. The one Python definition: the spec check,
the model's PPS codes and tests/test_pins.py (which holds this module, the C
headers and the datasheet's facts together) all read it.
"""
from __future__ import annotations


PART = "PIC32MX250F128B"

# Package pin of each port pin (DS60001168 Table 3, pin names of the 28-pin
# USB devices). RB6 and RB12 are missing: on the USB parts those package
# pins are VBUS and VUSB3V3 (the general-purpose PIC32MX1XX has them).
PACKAGE_PIN = {
    "RA0": 2, "RA1": 3, "RB0": 4, "RB1": 5, "RB2": 6, "RB3": 7, "RA2": 9, "RA3": 10,
    "RB4": 11, "RA4": 12, "RB5": 14, "RB7": 16, "RB8": 17, "RB9": 18, "RB10": 21,
    "RB11": 22, "RB13": 24, "RB14": 25, "RB15": 26,
}
NOT_ON_PART = {"RB6": "package pin 15 is VBUS", "RB12": "package pin 23 is VUSB3V3"}

# Fixed (not remappable) functions the firmware uses (DS60001168 Table 3:
# pin 25 is ...RPB14/VBUSON/SCK1...; Table 11-2 has no SCK1).
FIXED = {"SCK1": "RB14"}

# PPS groups: the pins of each group in the order of their select code
# (code = position). DS60001168 Table 11-1 (inputs) and Table 11-2 (outputs)
# share them. RPA8, RPA9 and RPCn are 36/44-pin only and RPB6 is not on the
# USB parts; `on_part` drops them.
PPS_GROUPS = {
    1: ("RA0", "RB3", "RB4", "RB15", "RB7", "RC7", "RC0", "RC5"),
    2: ("RA1", "RB5", "RB1", "RB11", "RB8", "RA8", "RC8", "RA9"),
    3: ("RA2", "RB6", "RA4", "RB13", "RB2", "RC6", "RC1", "RC3"),
    4: ("RA3", "RB14", "RB0", "RB10", "RB9", "RC9", "RC2", "RC4"),
}

# Input function -> its group; the function's register is <NAME>R, written
# with the pin's position in the group (DS60001168 Table 11-1).
PPS_INPUT = {
    "INT4": 1, "T2CK": 1, "IC4": 1, "SS1": 1, "REFCLKI": 1,
    "INT3": 2, "T3CK": 2, "IC3": 2, "U1CTS": 2, "U2RX": 2, "SDI1": 2,
    "INT2": 3, "T4CK": 3, "IC1": 3, "IC5": 3, "U1RX": 3, "U2CTS": 3, "SDI2": 3, "OCFB": 3,
    "INT1": 4, "T5CK": 4, "IC2": 4, "SS2": 4, "OCFA": 4,
}

# Output function -> {group: code}; the code goes into the pin's RPxnR
# register (DS60001168 Table 11-2).
PPS_OUTPUT = {
    "U1TX": {1: 1}, "U2RTS": {1: 2}, "SS1": {1: 3}, "OC1": {1: 5}, "C2OUT": {1: 7},
    "SDO1": {2: 3, 3: 3}, "SDO2": {2: 4, 3: 4}, "OC2": {2: 5}, "C3OUT": {2: 7},
    "OC4": {3: 5}, "OC5": {3: 6}, "REFCLKO": {3: 7},
    "U1RTS": {4: 1}, "U2TX": {4: 2}, "SS2": {4: 4}, "OC3": {4: 5}, "C1OUT": {4: 7},
}


def pin_key(pin: str) -> tuple[str, int]:
    """Natural order: RA0 < RA4 < RB0 < RB5 < RB11."""
    return pin[:2], int(pin[2:])


def on_part(pins) -> list[str]:
    return sorted((p for p in pins if p in PACKAGE_PIN), key=pin_key)


def input_pins(function: str) -> dict[str, int]:
    """Pin -> select code for an input function, pins of this part only."""
    group = PPS_GROUPS[PPS_INPUT[function]]
    return {p: code for code, p in enumerate(group) if p in PACKAGE_PIN}


def output_pins(function: str) -> dict[str, int]:
    """Pin -> code for its RPxnR register, for an output function, pins of this part only."""
    out = {}
    for g, code in PPS_OUTPUT[function].items():
        out.update({p: code for p in PPS_GROUPS[g] if p in PACKAGE_PIN})
    return out


def output_register(pin: str) -> str:
    return f"RP{pin[1:]}R"  # RB11 -> RPB11R


def rp_pins() -> list[str]:
    """Every pin of this part with a PPS output register (RPxnR)."""
    return on_part(p for g in PPS_GROUPS.values() for p in g)
