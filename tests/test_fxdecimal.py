"""Decimal text -> fixed point on the board (fxdecimal.c) against the Python
side (pysim/fxdecimal.py): same raw value or same error, on many strings."""
from __future__ import annotations

import random
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysim import fxdecimal as fd

from .conftest import ROOT, RUNTIME, RUNTIME_INCLUDES, compile_c
from .deadline import RUN


@pytest.fixture(scope="module", params=[15, 16], ids=["s16.15", "s15.16"])
def driver(request, tmp_path_factory):
    fb = request.param
    exe = compile_c([ROOT / "tests" / "c" / "decimal_driver.c", RUNTIME / "core" / "fxdecimal.c"],
                    tmp_path_factory.mktemp("dec") / f"dec{fb}", defines={"FX_FRAC_BITS": fb}, includes=RUNTIME_INCLUDES)
    return fb, exe


def py_parse(text: str, fb: int) -> str:
    try:
        if text.startswith("#"):
            return str(fd.parse_int(text[1:]))
        return str(fd.parse(text, fb))
    except fd.FxDecimalError as e:
        return f"err {e}"


def run(exe, lines):
    out = subprocess.run([str(exe)], input="".join(l + "\n" for l in lines), capture_output=True, text=True,
                         check=True, timeout=RUN).stdout.splitlines()
    assert len(out) == len(lines)
    return out


FIXED_CASES = [
    "0", "-0", "+0", "1", "-1", "0.5", "-0.5", "0.0005", "0.0002", "20", "200", "65535.99998474", "65536",
    "-65536", "-65536.00001", "65535.999984741", "32767.99998", "32768", "-32768", "1.", ".5", "-.5", "+.5", ".",
    "", "-", "+", "abc", "1e5", "1.2.3", " 1", "1 ", "--1", "0x10", "00000000000000000000007",
    "0." + "1" * 40, "0." + "1" * 41, "99999999999", "99999999999x", "0.000015258789", "0.0000152587890625",
    "0.00001525878906249", "0.00003051757812", "0.000030517578125", "-0.000030517578125", "2147483648",
    "#12", "#-12", "#2147483647", "#2147483648", "#-2147483648", "#-2147483649", "#", "#1.5", "#x",
]


def test_fixed_cases(driver):
    fb, exe = driver
    got = run(exe, FIXED_CASES)
    for text, c in zip(FIXED_CASES, got):
        assert c == py_parse(text, fb), f"{text!r}: C {c!r}, Python {py_parse(text, fb)!r}"


def test_random_decimals(driver):
    fb, exe = driver
    rnd = random.Random(99)
    lines = []
    for _ in range(20000):
        ip = str(rnd.randint(0, 70000))
        fr = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(0, 25)))
        sign = rnd.choice(["", "-", "+"])
        lines.append(f"{sign}{ip}.{fr}" if fr or rnd.random() < 0.3 else f"{sign}{ip}")
    got = run(exe, lines)
    for text, c in zip(lines, got):
        assert c == py_parse(text, fb), text


def test_halves_round_away_from_zero(driver):
    fb, exe = driver
    half = f"{0.5 / (1 << fb):.{fb + 2}f}".rstrip("0")  # exactly half an LSB
    assert run(exe, [half, "-" + half]) == ["1", "-1"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789.-+ex", max_size=20))
def test_garbage_agrees(driver, text):
    fb, exe = driver
    assert run(exe, [text]) == [py_parse(text, fb)]


@settings(max_examples=100, deadline=None)
@given(st.integers(-(2**31), 2**31 - 1))
def test_format_agrees(driver, raw):
    fb, exe = driver
    assert run(exe, [f"@{raw}"]) == [fd.format_raw(raw, fb)]


def test_format_examples():
    assert fd.format_raw(16, 15) == "0.000488"
    assert fd.format_raw(20 << 15, 15) == "20"
    assert fd.format_raw(-(1 << 14), 15) == "-0.5"
    assert fd.format_raw(-1, 15) == "-0.000031"
