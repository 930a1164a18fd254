"""The controls panel, built from the model: one row per tunable parameter
(slider, numeric entry, unit, reset) and one per run-time option (counts and
toggles: today the flock size; predators, scout sizes... when a model
declares them).

A control never changes a value itself: it asks (`request(name, text)`) and
shows what the simulator or the board confirms (`confirm`), or reverts
(`reject`)."""
from __future__ import annotations

import tkinter as tk
from dataclasses import dataclass
from tkinter import ttk
from typing import Callable

from pysim.gui.scales import STEPS, SliderMap
from pysim.gui.tooltip import Tooltip

# Number keys 1..9, 0 raise the parameters with ids 1..10; with Shift they
# lower them. Shift+digit arrives as its US-layout symbol.
KEY_IDS = {str(d): d for d in range(1, 10)} | {"0": 10}
SHIFTED = dict(zip("!@#$%^&*()", "1234567890"))


def tooltip_text(p) -> str:
    unit = f" {p.unit}" if p.unit else ""
    lines = [p.name]
    if p.description:
        lines.append(p.description)
    lines.append(f"range [{p.min}, {p.max}]{unit}, default {p.default}; id {p.id}, {p.type}")
    return "\n".join(lines)


class ParamControl:
    """One tunable parameter: label, slider, entry, unit, reset."""

    def __init__(self, parent: tk.Widget, row: int, p, key: str | None,
                 request: Callable[[str, str], None]) -> None:
        self.p, self.request = p, request
        self.map = SliderMap(p.min, p.max, p.type == "int")
        self.value_text = p.default
        self._quiet = False  # set while the slider is moved to a confirmed value
        self._dragging = False
        self._last_sent: str | None = None

        tag = f"[{key}] " if key else ""
        self.label = ttk.Label(parent, text=f"{tag}{p.name}" + (" (log)" if self.map.log else ""))
        self.label.grid(row=row, column=0, sticky="w", padx=(4, 2))
        self.scale = ttk.Scale(parent, from_=0, to=STEPS, length=170, command=self._slid)
        self.scale.grid(row=row, column=1, sticky="ew")
        self.entry_var = tk.StringVar(value=p.default)
        self.entry = ttk.Entry(parent, textvariable=self.entry_var, width=10)
        self.entry.grid(row=row, column=2, padx=2)
        self.unit = ttk.Label(parent, text=p.unit, width=10)
        self.unit.grid(row=row, column=3, sticky="w")
        self.reset_button = ttk.Button(parent, text="\u21ba", width=2, command=self.reset)
        self.reset_button.grid(row=row, column=4, padx=(0, 4))
        tip = tooltip_text(p)
        for w in (self.label, self.scale, self.entry):
            Tooltip(w, tip)
        Tooltip(self.reset_button, f"back to the default, {p.default}")

        self.entry.bind("<Return>", self._entered)
        self.entry.bind("<KP_Enter>", self._entered)
        self.scale.bind("<ButtonPress-1>", lambda e: setattr(self, "_dragging", True), add="+")
        self.scale.bind("<ButtonRelease-1>", self._released, add="+")
        self._show(p.default)

    @property
    def name(self) -> str:
        return self.p.name

    @property
    def value(self) -> float:
        return float(self.value_text)

    # ---- user actions -> requests ----
    def _slid(self, pos) -> None:
        if self._quiet:
            return
        text = self.map.text(float(pos))
        if text == self._last_sent:
            return
        self._last_sent = text
        self.entry_var.set(text)
        self.request(self.name, text)

    def _entered(self, _e=None) -> str:
        self._last_sent = None
        self.request(self.name, self.entry_var.get().strip())
        return "break"

    def _released(self, _e=None) -> None:
        self._dragging = False
        self._show(self.value_text, entry=False)

    def set_position(self, pos: float) -> None:
        """Move the slider as a user would (tests, keys): sends a request."""
        self.scale.set(pos)

    def reset(self) -> None:
        self._last_sent = None
        self.request(self.name, self.p.default)

    def nudge(self, steps: int) -> None:
        self._last_sent = None
        self.request(self.name, self.map.nudge(self.value, steps))

    # ---- answers ----
    def confirm(self, value_text: str) -> None:
        """The value the simulator or board now holds."""
        self.value_text = value_text
        self._show(value_text)

    def reject(self) -> None:
        self._last_sent = None
        self._show(self.value_text)

    def _show(self, text: str, entry: bool = True) -> None:
        if entry:
            self.entry_var.set(text)
        if self._dragging:
            return  # the user's hand is on it; the release puts it right
        self._quiet = True
        try:
            self.scale.set(self.map.to_pos(float(text)))
        finally:
            self._quiet = False


