"""A flock's parameter values, set and checked exactly as the board does.

`ParamSet.set(name, text)` is the twin of the firmware's `set NAME VALUE`:
the same grammar, rounding, range check and error text, and a rejected value
changes nothing."""
from __future__ import annotations

from types import SimpleNamespace

from pysim.fxdecimal import FxDecimalError, format_raw, parse, parse_int


class ParamError(ValueError):
    """A rejected parameter value; str() matches the board's reply after 'err '."""


class ParamSet:
    def __init__(self, model) -> None:
        self.model = model
        self.defs = {p.name: p for p in model.PARAMS}
        self.raw = {p.name: p.default_raw for p in model.PARAMS}
        self.text = {p.name: p.default for p in model.PARAMS}

    def set(self, name: str, text: str, *, allow_fixed: bool = False) -> int:
        p = self.defs.get(name)
        if p is None:
            raise ParamError(f"unknown parameter '{name}' (try: list)")
        if not p.tunable and not allow_fixed:
            raise ParamError(f"{name}: not tunable at run time")
        try:
            raw = parse(text, self.model.FRAC_BITS) if p.type == "fixed" else parse_int(text)
        except FxDecimalError as e:
            raise ParamError(f"{name}: '{text}' {e}") from None
        if not p.min_raw <= raw <= p.max_raw:
            raise ParamError(f"{name}: {text} outside [{p.min}, {p.max}]")
        self.raw[name] = raw
        self.text[name] = text
        return raw

    def set_raw(self, name: str, raw: int) -> None:
        """Take a value the board reports (its raw integer), as it holds it.
        The board holds only values in the parameter's range: anything else
        (a broken or hostile board) is refused, and changes nothing."""
        p = self.check_raw(name, raw)
        self.raw[name] = int(raw)
        self.text[name] = self.show(p, int(raw))

    def check_raw(self, name: str, raw: int):
        """The parameter's definition, if `raw` is a value it can hold; ParamError otherwise."""
        p = self.defs.get(name)
        if p is None:
            raise ParamError(f"unknown parameter '{name}'")
        if not p.min_raw <= int(raw) <= p.max_raw:
            raise ParamError(f"{name}: raw {int(raw)} outside [{p.min_raw}, {p.max_raw}]")
        return p

    def show(self, p, raw: int) -> str:
        return format_raw(raw, self.model.FRAC_BITS) if p.type == "fixed" else str(raw)

    def value_text(self, name: str) -> str:
        return self.show(self.defs[name], self.raw[name])

    def reset(self) -> None:
        for p in self.model.PARAMS:
            self.raw[p.name] = p.default_raw
            self.text[p.name] = p.default

    def for_arith(self, A) -> SimpleNamespace:
        return SimpleNamespace(
            **{n: A.param(self.raw[n], self.text[n], self.defs[n].type) for n in self.defs}
        )
