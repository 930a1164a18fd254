"""The course's Python interface (ECE 4760's PySimpleGUI template) against
the real host firmware (`boids_host --pty`, real time, a real pty, real
pyserial at the template's 115200 and an earlier version's 38400 baud),
sending exactly the bytes the template sends (pysim/board/course.py): every
control the spec maps, both toggle spellings, six-decimal and integer
sliders, `$` text, unmapped controls and malformed lines, each reply and its
effect checked. Also: the spec section's validation (located errors), the
table in the C and in the model, and the byte helper itself. Refused specs
writing nothing is the hostile corpus's job (tests/hostile/specs/course__*)."""
from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest
import serial

from codegen.commands.cli import main
from codegen.spec.errors import SpecError
from codegen.model.spec_load import load_spec
from pysim.board.course import course_bytes

from .conftest import ROOT, RUNTIME, require_tool
from .deadline import RUN, Deadline, read_line, read_rest, reap, terminate
from .stamps import unstamp

WAIT = 5.0  # seconds for a reply before calling it missing (never a speed check)
SPECS = sorted((ROOT / "spec").glob("*.yaml"))
STATS = re.compile(r"^ok stats .*\bboids=(\d+)\b.*\bpaused=([01])$")


class Board:
    """boids_host --pty in real time, and a pyserial link to it at `baud`."""

    def __init__(self, exe, baud: int, *args: str) -> None:
        self.proc = subprocess.Popen([str(exe), "--pty", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        try:
            first = read_line(self.proc.stdout, WAIT, "'pty: /dev/...' line from boids_host --pty")
            assert first.startswith("pty: /dev/"), first
            self.ser = serial.Serial(first.split(":", 1)[1].strip(), baud, timeout=0.05, write_timeout=WAIT)
        except BaseException:
            self.proc.kill()
            reap(self.proc, "boids_host --pty")
            raise
        self.buf = b""

    def close(self) -> None:
        self.ser.close()
        rc = terminate(self.proc, "boids_host --pty")
        err = read_rest(self.proc.stderr) if rc != 0 else ""
        self.proc.stdout.close()
        self.proc.stderr.close()
        assert rc == 0, err

    def send(self, data: bytes) -> str:
        """Write the bytes, return the final (ok/err) reply line, as sent."""
        try:
            self.ser.write(data)
        except serial.SerialTimeoutException:
            raise AssertionError(f"could not write {data!r} within {WAIT} s") from None
        deadline = Deadline(WAIT, f"ok/err reply to {data!r}")
        while True:
            while b"\n" not in self.buf:
                deadline.check(f"got so far {self.buf!r}")
                self.buf += self.ser.read(max(1, self.ser.in_waiting))
            raw, self.buf = self.buf.split(b"\n", 1)
            line = raw.decode("ascii")
            if line.startswith(("ok", "err ")):
                return line

    def cmd(self, line: str) -> str:
        """A typed command (CR, as the course's template ends its lines), unstamped."""
        return unstamp(self.send(line.encode() + b"\r"))

    def stats(self) -> tuple[int, int]:
        m = STATS.match(self.cmd("stats"))
        assert m, "stats reply"
        return int(m.group(1)), int(m.group(2))

    def value(self, name: str) -> str:
        got = self.cmd(f"get {name}")
        assert got.startswith(f"ok {name}="), got
        return got.split()[1]


@pytest.fixture(scope="module")
def built(default_build):
    return default_build


@pytest.fixture(params=[115200, 38400], ids=["115200", "38400"])
def board(request, built):
    b = Board(built[1], request.param, "--boids", "50")
    try:
        assert b.cmd("adaptive off") == "ok adaptive off"  # so that only our controls change the flock
        yield b
    finally:
        b.close()


def check_control(b: Board, model, kind: str, cid: int, value: int, line: str, data: bytes) -> None:
    """Send the course's bytes for one table entry; its reply and its effect
    must be what its command line does."""
    capacity = model.CAPACITY
    words = line.split()
    boids_before, _ = b.stats()
    got = b.send(data)
    where = f"{data!r} (-> {line!r}): {got!r}"
    assert got.startswith("ok"), where
    got = unstamp(got)
    if words[0] == "set":
        name = words[1]
        assert got.startswith(f"ok {name}="), where
        assert b.value(name) == got.split()[1], where
        want = next(p for p in model.PARAMS if p.name == name)
        if want.type == "int":
            assert got.split()[1] == f"{name}={words[2]}", where
    elif words[0] == "boids":
        n = int(words[1].lstrip("+-"))
        want = (min(capacity, boids_before + n) if words[1][0] == "+" else max(0, boids_before - n)
                if words[1][0] == "-" else n)
        assert got == f"ok boids={want}", where
        assert b.stats()[0] == want, where
    elif line in ("pause", "resume"):
        assert got == f"ok {line}", where
        assert b.stats()[1] == (line == "pause"), where
    elif words[0] == "adaptive":
        assert got == f"ok {line}", where
    elif words[0] == "reset":
        assert got.startswith("ok reset seed="), where
        assert b.stats()[0] == boids_before, where
    elif line == "obstacle clear":
        assert got == "ok obstacles=0", where
    elif line in ("target on", "target off"):
        assert re.fullmatch(rf"ok target x=\S+ y=\S+ on={int(line == 'target on')}", got), where
    else:
        raise AssertionError(f"no check for {line!r}: add one")


def test_every_mapped_control(board, built):
    """Every entry of the spec's table, as the course's interface sends it:
    buttons and toggles with two digits and with one, toggles in both
    spellings; list boxes and radio buttons; a mapped button's release."""
    model = built[2]
    table = model.COURSE_CONTROLS
    kinds = {k for k, *_ in table}
    assert kinds == {"b", "t", "l", "r"}, f"the default spec maps every kind of control, not only {kinds}"
    for kind, cid, value, line in table:
        check_control(board, model, kind, cid, value, line, course_bytes(kind, cid, value))
        if kind == "t":
            spelled = course_bytes(kind, cid, value, spelling="bool")
            assert spelled.endswith(b"True\r" if value else b"False\r")
            check_control(board, model, kind, cid, value, line, spelled)
        if kind in "bt":  # one digit, as an integer-keyed template would send it
            check_control(board, model, kind, cid, value, line, f"{kind}{cid}{value}\r".encode())
    pressed = [cid for k, cid, v, _ in table if k == "b" and v == 1]
    released = {cid for k, cid, v, _ in table if k == "b" and v == 0}
    cid = next(c for c in pressed if c not in released)
    assert board.send(course_bytes("b", cid, 0)) == f"ok b{cid:02d} released (no action)"
    assert board.stats()[1] == 0  # the last toggle side sent was off: resumed


@pytest.mark.parametrize("spec", [p for p in SPECS if p.stem != "boids"], ids=lambda p: p.stem)
def test_every_spec_maps_what_its_firmware_runs(spec):
    """Each committed spec's own table on its own firmware (115200 baud):
    every entry's bytes, the reply and the effect of its line."""
    from codegen.commands.parity import prepare

    require_tool("gcc")
    require_tool("make")
    _, exe, model = prepare(str(spec))
    assert model.COURSE_CONTROLS, f"{spec.name} maps no course controls"
    b = Board(exe, 115200, "--boids", "50")
    try:
        assert b.cmd("adaptive off") == "ok adaptive off"
        for kind, cid, value, line in model.COURSE_CONTROLS:
            check_control(b, model, kind, cid, value, line, course_bytes(kind, cid, value))
    finally:
        b.close()


def test_sliders_both_spellings(board, built):
    """`s ID VALUE` with `{:f}`'s six decimals and as an integer: the
    parameter with that id takes it, `get` shows it."""
    params = {p.id: p for p in built[2].PARAMS}
    vr = next(p for p in params.values() if p.name == "visual_range")
    for data, want in ((course_bytes("s", vr.id, 40), "40"), (course_bytes("s", vr.id, 35, spelling="int"), "35"),
                       (course_bytes("s", vr.id, 12.5), "12.5")):
        assert data.endswith(b"\r") and (b"." in data) == (want != "35")
        got = unstamp(board.send(data))
        assert got.startswith(f"ok visual_range={want} raw="), (data, got)
        assert board.value("visual_range") == f"visual_range={want}"
    af = next(p for p in params.values() if p.name == "avoid_factor")
    got = unstamp(board.send(course_bytes("s", af.id, 0.1)))
    assert got.startswith("ok avoid_factor=0.1"), got  # 0.1 in s16.15: the nearest raw value
    assert board.value("avoid_factor") == got.split()[1]
    assert board.send(course_bytes("s", vr.id, 400)) == "err visual_range: 400.000000 outside [0, 200]"
    assert board.value("visual_range") == "visual_range=12.5"


def test_dollar_text(board):
    """`$TEXT` runs TEXT as a command line; a `$` inside is refused."""
    assert unstamp(board.send(course_bytes("$", value="set visual_range 40"))).startswith(
        "ok visual_range=40 raw=1310720")
    assert board.send(course_bytes("$", value="get visual_range")) == "ok visual_range=40 raw=1310720"
    assert board.send(b"$stats\r").startswith("ok stats ")
    assert board.send(b"$$set visual_range 50\r") == \
        "err $$set visual_range 50: a '$' inside '$' text is refused (one level only)"
    assert board.send(b"$get visual_range $\r").startswith("err $get visual_range $: a '$' inside")
    assert board.send(b"$\r") == "err $: no command after '$'"
    assert board.send(b"$nope\r") == "err unknown command 'nope' (try: help)"
    assert board.value("visual_range") == "visual_range=40"


UNMAPPED = [
    (b"b071\r", "err b071: no action for button 7 in spec 'boids' (spec section course.buttons)"),
    (b"b99True\r", None),  # buttons have no True/False spelling
    (b"t091\r", "err t091: no action for toggle 9 in spec 'boids' (spec section course.toggles)"),
    (b"t09False\r", "err t09False: no action for toggle 9 in spec 'boids' (spec section course.toggles)"),
    (b"l0199\r", "err l0199: no action for item 99 of list box 1 in spec 'boids' (spec section course.listboxes)"),
    (b"l040\r", "err l040: no action for item 0 of list box 4 in spec 'boids' (spec section course.listboxes)"),
    (b"r015\r", "err r015: no action for member 5 of radio group 1 in spec 'boids' (spec section course.radios)"),
]
MALFORMED = [
    (b"b1\r", "err b1: expected bNN1 (press) or bNN0 (release), NN the button's number 0-99"),
    (b"b123\r", "err b123: expected bNN1 (press) or bNN0 (release)"),
    (b"b012\r", "err b012: expected bNN1"),
    (b"b01 1\r", "err b01 1: expected bNN1"),
    (b"t01Tru\r", "err t01Tru: expected tNN1, tNN0, tNNTrue or tNNFalse, NN the toggle's number 0-99"),
    (b"t001True\r", "err t001True: expected tNN1"),
    (b"tTrue\r", "err unknown command 'tTrue' (try: help)"),
    (b"l5\r", "err l5: expected l0NK, N the list box's number 0-9, K the item's index"),
    (b"l01\r", "err l01: expected l0NK"),
    (b"l11x\r", "err l11x: expected l0NK"),
    (b"l01123456\r", "err l01123456: expected l0NK"),
    (b"r1\r", "err r1: expected r0GM, G the radio group's number 0-9, M the member's index"),
    (b"r0a1\r", "err r0a1: expected r0GM"),
    (b"b0\x011\r", "err line has a control or non-ASCII byte"),
]


def test_unmapped_and_malformed_change_nothing(board):
    """Each gets one `err` line naming the line and what was expected, and
    nothing changes (the parameters, the flock, paused)."""
    before = (board.stats(), [board.value(n) for n in ("visual_range", "max_speed")])
    for data, want in UNMAPPED + MALFORMED:
        got = board.send(data)
        assert got.startswith("err "), (data, got)
        if want is not None:
            assert got.startswith(want), (data, got)
    assert (board.stats(), [board.value(n) for n in ("visual_range", "max_speed")]) == before


def test_course_lines_split_and_run_together(board):
    """The template writes a whole message at once, but a pty may deliver it
    in pieces, and several messages may arrive in one read: CR ends each."""
    board.ser.write(b"t0")
    time.sleep(0.05)
    assert unstamp(board.send(b"11\r")) == "ok pause"
    board.ser.write(course_bytes("t", 1, 0) + course_bytes("l", 1, 2))
    assert unstamp(board.send(b"")) == "ok resume"
    assert unstamp(board.send(b"")).startswith("ok visual_range=40 raw=")
    assert board.stats()[1] == 0


# ---------------------------------------------------------------- a spec of our own: releases, toggles' forms

OWN_COURSE = """
course:
  buttons:
    5: {set: dynamic_bias, value: 1, release: {set: dynamic_bias, value: 0}}   # held: dynamic
    6: {boids: 30}
    7: {command: "reset 42"}
  toggles:
    4: {param: dynamic_bias}
    5: {param: bias1, on_value: 0.05, off_value: 0.001}
    6: {on: {command: "set max_speed 9"}}
  radios:
    0: {param: scout_group1, values: [0, 25]}
"""


@pytest.fixture(scope="module")
def own_exe(tmp_path_factory):
    require_tool("gcc")
    require_tool("make")
    tmp = tmp_path_factory.mktemp("course_spec")
    (tmp / "spec").mkdir()
    text = (ROOT / "spec" / "scouts_vga.yaml").read_text()
    text = text[:text.index("\n# The course's Python interface")] + "\n" + OWN_COURSE
    spec = tmp / "spec" / "scouts_vga.yaml"
    spec.write_text(text)
    out = tmp / "out"
    assert main(["generate", str(spec), "-o", str(out)]) == 0
    res = subprocess.run(["make", "-C", str(out / "firmware"), "host", f"RUNTIME={RUNTIME}", f"BUILD={tmp / 'build'}"],
                         capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return tmp / "build" / "boids_host"


def test_releases_and_toggle_forms(own_exe):
    b = Board(own_exe, 115200, "--boids", "50")
    try:
        assert unstamp(b.send(course_bytes("b", 5, 1))) == "ok dynamic_bias=1 raw=1"
        assert unstamp(b.send(course_bytes("b", 5, 0))) == "ok dynamic_bias=0 raw=0"  # the release is mapped
        assert unstamp(b.send(b"b061\r")) == "ok boids=30"
        assert b.send(b"b060\r") == "ok b06 released (no action)"
        assert unstamp(b.send(b"b071\r")) == "ok reset seed=42 boids=30"
        assert unstamp(b.send(b"t04True\r")) == "ok dynamic_bias=1 raw=1"
        assert unstamp(b.send(b"t040\r")) == "ok dynamic_bias=0 raw=0"
        assert unstamp(b.send(b"t051\r")).startswith("ok bias1=0.05")
        assert unstamp(b.send(b"t05False\r")).startswith("ok bias1=0.001")
        assert unstamp(b.send(b"t06True\r")).startswith("ok max_speed=9 raw=")
        assert b.send(b"t06False\r") == "ok t06 off (no action)"
        assert b.value("max_speed") == "max_speed=9"
        assert unstamp(b.send(b"r001\r")) == "ok scout_group1=25 raw=25"
        assert b.send(b"r002\r") == \
            "err r002: no action for member 2 of radio group 0 in spec 'scouts_vga' (spec section course.radios)"
        assert b.send(b"b011\r").startswith("err b011: no action for button 1 in spec 'scouts_vga'")
    finally:
        b.close()


# ---------------------------------------------------------------- the tables, the helper

def c_table(path: Path) -> list[tuple]:
    text = path.read_text()
    return [(k, int(i), int(v), line.replace('\\"', '"').replace("\\\\", "\\").replace("\\?", "?"))
            for k, i, v, line in re.findall(r"\{'(\w)', (\d+), (\d+), \"((?:[^\"\\]|\\.)*)\"\}", text)]


@pytest.mark.parametrize("spec", SPECS, ids=[p.stem for p in SPECS])
def test_c_and_model_tables_agree(spec):
    """The committed firmware table and the model's COURSE_CONTROLS are the same rows."""
    from codegen.model.gen_model import build_model

    s, _ = load_spec(spec)
    m = build_model(s, spec)
    out = ROOT / "generated" / s.name
    ns: dict = {}
    model_text = (out / "python" / "boids_model.py").read_text()
    block = model_text[model_text.index("COURSE_CONTROLS = ("):]
    exec(block[:block.index("\n)\n") + 3], ns)  # noqa: S102 - our own generated literal
    rows = [(e.kind, e.id, e.value, e.line) for e in m.course]
    assert rows and list(ns["COURSE_CONTROLS"]) == rows
    assert c_table(out / "firmware" / "boids_course.c") == rows
    for kind, cid, value, line in rows:  # every table line is a command the board knows, and fits a line
        assert line.split()[0] in {c.name for c in m.commands} and len(line) < s.serial.line_max


def test_course_bytes():
    assert course_bytes("b", 1, 1) == b"b011\r"
    assert course_bytes("b", 12, 0) == b"b120\r"
    assert course_bytes("t", 2, True, spelling="True") == b"t02True\r"
    assert course_bytes("t", 2, False, spelling="bool") == b"t02False\r"
    assert course_bytes("t", 2, 1) == b"t021\r"
    assert course_bytes("l", 1, 3) == b"l013\r"
    assert course_bytes("r", 2, 12) == b"r0212\r"
    assert course_bytes("s", 1, 40) == b"s 1 40.000000\r"
    assert course_bytes("s", 4, 0.05) == b"s 4 0.050000\r"
    assert course_bytes("s", 1, 40.0, spelling="int") == b"s 1 40\r"
    assert course_bytes("$", value="get visual_range") == b"$get visual_range\r"
    for bad in [("b", 100, 1), ("l", 10, 1), ("t", 1, 1, "False"), ("x", 1, 1), ("b", 1, 1, "True"), ("l", 1, -1)]:
        with pytest.raises(ValueError):
            course_bytes(*bad)
    with pytest.raises(ValueError):
        course_bytes("$", value="caf\u00e9")


# ---------------------------------------------------------------- the spec section's errors, located

def _spec_with(tmp_path: Path, course: str | None, base: str = "scouts_vga") -> tuple[Path, list[str]]:
    """The committed spec `base` with its course section replaced (None: none)."""
    text = (ROOT / "spec" / f"{base}.yaml").read_text()
    text = text[:text.index("\n# The course's Python interface")] + ("\ncourse:\n" + course if course else "\n")
    p = tmp_path / "spec" / f"{base}.yaml"
    p.parent.mkdir(exist_ok=True)
    p.write_text(text)
    return p, text.split("\n")


@pytest.mark.parametrize("course, marker, col, want", [
    ("  toggles:\n    4: {param: dynamic_bias, on_value: 0.5, off_value: 0}\n", "4: {param", 40,
     "course.toggles.4.on_value: on_value 0.5 is not a whole number ('dynamic_bias' is an int parameter)"),
    ("  toggles:\n    4: {param: dynamic_bias, on_value: 2, off_value: 0}\n", "4: {param", 40,
     "course.toggles.4.on_value: on_value 2 outside 'dynamic_bias' [0, 1]"),
    ("  listboxes:\n    2: {param: scout_group2, values: [0, 10, 200]}\n", "2: {param", 46,
     "course.listboxes.2.values.2: value 200 outside 'scout_group2' [0, 100]"),
    ("  buttons:\n    3: {boids: +10}\n", "3: {boids", 16,
     "course.buttons.3.boids: YAML reads +N as the number N"),
    ("  buttons:\n    3: {boids: 101}\n", "3: {boids", 16,
     "course.buttons.3.boids: boids 101 > flock.capacity 100"),
    ("  buttons:\n    3: {command: \"target on\"}\n", "3: {command", 18,
     "course.buttons.3.command: command 'target on': 'target' is not a firmware command"),
    ("  radios:\n    9: {param: bias1, values: [0.01]}\n    10: {param: bias1, values: [0.01]}\n", "10: {", 5,
     "course.radios.10: radio group number 10 outside 0-9"),
])
def test_spec_errors_are_located(tmp_path, course, marker, col, want):
    path, lines = _spec_with(tmp_path, course)
    with pytest.raises(SpecError) as e:
        load_spec(path)
    line = next(i for i, l in enumerate(lines, 1) if marker in l)
    issues = [str(i) for i in e.value.issues]
    assert len(issues) == 1 and issues[0].startswith(f"{path}:{line}:{col}: {want}"), issues


def test_spec_without_course_has_an_empty_table(tmp_path):
    from codegen.model.gen_model import build_model

    path, _ = _spec_with(tmp_path, None, base="boids")
    s, _ = load_spec(path)
    assert s.course is None and build_model(s, path).course == ()