class ToggleControl(ParamControl):
    """An int parameter that only takes 0 or 1 (dynamic bias on/off, ...):
    a checkbox instead of a slider; requests and confirmations as for any
    parameter."""

    def __init__(self, parent: tk.Widget, row: int, p, key: str | None,
                 request: Callable[[str, str], None]) -> None:
        self.p, self.request = p, request
        self.value_text = p.default
        self._last_sent = None
        tag = f"[{key}] " if key else ""
        self.label = ttk.Label(parent, text=f"{tag}{p.name}")
        self.label.grid(row=row, column=0, sticky="w", padx=(4, 2))
        self.var = tk.IntVar(value=int(p.default))
        self.check = ttk.Checkbutton(parent, variable=self.var, command=self._clicked)
        self.check.grid(row=row, column=1, sticky="w")
        self.entry_var = tk.StringVar(value=p.default)  # kept for a uniform interface
        self.reset_button = ttk.Button(parent, text="\u21ba", width=2, command=self.reset)
        self.reset_button.grid(row=row, column=4, padx=(0, 4))
        for w in (self.label, self.check):
            Tooltip(w, tooltip_text(p))

    def _clicked(self) -> None:
        self.request(self.name, str(self.var.get()))

    def set_position(self, pos: float) -> None:
        self.var.set(1 if pos else 0)
        self._clicked()

    def nudge(self, steps: int) -> None:
        self.request(self.name, "1" if steps > 0 else "0")

    def _show(self, text: str, entry: bool = True) -> None:
        self.entry_var.set(text)
        self.var.set(int(float(text)))


def control_for(parent: tk.Widget, row: int, p, key: str | None, request) -> ParamControl:
    """A checkbox for 0/1 int parameters, a slider for the rest."""
    if p.type == "int" and p.min_raw == 0 and p.max_raw == 1:
        return ToggleControl(parent, row, p, key, request)
    return ParamControl(parent, row, p, key, request)


@dataclass
class Option:
    """A run-time option: a count (spinbox) or a toggle (checkbox).

    `apply(value, done)` asks for the change; done(ok, confirmed_value_or_reason)."""
    name: str
    label: str
    kind: str  # "count" | "toggle"
    lo: int = 0
    hi: int = 1
    value: int = 0
    description: str = ""
    apply: Callable | None = None


class OptionControl:
    def __init__(self, parent: tk.Widget, row: int, opt: Option) -> None:
        self.opt = opt
        self.var = tk.IntVar(value=int(opt.value))
        ttk.Label(parent, text=opt.label).grid(row=row, column=0, sticky="w", padx=(4, 2))
        if opt.kind == "toggle":
            self.widget = ttk.Checkbutton(parent, variable=self.var, command=self._changed)
        else:
            self.widget = ttk.Spinbox(parent, from_=opt.lo, to=opt.hi, textvariable=self.var, width=8,
                                      command=self._changed)
            self.widget.bind("<Return>", self._changed)
            self.widget.bind("<FocusOut>", self._changed)
        self.widget.grid(row=row, column=1, sticky="w")
        if opt.kind == "count":
            ttk.Label(parent, text=f"0..{opt.hi}" if opt.lo == 0 else f"{opt.lo}..{opt.hi}").grid(
                row=row, column=2, sticky="w")
        if opt.description:
            Tooltip(self.widget, opt.description)

    def _changed(self, _e=None) -> None:
        try:
            v = int(self.var.get())
        except (tk.TclError, ValueError):
            self.confirm(self.opt.value)
            return
        if v != self.opt.value and self.opt.apply:
            self.opt.apply(v, self._answer)

    def _answer(self, ok: bool, value) -> None:
        self.confirm(value if ok else self.opt.value)

    def confirm(self, value) -> None:
        self.opt.value = int(value)
        self.var.set(int(value))


class ControlsPanel(ttk.Frame):
    """Parameters first (by id), then options, then the reset-all button."""

    def __init__(self, parent: tk.Widget, params, request: Callable[[str, str], None],
                 options: list[Option]) -> None:
        super().__init__(parent)
        self.params: dict[str, ParamControl] = {}
        self.options: dict[str, OptionControl] = {}
        box = ttk.LabelFrame(self, text="Parameters")
        box.pack(fill="x", padx=4, pady=4)
        box.columnconfigure(1, weight=1)
        tunable = sorted((p for p in params if p.tunable), key=lambda p: p.id)
        ids = {v: k for k, v in KEY_IDS.items()}
        for row, p in enumerate(tunable):
            self.params[p.name] = control_for(box, row, p, ids.get(p.id), request)
        fixed = [p for p in params if not p.tunable]
        if fixed:
            fbox = ttk.LabelFrame(self, text="Fixed at build")
            fbox.pack(fill="x", padx=4, pady=4)
            for row, p in enumerate(fixed):
                lab = ttk.Label(fbox, text=f"{p.name} = {p.default} {p.unit}")
                lab.grid(row=row, column=0, sticky="w", padx=4)
                Tooltip(lab, tooltip_text(p))
        self.options_box = ttk.LabelFrame(self, text="Flock")
        self.options_box.pack(fill="x", padx=4, pady=4)
        for opt in options:
            self.add_option(opt)
        self.reset_all_button = ttk.Button(self, text="Reset all parameters", command=self.reset_all)
        self.reset_all_button.pack(anchor="w", padx=4, pady=4)

    def add_option(self, opt: Option) -> OptionControl:
        c = OptionControl(self.options_box, len(self.options), opt)
        self.options[opt.name] = c
        return c

    def reset_all(self) -> None:
        for c in self.params.values():
            c.reset()

    def by_key(self, key: str) -> ParamControl | None:
        want = KEY_IDS.get(key)
        return next((c for c in self.params.values() if c.p.id == want), None)
