"""The range analysis is sound: where `boidsgen check` says no value can
overflow, `boidsgen sim --check-overflow` (every fixed-point value shadowed
in 64 bits) finds none, with the rule's parameters at the ends of their
ranges. Random rules, random parameter ranges: a spec check refuses is
discarded (check is allowed to be cautious, not to miss).

The fast test keeps one rule body and draws the parameters' ranges, the
ends the simulation runs at and its seed: the kernel does not depend on the
ranges, so numba compiles it once (a few seconds after the first run). The
slow one draws rule bodies from test_random_rules' grammar (a kernel each).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from codegen.commands.cli import main

from .test_checks37 import spec_with
from .test_random_rules import fixed_expr

# close to the edge of 32 bits for the ranges drawn: positions times a parameter, a quotient, a square

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: a checked kernel per drawn rule

BODY = """\
  probe:
    description: values near the edge of s16.15
    roles: {a: fixed, b: fixed}
    apply: |
      t = (x - 160) * a
      u = t / (abs(b) + 1)
      vx += clamp(u * b, -1, 1)
      vy += clamp(t - u, -1, 1)
"""
VALUES = st.sampled_from([0.001, 0.01, 0.1, 0.5, 1, 2, 10, 50, 100, 200, 1000])


def _spec(tmp_path: Path, body: str, a: tuple, b: tuple) -> Path:
    params = "params:\n" + "".join(f"  p{n}: {{default: {lo}, min: {lo}, max: {hi}}}\n"
                                   for n, (lo, hi) in (("a", a), ("b", b)))
    return spec_with(tmp_path, body, "  - {rule: probe, a: pa, b: pb}", ("params:\n", params))


def _sound(tmp_path, capsys, body: str, a: tuple, b: tuple, ends: tuple, seed: int, frames: int,
           drawn: bool = False) -> None:
    """drawn: the body came from the grammar, which may write a rule the
    language refuses for another reason than overflow (discarded)."""
    p = _spec(Path(tempfile.mkdtemp(dir=tmp_path)), body, a, b)  # a project of its own for each example
    rc = main(["check", str(p)])
    out = capsys.readouterr()
    if rc != 0:  # refused: nothing to hold the simulation to
        if drawn:
            assume("can overflow" in out.out + out.err)
        assert rc == 2 and "can overflow" in out.out + out.err
        return
    assert main(["generate", str(p)]) == 0
    capsys.readouterr()
    sets = [f"p{n}={rng[end]}" for n, rng, end in (("a", a, ends[0]), ("b", b, ends[1]))]
    rc = main(["sim", str(p), "--frames", str(frames), "--boids", "40", "--seed", str(seed), "--check-overflow",
               *[x for s in sets for x in ("--set", s)]])
    out = capsys.readouterr()
    assert rc == 0, f"check passed, the checked simulation overflowed ({sets}):\n{out.err}"
    assert "every value within 32 bits" in out.out


def _range():
    return st.tuples(VALUES, VALUES, st.booleans()).map(
        lambda t: (-max(t[0], t[1]) if t[2] else min(t[0], t[1]), max(t[0], t[1])))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=_range(), b=_range(), ends=st.tuples(st.integers(0, 1), st.integers(0, 1)),
       seed=st.integers(1, 1000))
def test_check_is_sound_over_parameter_ranges(tmp_path, capsys, a, b, ends, seed):
    _sound(tmp_path, capsys, BODY, a, b, ends, seed, 20)


def test_the_probe_is_refused_where_it_can_overflow(tmp_path, capsys):
    """The body is near the edge: with a wide enough a, check refuses it (so
    the property above holds something that could fail)."""
    p = _spec(tmp_path, BODY, (0, 1000), (0, 1))
    assert main(["check", str(p)]) == 2
    capsys.readouterr()


@pytest.mark.slow
# 8 drawn rules (15 before, a checked kernel each): derandomized, the same 8 every run
@settings(max_examples=8, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(e1=fixed_expr(["vx", "vy", "a", "b", "x / 8", "y / 8", "2.0", "0.5"], 2),
       e2=fixed_expr(["vx", "vy", "a", "b", "x", "y", "1.0"], 2),
       a=_range(), b=_range(), seed=st.integers(1, 1000))
def test_check_is_sound_over_random_rules(tmp_path, capsys, e1, e2, a, b, seed):
    body = ("  probe:\n    description: a random rule\n    roles: {a: fixed, b: fixed}\n    apply: |\n"
            "      k = int(clamp(vx, -4, 4))\n"  # the grammar's int leaf
            f"      t = {e1}\n      vx += clamp(t * {e2}, -2, 2)\n      vy += clamp(t, -2, 2)\n")
    for ends in ((1, 1), (0, 0)):
        _sound(tmp_path, capsys, body, a, b, ends, seed, 15, drawn=True)
