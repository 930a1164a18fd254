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


def row(out: str, rule: str, expr: str) -> list[str]:
    """The report's row for `expr` of `rule`: [rule, expression..., at, worst, headroom, status...]."""
    for line in out.splitlines():
        if line.startswith(rule + " ") and f" {expr} " in line:
            return line.split()
    raise AssertionError(f"no row {rule}: {expr} in\n{out}")


def worst(out: str, rule: str, expr: str) -> float:
    r = row(out, rule, expr)
    at = next(i for i, w in enumerate(r) if ".yaml:" in w)
    return float(r[at + 1].replace(",", ""))


def test_other_x_minus_x_is_bounded_by_the_range(tmp_path, capsys):
    defs = """\
  pull:
    description: toward the neighbours, spelled other - self
    roles: {range: fixed, f: fixed}
    neighbours: {of: boids, within: range}
    each: |
      sx += other.x - x
      sy += other.y - y
    apply: |
      if count > 0:
          vx += sx / count * f
          vy += sy / count * f
"""
    p = spec_with(tmp_path, defs, "  - {rule: pull, range: protected_range, f: avoid_factor}")
    rc, err, out = check(p, capsys)
    assert rc == 0, err
    # protected_range's max is 100: the offset is below it, as -dx is (960: other anywhere on the screen)
    assert worst(out, "pull", "other.x - x") == 100
    assert worst(out, "pull", "other.y - y") == 100


def test_min_with_a_literal_bounds_a_state(tmp_path, capsys):
    defs = """\
  counter:
    description: counts frames up to 1000
    roles: {f: fixed}
    state: {escapes: 0}
    apply: |
      escapes = min(escapes + 1, 1000)
      if escapes > 999:
          vx += f
"""
    p = spec_with(tmp_path, defs, "  - {rule: counter, f: avoid_factor}")
    rc, err, out = check(p, capsys)
    assert rc == 0, err
    assert "state escapes in [0, 1,000]" in out  # widened to the literal, not past it
    assert worst(out, "counter", "escapes + 1") == 1001


def test_min_with_a_parameter_bounds_a_regulated_speed(tmp_path, capsys):
    """seed 004's `speed - rate * (speed - default)` lies between speed and
    default (rate within [0, 1]), so min(., cap) bounds the new speed from
    both sides, as clamp(., 0, cap) does."""
    defs = """\
  capped:
    description: seed 004's regulation, capped
    roles: {cap: fixed, rate: fixed, default: fixed}
    apply: |
      speed = hypot(vx, vy)
      if speed > 0.5:
          goal = min(speed - rate * (speed - default), cap)
          vx = vx / speed * goal
          vy = vy / speed * goal
"""
    p = spec_with(tmp_path, defs, "  - {rule: capped, cap: max_speed, rate: avoid_factor, default: min_speed}",
                  drop_speed_limit=True)
    rc, err, out = check(p, capsys)
    assert rc == 0, err
    assert worst(out, "capped", "vx / speed * goal") == 10  # max_speed's max


def test_a_unit_vector_in_one_expression_passes_as_through_locals(tmp_path, capsys):
    one = """\
  toward:
    description: toward the origin, one unit per frame
    roles: {f: fixed}
    apply: |
      tx = int(0 - x)
      ty = int(0 - y)
      vx += fixed(tx) / hypot(fixed(tx), fixed(ty)) * f
"""
    locals_ = one.replace("      vx += fixed(tx) / hypot(fixed(tx), fixed(ty)) * f\n",
                          "      ux = fixed(tx)\n      d = hypot(ux, fixed(ty))\n      vx += ux / d * f\n")
    got = []
    for defs in (one, locals_):
        p = spec_with(tmp_path, defs, "  - {rule: toward, f: avoid_factor}")
        rc, err, out = check(p, capsys)
        assert rc == 0, err
        got.append(worst(out, "toward", "vx +"))
    assert got[0] == got[1]


def test_a_product_of_positions_gets_advice_the_language_can_follow(tmp_path, capsys):
    defs = """\
  area:
    description: a product of positions
    roles: {f: fixed}
    apply: |
      vx += x * y * f
"""
    p = spec_with(tmp_path, defs, "  - {rule: area, f: avoid_factor}")
    rc, err, _ = check(p, capsys)
    assert rc == 2
    ln = line_of(p, "vx += x * y * f")
    first = next(e for e in err if "`x * y`" in e)
    assert re.match(rf".*t37\.yaml:{ln}:\d+: rule_defs\.area: ", first), first
    assert "64-bit accumulator" not in first
    assert "divide before multiplying" in first and "offsets from the boid" in first
