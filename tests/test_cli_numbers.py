"""Every number on the command line has a stated range (issue 50, item 7).

`watch --timeout 1e10` ended in an internal OverflowError; `--cpi`,
`--seconds`, `--max-quant-error`, experiment's `--timeout` and boids-gui's
`--scale`, `--seed`, `--boids` and `--bench` took any size. Now one argparse
type (codegen/commands/numbers.py) bounds each, and argparse refuses a value
outside with its one-line error naming the option and the range, exit
status 2, before anything is read. The table below is the ranges chosen; a
numeric option added without an entry here fails the first test."""
from __future__ import annotations

import argparse
import shutil

import pytest

from codegen.commands import cli
from codegen.commands.cli import main
from codegen.commands.numbers import number_in
from codegen.commands.parser import build

from .conftest import DEFAULT_CAPACITY, DEFAULT_SPEC

DAY = 86_400
U32 = 2**32 - 1
# (program, command, option): (lo, hi, whole, lo excluded)
RANGES = {
    ("boidsgen", "check", "--max-quant-error"): (0, 100, False, True),
    ("boidsgen", "sim", "--frames"): (1, 10_000_000, True, False),
    ("boidsgen", "sim", "--seed"): (0, U32, True, False),
    ("boidsgen", "sim", "--boids"): (0, 65_535, True, False),
    ("boidsgen", "compare", "--frames"): (1, 10_000_000, True, False),
    ("boidsgen", "compare", "--every"): (1, 10_000_000, True, False),
    ("boidsgen", "compare", "--seed"): (0, U32, True, False),
    ("boidsgen", "compare", "--boids"): (0, 65_535, True, False),
    ("boidsgen", "compare", "--max-quant-error"): (0, 100, False, True),
    ("boidsgen", "parity", "--frames"): (1, 10_000_000, True, False),
    ("boidsgen", "parity", "--seed"): (0, U32, True, False),
    ("boidsgen", "parity", "--boids"): (0, 65_535, True, False),
    ("boidsgen", "budget", "--boids"): (1, 65_535, True, False),
    ("boidsgen", "budget", "--warmup"): (0, 100_000, True, False),
    ("boidsgen", "budget", "--seed"): (0, U32, True, False),
    ("boidsgen", "budget", "--cpi"): (0, 100, False, True),
    ("boidsgen", "budget", "--frames"): (1, 100_000, True, False),
    ("boidsgen", "budget", "--seeds"): (0, U32, True, False),
    ("boidsgen", "watch", "--seed"): (0, U32, True, False),
    ("boidsgen", "watch", "--every"): (1, 1000, True, False),
    ("boidsgen", "watch", "--frames"): (0, 10_000_000, True, False),
    ("boidsgen", "watch", "--baud"): (1, 4_000_000, True, False),
    ("boidsgen", "watch", "--timeout"): (0, DAY, False, True),
    ("boidsgen", "emulate", "--seconds"): (0, DAY, False, True),
    ("boidsgen", "experiment", "--workers"): (0, 1024, True, False),
    ("boidsgen", "experiment", "--timeout"): (0, DAY, False, True),
    ("boids-gui", "", "--scale"): (1, 16, True, False),
    ("boids-gui", "", "--seed"): (0, U32, True, False),
    ("boids-gui", "", "--boids"): (0, 65_535, True, False),
    ("boids-gui", "", "--bench"): (0, DAY, False, True),
}


def _gui_parser():
    pytest.importorskip("tkinter")
    from codegen.commands.gui import parser

    return parser()


def _parsers():
    """(program, command, its parser) for every subcommand of boidsgen, and boids-gui."""
    ap = build(cli)
    subs = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    yield from (("boidsgen", name, p) for name, p in subs.choices.items())
    yield "boids-gui", "", _gui_parser()


