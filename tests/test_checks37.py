"""Issue 37's checks: an overflow the search's frames saw is not lost, a
broken rule definition gives its own errors only, the range analysis follows
`other.x - x`, `min`/`max` and divisions by a magnitude, and two rules cannot
silently share a state."""
from __future__ import annotations

import re
from pathlib import Path

from codegen.commands.cli import main

from .conftest import ROOT, with_capacity

BOIDS = with_capacity((ROOT / "spec" / "boids.yaml").read_text(), 100)


def spec_with(tmp_path: Path, defs: str, uses: str, *subs: tuple[str, str], drop_speed_limit=False) -> Path:
    """spec/boids.yaml with `defs` as its rule_defs and `uses` appended to its rules."""
    text = BOIDS.replace("name: boids\n", "name: t37\n")
    if drop_speed_limit:
        text = text.replace("  - {rule: speed_limit, min: min_speed, max: max_speed}\n", "")
    if defs:
        text = text.replace("\nrules:\n", "\nrule_defs:\n" + defs + "\nrules:\n", 1)
    text = text.replace("\n# New boids appear", uses + "\n# New boids appear", 1)
    for a, b in subs:
        assert a in text
        text = text.replace(a, b)
    (tmp_path / "spec").mkdir(exist_ok=True)
    p = tmp_path / "spec" / "t37.yaml"
    p.write_text(text)
    return p


def check(p: Path, capsys) -> tuple[int, list[str], str]:
    rc = main(["check", str(p)])
    out = capsys.readouterr()
    return rc, out.err.strip().splitlines(), out.out


def line_of(p: Path, needle: str) -> int:
    return next(i for i, l in enumerate(p.read_text().splitlines(), 1) if needle in l)


SREG = """\
  sreg:
    description: seed 004's speed regulation, spelled with a scale
    roles: {default: fixed, rate: fixed}
    apply: |
      speed = hypot(vx, vy)
      if speed > 0:
          new_speed = speed - rate * (speed - default)
          scale = new_speed / speed
          vx = vx * scale
          vy = vy * scale
"""


def test_speed_regulation_scale_is_an_overflow_at_its_expression(tmp_path, capsys):
    """A very slow boid's `new_speed / speed` wraps in the analysis's first
    frame, so the reported frame starts from wrapped speeds where it only
    `overflows after an earlier one`: it was reported as `0 can overflow`."""
    p = spec_with(tmp_path, SREG, "  - {rule: sreg, default: max_speed, rate: avoid_factor}",
                  drop_speed_limit=True)
    rc, err, out = check(p, capsys)
    assert rc == 2
    ln = line_of(p, "scale = new_speed / speed")
    col = p.read_text().splitlines()[ln - 1].index("/ speed") + 1  # an operator is located at its sign
    assert re.match(rf".*t37\.yaml:{ln}:{col}: rule_defs\.sreg: rule 'sreg': `new_speed / speed`", err[0]), err
    assert "0 can overflow" not in out


def test_guarded_speed_regulation_still_passes(tmp_path, capsys):
    """The same rule with its divisor kept away from 0 is safe, and check says so."""
    guarded = SREG.replace("if speed > 0:", "if speed > 0.5:")
    p = spec_with(tmp_path, guarded, "  - {rule: sreg, default: max_speed, rate: avoid_factor}")
    rc, err, out = check(p, capsys)
    assert rc == 0, err
    assert " 0 can overflow" in out


def test_a_broken_rule_def_gives_only_its_own_errors(tmp_path, capsys):
    defs = """\
  windy:
    description: a typo
    roles: {x: fixed}
    apply: |
      vx += zz
  nodesc:
    roles: {x: fixed}
    apply: |
      vx += x
"""
    p = spec_with(tmp_path, defs, "  - {rule: windy, x: wind_x}\n  - {rule: nodesc, x: wind_x}",
                  ("params:\n", "params:\n  wind_x: {default: 0, min: -1, max: 1}\n"))
    rc, err, _ = check(p, capsys)
    assert rc == 2
    assert not [e for e in err if "unknown rule" in e], err
    assert any(re.match(rf".*:{line_of(p, 'vx += zz')}:\d+: rule_defs\.windy\.apply: unknown name 'zz'", e)
               for e in err), err
    assert any("rule_defs.nodesc.description: required key is missing" in e for e in err), err
    assert err[-1].startswith("boidsgen: 2 error(s)")


def test_an_undefined_rule_is_still_unknown(tmp_path, capsys):
    p = spec_with(tmp_path, "", "  - {rule: windy, x: avoid_factor}")
    rc, err, _ = check(p, capsys)
    assert rc == 2 and "unknown rule 'windy'" in err[0], err
