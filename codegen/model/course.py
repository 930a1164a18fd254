"""The course's Python interface: each control of a spec's `course:` section
becomes one firmware command line, computed here once.

The firmware gets the result as `boids_course_table` (boids_course.c, walked
by firmware_runtime/core/course.c), the simulator's model as `COURSE_CONTROLS`;
codegen/model/course_checks.py reports what `expand` finds wrong at the spec's
line and column. An entry is (kind, id, value, line):

  kind 'b'  button N      value 1 press, 0 release      the course sends bNN1 / bNN0
  kind 't'  toggle N      value 1 on, 0 off              tNN1 / tNN0, tNNTrue / tNNFalse
  kind 'l'  list box N    value K: item K chosen         l0NK
  kind 'r'  radio group G value M: member M chosen       r0GM
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from codegen.model.serial_commands import COMMANDS
from codegen.spec.number_text import decimal_text

# The controls' numbers: the course's template sends buttons and toggles with
# two digits, list boxes and radio groups with one.
ID_MAX = {"buttons": 99, "toggles": 99, "listboxes": 9, "radios": 9}
CHOICES_MAX = 100  # items of a list box / members of a radio group (indices 0-99)
ENTRIES_MAX = 256  # table entries in all: every line sits in the PIC32's flash
KIND = {"buttons": "b", "toggles": "t", "listboxes": "l", "radios": "r"}

# What the bare words run.
WORDS = {"reset": "reset", "pause": "pause", "resume": "resume"}
TOGGLE_WORDS = {"pause": ("pause", "resume"), "adaptive_spawn": ("adaptive on", "adaptive off")}


@dataclass(frozen=True)
class CourseEntry:
    kind: str  # 'b', 't', 'l', 'r'
    id: int  # the control's number
    value: int  # 1/0 press/release, on/off; the item or member chosen
    line: str  # the firmware command line it runs
    where: tuple  # its place in the spec (for errors and the generated comment)


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class _Expander:
    """Walks a validated Course; collects entries and (spec path, reason) problems."""

    def __init__(self, params: dict, capacity, line_max, sections: set) -> None:
        self.params = params  # name -> object with type, min, max, tunable (spec Params or plain views)
        self.capacity = capacity if isinstance(capacity, int) else None
        self.line_max = line_max if isinstance(line_max, int) else None
        self.commands = {c.name: c for c in COMMANDS if c.needs is None or c.needs in sections}
        self.entries: list[CourseEntry] = []
        self.problems: list[tuple[tuple, str]] = []

    def fail(self, where: tuple, reason: str) -> None:
        self.problems.append((where, reason))

    # -- parameters and values

    def param(self, name: str, where: tuple):
        p = self.params.get(name)
        if p is None:
            near = difflib.get_close_matches(name, list(self.params), n=1)
            self.fail(where, f"no parameter named '{name}'" + (f" (did you mean '{near[0]}'?)" if near else ""))
        elif p.tunable is False:
            self.fail(where, f"'{name}' is not tunable (tunable: false): the board refuses to set it")
            return None
        return p

    def value(self, p, name: str, v, where: tuple, what: str = "value") -> str | None:
        """The text of `set NAME TEXT` for v, or None (a problem recorded)."""
        if p.type == "int" and not float(v).is_integer():
            self.fail(where, f"{what} {v} is not a whole number ('{name}' is an int parameter)")
            return None
        if _num(p.min) and _num(p.max) and not p.min <= v <= p.max:
            self.fail(where, f"{what} {v} outside '{name}' [{p.min}, {p.max}]")
            return None
        return str(int(v)) if p.type == "int" else decimal_text(v)

    def set_line(self, name: str, v, name_where: tuple, value_where: tuple, what: str = "value") -> str | None:
        p = self.param(name, name_where)
        if p is None:
            return None
        text = self.value(p, name, v, value_where, what)
        return None if text is None else f"set {name} {text}"

    # -- lines

    def line(self, line: str, where: tuple) -> str | None:
        """A firmware command line, checked as the board would take it typed."""
        bad = next((ch for ch in line if not " " <= ch <= "~"), None)
        if bad is not None:
            self.fail(where, f"command {line!r}: {bad!r} is not printable ASCII")
            return None
        words = line.split()
        if not words:
            self.fail(where, "command is empty")
            return None
        if self.line_max is not None and len(line) > self.line_max - 1:
            self.fail(where, f"command '{line}' is {len(line)} characters; serial.line_max {self.line_max} "
                      f"takes lines of at most {self.line_max - 1}")
            return None
        cmd = self.commands.get(words[0])
        if cmd is None:
            self.fail(where, f"command '{line}': '{words[0]}' is not a firmware command "
                      f"(commands: {', '.join(self.commands)})")
            return None
        if not cmd.min_words <= len(words) <= cmd.max_words:
            self.fail(where, f"command '{line}': usage is `{cmd.usage}`")
            return None
        return " ".join(words)

    def count(self, n: int, where: tuple, what: str) -> bool:
        if self.capacity is not None and n > self.capacity:
            self.fail(where, f"{what} {n} > flock.capacity {self.capacity}")
            return False
        return True

    def action(self, a, where: tuple) -> str | None:
        """A CourseAction's command line."""
        if a.do is not None:
            line = WORDS[a.do]
        elif a.set is not None:
            line = self.set_line(a.set, a.value, where + ("set",), where + ("value",))
        elif a.boids is not None:
            line = f"boids {a.boids}" if self.count(a.boids, where + ("boids",), "boids") else None
        elif a.add_boids is not None:
            line = f"boids +{a.add_boids}" if self.count(a.add_boids, where + ("add_boids",), "add_boids") else None
        elif a.remove_boids is not None:
            line = (f"boids -{a.remove_boids}"
                    if self.count(a.remove_boids, where + ("remove_boids",), "remove_boids") else None)
        else:
            return self.line(a.command, where + ("command",))
        return None if line is None else self.line(line, where)

    def add(self, kind: str, cid: int, value: int, line: str | None, where: tuple) -> None:
        if line is not None:
            self.entries.append(CourseEntry(kind, cid, value, line, where))

    # -- sections

    def buttons(self, buttons: dict) -> None:
        for cid, b in buttons.items():
            where = ("buttons", cid)
            self.add("b", cid, 1, self.action(b, where), where)
            if b.release is not None:
                self.add("b", cid, 0, self.action(b.release, where + ("release",)), where + ("release",))

    def toggles(self, toggles: dict) -> None:
        for cid, t in toggles.items():
            where = ("toggles", cid)
            if t.do is not None:
                on, off = (self.line(x, where) for x in TOGGLE_WORDS[t.do])
            elif t.param is not None:
                p = self.params.get(t.param)
                if p is not None and p.type != "int" and (t.on_value is None or t.off_value is None):
                    self.fail(where + ("param",), f"'{t.param}' is a {p.type} parameter: a toggle sets 1 and 0 "
                              "only to int parameters; give on_value and off_value")
                    continue
                vals = [(where + ("on_value",), 1 if t.on_value is None else t.on_value, "on_value"),
                        (where + ("off_value",), 0 if t.off_value is None else t.off_value, "off_value")]
                on, off = (self.set_line(t.param, v, where + ("param",), w, what) for w, v, what in vals)
                on, off = (None if x is None else self.line(x, where) for x in (on, off))
            else:
                on = self.action(t.on, where + ("on",))
                off = None if t.off is None else self.action(t.off, where + ("off",))
            self.add("t", cid, 1, on, where)
            self.add("t", cid, 0, off, where)

    def choices(self, section: str, choices: dict) -> None:
        for cid, c in choices.items():
            where = (section, cid)
            if len(c.values) > CHOICES_MAX:
                self.fail(where + ("values",), f"{len(c.values)} values; a list box or radio group has at most "
                          f"{CHOICES_MAX} (indices 0-{CHOICES_MAX - 1})")
                continue
            if self.param(c.param, where + ("param",)) is None:
                continue
            for k, v in enumerate(c.values):
                line = self.set_line(c.param, v, where + ("param",), where + ("values", k))
                self.add(KIND[section], cid, k, None if line is None else self.line(line, where), where + ("values", k))