def test_every_numeric_option_of_every_command_is_bounded():
    """Every option that converts its text has a number_in type, and the
    table above holds each (a new one must state its range here)."""
    found = {}
    for prog, cmd, p in _parsers():
        for a in p._actions:
            if a.type is not None:
                assert isinstance(a.type, number_in), f"{prog} {cmd} {a.option_strings}: {a.type!r} is unbounded"
                found[(prog, cmd, a.option_strings[-1])] = (a.type.lo, a.type.hi, a.type.whole, a.type.open_lo)
                assert a.type.range_text in a.help  # stated in --help and docs/cli.md
    assert found == RANGES


def _bad_values(lo, hi, whole, open_lo):
    """Just outside at each end, nan, inf, a huge number (and its negative), and a number too long for int()."""
    below = str(lo) if open_lo else str(lo - 1)
    above = str(hi + 1) if whole else repr(hi * (1 + 1e-9))
    return [below, above, "nan", "inf", "-inf", "1e10", "1e999", "-1e999", "9" * 30, "9" * 5000]


CASES = [(key, v) for key, r in RANGES.items() for v in _bad_values(*r)]


@pytest.mark.parametrize("key,value", CASES, ids=[f"{k[0]}-{k[1]}{k[2]}={v[:12]}" for k, v in CASES])
def test_a_value_outside_its_range_is_refused_by_argparse(key, value, capsys):
    prog, cmd, option = key
    lo, hi, whole, open_lo = RANGES[key]
    argv = ([cmd] if cmd else []) + [f"{option}={value}"]
    ap = build(cli) if prog == "boidsgen" else _gui_parser()
    with pytest.raises(SystemExit) as e:  # parsed only: were a value let through, no command would run
        ap.parse_args(argv)
    assert e.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    last = lines[-1]
    assert last.startswith(f"{prog}{' ' + cmd if cmd else ''}: error: argument {option}: "), last
    ends = f"{'(' if open_lo else '['}{lo}, {hi}]"
    assert f"{'a whole number' if whole else 'a number'} in {ends}" in last, last
    assert len(last) < 200 and "Traceback" not in "\n".join(lines)


@pytest.mark.parametrize("key", list(RANGES), ids=[f"{k[0]}-{k[1]}{k[2]}" for k in RANGES])
def test_the_ends_of_each_range_are_taken(key):
    lo, hi, whole, open_lo = RANGES[key]
    t = number_in(lo, hi, whole, open_lo)
    assert t(str(hi)) == hi
    low = lo + (0.001 if open_lo else 0)
    assert t(str(low)) == low


def test_boids_above_the_spec_capacity_is_refused_before_running(tmp_path, capsys):
    """--boids is bounded by the schema's largest capacity when parsed, then by the spec's own."""
    n = DEFAULT_CAPACITY + 1
    assert main(["sim", DEFAULT_SPEC, "--frames", "1", "--boids", str(n)]) == 2
    assert capsys.readouterr().err == f"boidsgen: --boids {n}: the spec's flock.capacity is {DEFAULT_CAPACITY}\n"
    assert main(["compare", DEFAULT_SPEC, "--frames", "1", "--boids", str(n)]) == 2
    assert capsys.readouterr().err == f"boidsgen: --boids {n}: the spec's flock.capacity is {DEFAULT_CAPACITY}\n"


def test_parity_refuses_boids_above_capacity_before_building(tmp_path, monkeypatch, capsys):
    from codegen.commands import parity

    spec = tmp_path / "spec" / "boids.yaml"
    spec.parent.mkdir()
    shutil.copy(DEFAULT_SPEC, spec)
    monkeypatch.setattr(parity, "build_host", lambda *a, **k: pytest.fail("built before --boids was checked"))
    n = DEFAULT_CAPACITY + 1
    assert main(["parity", str(spec), "--frames", "1", "--boids", str(n)]) == 2
    assert capsys.readouterr().err == f"boidsgen: --boids {n}: the spec's flock.capacity is {DEFAULT_CAPACITY}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec"]  # nothing generated, nothing built
