"""The overflow blame's answer does not depend on the machine's load (issue 50, item 15).

The search for a parameter to narrow (codegen/analysis/range_check.py,
`_blame`) stopped at a time.monotonic() deadline: the same spec got "narrow
params.protected_range.max to ..." on an idle machine and "the search
stopped at its time budget" on a loaded one. It is now budgeted by work
(BLAME_WORK intervals made by its analyses), so a clock that jumps (a
loaded machine, simulated) changes nothing; and the advice it gives is the
real cause: narrowing as advised makes the spec pass `check`."""
from __future__ import annotations

import itertools
import re
import time
from pathlib import Path

import pytest

from codegen.commands.cli import main

from .conftest import OVERFLOWS
from .test_hostile_specs import overflowing_parameters

CASES = {
    "readme_example": OVERFLOWS,  # the README's overflowing spec: protected_range up to 300 px, capacity 300
    "three_params": overflowing_parameters(3),  # three parameters, each overflowing through its own rule
    "twelve_params": overflowing_parameters(12),  # more than the budget: the search is cut, at the same place
}


def _spec(tmp_path: Path, name: str) -> Path:
    p = tmp_path / "spec" / f"{name}.yaml"
    p.parent.mkdir(exist_ok=True)
    p.write_text(CASES[name], encoding="utf-8")
    return p


def _check(spec: Path, capsys) -> tuple[int, str, str]:
    rc = main(["check", str(spec)])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("name", list(CASES))
def test_the_same_spec_gets_the_same_answer_unloaded_and_loaded(name, tmp_path, capsys, monkeypatch):
    spec = _spec(tmp_path, name)
    unloaded = _check(spec, capsys)
    with monkeypatch.context() as mp:
        _loaded(mp)
        loaded = _check(spec, capsys)
    assert unloaded[0] == 2 and unloaded[2].startswith(str(spec))
    assert loaded == unloaded
    if name != "twelve_params":
        assert "narrow params." in unloaded[2] and "budget" not in unloaded[2]
    else:  # cut by the work budget: the first parameters get their advice, the rest the plain error
        assert "narrow params.p0.max" in unloaded[2] and "stopped at its work budget" in unloaded[2]


def _loaded(mp) -> None:
    """Every read of the clock an hour after the last one: what a deadline sees on a very loaded machine."""
    def jumping(start: float):
        ticks = itertools.count()
        return lambda: start + 3600.0 * next(ticks)

    mp.setattr(time, "monotonic", jumping(time.monotonic()))
    mp.setattr(time, "perf_counter", jumping(time.perf_counter()))
    mp.setattr(time, "time", jumping(time.time()))


_ADVICE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): params\.(?P<name>\w+): .*?"
                     r"fix: narrow params\.(?P=name)\.(?P<end>max|min) to (?P<value>-?[\d.]+) or (less|more)")


def _narrowed(text: str, advice: list[re.Match]) -> str:
    """The spec's text with each advised bound replaced at the line and column the error names."""
    lines = text.splitlines(keepends=True)
    tightest: dict[tuple[int, int], str] = {}
    for a in advice:
        key = (int(a["line"]), int(a["col"]))
        v = a["value"]
        old = tightest.get(key)
        if old is None or (float(v) < float(old) if a["end"] == "max" else float(v) > float(old)):
            tightest[key] = v
    for (line, col), v in tightest.items():
        s = lines[line - 1]
        num = re.match(r"-?[\d.]+", s[col - 1:])
        assert num, f"no number at {line}:{col}: {s!r}"
        lines[line - 1] = s[:col - 1] + v + s[col - 1 + num.end():]
    return "".join(lines)


@pytest.mark.parametrize("name", ["readme_example", "three_params"])
def test_narrowing_as_advised_makes_the_spec_pass_check(name, tmp_path, capsys):
    spec = _spec(tmp_path, name)
    rc, _, err = _check(spec, capsys)
    advice = [a for a in map(_ADVICE.match, err.splitlines()) if a]
    errors = [e for e in err.splitlines() if e.startswith(str(spec))]
    assert rc == 2 and advice and len(advice) == len(errors), err  # every error has its advice
    spec.write_text(_narrowed(CASES[name], advice), encoding="utf-8")
    rc, out, err = _check(spec, capsys)
    assert rc == 0, err
    assert "0 can overflow" in out