def expand(course, params: dict, capacity=None, line_max=None, sections=frozenset()):
    """(entries, problems) of a validated Course: entries in table order
    (buttons, toggles, list boxes, radios; each by id), problems as (path
    under `course`, reason). `params` maps names to objects with type, min,
    max, tunable; `sections` names the spec's entity sections (a `command:`
    may use the commands they bring)."""
    x = _Expander(params, capacity, line_max, set(sections))
    x.buttons(dict(sorted(course.buttons.items())))
    x.toggles(dict(sorted(course.toggles.items())))
    x.choices("listboxes", dict(sorted(course.listboxes.items())))
    x.choices("radios", dict(sorted(course.radios.items())))
    if len(x.entries) > ENTRIES_MAX:
        x.fail((), f"{len(x.entries)} table entries (press/release, on/off and every item count); "
               f"at most {ENTRIES_MAX} fit the board's table")
    return tuple(x.entries), x.problems


def spec_entries(spec) -> tuple[CourseEntry, ...]:
    """The table of a validated spec (empty without a `course:` section)."""
    if spec.course is None:
        return ()
    sections = {c.needs for c in COMMANDS if c.needs and getattr(spec, c.needs, None)}
    entries, problems = expand(spec.course, spec.params, spec.flock.capacity, spec.serial.line_max, sections)
    assert not problems, problems  # load_spec refused such a spec
    return entries
