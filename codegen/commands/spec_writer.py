"""Write tuned parameter values back into a spec file as its new defaults.

Only the `default:` scalars change: every other byte of the file (comments,
flow mappings such as `visual_range: {default: 20, min: 0, ...}`, the
alignment of columns) stays as it was. ruamel.yaml's composer gives each
scalar's exact start and end in the text, so the new value replaces just that
span; re-dumping the whole document would reflow the flow mappings.

The result is validated with load_spec before it replaces the file, and the
file is replaced atomically (temp file in the same folder + rename).
"""
from __future__ import annotations

import os
import re
import tempfile
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, ScalarNode

from codegen.spec.errors import SpecError
from codegen.spec.yaml_read import read_source


class SpecWriteError(ValueError):
    """The values cannot become defaults; str() lists every reason."""


def _child(node, key: str):
    if not isinstance(node, MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, ScalarNode) and k.value == key:
            return v
    return None


def _number_text(text: str) -> Decimal:
    """A decimal number as the board writes it (no exponent, no inf/nan)."""
    t = text.strip()
    if not t or "e" in t.lower() or t.lower().lstrip("+-") in ("inf", "infinity", "nan"):
        raise InvalidOperation
    return Decimal(t)


def _yaml_number(d: Decimal, is_int: bool) -> str:
    """Plain YAML number text: '20', '0.05', '-1.5' (never '2E+1')."""
    if is_int:
        return str(int(d))
    return format(d.normalize(), "f")


def save_defaults(spec_path: str | Path, values: dict[str, str]) -> None:
    """Make `values` (parameter name -> decimal text) the spec's defaults.

    Refuses unknown parameters, text that is not a decimal number, an integer
    parameter given a fraction, and values outside a parameter's [min, max];
    the file is left untouched on any error."""
    from codegen.model.spec_load import load_spec

    path = Path(spec_path)
    spec, _ = load_spec(path)  # the file must be valid before we touch it
    text = read_source(path).decode("utf-8")  # bounded; load_spec above read it as UTF-8 (a BOM kept)
    root = YAML(typ="rt").compose(text)
    params_node = _child(root, "params")

    problems: list[str] = []
    edits: list[tuple[int, int, str]] = []
    for name, value in values.items():
        p = spec.params.get(name)
        node = _child(_child(params_node, name), "default")
        if p is None or node is None:
            problems.append(f"{name}: no such parameter in {path}")
            continue
        try:
            d = _number_text(str(value))
        except InvalidOperation:
            problems.append(f"{name}: '{value}' is not a decimal number")
            continue
        is_int = p.type == "int"
        if is_int and d != d.to_integral_value():
            problems.append(f"{name}: '{value}' is not an integer")
            continue
        lo, hi = Decimal(str(p.min)), Decimal(str(p.max))
        if not lo <= d <= hi:
            problems.append(f"{name}: {value} outside [{p.min}, {p.max}]")
            continue
        if not isinstance(node, ScalarNode):
            problems.append(f"{name}: default is not a plain value")
            continue
        start, end = node.start_mark.index, node.end_mark.index
        rep = _yaml_number(d, is_int)
        # keep the next key's column in aligned flow mappings ("20,     min:")
        m = re.match(r",( +)(?=\S)", text[end:])
        if m:
            pad = max(1, len(m.group(1)) + (end - start) - len(rep))
            rep, end = rep + "," + " " * pad, end + m.end()
        edits.append((start, end, rep))
    if problems:
        raise SpecWriteError("; ".join(problems))

    new = text
    for start, end, rep in sorted(edits, reverse=True):
        new = new[:start] + rep + new[end:]
    if new == text:
        return

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(new)
        try:
            load_spec(tmp)
        except SpecError as e:
            raise SpecWriteError(f"the new spec would not be valid: {e}") from None
        try:
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        except OSError:
            pass
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
