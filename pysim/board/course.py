"""The bytes the course's Python interface (the ECE 4760 PySimpleGUI
template) sends for each control, exactly: every message ends with a bare CR.

    course_bytes('b', 1, 1)                    b'b011\\r'      button 1 pressed
    course_bytes('b', 1, 0)                    b'b010\\r'      button 1 released
    course_bytes('t', 2, True)                 b't021\\r'      toggle 2 on
    course_bytes('t', 2, True, spelling='True') b't02True\\r'  (current PySimpleGUI)
    course_bytes('l', 1, 3)                    b'l013\\r'      list box 1, item 3
    course_bytes('r', 1, 2)                    b'r012\\r'      radio group 1, member 2
    course_bytes('s', 1, 40)                   b's 1 40.000000\\r'  slider 1 ('{:f}')
    course_bytes('s', 1, 40, spelling='int')   b's 1 40\\r'    (an earlier template)
    course_bytes('$', value='get visual_range') b'$get visual_range\\r'

Buttons and toggles go out with two digits (the template's keys are `b01`,
`t02`, ...); the firmware takes one or two. A spec's model lists what each
control runs on its board as COURSE_CONTROLS: (kind, id, value, line).
"""
from __future__ import annotations

CR = b"\r"
BAUDS = (115200, 38400)  # the template's rate, and an earlier version's


def course_bytes(kind: str, id: int | None = None, value=None, spelling: str | None = None) -> bytes:
    """One message of the course's interface (see the module's docstring).
    spelling: for toggles None/'digit' (1/0) or 'bool'/'True'/'False'
    (True/False; 'True'/'False' must agree with value); for sliders None
    ('{:f}', six decimals) or 'int'."""
    if kind == "$":
        text = str(value)
        if any(not " " <= ch <= "~" for ch in text):
            raise ValueError(f"text {text!r} is not printable ASCII")
        return b"$" + text.encode("ascii") + CR
    if not isinstance(id, int) or isinstance(id, bool):
        raise TypeError(f"a control's number is an int, not {id!r}")
    if kind == "s":
        if spelling not in (None, "int"):
            raise ValueError(f"slider spelling {spelling!r}: None or 'int'")
        text = str(int(value)) if spelling == "int" else "{:f}".format(float(value))
        return f"s {id} {text}".encode("ascii") + CR
    if kind in ("b", "t"):
        if not 0 <= id <= 99:
            raise ValueError(f"{kind}{id}: buttons and toggles are numbered 0-99")
        on = bool(value)
        if kind == "t" and spelling in ("bool", "True", "False"):
            if spelling != "bool" and spelling != str(on):
                raise ValueError(f"spelling {spelling!r} does not say value {value!r}")
            state = str(on)
        elif spelling in (None, "digit"):
            state = "1" if on else "0"
        else:
            raise ValueError(f"{kind} spelling {spelling!r}: None, 'digit'" + (", 'bool', 'True', 'False'"
                                                                                 if kind == "t" else ""))
        return f"{kind}{id:02d}{state}".encode("ascii") + CR
    if kind in ("l", "r"):
        if not 0 <= id <= 9:
            raise ValueError(f"{kind}{id}: list boxes and radio groups are numbered 0-9")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{kind}: the item's index is an int >= 0, not {value!r}")
        return f"{kind}0{id}{value}".encode("ascii") + CR
    raise ValueError(f"kind {kind!r}: one of b, t, l, r, s, $")
